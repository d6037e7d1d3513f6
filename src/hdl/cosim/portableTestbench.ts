// Portable self-checking SystemVerilog testbench: a recorded stimulus and the outputs the TS simulator gives for it, as a vector file any simulator replays.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Design, Net } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { emitSystemVerilog, type EmittedDesign } from '../emit/index.ts';
import { svName } from '../emit/svNames.ts';
import { compileSimulator, type Simulator } from '../sim/index.ts';
import { asyncResetPorts } from '../sim/external/externalDesign.ts';
import { BUILD_DIR } from '../synth/fpgaProject.ts';
import { portLayout } from './runCosim.ts';
import { checkRecording, type Recording } from './recording.ts';

const template = fileURLToPath(new URL('../../../testbench/portable_tb.sv', import.meta.url));

export interface PortableTestbenchOptions {
  /** The testbench module, and the base name of its files (default `tb_<top>`). */
  readonly name?: string;
  /** One line on where the vectors come from, for the headers (`the seeded stimulus of 'fifo', seed 1`). */
  readonly description?: string;
  /** Where the run commands in the header run and find things; the defaults suit every file in one directory. */
  readonly layout?: TestbenchLayout;
  /** The design's SystemVerilog, if already emitted (for its port identifiers and file list). */
  readonly emitted?: EmittedDesign;
  /** A TS simulator of the design to compute the expected outputs on (powered on first; default: one compiled here). */
  readonly simulator?: Simulator;
}

export interface TestbenchLayout {
  /** The directory the commands run in, as the header names it (default `this directory`). */
  readonly runFrom?: string;
  /** The design's sources as simulator arguments, from there (default: its .sv files in compile order). */
  readonly sources?: string;
  /** The directory of the testbench and its vector file, from there (default: the same directory). */
  readonly dir?: string;
}

/** One field of a vector line: a port, its SV identifier, and its hex digits' place in the line. */
export interface VectorColumn {
  readonly port: string;
  readonly sv: string;
  readonly dir: 'input' | 'output';
  readonly width: number;
  /** Index of its first (most significant) hex digit in a line, and how many digits it has. */
  readonly at: number;
  readonly digits: number;
}

export interface PortableTestbench {
  /** `<name>.sv` and `<name>.vec`. */
  readonly files: { readonly path: string; readonly text: string }[];
  readonly name: string;
  readonly cycles: number;
  readonly columns: readonly VectorColumn[];
}

/** The commands that compile and run a testbench, one per simulator (the tb header and rtl-out/README.md list them). */
export function testbenchCommands(name: string, sources: string, tbFile: string): { simulator: string; command: string }[] {
  const files = `${sources} ${tbFile}`;
  const out = `${BUILD_DIR}/${name}`;
  return [
    { simulator: 'Icarus Verilog 11+', command: `mkdir -p ${BUILD_DIR} && iverilog -g2012 -s ${name} -o ${out}.vvp ${files} && vvp -n ${out}.vvp` },
    { simulator: 'Verilator 5', command: `mkdir -p ${BUILD_DIR} && verilator --binary -j 0 --Mdir ${out} --top-module ${name} ${files} && ${out}/V${name}` },
    { simulator: 'Cadence Xcelium', command: `xrun -sv -top ${name} ${files}` },
    { simulator: 'Synopsys VCS', command: `vcs -full64 -sverilog -top ${name} ${files} -R` },
    { simulator: 'Siemens Questa', command: `mkdir -p ${BUILD_DIR} && vlib ${BUILD_DIR}/work && vlog -sv -work ${BUILD_DIR}/work ${files} && vsim -c -lib ${BUILD_DIR}/work ${name} -do "run -all; quit -f"` },
  ];
}

const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);
const hexDigits = (w: number) => Math.ceil(w / 4);

/**
 * A testbench that replays `recording` on `design`'s top and checks every output, every cycle, against
 * what the TS simulator computes for the same inputs (apply the inputs, settle, sample, rising edge).
 */
