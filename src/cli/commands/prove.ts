// `rtgpu prove`: check a design file's assertions and cover points with Yosys, yosys-smtbmc and z3; a failure comes back as a testbench.
import { isAbsolute, relative, resolve } from 'node:path';
import { proofModes, prove, type CoverResult, type ProofMode, type ProofResult, type PropertyRef } from '../../hdl/formal/index.ts';
import { formatDiagnosticHere } from '../diagnosticText.ts';
import { intFlag, parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { chooseModule, importUserFile, loadUserDesign, parseParams, shownPath } from '../designFile.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { designFileUsage, type DesignFilePlan } from './emit.ts';

const DEFAULT_DEPTH = 20;
const MAX_DEPTH = 1000;

const usage = `usage: rtgpu prove DESIGN.ts [--mode prove|bmc|cover] [--depth N] [--out DIR] [--top NAME] [--param KEY=VALUE …]

Checks the properties of the module DESIGN exports (m.assert, m.assume, m.cover) with Yosys, yosys-smtbmc and
the z3 solver, from power-on (registers at their init values, as on every simulator); assumptions restrict
the inputs the solver may choose. With several clocks (or a falling edge) the solver also drives the clocks,
one instant at a time: --depth then counts instants.

  --mode prove          (default) no assertion fails within N cycles, then k-induction of length N:
                        PROVEN when induction closes (every reachable state), else BOUNDED to N cycles
  --mode bmc            bounded model check only: no assertion fails within N cycles from power-on
  --mode cover          a trace from power-on to each cover point within N cycles; an unreached one is listed
  --depth N             cycles (instants) from power-on, and the induction length (default ${DEFAULT_DEPTH}, at most ${MAX_DEPTH})
  --out DIR             the SystemVerilog, logs, waveforms and counterexamples (default: prove-<top>)
${designFileUsage}

A failing assertion is printed with its file:line, name, message and the cycle of the failing edge, with its
waveform (DIR/cex_<property>.vcd) and a testbench that replays it on any simulator:
'rtgpu sim DIR/cex_<property>.ts --sim ts|verilator|icarus|lockstep'.
Exit status 0 when proven, bounded or every cover point reached; 1 when an assertion fails or a cover point
is not reached.`;

const options = {
  mode: { type: 'string' },
  depth: { type: 'string' },
  out: { type: 'string' },
  top: { type: 'string' },
  param: { type: 'string', multiple: true },
  'no-typecheck': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface ProvePlan extends DesignFilePlan {
  readonly mode: ProofMode;
  readonly depth: number;
  readonly out?: string;
}

export function parseProveArgs(argv: string[]): ProvePlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length !== 1) throw new CliError(`expected one design file\n\n${usage}`);
  parseParams(values.param ?? []);
  const mode = values.mode ?? 'prove';
  if (!(proofModes as readonly string[]).includes(mode)) throw new CliError(`--mode must be one of ${proofModes.join(', ')}, got '${mode}'`);
  const depth = intFlag('depth', values.depth, DEFAULT_DEPTH, 1, MAX_DEPTH);
  return { file: positionals[0]!, top: values.top, params: values.param, typecheck: !values['no-typecheck'], mode: mode as ProofMode, depth, out: values.out };
}

/** A path as the user would type it from here: relative below the working directory, else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? resolve(path) : rel;
}
const named = (p: PropertyRef) => `${p.name} (${p.where})`;

/** `20 cycles`, or `20 instants` for a design with several clocks. */
const span = (r: ProofResult) => `${r.depth} ${r.unit === 'cycle' ? 'cycles' : 'instants'}`;
/** Where a property is sampled, as the simulators say it. */
const at = (r: ProofResult, step: number) => (r.unit === 'cycle' ? `the edge ending cycle ${step}` : `instant ${step}`);

