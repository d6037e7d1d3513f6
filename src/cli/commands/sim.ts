// `rtgpu sim`: run a testbench file on any simulator (the TS simulator, Verilator, Icarus, or several in lockstep).
import { resolve } from 'node:path';
import { PropertyFailedError, compileSimulator, engineOptions, formatCoverage, gateLevelSimulatorNames, isGateLevel, isSimulatorId, liveSimulatorNames, resetAtPowerOn, simulatorOptions, simulators, simulatorBackends, type GateLevelSimulatorName, type Simulator, type SimulatorOptions } from '../../hdl/sim/index.ts';
import { coverageOf, saveCoverage } from '../coverageFile.ts';
import { Testbench } from '../../hdl/testbench/index.ts';
import { seedFromEnv } from '../../util/seededRandom.ts';
import { intFlag, parseFlags } from '../args.ts';
import { CliError } from '../cliError.ts';
import { verilatorBuildFlag, verilatorBuildUsage } from '../verilatorBuildFlag.ts';
import { loadTestbenchFile, shownPath, userError } from '../designFile.ts';
import { buildLog } from '../progress.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { emitSystemVerilog, flattenDesign, type Design } from '../../hdl/index.ts';
import { RecordingSimulator, formatMismatch, portableTestbench, replayRecording } from '../../hdl/cosim/index.ts';
import { checkWritable, withMarker, writeRtl } from '../../designs/rtl/generatedDir.ts';

/** The engines `--sim` names alone besides ts: js, wasm, verilator, icarus. */
const single = simulatorBackends.filter((b) => b !== 'lockstep');

const usage = `usage: rtgpu sim TESTBENCH.ts [--sim S] [--verilator-build B] [--vcd FILE] [--seed N] [--max-cycles N] [--portable DIR] [--coverage FILE]

Runs a testbench file: it exports its design ('export const design = elaborate(Top, params).design',
or the module and 'params' as a design file does) and its body
('export default async function (tb: Testbench) { … }'). Prints PASS with the cycles it took, or
FAIL with the error at your line (exit status 1): a failed m.assert or m.assume of the design is
reported at its line, with its message, cycle and the values its condition read, on every --sim.

  --sim S          ts (the TS simulator: WebAssembly where it can, the default), ${single.join(', ')},
                   lockstep (ts, Verilator and Icarus compared every cycle), or a comma list run in lockstep;
                   ${gateLevelSimulatorNames.join(' and ')} (post-synthesis: Yosys' gates on Icarus) in the list
                   replay the run's inputs on the gates afterwards, every output compared with the TS simulator
${verilatorBuildUsage(19)}
  --vcd FILE       write a waveform (lockstep: FILE with .<simulator> before .vcd)
  --seed N         the testbench's seed (tb.rng; default: SEED from the environment, else random, printed)
  --max-cycles N   cycles the testbench may take (default: its exported 'maxCycles', else 1,000,000)
  --portable DIR   after a PASS, also write the run as a self-checking SystemVerilog testbench for any
                   simulator without Node: DIR/tb_<top>.sv and .vec (every input of every cycle, every
                   output checked), beside the design's SystemVerilog and DIR/<top>.f
  --coverage FILE  measure coverage on the TS simulator (alone, or as the lockstep member the others are
                   compared with): cover points, fsm states and transitions, toggles of ports and
                   registers; merged into FILE (JSON) when it exists, and summarized
  --reset-check    registers with a reset power on at random values drawn from the seed (the same on every
                   engine) instead of their init value: a testbench that forgets the reset fails
  --no-typecheck   run the file without type-checking it (and the files it imports) first`;

