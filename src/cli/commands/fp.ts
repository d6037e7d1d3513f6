// `rtgpu fp`: push operand lines (hex words) through one float unit on a chosen simulator and print the results.
import { readFileSync } from 'node:fs';
import { parseFlags, intFlag } from '../args.ts';
import { CliError } from '../cliError.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { elaborate, type Design } from '../../hdl/index.ts';
import { topModule } from '../../hdl/index.ts';
import { floatUnits, type FloatUnitSpec } from '../../designs/catalogue/floatVectors.ts';
import { runVectorsOn } from '../../hdl/cosim/index.ts';
import { simulatorNames, type SimulatorName } from '../../hdl/cosim/index.ts';
import { simulators } from '../../hdl/sim/index.ts';

const ops = floatUnits.map((u) => u.op);

const usage = `usage: rtgpu fp <op> [FILE] [--sim ts|verilator|icarus] [--stages N] [--check]

Reads one operation per line from FILE (default: standard input): two hex words 'a b' for two-operand
ops, one word 'a' for the others (binary32 bit patterns; itof takes an int32). Blank lines and text
after '#' are ignored. Prints one result per line in hex: binary32 bits (ftoi: int32), and for cmp
the ISA's 2-bit flag as one digit (0 = Z, 3 = N, 2 = P, 1 = unordered).

  op            ${ops.join(' ')}
  --sim S       simulator running the unit (default ts), one of
${simulatorNames.map((n) => `                  ${n.padEnd(18)} ${simulators[n].description}`).join('\n')}
  --stages N    pipeline registers of the unit (default: the unit's representative latency)
  --check       also compare each result with the TypeScript reference; exit 1 on any difference`;

interface Operation {
  readonly line: number;
  readonly a: number;
  readonly b: number;
}

/** Parse operand lines; errors name the source and line. */
export function parseOperands(text: string, source: string, arity: number): Operation[] {
  const out: Operation[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const body = raw.replace(/#.*/, '').trim();
    if (!body) return;
    const words = body.split(/\s+/);
    const where = `${source}:${i + 1}`;
    if (words.length !== arity) throw new CliError(`${where}: expected ${arity === 1 ? 'one hex word' : 'two hex words'}, got ${words.length}: '${body}'`, 1);
    const values = words.map((w) => {
      if (!/^(0x)?[0-9a-f]{1,8}$/i.test(w)) throw new CliError(`${where}: '${w}' is not a 32-bit hex word`, 1);
      return parseInt(w.replace(/^0x/i, ''), 16) >>> 0;
    });
    out.push({ line: i + 1, a: values[0]!, b: values[1] ?? 0 });
  });
  return out;
}

/**
 * One reset cycle, the operations back to back, then `stages` cycles to drain the pipeline.
 * Returns each operation's outputs, read `stages` cycles after it entered.
 */
async function runUnit(sim: SimulatorName, spec: FloatUnitSpec, design: Design, stages: number, opsIn: readonly Operation[]): Promise<number[][]> {
  const top = topModule(design);
  const hasReset = top.ports.some((p) => top.nets[p]!.name === 'rst_n');
  const inputs = ['in_valid', ...spec.operands, ...(hasReset ? ['rst_n'] : [])];
  const outputs = ['out_valid', ...spec.outputs];
  const cycles = 1 + opsIn.length + stages;
  const stim = new Uint32Array(cycles * inputs.length);
  for (let c = 1; c < cycles; c++) {
    const op = opsIn[c - 1];
    const row = [op ? 1 : 0, op?.a ?? 0, ...(spec.operands.length === 2 ? [op?.b ?? 0] : []), ...(hasReset ? [1] : [])];
    stim.set(row, c * inputs.length);
  }
  const rows = await runVectorsOn(sim, design, inputs, outputs, stim, cycles);
  return opsIn.map((op, i) => {
    const at = (1 + i + stages) * outputs.length;
    if (rows[at] !== 1) throw new Error(`internal: ${spec.op} result for line ${op.line} has out_valid = ${rows[at]} after ${stages} cycles`);
    return Array.from(rows.subarray(at + 1, at + outputs.length));
  });
}

const hex = (x: number, digits: number) => (x >>> 0).toString(16).padStart(digits, '0');

const options = { sim: { type: 'string' }, stages: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export interface FpPlan {
  readonly spec: FloatUnitSpec;
  readonly sim: SimulatorName;
  readonly stages: number;
  /** Undefined: standard input. */
  readonly file?: string;
  readonly check: boolean;
}

export function parseFpArgs(argv: string[]): FpPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length < 1 || positionals.length > 2) throw new CliError(`expected an op and at most one file\n\n${usage}`);
  const spec = floatUnits.find((u) => u.op === positionals[0]);
  if (!spec) throw new CliError(`unknown op '${positionals[0]}'; ops: ${ops.join(', ')}`);
  const sim = (values.sim ?? 'ts') as SimulatorName;
  if (!simulatorNames.includes(sim)) throw new CliError(`unknown simulator '${values.sim}' (choose from ${simulatorNames.join(', ')})`);
  return { spec, sim, stages: intFlag('stages', values.stages, spec.stages, 0, 256), file: positionals[1], check: values.check ?? false };
}

async function execute(plan: FpPlan): Promise<number> {
  const { spec, sim, stages, file } = plan;
  let text: string;
  try {
    text = readFileSync(file ?? 0, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file ?? 'standard input'}: ${(e as Error).message}`, 1);
  }
  const operations = parseOperands(text, file ?? '<stdin>', spec.operands.length);
  if (!operations.length) return 0;
  const design = elaborate(spec.def, { stages }).design;
  const results = await runUnit(sim, spec, design, stages, operations);
  const lines: string[] = [];
  let differences = 0;
  results.forEach((r, i) => {
    lines.push(spec.op === 'cmp' ? hex(r[0]!, 1) : hex(r[0]!, 8));
    if (!plan.check) return;
    const op = operations[i]!;
    const want = spec.reference(op.a, op.b).map((x) => x >>> 0);
    if (want.some((x, k) => x !== r[k])) {
      differences++;
      if (differences <= 20) console.error(`line ${op.line}: ${spec.op}(${hex(op.a, 8)}${spec.operands.length === 2 ? `, ${hex(op.b, 8)}` : ''}) = ${r.map((x) => hex(x, 8)).join(' ')}, reference ${want.map((x) => hex(x, 8)).join(' ')}`);
    }
  });
  process.stdout.write(lines.join('\n') + '\n');
  if (plan.check) {
    console.error(`${results.length} operations on ${sim}, ${differences} differences from the reference`);
    return differences ? 1 : 0;
  }
  return 0;
}

export const fpCommand = defineCommand({ summary: 'run operand lines through a float unit', usage, options, parse: parseFpArgs, execute });