export function portableTestbench(design: Design, recording: Recording, opts: PortableTestbenchOptions = {}): PortableTestbench {
  checkRecording(design, recording);
  const top = topModule(design);
  const name = opts.name ?? `tb_${top.name}`;
  const emitted = opts.emitted ?? emitSystemVerilog(design);
  const layout = opts.layout ?? {};
  const vecPath = `${layout.dir ? `${layout.dir}/` : ''}${name}.vec`;
  const ports = top.ports.map((p) => top.nets[p]!);
  const inputs = recording.inputs.map((n) => ports.find((p) => p.name === n)!);
  const outputs = ports.filter((p) => p.kind === 'output');
  if (outputs.length === 0) throw new Error(`${top.name} has no outputs: a testbench would have nothing to check`);
  const sv = (n: Net) => svName(design, emitted, n.name)?.path[0] ?? fail(`internal: port '${n.name}' of ${top.name} has no SystemVerilog name`);

  const columns: VectorColumn[] = [];
  let at = 0;
  for (const n of [...inputs, ...outputs]) {
    columns.push({ port: n.name, sv: sv(n), dir: n.kind === 'input' ? 'input' : 'output', width: n.width, at, digits: hexDigits(n.width) });
    at += hexDigits(n.width);
  }
  const lineDigits = at;

  const expected = expectedOutputs(design, recording, outputs, opts.simulator);
  const vec = vectorText(name, top.name, recording, expected, inputs, outputs, columns, lineDigits, opts.description);

  // A field's bits in the row: the line's first digit is the row's most significant.
  const bits = (c: VectorColumn) => {
    const lo = 4 * (lineDigits - c.at - c.digits);
    return c.width === 1 ? `row[${lo}]` : `row[${lo + c.width - 1}:${lo}]`;
  };
  const resets = new Set(asyncResetPorts(flattenDesign(design)).map((n) => n.name));
  const decls = [
    ...(top.clocked ? ["  logic clk = 1'b0;"] : []),
    // Inputs power on at 0, as on every rtgpu simulator.
    ...columns.map((c) => (c.dir === 'input' ? `  logic ${range(c.width)}p_${c.sv} = '0;` : `  wire ${range(c.width)}p_${c.sv};`)),
  ];
  const conns = [...(top.clocked ? ['.clk(clk)'] : []), ...ports.map((n) => `.${sv(n)}(p_${sv(n)})`)];
  const powerOn = columns
    .filter((c) => resets.has(c.port))
    .map((c) => `    p_${c.sv} = 1'b1;\n    #1 p_${c.sv} = 1'b0;\n    #1;`);
  const check = columns
    .filter((c) => c.dir === 'output')
    .map((c) => `      if (p_${c.sv} !== ${bits(c)}) mismatch("${c.sv}", $sformatf("${c.width}'h%h", ${bits(c)}), $sformatf("${c.width}'h%h", p_${c.sv}));`);
  const tbFile = `${layout.dir ? `${layout.dir}/` : ''}${name}.sv`;
  const commands = testbenchCommands(name, layout.sources ?? emitted.fileList.join(' '), tbFile);
  const width = Math.max(...commands.map((c) => c.simulator.length)) + 2;
  const fields: Record<string, string> = {
    TB: name,
    TOP: top.name,
    STIMULUS: commentLines(' Stimulus:', `${opts.description ?? 'recorded inputs'}.`),
    VEC: vecPath,
    RUN_DIR: layout.runFrom ?? 'this directory',
    // A bullet first: a comment that starts with a tool's name (`// verilator …`, `// synopsys …`) is a directive to that tool.
    COMMANDS: commands.map((c) => `//   - ${`${c.simulator}:`.padEnd(width)}${c.command}`).join('\n'),
    CYCLES: String(recording.cycles),
    ROW_BITS: String(4 * lineDigits),
    DECLS: decls.join('\n'),
    CONNS: conns.map((c, i) => `    ${c}${i < conns.length - 1 ? ',' : ''}`).join('\n'),
    POWER_ON: powerOn.length ? ['    // Asynchronous resets power on low like every input: a falling edge puts their registers in reset.', ...powerOn].join('\n') : '',
    APPLY: columns.filter((c) => c.dir === 'input').map((c) => `      p_${c.sv} = ${bits(c)};`).join('\n'),
    CHECK: check.join('\n'),
    CLOCK: top.clocked ? "      clk = 1'b1;\n      #5 clk = 1'b0;" : '      #5;',
  };
  const text = readFileSync(template, 'utf8')
    // A placeholder alone on its line and filled with nothing takes its line along.
    .replace(/^\{\{([A-Z_]+)\}\}\n/gm, (whole, key: string) => (fields[key] === '' ? '' : whole))
    .replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => fields[key] ?? whole);
  const unfilled = /\{\{[A-Z_]+\}\}/.exec(text);
  if (unfilled) throw new Error(`internal: ${template} has a placeholder ${unfilled[0]} that portableTestbench does not fill`);
  return { files: [{ path: `${name}.sv`, text }, { path: `${name}.vec`, text: vec }], name, cycles: recording.cycles, columns };
}