/** The simulator options `--sim` names (the simulators table, sim/simulators.ts), Verilator built as `--verilator-build` says. */
export function simChoice(text: string | undefined, trace: boolean, build?: string): SimulatorOptions {
  const log = buildLog();
  const verilator = text === 'lockstep' || (text?.split(',').some((s) => s.trim() === 'verilator') ?? false);
  const open = { trace, log, hierarchical: verilatorBuildFlag(build, verilator) };
  const one = (name: string) => {
    if (!isSimulatorId(name) || name === 'lockstep' || isGateLevel(name)) throw new CliError(`--sim: unknown simulator '${name}' (choose from ${liveSimulatorNames.join(', ')}, or a comma list)`);
    return engineOptions(name, open);
  };
  if (text === undefined) return {};
  if (text === 'lockstep') return simulatorOptions('lockstep', open);
  if (!text.includes(',')) return one(text);
  const list = text.split(',').map((s) => s.trim());
  // Each name checked first: `--sim x,0,0` names 'x', not a simulator listed twice.
  const backends = list.map(one);
  if (new Set(list).size !== list.length) throw new CliError(`--sim ${text}: a simulator is listed twice`);
  return { backend: 'lockstep', backends, log };
}

const options = { sim: { type: 'string' }, 'verilator-build': { type: 'string' }, vcd: { type: 'string' }, coverage: { type: 'string' }, seed: { type: 'string' }, 'max-cycles': { type: 'string' }, portable: { type: 'string' }, 'reset-check': { type: 'boolean' }, 'no-typecheck': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export interface SimPlan {
  readonly file: string;
  readonly options: SimulatorOptions;
  /** --sim as given, for the PASS/FAIL line. */
  readonly sim?: string;
  readonly vcd?: string;
  /** Undefined: SEED from the environment, else random. */
  readonly seed?: number;
  /** Undefined: the testbench's exported maxCycles, else 1,000,000. */
  readonly maxCycles?: number;
  readonly portable?: string;
  readonly typecheck: boolean;
  /** Registers with a reset power on at values drawn from the seed, on every engine alike. */
  readonly resetCheck: boolean;
  /** Gate-level simulators the recorded run is replayed on after a PASS. */
  readonly gates: readonly GateLevelSimulatorName[];
  /** The coverage file (JSON) the run's coverage is merged into. */
  readonly coverage?: string;
}

export function parseSimArgs(argv: string[]): SimPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length !== 1) throw new CliError(`expected one testbench file\n\n${usage}`);
  // Gate-level simulators are not live: the live part of the list runs the testbench (the TS simulator when none is left).
  const listed = values.sim?.split(',').map((s) => s.trim());
  const gates = listed?.filter(isGateLevel) ?? [];
  const live = listed?.filter((s) => !isGateLevel(s)).join(',');
  if (gates.length && new Set(gates).size !== gates.length) throw new CliError(`--sim ${values.sim}: a simulator is listed twice`);
  if (gates.length && values.vcd !== undefined) throw new CliError(`--vcd: ${gates.join(', ')} replays the run afterwards and writes no waveform; drop one of them`);
  return {
    file: positionals[0]!,
    options: simChoice(gates.length ? live || undefined : values.sim, values.vcd !== undefined, values['verilator-build']),
    gates,
    sim: gates.length ? live || 'ts' : values.sim,
    vcd: values.vcd,
    seed: values.seed === undefined ? undefined : intFlag('seed', values.seed, 0, 0, 0xffffffff),
    maxCycles: values['max-cycles'] === undefined ? undefined : intFlag('max-cycles', values['max-cycles'], 0, 1),
    portable: values.portable,
    typecheck: !values['no-typecheck'],
    resetCheck: values['reset-check'] ?? false,
    coverage: values.coverage,
  };
}

