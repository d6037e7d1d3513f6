// A solver's trace as the top's inputs per cycle, and as a testbench file that `rtgpu sim` replays on every engine.
import { writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { FormalModel } from './formalModel.ts';
import type { DesignSource, InputTrace, PropertyRef } from './proofResult.ts';
import type { Witness } from './witness.ts';

/**
 * The inputs of steps 0 .. count-1 (witness step k holds the inputs of cycle or instant k), with the clocks'
 * levels for instants. An input the trace does not give does not matter to it: 0, as inputs power on.
 */
export function inputTrace(witness: Witness, model: Pick<FormalModel, 'unit' | 'inputs' | 'clocks'>, count: number): InputTrace {
  if (witness.chosenInitialValues.length) {
    // Every register has an initial block; a trace that chose one would not replay from power-on.
    throw new Error(`the solver chose the power-on value of ${witness.chosenInitialValues.join(', ')}: the emitted SystemVerilog gives them none`);
  }
  const steps = Array.from({ length: count }, (_, k) => k);
  const values = steps.map((k) => model.inputs.map((i) => witness.value(i.sv, k) ?? 0n));
  const trace = { unit: model.unit, inputs: model.inputs.map((i) => i.name), values };
  if (model.unit === 'cycle') return trace;
  const levels = steps.map((k) => model.clocks.map((c) => (witness.value(c.sv, k) === 1n ? 1 : 0) as 0 | 1));
  return { ...trace, clocks: { names: model.clocks.map((c) => c.name), levels } };
}

/** A value as TypeScript source: parameters of designs are numbers, bigints, booleans, strings and arrays and plain objects of those. */
function literal(v: unknown, path: string): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : Number.isFinite(v) ? String(v) : v !== v ? 'NaN' : v > 0 ? 'Infinity' : '-Infinity';
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'boolean' || v === null) return String(v);
  if (v === undefined) return 'undefined';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x, i) => literal(x, `${path}[${i}]`)).join(', ')}]`;
  const proto = typeof v === 'object' ? Object.getPrototypeOf(v) : undefined;
  if (proto === Object.prototype || proto === null) {
    return `{ ${Object.entries(v as object).map(([k, x]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(x, `${path}.${k}`)}`).join(', ')} }`;
  }
  throw new Error(`parameter ${path} (${typeof v === 'function' ? 'a function' : ((v as object).constructor?.name ?? typeof v)}) cannot be written into a testbench file`);
}

/** `relative` as an import specifier: forward slashes, starting with `./` or `../`. */
function specifier(from: string, to: string): string {
  const rel = relative(dirname(from), to).split(sep).join('/');
  return rel.startsWith('../') ? rel : `./${rel}`;
}

/** A path as the user would type it from here: relative below the working directory, else absolute. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? resolve(path) : rel;
}

const valueText = (v: bigint): string => (v < 1024n ? `${v}n` : `0x${v.toString(16)}n`);

export interface CounterexampleTestbench {
  /** The testbench file to write. */
  readonly path: string;
  readonly source: DesignSource;
  readonly property: PropertyRef;
  readonly trace: InputTrace;
  /** The cycle whose ending edge fails the property, or the instant that fails it. */
  readonly failingStep: number;
  /** What found it: `rtgpu prove (bmc, depth 20)`. */
  readonly foundBy: string;
}

