// `rtgpu cosim`: run a registered design in lockstep on the chosen simulators and report the first mismatch.
import { parseFlags, intFlag } from '../args.ts';
import { CliError } from '../cliError.ts';
import { allDesigns, findDesign } from '../../designs/catalogue/index.ts';
import { RecordingSimulator, designAssumes, driveDesignRandomly, formatMismatch, replayRecording, runCosim } from '../../hdl/cosim/index.ts';
import { coverageOf, saveCoverage } from '../coverageFile.ts';
import { seedFromEnv } from '../../util/seededRandom.ts';
import { simulatorNames, type SimulatorName } from '../../hdl/cosim/index.ts';
import { compileSimulator, engineOptions, formatCoverage, isGateLevel, LockstepMismatchError, type GateLevelSimulatorName } from '../../hdl/sim/index.ts';
import { Testbench } from '../../hdl/testbench/index.ts';
import { isFileArgument, loadUserDesign, parseParams, shownPath } from '../designFile.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { buildLog } from '../progress.ts';
import { designFileUsage, type DesignFilePlan } from './emit.ts';

const usage = `usage: rtgpu cosim <design> [--cycles N] [--seed S] [--sim ts,verilator,icarus] [--registers]
       rtgpu cosim DESIGN.ts [--top NAME] [--param KEY=VALUE …] [--cycles N] [--seed S] [--sim LIST] [--registers]
       rtgpu cosim --list

A catalogue design (--list) runs its own seeded stimulus and golden model. A design file (a module
exported by a .ts/.js file) gets random stimulus that keeps the valid/ready promises of its streams
(ports named X_valid, X_ready, X_bits…: valid and data held until taken, random gaps and
back-pressure), random values on every other input, each reset (rst_n, or the resets its clock
domains declare, at their polarity) asserted for two cycles; the simulators run it live in lockstep and
every output is compared every cycle (with several clocks, at every edge of every clock).

  --cycles N    cycles to simulate (default 10000)
  --seed S      stimulus seed (default: random, printed)
  --sim LIST    comma-separated simulators (default ts,verilator,icarus); icarus-gate runs
                Icarus on the gate-level netlist Yosys synthesizes (a design file's run is
                recorded and replayed on it);
                icarus-gate-reset the same with flip-flops X at power-on (every output must be
                defined once the initial reset is over)
  --registers   also compare every register in the hierarchy, every cycle (not with icarus-gate)
${designFileUsage}
  --dont-care PORT[=VALID]  with a design file: never compare output PORT, or only while the 1-bit
                output VALID is 1 (repeatable; stream payloads are compared only while valid anyway)
  --from-first-reset  with a design file: compare nothing until the first reset is over (third-party
                RTL whose registers hold X until reset)
  --coverage FILE  coverage of the TS simulator's run (cover points, fsm states and transitions,
                toggles), merged into FILE (JSON) when it exists, and summarized
  --list        list the designs`;