async function execute(plan: SimPlan): Promise<number> {
  const seed = plan.seed ?? seedFromEnv();
  if (plan.portable !== undefined) checkWritable(plan.portable, false);
  const tbFile = await loadTestbenchFile(plan.file, plan);
  const maxCycles = plan.maxCycles ?? tbFile.maxCycles ?? 1_000_000;
  let engine: Simulator;
  try {
    const checked = plan.resetCheck ? { ...plan.options, resetCheckSeed: seed } : plan.options;
    const options = checked.backend === 'lockstep' ? { ...checked, ...tbFile.lockstep } : checked;
    engine = await compileSimulator(tbFile.design, options);
  } catch (e) {
    throw new CliError((e as Error).message, 1);
  }
  const recorder = plan.coverage === undefined ? undefined : coverageOf(engine, tbFile.design);
  const sim = plan.portable === undefined && !plan.gates.length ? engine : new RecordingSimulator(engine, tbFile.design);
  const engines = plan.sim === 'lockstep' ? simulators.lockstep.members.join(',') : plan.sim;
  const label = `${shownPath(tbFile.file)} on ${sim.backend === 'lockstep' ? `lockstep ${engines}` : sim.backend}${plan.gates.length ? `, replayed on ${plan.gates.join(', ')}` : ''}`;
  try {
    if (plan.vcd) sim.traceVcd(resolve(plan.vcd));
    const tb = new Testbench(sim, { seed });
    const t0 = performance.now();
    try {
      await tb.run(() => tbFile.body(tb), { maxCycles });
    } catch (e) {
      if (e instanceof PropertyFailedError) {
        console.log(`FAIL: ${label}, seed ${seed}, at cycle ${e.cycle}`);
        throw new CliError(propertyFailure(tbFile.design, e), 1);
      }
      console.log(`FAIL: ${label}, seed ${seed}, at cycle ${sim.cycle}`);
      throw userError(tbFile.file, e);
    }
    if (plan.gates.length) {
      const replay = await replayRecording(tbFile.design, (sim as RecordingSimulator).recording(), ['ts', ...plan.gates], buildLog());
      if (replay.mismatch) {
        console.log(`FAIL: ${label}, seed ${seed}: the gates differ from the RTL\n${formatMismatch(replay.mismatch)}`);
        return 1;
      }
    }
    console.log(`PASS: ${label}: ${sim.cycle} cycles in ${((performance.now() - t0) / 1000).toFixed(2)} s (seed ${seed})`);
    if (recorder && plan.coverage !== undefined) console.log(formatCoverage(saveCoverage(plan.coverage, recorder.report())));
    if (sim instanceof RecordingSimulator && plan.portable !== undefined) writePortable(plan.portable, tbFile.design, sim, `${shownPath(tbFile.file)}, seed ${seed}`);
    return 0;
  } finally {
    sim.close();
  }
}

export const simCommand = defineCommand({ summary: 'run a testbench file on a simulator', usage, options, parse: parseSimArgs, execute });

/** A failed assertion or assumption as the simulator reported it, at its line in the design's file (relative to here). */
function propertyFailure(design: Design, e: PropertyFailedError): string {
  const p = flattenDesign(design).properties?.find((x) => `${design.top}.${x.name}` === e.property);
  return p && e.message.startsWith(`${e.where}: `) ? `${shownPath(p.loc.file)}:${p.loc.line}: ${e.message.slice(e.where.length + 2)}` : e.message;
}

/** The recorded run as a portable testbench beside the design's SystemVerilog and file list. */
function writePortable(dir: string, design: Design, run: RecordingSimulator, what: string): void {
  const emitted = emitSystemVerilog(design, { powerOnValues: resetAtPowerOn(design) });
  const tb = portableTestbench(design, run.recording(), { emitted, description: `the testbench ${what}, recorded by rtgpu sim` });
  const files = [...emitted.files, { path: `${design.top}.f`, text: emitted.fileList.map((f) => `${f}\n`).join('') }, ...tb.files];
  writeRtl(dir, withMarker(files, 'Generated by `rtgpu sim --portable`. Writing again replaces the files listed below and leaves others alone.'), false);
  console.log(`wrote ${dir}/${tb.name}.sv and ${tb.name}.vec (${tb.cycles} cycles) beside ${design.top}'s SystemVerilog`);
}
