// Portable self-checking SystemVerilog testbench: a recorded stimulus and the outputs the TS simulator gives for it, as a vector file any simulator replays.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Design, Net } from '../ir/netlist.ts';
import { moduleClocks, topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { emitSystemVerilog, type EmittedDesign } from '../emit/index.ts';
import { svName } from '../emit/svNames.ts';
import { compileSimulator, resetAtPowerOn, type Simulator } from '../sim/index.ts';
import { asyncResetPolarity, asyncResetPorts } from '../sim/external/externalDesign.ts';
import { BUILD_DIR } from '../synth/fpgaProject.ts';
import { VERILATOR_MISCOMPILE_FLAGS } from '../tools/verilatorMiscompiles.ts';
import { portLayout } from './runCosim.ts';
import { checkRecording, type Recording } from './recording.ts';
import { runInstants } from './replayLive.ts';

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
    { simulator: 'Verilator 5', command: `mkdir -p ${BUILD_DIR} && verilator --binary -j 0 ${VERILATOR_MISCOMPILE_FLAGS.join(' ')} --Mdir ${out} --top-module ${name} ${files} && ${out}/V${name}` },
    { simulator: 'Cadence Xcelium', command: `xrun -sv -top ${name} ${files}` },
    { simulator: 'Synopsys VCS', command: `vcs -full64 -sverilog -top ${name} ${files} -R` },
    { simulator: 'Siemens Questa', command: `mkdir -p ${BUILD_DIR} && vlib ${BUILD_DIR}/work && vlog -sv -work ${BUILD_DIR}/work ${files} && vsim -c -lib ${BUILD_DIR}/work ${name} -do "run -all; quit -f"` },
  ];
}

const range = (w: number) => (w === 1 ? '' : `[${w - 1}:0] `);
const hexDigits = (w: number) => Math.ceil(w / 4);

/** The testbench's variable of a clock: its own name unless it could clash with the testbench's. */
function clockVariable(name: string): string {
  return ['row', 'vectors', 'vec_path', 'cycle', 'mismatches', 'first_cycle', 'first_port', 'mismatch', 'dut', 'CYCLES', 'ROW_BITS'].includes(name) || name.startsWith('p_') || name.startsWith('tb_') ? `tb_clock_${name}` : name;
}

/** Hex digits of an instant's time (ps) in a vector line of a timed testbench. */
const TIME_DIGITS = 16;

/**
 * A testbench that replays `recording` on `design`'s top and checks every output, every cycle, against
 * what the TS simulator computes for the same inputs (apply the inputs, settle, sample, rising edge).
 * A recording made instant by instant (several clocks, a falling edge) replays in time (ps): each line
 * an instant, its inputs applied after the one before, the outputs checked at its time, then the clocks
 * take the line's levels.
 */
