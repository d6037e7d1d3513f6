// `rtgpu bench`: simulation speed of the TS simulator against Verilator and Icarus, as a table or JSON.
import { parseFlags, intFlag } from '../args.ts';
import { CliError } from '../cliError.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { findDesign } from '../../designs/catalogue/index.ts';
import { benchmarkDesign, benchmarkPropertyCost, benchmarkRounds, median, recordRandomRun, verilatorThreadsSuffix, type BenchRow, type RecordedBench } from '../../hdl/cosim/index.ts';
import { isFileArgument, loadUserDesign, parseParams, shownPath } from '../designFile.ts';
import { designFileUsage, type DesignFilePlan } from './emit.ts';
import { formatDiagnosticHere } from '../diagnosticText.ts';
import { seedFromEnv } from '../../util/seededRandom.ts';
import { measureLibraryFlow } from '../../designs/bench/libraryFlow.ts';
import { measureCoreCpi } from '../../designs/bench/coreCpi.ts';
import { measureIcThroughput } from '../../designs/bench/icThroughput.ts';
import { measureGpuFrame, measureGpuSpeed, measureLiveBackends, measureShadowRays } from '../../designs/bench/gpuBench.ts';
import { measureBvhTests } from '../../designs/bench/bvhBench.ts';
import { measureBvh8InstancedMemory, measureBvh8Memory } from '../../designs/bench/bvh8Bench.ts';
import { measureObb } from '../../designs/bench/obbBench.ts';
import { measureBvh8Core } from '../../designs/bench/bvh8CoreBench.ts';
import { measureBvhCore } from '../../designs/bench/bvhCoreBench.ts';
import { measureTextureUnit } from '../../designs/bench/textureBench.ts';
import { measureEmitColdStart } from '../../designs/bench/cliBench.ts';
import { measureRtlLines } from '../../designs/bench/rtlSize.ts';
import { verilatorCxxOptimization } from '../../hdl/tools/index.ts';

const usage = `usage: rtgpu bench [--design NAME] [--cycles N] [--rounds R] [--verilator-threads T] [--json]
       rtgpu bench DESIGN.ts [--top NAME] [--param KEY=VALUE …] [--cycles N] [--rounds R] [--verilator-threads T] [--seed S] [--json]

A design file (DESIGN.ts, as 'rtgpu emit' takes) is measured on a run of random, protocol-keeping
stimulus (as 'rtgpu cosim DESIGN.ts' drives it: resets held first, ready/valid streams kept), recorded
once on the TS simulator and replayed on the TS simulator, Verilator and Icarus alike.

  --design NAME  design to measure (default: bench and the small block fifo, the cost of checking the
                 bench design's properties on the TS simulator, then the start of
                 'rtgpu emit' on examples/gcd/gcd.ts as installed, the library flow time, the RT core CPI on an integer and a float kernel, the IC core's
                 triangle tests per cycle over 512-triangle sweeps, the whole GPU's speed on the
                 three simulators, a 64x48 shade frame, the live Verilator and Icarus back ends
                 against their standalone harnesses, the BVH traversal's tests per
                 primary ray of the bunny in the Cornell box, its BVH8 image's memory against the
                 BVH4's, the BVH8 IC core's box and triangle tests per cycle and cycles per
                 ray against the BVH4 core's, and the BVH IC core's cycles per
                 ray against the brute-force core's and its node tests per cycle)
  --cycles N     the stimulus's cycles (default 200000; Icarus runs N/50); the TS simulator and
                 Verilator run it over as many times as a window of 2 s takes
  --rounds R     side-by-side rounds of the TS simulator and Verilator (default 5); each ratio
                 reported is the median of the rounds', with its lowest and highest
  --verilator-threads T
                 Verilator evaluates the model on T threads in the rounds (--threads T; default 1,
                 the reference: the TS simulator runs on one); its metrics are then named
                 …OverVerilatorThreadsT. Its threads wait for each other by spinning: give it
                 T idle cores, or a cycle waits for a preempted thread
  --seed S       a design file's stimulus seed (default: SEED from the environment, else random, printed)
  --json         print one JSON object {"rows": [...], "metrics": {...}}
${designFileUsage}`;