const options = {
  cycles: { type: 'string' },
  seed: { type: 'string' },
  sim: { type: 'string' },
  list: { type: 'boolean' },
  registers: { type: 'boolean' },
  top: { type: 'string' },
  param: { type: 'string', multiple: true },
  'no-typecheck': { type: 'boolean' },
  'dont-care': { type: 'string', multiple: true },
  'from-first-reset': { type: 'boolean' },
  coverage: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What lockstep leaves out of the comparison of a design file (docs/hdl-guide.md, "X and don't-care values"). */
interface ComparePolicy {
  readonly dontCare: Readonly<Record<string, string | true>>;
  readonly fromFirstReset: boolean;
}

interface CosimRun {
  readonly cycles: number;
  /** Undefined: SEED from the environment, else random. */
  readonly seed?: number;
  readonly sims: SimulatorName[];
  readonly registers: boolean;
  /** The coverage file the TS simulator's coverage is merged into. */
  readonly coverage?: string;
}

export type CosimPlan =
  | { readonly kind: 'list' }
  | (CosimRun & { readonly kind: 'catalogue'; readonly name: string })
  | (CosimRun & DesignFilePlan & ComparePolicy & { readonly kind: 'file' });

export function parseCosimArgs(argv: string[]): CosimPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (values.list) return { kind: 'list' };
  if (positionals.length !== 1) throw new CliError(`expected one design name\n\n${usage}`);
  const name = positionals[0]!;
  const file = isFileArgument(name);
  if (!file && (values.top !== undefined || values.param !== undefined || values['no-typecheck'] || values['dont-care'] !== undefined || values['from-first-reset'])) {
    throw new CliError('--top, --param, --no-typecheck, --dont-care and --from-first-reset apply to design files, not catalogue designs');
  }
  const run: CosimRun = {
    cycles: intFlag('cycles', values.cycles, 10000, 1, 100_000_000),
    seed: values.seed === undefined ? undefined : intFlag('seed', values.seed, 0, 0, 0xffffffff),
    sims: parseSims(values.sim ?? 'ts,verilator,icarus'),
    registers: values.registers ?? false,
    coverage: values.coverage,
  };
  if (run.coverage !== undefined && !run.sims.includes('ts')) throw new CliError('--coverage is measured on the TS simulator: include ts in --sim');
  if (!file) return { kind: 'catalogue', name, ...run };
  const gate = run.sims.find(isGateLevel);
  if (gate && run.registers) throw new CliError(`--registers cannot be compared on ${gate}: synthesis renames, merges and removes registers`);
  parseParams(values.param ?? []);
  const dontCare = Object.fromEntries(
    (values['dont-care'] ?? []).map((d) => {
      const m = /^([A-Za-z_]\w*)(?:=([A-Za-z_]\w*))?$/.exec(d);
      if (!m) throw new CliError(`--dont-care expects PORT or PORT=VALID (output names), got '${d}'`);
      return [m[1]!, m[2] ?? true] as const;
    }),
  );
  return { kind: 'file', file: name, top: values.top, params: values.param, typecheck: !values['no-typecheck'], dontCare, fromFirstReset: values['from-first-reset'] ?? false, ...run };
}

async function execute(plan: CosimPlan): Promise<number> {
  if (plan.kind === 'list') {
    const designs = await allDesigns();
    const w = Math.max(...designs.map((d) => d.name.length));
    for (const d of designs) console.log(`${d.name.padEnd(w)}  ${d.description}`);
    return 0;
  }
  if (plan.kind === 'file') return cosimDesignFile(plan);
  const design = await findDesign(plan.name);
  const { cycles, sims, registers } = plan;
  const seed = plan.seed ?? seedFromEnv();
  console.log(`cosim ${design.name}: ${cycles} cycles, seed ${seed}, on ${sims.join(', ')}`);
  const report = await runCosim(design, { cycles, seed, sims, compareRegisters: registers, coverage: plan.coverage !== undefined, log: (l) => console.log(`  ${l}`) });
  const times = Object.entries(report.seconds)
    .map(([s, t]) => `${s} ${t.toFixed(3)} s`)
    .join(', ');
  if (report.mismatch) {
    console.log(formatMismatch(report.mismatch));
    console.log(`rerun: rtgpu cosim ${design.name} --cycles ${cycles} --seed ${seed} --sim ${sims.join(',')}${registers ? ' --registers' : ''}`);
    return 1;
  }
  if (report.golden) {
    console.log(`golden model disagrees at cycle ${report.golden.cycle}: ${report.golden.message}`);
    console.log(`rerun: rtgpu cosim ${design.name} --cycles ${cycles} --seed ${seed} --sim ${sims.join(',')}`);
    return 1;
  }
  console.log(`  (${times})`);
  console.log(`${cycles} cycles, 0 mismatches${registers ? ' (outputs and registers)' : ''}`);
  if (plan.coverage !== undefined && report.coverage) console.log(formatCoverage(saveCoverage(plan.coverage, report.coverage)));
  return 0;
}

export const cosimCommand = defineCommand({ summary: 'run a design in lockstep on several simulators', usage, options, parse: parseCosimArgs, execute });

function parseSims(list: string): SimulatorName[] {
  const sims = list.split(',').map((s) => s.trim()).filter(Boolean);
  if (sims.length === 0) throw new CliError('--sim needs at least one simulator');
  for (const s of sims) {
    if (!(simulatorNames as readonly string[]).includes(s)) throw new CliError(`unknown simulator '${s}' (choose from ${simulatorNames.join(', ')})`);
  }
  if (new Set(sims).size !== sims.length) throw new CliError('--sim lists a simulator twice');
  return sims as SimulatorName[];
}