export function portableTestbench(design: Design, recording: Recording, opts: PortableTestbenchOptions = {}): PortableTestbench {
  checkRecording(design, recording);
  const top = topModule(design);
  const name = opts.name ?? `tb_${top.name}`;
  const emitted = opts.emitted ?? emitSystemVerilog(design, { powerOnValues: resetAtPowerOn(design) });
  const layout = opts.layout ?? {};
  const vecPath = `${layout.dir ? `${layout.dir}/` : ''}${name}.vec`;
  const ports = top.ports.map((p) => top.nets[p]!);
  const inputs = recording.inputs.map((n) => ports.find((p) => p.name === n)!);
  const outputs = ports.filter((p) => p.kind === 'output');
  if (outputs.length === 0) throw new Error(`${top.name} has no outputs: a testbench would have nothing to check`);
  const sv = (n: Net) => svName(design, emitted, n.name)?.path[0] ?? fail(`internal: port '${n.name}' of ${top.name} has no SystemVerilog name`);
  const instants = recording.instants;
  const clocks = moduleClocks(top).map((c) => c.name);
  if (instants && instants.clocks.join() !== clocks.join()) throw new Error(`the recording's clocks (${instants.clocks.join(', ')}) are not the clocks of ${top.name} (${clocks.join(', ')})`);
  // A timed line starts with the instant's time and the clocks' levels.
  const levelDigits = instants ? Math.max(1, hexDigits(clocks.length)) : 0;
  const lead = instants ? TIME_DIGITS + levelDigits : 0;

  const columns: VectorColumn[] = [];
  let at = lead;
  for (const n of [...inputs, ...outputs]) {
    columns.push({ port: n.name, sv: sv(n), dir: n.kind === 'input' ? 'input' : 'output', width: n.width, at, digits: hexDigits(n.width) });
    at += hexDigits(n.width);
  }
  const lineDigits = at;

  const expected = expectedOutputs(design, recording, outputs, opts.simulator);
  const vec = vectorText(name, top.name, recording, expected, inputs, outputs, columns, lineDigits, opts.description, levelDigits);

  // A field's bits in the row: the line's first digit is the row's most significant.
  const bits = (c: VectorColumn) => {
    const lo = 4 * (lineDigits - c.at - c.digits);
    return c.width === 1 ? `row[${lo}]` : `row[${lo + c.width - 1}:${lo}]`;
  };
  const flat = flattenDesign(design);
  const resets = new Set(asyncResetPorts(flat).map((n) => n.name));
  // The first line's inputs go in after the design's initial blocks: an active-high asynchronous reset
  // asserted at time 0 would race them (Verilator misses the edge).
  const afterInitial = instants !== undefined || [...asyncResetPolarity(flat).values()].includes('high');
  // The time and clock levels of a timed line.
  const field = (from: number, digits: number, width: number) => {
    const lo = 4 * (lineDigits - from - digits);
    return width === 1 ? `row[${lo}]` : `row[${lo + width - 1}:${lo}]`;
  };
  const timeField = field(0, TIME_DIGITS, 64);
  const levelBit = (k: number) => `row[${4 * (lineDigits - TIME_DIGITS - levelDigits) + k}]`;
  const decls = [
    ...clocks.map((c) => `  logic ${clockVariable(c)} = 1'b0;`),
    // Inputs power on at 0, as on every rtgpu simulator.
    ...columns.map((c) => (c.dir === 'input' ? `  logic ${range(c.width)}p_${c.sv} = '0;` : `  wire ${range(c.width)}p_${c.sv};`)),
  ];
  const conns = [...clocks.map((c) => `.${c}(${clockVariable(c)})`), ...ports.map((n) => `.${sv(n)}(p_${sv(n)})`)];
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
    ABOUT: instants
      ? [
          `// {{VEC}} holds per instant (a "cycle" below) its time in ps, the clocks' levels from then on, the inputs`,
          '// applied before it and the outputs every simulator must show just before it, as rtgpu\'s TypeScript',
          '// simulator computed them. Each line the testbench applies the inputs 1 ps after the instant before,',
          '// waits for the instant, compares every output with !== (an X or Z fails), then sets the clocks.',
          "// Delays are the times in the simulator's default time unit (only their order matters: the design has none).",
        ].join('\n')
      : [
          '// {{VEC}} holds per cycle the inputs applied and the outputs every simulator must show just before the',
          "// rising clock edge, as rtgpu's TypeScript simulator computed them. Each cycle the testbench applies the",
          '// inputs, lets them settle, compares every output with !== (an X or Z fails), then gives the clock edge.',
        ].join('\n'),

    VEC: vecPath,
    RUN_DIR: layout.runFrom ?? 'this directory',
    // A bullet first: a comment that starts with a tool's name (`// verilator …`, `// synopsys …`) is a directive to that tool.
    COMMANDS: commands.map((c) => `//   - ${`${c.simulator}:`.padEnd(width)}${c.command}`).join('\n'),
    CYCLES: String(recording.cycles),
    ROW_BITS: String(4 * lineDigits),
    DECLS: decls.join('\n'),
    CONNS: conns.map((c, i) => `    ${c}${i < conns.length - 1 ? ',' : ''}`).join('\n'),
    POWER_ON: [
      ...(powerOn.length ? ['    // Asynchronous resets power on low like every input: a falling edge puts their registers in reset.', ...powerOn] : []),
      ...(afterInitial ? ["    #1;  // past the design's initial blocks"] : []),
    ].join('\n'),
    APPLY: columns.filter((c) => c.dir === 'input').map((c) => `      p_${c.sv} = ${bits(c)};`).join('\n'),
    CHECK: check.join('\n'),
    // Timed: the outputs are checked at the instant's time (at least 1 ps after the inputs).
    SETTLE: instants ? `      if (${timeField} > $time) #(${timeField} - $time);\n      else #1;` : '      #5;',
    CLOCK: instants
      ? [...clocks.map((c, k) => `      ${clockVariable(c)} = ${levelBit(k)};`), '      #1;'].join('\n')
      : clocks.length
        ? `      ${clockVariable(clocks[0] ?? 'clk')} = 1'b1;\n      #5 ${clockVariable(clocks[0] ?? 'clk')} = 1'b0;`
        : '      #5;',
  };
  const text = readFileSync(template, 'utf8')
    // A placeholder alone on its line and filled with nothing takes its line along.
    .replace(/^\{\{([A-Z_]+)\}\}\n/gm, (whole, key: string) => (fields[key] === '' ? '' : whole))
    .replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => fields[key] ?? whole)
    // (ABOUT names the vector file.)
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