const options = {
  design: { type: 'string' },
  cycles: { type: 'string' },
  rounds: { type: 'string' },
  'verilator-threads': { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  top: { type: 'string' },
  param: { type: 'string', multiple: true },
  'no-typecheck': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Each side's timed window per round (issue 44: a window well under 2 s said little). */
const WINDOW_SECONDS = 2;

export interface BenchPlan {
  /** Undefined (and no `file`): the whole list of measurements. */
  readonly design?: string;
  /** A user's design file, measured on a recorded random run. */
  readonly file?: DesignFilePlan;
  /** The design file's stimulus seed (undefined: SEED from the environment, else random). */
  readonly seed?: number;
  readonly cycles: number;
  readonly rounds: number;
  /** Verilator's threads in the rounds (1: the reference). */
  readonly verilatorThreads: number;
  readonly json: boolean;
}

export function parseBenchArgs(argv: string[]): BenchPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, options, usage);
  if (values.help) return HELP;
  if (positionals.length > 1) throw new CliError(`unexpected argument '${positionals[1]}'\n\n${usage}`);
  const path = positionals[0];
  if (path !== undefined && !isFileArgument(path)) throw new CliError(`'${path}' is not a design file (DESIGN.ts); a built-in design is named with --design ${path}\n\n${usage}`);
  if (path !== undefined && values.design !== undefined) throw new CliError('give a design file or --design NAME, not both');
  if (path === undefined && (values.top !== undefined || values.param !== undefined || values['no-typecheck'] || values.seed !== undefined))
    throw new CliError('--top, --param, --no-typecheck and --seed apply to a design file (rtgpu bench DESIGN.ts)');
  parseParams(values.param ?? []);
  const file = path === undefined ? undefined : { file: path, top: values.top, params: values.param, typecheck: !values['no-typecheck'] };
  const seed = values.seed === undefined ? undefined : intFlag('seed', values.seed, 0, 0, 0xffffffff);
  return { design: values.design, file, seed, cycles: intFlag('cycles', values.cycles, 200_000, 1000, 100_000_000), rounds: intFlag('rounds', values.rounds, 5, 1, 50), verilatorThreads: intFlag('verilator-threads', values['verilator-threads'], 1, 1, 64), json: values.json ?? false };
}