function coverLines(r: ProofResult): string[] {
  return r.covers!.map((c) => (c.reached ? `  reached      ${named(c.property)} at ${at(r, c.step!)}${c.vcd ? `: ${shown(c.vcd)}` : ''}` : `  not reached  ${named(c.property)} within ${span(r)}`));
}

/** The result as printed: a status line, then what it rests on and where the files are. */
export function formatProof(r: ProofResult): string[] {
  const time = `${r.seconds.toFixed(1)} s`;
  switch (r.status) {
    case 'proven':
      return [`PROVEN: every assertion of ${r.top} holds in every reachable state (k-induction closes at depth ${r.depth}; ${time})`];
    case 'bounded': {
      const out = [`BOUNDED: no assertion of ${r.top} fails within ${span(r)} from power-on; beyond that nothing is proven (${time})`];
      if (r.induction) {
        const which = r.induction.property ? ` for ${named(r.induction.property)}` : '';
        out.push(`  induction does not close${which}: a state that need not be reachable breaks it (${shown(r.induction.vcd)});`, '  state what makes it unreachable as further assertions, or try a larger --depth');
      }
      return out;
    }
    case 'failed': {
      const p = r.property!;
      const cex = r.counterexample!;
      const what = p.kind === 'assume' ? 'assumption' : 'assertion';
      const from = r.unit === 'cycle' ? `${cex.steps} cycles` : `${cex.steps} instants, the clocks' levels chosen by the solver`;
      return [
        `FAILED: ${p.where}: ${what} ${p.name}${p.message ? `: ${p.message}` : ''}`,
        `  fails at ${r.unit === 'cycle' ? 'the clock edge ending cycle' : 'instant'} ${cex.failingStep} (${from} from power-on; ${r.mode}, depth ${r.depth}, ${time})`,
        `  waveform:   ${shown(cex.vcd)}`,
        ...(cex.testbench ? [`  testbench:  ${shown(cex.testbench)}  (rtgpu sim ${shown(cex.testbench)} --sim ts|verilator|icarus|lockstep)`] : []),
        ...(r.covers ? ['', ...coverLines(r)] : []),
      ];
    }
    case 'covered':
    case 'unreachable': {
      const missed = r.covers!.filter((c) => !c.reached).length;
      const head = missed ? `UNREACHED: ${missed} of ${r.covers!.length} cover points of ${r.top} are not reached within ${span(r)} (${time})` : `COVERED: every cover point of ${r.top} is reached within ${span(r)} (${time})`;
      return [head, ...coverLines(r)];
    }
  }
}

async function execute(plan: ProvePlan): Promise<number> {
  const user = await loadUserDesign(plan.file, plan);
  for (const w of user.warnings) console.error(formatDiagnosticHere(w));
  // The testbench imports the module by the name the file exports it under (the file is loaded already).
  const { exports } = await importUserFile(plan.file);
  const { exportName } = chooseModule(user.file, exports, plan.top);
  const fileParams = exports.params !== undefined;
  const overrides = fileParams ? parseParams(plan.params ?? []) : user.params;
  const dir = plan.out ?? `prove-${user.design.top}`;
  console.log(`${shownPath(user.file)}: ${user.design.top}, ${plan.mode} to depth ${plan.depth} -> ${dir}/`);
  let result: ProofResult;
  try {
    result = await prove(user.design, { mode: plan.mode, depth: plan.depth, dir, source: { file: user.file, exportName, params: overrides, fileParams } });
  } catch (e) {
    // A design without properties to check: the user's to fix, said without a stack.
    if (e instanceof Error && /has no (properties|assertions|cover points)/.test(e.message)) throw new CliError(e.message, 1);
    throw e;
  }
  console.log(formatProof(result).join('\n'));
  return result.status === 'failed' || result.status === 'unreachable' ? 1 : 0;
}

export const proveCommand = defineCommand({ summary: "prove a design file's assertions and reach its cover points with yosys-smtbmc", usage, options, parse: parseProveArgs, execute });