/** The replay loop: poke every input and step, each cycle; or, each instant, set the clocks and poke the inputs. */
function replayLines(t: CounterexampleTestbench, what: string): string[] {
  const steps = t.trace.values.length;
  const width = String(steps - 1).length;
  if (t.trace.unit === 'cycle') {
    return [
      `const inputs = ${JSON.stringify(t.trace.inputs)};`,
      'const cycles: readonly (readonly bigint[])[] = [',
      ...t.trace.values.map((row, k) => `  [${row.map(valueText).join(', ')}], // cycle ${String(k).padStart(width)}`),
      '];',
      '',
      "/** What this file uses of rtgpu/hdl/testbench's Testbench. */",
      'interface Replay {',
      '  poke(name: string, value: bigint): void;',
      '  tick(): Promise<void>;',
      '}',
      '',
      'export default async function (tb: Replay): Promise<void> {',
      '  for (const values of cycles) {',
      '    values.forEach((v, i) => tb.poke(inputs[i]!, v));',
      '    await tb.tick();',
      '  }',
      `  throw new Error(${JSON.stringify(`replayed ${steps} cycles without the ${what} failing: the simulator and the proof disagree`)});`,
      '}',
    ];
  }
  const clocks = t.trace.clocks!;
  return [
    `const clocks = ${JSON.stringify(clocks.names)};`,
    `const inputs = ${JSON.stringify(t.trace.inputs)};`,
    '/** Each instant: the clock levels (every clock is low at power-on, instant 0), then the inputs. */',
    'const instants: readonly (readonly [readonly (0 | 1)[], readonly bigint[]])[] = [',
    ...t.trace.values.map((row, k) => `  [[${clocks.levels[k]!.join(', ')}], [${row.map(valueText).join(', ')}]], // instant ${String(k).padStart(width)}`),
    '];',
    `const failing = ${t.failingStep};`,
    '',
    "/** What this file uses of rtgpu/hdl/testbench's Testbench: its simulator, driven instant by instant. */",
    'interface Replay {',
    '  readonly sim: { setClocks(levels: Record<string, 0 | 1>): void; poke(name: string, value: bigint): void };',
    '}',
    '',
    'export default async function (tb: Replay): Promise<void> {',
    '  for (const [k, [levels, values]] of instants.entries()) {',
    '    try {',
    '      if (k > 0) tb.sim.setClocks(Object.fromEntries(clocks.map((c, i) => [c, levels[i]!])));',
    '    } catch (e) {',
    "      if (k !== failing && e instanceof Error) e.message = `${e.message}\\n(at instant ${k}; the proof's trace fails at instant ${failing})`;",
    '      throw e;',
    '    }',
    '    values.forEach((v, i) => tb.sim.poke(inputs[i]!, v));',
    '  }',
    `  throw new Error(${JSON.stringify(`replayed ${steps} instants without the ${what} failing: the simulator and the proof disagree`)});`,
    '}',
  ];
}

/** The testbench's text: imports the design from its file and replays the trace from power-on. */
export function counterexampleTestbench(t: CounterexampleTestbench): string {
  const from = specifier(t.path, t.source.file);
  const kind = t.property.kind === 'assume' ? 'assumption' : 'assertion';
  const what = `${kind} ${t.property.name} (${t.property.where})`;
  const imported = t.source.exportName === 'default' ? 'default as DesignUnderTest' : `${t.source.exportName} as DesignUnderTest`;
  const spread = t.source.fileParams ? ['...fileParams'] : [];
  const own = Object.entries(t.source.params ?? {}).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, k)}`);
  const when = t.trace.unit === 'cycle' ? `at the clock edge ending cycle ${t.failingStep}` : `at instant ${t.failingStep}`;
  const unit = t.trace.unit === 'cycle' ? 'cycle by cycle' : 'instant by instant (clock levels, then inputs)';
  return [
    `// Counterexample of the ${what}, found by ${t.foundBy}.`,
    `// The inputs the solver chose, ${unit} from power-on; the ${kind} fails ${when}.`,
    `// Replay it: rtgpu sim ${shownPath(t.path)} --sim ts (or verilator, icarus, lockstep)`,
    `import { ${imported}${t.source.fileParams ? ', params as fileParams' : ''} } from '${from}';`,
    '',
    'export { DesignUnderTest };',
    `export const params = { ${[...spread, ...own].join(', ')} };`,
    `/** The failing ${t.trace.unit === 'cycle' ? 'edge ends the last cycle' : 'instant is the last'}. */`,
    `export const maxCycles = ${t.trace.values.length + 1};`,
    '',
    ...replayLines(t, what),
    '',
  ].join('\n');
}

export function writeCounterexampleTestbench(t: CounterexampleTestbench): string {
  writeFileSync(t.path, counterexampleTestbench(t));
  return t.path;
}