async function execute(plan: BenchPlan): Promise<number> {
  const n = plan.cycles;
  const names = plan.design ? [plan.design] : ['bench', 'fifo'];
  const log = plan.json ? () => {} : (s: string) => console.log(s);
  // Verilator is the reference at its usual -O2; a test-speed build would flatter the TS simulator.
  const opt = verilatorCxxOptimization();
  if (opt !== '-O2') process.stderr.write(`rtgpu bench: Verilator models are built with ${opt} ($RTGPU_VERILATOR_OPT): the ratios to Verilator are not the reference figures\n`);
  const rows: BenchRow[] = [];
  const metrics: Record<string, number> = {};
  const threads = verilatorThreadsSuffix(plan.verilatorThreads);
  const sources = plan.file ? [await designFileSource(plan.file, n, plan.seed ?? seedFromEnv(), log)] : await Promise.all(names.map(findDesign));
  for (const design of sources) {
    const name = design.name;
    log(`measuring ${name}: ${plan.rounds} rounds of the TS simulator and Verilator${plan.verilatorThreads > 1 ? ` (${plan.verilatorThreads} threads)` : ''} side by side, ${WINDOW_SECONDS} s each at least, then Icarus …`);
    const r = await benchmarkRounds(design, { cycles: n, seed: 1, rounds: plan.rounds, minSeconds: WINDOW_SECONDS, verilatorThreads: plan.verilatorThreads });
    for (const [sim, rates, cycles] of [['ts', r.ts, r.tsCycles], ['verilator', r.verilator, r.verilatorCycles]] as const) {
      const rate = median(rates);
      const more = sim === 'verilator' && plan.verilatorThreads > 1 ? { threads: plan.verilatorThreads } : {};
      rows.push({ design: name, sim, cycles, seconds: cycles / rate, cyclesPerSecond: rate, ...more });
    }
    rows.push(...(await benchmarkDesign(design, { icarus: Math.max(1000, Math.floor(n / 50)) }, 1)));
    const prefix = name === 'bench' ? '' : `${name}.`;
    metrics[`${prefix}tsOverVerilator${threads}`] = median(r.ratios);
    metrics[`${prefix}tsOverVerilator${threads}Lowest`] = Math.min(...r.ratios);
    metrics[`${prefix}tsOverVerilator${threads}Highest`] = Math.max(...r.ratios);
    metrics[`${prefix}tsOverIcarus`] = median(r.ts) / rows.find((x) => x.design === name && x.sim === 'icarus')!.cyclesPerSecond;
  }
  if (!plan.design && !plan.file) {
    log('measuring the cost of checking properties (bench design, TS simulator) …');
    const cost = benchmarkPropertyCost(await findDesign('bench'), n, 1);
    metrics['properties.count'] = cost.properties;
    metrics['properties.checkedCyclesPerSecond'] = cost.checkedCyclesPerSecond;
    metrics['properties.uncheckedCyclesPerSecond'] = cost.uncheckedCyclesPerSecond;
    metrics['properties.checkedOverUnchecked'] = cost.checkedCyclesPerSecond / cost.uncheckedCyclesPerSecond;
    log('measuring the start of rtgpu emit on examples/gcd/gcd.ts, and of rtgpu render (the GPU elaborated and compiled, cold and cached; the demo frame) …');
    Object.assign(metrics, measureEmitColdStart(log));
    log('counting the lines of the GPU\'s SystemVerilog …');
    Object.assign(metrics, measureRtlLines());
    Object.assign(metrics, await measureLibraryFlow());
    log('measuring RT core CPI …');
    Object.assign(metrics, measureCoreCpi());
    log('measuring IC core throughput …');
    Object.assign(metrics, measureIcThroughput());
    log('measuring BVH traversal tests per ray (bunny in the Cornell box, 64x48 primary rays) …');
    Object.assign(metrics, measureBvhTests());
    log('measuring the BVH8 (GFX12 image) memory of the bunny in the Cornell box against the BVH4 …');
    Object.assign(metrics, measureBvh8Memory());
    log('measuring the instanced BVH8 (--scene bunnies) against the same scene flattened …');
    Object.assign(metrics, measureBvh8InstancedMemory());
    log('measuring oriented boxes on the thin rods (box tests and SAH cost saved against axis-aligned boxes) …');
    Object.assign(metrics, measureObb());
    log('measuring the BVH8 IC core on the bunny (box and triangle tests per cycle, cycles per ray against the BVH4 core) …');
    const eight = measureBvh8Core();
    if (!eight.bvh8MatchesGolden) throw new CliError('the BVH8 IC core disagreed with castRayBvh8 during the benchmark; its figures would be meaningless');
    const { bvh8MatchesGolden: _, ...bvh8Figures } = eight;
    Object.assign(metrics, bvh8Figures);
    log('measuring the texture unit on the textured floor (txd fetches per cycle, texel cache hit rate) …');
    const texture = measureTextureUnit();
    if (!texture.textureMatchesGolden) throw new CliError('the texture unit disagreed with sampleTxd during the benchmark; its figures would be meaningless');
    Object.assign(metrics, { txdFetchesPerCycle: texture.txdFetchesPerCycle, texelHitRate: texture.texelHitRate });
    log('measuring the BVH IC core against the brute-force IC core (cycles per ray, node tests per cycle) …');
    const core = measureBvhCore();
    if (!core.bvhMatchesGolden) throw new CliError('the BVH IC core disagreed with the golden traversal during the benchmark; its figures would be meaningless');
    Object.assign(metrics, { bvhCyclesPerRay: core.bvhCyclesPerRay, bvhBruteForceCyclesPerRay: core.bruteForceCyclesPerRay, bvhSpeedup: core.bvhSpeedup, bvhNodeTestsPerCycle: core.bvhNodeTestsPerCycle });
    log('measuring the whole GPU (rtgpu_top) …');
    Object.assign(metrics, await measureGpuSpeed(log, plan.rounds, plan.verilatorThreads));
    log('rendering the built-in scene at 64x48 with shade …');
    Object.assign(metrics, await measureGpuFrame());
    log('rendering it with any-hit and with closest-hit shadow rays (brute force, BVH, BVH8) …');
    Object.assign(metrics, await measureShadowRays());
    log('measuring the live Verilator and Icarus back ends on rtgpu_top …');
    Object.assign(metrics, await measureLiveBackends(log));
  }
  if (plan.json) {
    console.log(JSON.stringify({ rows, metrics }));
    return 0;
  }
  console.log('');
  console.log(`${'design'.padEnd(10)} ${'sim'.padEnd(10)} ${'cycles'.padStart(10)} ${'seconds'.padStart(9)} ${'cycles/s'.padStart(12)}`);
  for (const r of rows) {
    console.log(`${r.design.padEnd(10)} ${(r.threads ? `${r.sim} x${r.threads}` : r.sim).padEnd(10)} ${String(r.cycles).padStart(10)} ${r.seconds.toFixed(3).padStart(9)} ${Math.round(r.cyclesPerSecond).toLocaleString('en-US').padStart(12)}`);
  }
  console.log('');
  for (const [k, v] of Object.entries(metrics)) console.log(`${k}: ${v.toFixed(3)}`);
  return 0;
}

/** A user's design file with a recorded random run of `cycles` cycles: errors in it or in the run name the file. */
async function designFileSource(file: DesignFilePlan, cycles: number, seed: number, log: (line: string) => void): Promise<RecordedBench> {
  const user = await loadUserDesign(file.file, file);
  for (const w of user.warnings) log(formatDiagnosticHere(w));
  const name = user.design.top;
  log(`recording ${cycles} cycles of random stimulus on ${shownPath(user.file)} (${name}), seed ${seed} (rerun with --seed ${seed}) …`);
  try {
    const { recording, streams } = await recordRandomRun(user.design, cycles, seed);
    if (streams.length) log(`  streams: ${streams.map((st) => `${st.name} (${st.direction})`).join(', ')}`);
    if (recording.instants) throw new Error(`${name} is clocked otherwise than by one rising edge of one clock (several clocks, or a falling edge); rtgpu bench times designs with one clock`);
    return { name, design: user.design, recording };
  } catch (e) {
    throw new CliError(`${shownPath(user.file)}: ${(e as Error).message}`, 1);
  }
}

export const benchCommand = defineCommand({ summary: 'measure simulation speed', usage, options, parse: parseBenchArgs, execute });