/** The comparison policy as the flags that give it (for the rerun line). */
const policyFlags = (p: ComparePolicy) => [...Object.entries(p.dontCare).map(([port, q]) => ` --dont-care ${q === true ? port : `${port}=${q}`}`), p.fromFirstReset ? ' --from-first-reset' : ''].join('');

/**
 * Random, protocol-keeping stimulus on a user's design, live on the chosen simulators in lockstep. The
 * gate-level simulators are not live: the run's inputs are recorded and replayed on them afterwards,
 * every output compared with the TS simulator's.
 */
async function cosimDesignFile(plan: CosimRun & DesignFilePlan & ComparePolicy): Promise<number> {
  const { file: path, cycles, registers } = plan;
  const gates = plan.sims.filter(isGateLevel);
  const liveSims = plan.sims.filter((s): s is Exclude<SimulatorName, GateLevelSimulatorName> => !isGateLevel(s));
  const seed = plan.seed ?? seedFromEnv();
  const user = await loadUserDesign(path, plan);
  // The recording comes from a live run: the TS simulator's when only gate-level ones were asked for. The
  // design's assumptions are kept through the TS simulator, first in the lockstep, so it joins the run.
  const withTs = !liveSims.length || designAssumes(user.design);
  const sims = withTs ? (['ts', ...liveSims.filter((s) => s !== 'ts')] as const) : liveSims;
  const name = `${shownPath(user.file)} (${user.design.top})`;
  console.log(`cosim ${name}: ${cycles} cycles, seed ${seed}, on ${plan.sims.join(', ')}`);
  if (liveSims.length && !liveSims.includes('ts') && withTs) console.log(`  the TS simulator joins in lockstep: random inputs are drawn again while they break the design's assumptions, which it reads`);
  const log = buildLog();
  const member = (s: (typeof sims)[number]) => engineOptions(s, { log });
  const engine =
    sims.length === 1
      ? await compileSimulator(user.design, member(sims[0]!))
      : await compileSimulator(user.design, { backend: 'lockstep', backends: sims.map(member), compareRegisters: registers, dontCare: plan.dontCare, fromFirstReset: plan.fromFirstReset });
  const recorder = plan.coverage === undefined ? undefined : coverageOf(engine, user.design);
  const sim = gates.length ? new RecordingSimulator(engine, user.design) : engine;
  try {
    const tb = new Testbench(sim, { seed });
    const streams = driveDesignRandomly(tb, engine, user.design);
    if (streams.length) console.log(`  streams: ${streams.map((s) => `${s.name} (${s.direction})`).join(', ')}`);
    const t0 = performance.now();
    try {
      await tb.run(() => tb.tick(cycles), { maxCycles: cycles });
    } catch (e) {
      if (!(e instanceof LockstepMismatchError)) throw e;
      console.log(e.message);
      console.log(`rerun: rtgpu cosim ${path} --cycles ${cycles} --seed ${seed} --sim ${sims.join(',')}${registers ? ' --registers' : ''}${policyFlags(plan)}`);
      return 1;
    }
    console.log(`  (${((performance.now() - t0) / 1000).toFixed(3)} s)`);
    if (gates.length) {
      const replay = await replayRecording(user.design, (sim as RecordingSimulator).recording(), ['ts', ...gates], buildLog());
      if (replay.mismatch) {
        console.log(formatMismatch(replay.mismatch));
        console.log(`rerun: rtgpu cosim ${path} --cycles ${cycles} --seed ${seed} --sim ${plan.sims.join(',')}${policyFlags(plan)}`);
        return 1;
      }
    }
    const compared = sims.length + gates.length;
    console.log(`${cycles} cycles, ${compared > 1 ? '0 mismatches' : 'no comparison (one simulator)'}${registers && compared > 1 ? ' (outputs and registers)' : ''}`);
    if (recorder && plan.coverage !== undefined) console.log(formatCoverage(saveCoverage(plan.coverage, recorder.report())));
    return 0;
  } finally {
    sim.close();
  }
}