/** The outputs for every cycle (or instant) of the recording on the TS simulator, as `portLayout` rows of words. */
function expectedOutputs(design: Design, rec: Recording, outputs: readonly Net[], given?: Simulator): Uint32Array {
  const sim = given ?? compileSimulator(design);
  try {
    sim.powerOn();
    if (rec.instants) return runInstants(sim, rec, outputs.map((n) => n.name));
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

function vectorText(name: string, top: string, rec: Recording, expected: Uint32Array, inputs: readonly Net[], outputs: readonly Net[], columns: readonly VectorColumn[], lineDigits: number, description: string | undefined, levelDigits: number): string {
  const inLayout = portLayout(inputs);
  const outLayout = portLayout(outputs);
  const list = (dir: 'input' | 'output') => columns.filter((c) => c.dir === dir).map((c) => `${c.sv} ${c.width}`).join(', ') || '(none)';
  const timed = rec.instants
    ? [
        `// ${rec.cycles} lines, one per instant, then their count. A line is the instant's time in ps (${TIME_DIGITS} hex digits), the`,
        `// clocks' levels from it on (${levelDigits} hex digit${levelDigits > 1 ? 's' : ''}, bit k: ${rec.instants.clocks.map((c, k) => `${k} ${c}`).join(', ')}), then a field of hex digits per port`,
        `// (ceil(bits/4)): the inputs applied before the instant, then the outputs expected just before it, in this order:`,
      ]
    : undefined;
  const lines = [
    `// ${name}.vec: the vectors of ${name}.sv (${top}), generated by rtgpu.`,
    ...(description ? [commentLines(' Stimulus:', `${description}.`)] : []),
    ...(timed ?? [
      `// ${rec.cycles} lines, one per cycle, then the cycle count. A line is a field of hex digits per port (ceil(bits/4)),`,
      `// the inputs applied in the cycle, then the outputs expected just before its rising clock edge, in this order:`,
    ]),
    commentLines('   inputs (name bits): ', list('input')),
    commentLines('   outputs (name bits):', list('output')),
  ];
  for (let c = 0; c < rec.cycles; c++) {
    let line = rec.instants ? rec.instants.timesPs[c]!.toString(16).padStart(TIME_DIGITS, '0') + rec.instants.levels[c]!.toString(16).padStart(levelDigits, '0') : '';
    for (const p of inLayout.ports) line += hexField(rec.rows, c * inLayout.rowWords + p.offset, p.words, p.net.width, hexDigits(p.net.width));
    for (const p of outLayout.ports) line += hexField(expected, c * outLayout.rowWords + p.offset, p.words, p.net.width, hexDigits(p.net.width));
    lines.push(line);
  }
  // As the testbench reads it: ROW_BITS'(CYCLES).
  lines.push((BigInt(rec.cycles) & ((1n << BigInt(4 * lineDigits)) - 1n)).toString(16).padStart(lineDigits, '0'));
  return `${lines.join('\n')}\n`;
}