/** `//` comment lines of at most about 110 characters: `lead`, then `text` broken between words and indented under it. */
function commentLines(lead: string, text: string): string {
  const lines: string[] = [];
  let line = `//${lead}`;
  for (const word of text.split(/\s+/)) {
    if (line.length > 2 + lead.length && line.length + 1 + word.length > 110) {
      lines.push(line);
      line = `//${' '.repeat(lead.length)}`;
    }
    line += ` ${word}`;
  }
  return [...lines, line].join('\n');
}

function fail(message: string): never {
  throw new Error(message);
}

/** The outputs for every cycle of the recording on the TS simulator, as `portLayout` rows of words. */
function expectedOutputs(design: Design, rec: Recording, outputs: readonly Net[], given?: Simulator): Uint32Array {
  const sim = given ?? compileSimulator(design);
  try {
    sim.powerOn();
    return sim.runVectors(rec.inputs, outputs.map((n) => n.name), rec.rows, rec.cycles);
  } finally {
    if (!given) sim.close();
  }
}

/** A value of `words` 32-bit words from `rows` at `at`, as `digits` hex digits (the bits above `width` dropped). */
function hexField(rows: Uint32Array, at: number, words: number, width: number, digits: number): string {
  let v = 0n;
  for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(rows[at + w]!);
  return (v & ((1n << BigInt(width)) - 1n)).toString(16).padStart(digits, '0');
}

function vectorText(name: string, top: string, rec: Recording, expected: Uint32Array, inputs: readonly Net[], outputs: readonly Net[], columns: readonly VectorColumn[], lineDigits: number, description?: string): string {
  const inLayout = portLayout(inputs);
  const outLayout = portLayout(outputs);
  const list = (dir: 'input' | 'output') => columns.filter((c) => c.dir === dir).map((c) => `${c.sv} ${c.width}`).join(', ') || '(none)';
  const lines = [
    `// ${name}.vec: the vectors of ${name}.sv (${top}), generated by rtgpu.`,
    ...(description ? [commentLines(' Stimulus:', `${description}.`)] : []),
    `// ${rec.cycles} lines, one per cycle, then the cycle count. A line is a field of hex digits per port (ceil(bits/4)),`,
    `// the inputs applied in the cycle, then the outputs expected just before its rising clock edge, in this order:`,
    commentLines('   inputs (name bits): ', list('input')),
    commentLines('   outputs (name bits):', list('output')),
  ];
  for (let c = 0; c < rec.cycles; c++) {
    let line = '';
    for (const p of inLayout.ports) line += hexField(rec.rows, c * inLayout.rowWords + p.offset, p.words, p.net.width, hexDigits(p.net.width));
    for (const p of outLayout.ports) line += hexField(expected, c * outLayout.rowWords + p.offset, p.words, p.net.width, hexDigits(p.net.width));
    lines.push(line);
  }
  // As the testbench reads it: ROW_BITS'(CYCLES).
  lines.push((BigInt(rec.cycles) & ((1n << BigInt(4 * lineDigits)) - 1n)).toString(16).padStart(lineDigits, '0'));
  return `${lines.join('\n')}\n`;
}
