// Whole-GPU figures for `rtgpu bench`: simulation speed of rtgpu_top on the TS simulator against Verilator and
// Icarus (the same recorded run), the live back ends against their standalone harnesses, and a 64x48 frame.
import { SHADOW_RAY_QUERY, buildFrame } from '../../host/frame.ts';
import { defaultCamera } from '../../host/camera.ts';
import { defaultScene } from '../../scenes/defaultScene.ts';
import { cachedGpuDesign, gpuParamsFor, runFrame, runGpu } from '../../host/runtime/index.ts';
import { benchmarkRounds, median, replayRecording, verilatorThreadsSuffix, type Recording } from '../../hdl/cosim/index.ts';
import { formatMismatch } from '../../hdl/cosim/index.ts';
import { gpuSimulator } from '../../host/runtime/gpuSimulator.ts';
import { topModule } from '../../hdl/index.ts';
import { compileSimulator, prepareSimulator } from '../../hdl/sim/index.ts';
import { BY_MNEMONIC, fieldOf } from '../../isa/instructions.ts';
import { RAY_FLAG_ANY_HIT } from '../../golden/rayQuery.ts';
import type { Traversal } from '../../iss/sceneTracer.ts';
import type { GpuJob } from '../../host/runtime/index.ts';

/** Cycles of a recording Icarus replays (it runs a few hundred GPU cycles per second). */
const ICARUS_CYCLES = 4000;

function prefix(rec: Recording, cycles: number): Recording {
  const n = Math.min(cycles, rec.cycles);
  return { inputs: rec.inputs, rows: rec.rows.subarray(0, (rec.rows.length / rec.cycles) * n), cycles: n };
}

/** gpuTsOverVerilator (the median of `rounds` side-by-side rounds, with its lowest and highest), gpuTsOverIcarus: the 16x12 `shade` frame's inputs replayed on each simulator. */
export async function measureGpuSpeed(log: (s: string) => void = () => {}, rounds = 5, verilatorThreads = 1): Promise<Record<string, number>> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() });
  const run = await runFrame(job, { sim: 'ts', record: true });
  const recording = run.recording!;
  const sim = gpuSimulator(run.design);
  const top = topModule(run.design);
  const outputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  // The first pass over a fresh loop includes V8 optimizing it (Verilator's time excludes its C++
  // build likewise); the steady-state figure is the second pass.
  const tsRate = (rec: Recording) => {
    sim.powerOn();
    const t0 = performance.now();
    sim.runVectors(rec.inputs, outputs, rec.rows, rec.cycles);
    return rec.cycles / ((performance.now() - t0) / 1000);
  };
  const rate = async (rec: Recording, which: 'verilator' | 'icarus') => {
    log(`replaying ${rec.cycles} GPU cycles on ts and ${which} …`);
    const r = await replayRecording(run.design, rec, ['ts', which], () => {}, sim);
    if (r.mismatch) throw new Error(`rtgpu_top: ${which} disagrees with the TS simulator:\n${formatMismatch(r.mismatch)}`);
    return { tsCold: rec.cycles / r.seconds.ts!, ts: tsRate(rec), other: rec.cycles / r.seconds[which]! };
  };
  const v = await rate(recording, 'verilator');
  const i = await rate(prefix(recording, ICARUS_CYCLES), 'icarus');
  // The steady-state figures: the frame run over in side-by-side rounds of 2 s (the agreement is checked above).
  const on = verilatorThreads > 1 ? ` (${verilatorThreads} threads)` : '';
  log(`timing the ${recording.cycles}-cycle frame on ts and verilator${on} in ${rounds} side-by-side rounds of 2 s …`);
  const r = await benchmarkRounds({ name: 'rtgpu_top', design: run.design, recording }, { cycles: recording.cycles, seed: 0, rounds, minSeconds: 2, verilatorThreads });
  const threads = verilatorThreadsSuffix(verilatorThreads);
  return {
    gpuTsCyclesPerSecond: median(r.ts),
    gpuTsCyclesPerSecondFirstPass: v.tsCold,
    [`gpuVerilator${threads}CyclesPerSecond`]: median(r.verilator),
    gpuIcarusCyclesPerSecond: i.other,
    [`gpuTsOverVerilator${threads}`]: median(r.ratios),
    [`gpuTsOverVerilator${threads}Lowest`]: Math.min(...r.ratios),
    [`gpuTsOverVerilator${threads}Highest`]: Math.max(...r.ratios),
    gpuTsOverVerilatorFirstPass: v.tsCold / v.other,
    gpuTsOverIcarus: i.ts / i.other,
  };
}

/**
 * The live back ends against the standalone harnesses on rtgpu_top: the 64x48 `shade` frame driven live on
 * Verilator (the host runtime reacting to every DMA request) against the C++ harness replaying its inputs
 * from a file; a short frame driven live on Icarus against Icarus reading the same inputs from a file; and
 * the time to start a cached Verilator build of rtgpu_top (its library not yet loaded in this process).
 */
export async function measureLiveBackends(log: (s: string) => void = () => {}): Promise<Record<string, number>> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 64, height: 48, scene: defaultScene() });
  const design = cachedGpuDesign(gpuParamsFor(job, { sim: 'verilator' }));
  log('building (or finding) the live Verilator model of rtgpu_top …');
  // Built (not loaded) first, so that the timed start below loads the library as a new process would.
  await prepareSimulator(design, { backend: 'verilator', log });
  const t0 = performance.now();
  const warm = await compileSimulator(design, { backend: 'verilator' });
  const verilatorWarmStartMs = performance.now() - t0;
  warm.close();
  log('rendering 64x48 live on Verilator …');
  const live = await runFrame(job, { sim: 'verilator', record: true });
  const liveRate = live.recording!.cycles / (live.stats.wallSeconds - live.stats.setupSeconds);
  log(`replaying its ${live.recording!.cycles} cycles on the standalone Verilator harness …`);
  const harness = await replayRecording(design, live.recording!, ['verilator']);
  const harnessRate = live.recording!.cycles / harness.seconds.verilator!;

  const small = buildFrame({ kernel: 'id', camera: defaultCamera, width: 4, height: 2, scene: defaultScene() });
  log('rendering 4x2 live on Icarus …');
  const icarusLive = await runFrame(small, { sim: 'icarus', record: true });
  const icarusLiveRate = icarusLive.recording!.cycles / (icarusLive.stats.wallSeconds - icarusLive.stats.setupSeconds);
  log(`replaying its ${icarusLive.recording!.cycles} cycles on Icarus from a vector file …`);
  const file = await replayRecording(design, icarusLive.recording!, ['icarus']);
  const fileRate = icarusLive.recording!.cycles / file.seconds.icarus!;
  return {
    liveVerilatorCyclesPerSecond: liveRate,
    harnessVerilatorCyclesPerSecond: harnessRate,
    liveVerilatorOverHarness: liveRate / harnessRate,
    liveIcarusCyclesPerSecond: icarusLiveRate,
    fileIcarusCyclesPerSecond: fileRate,
    liveIcarusOverFile: icarusLiveRate / fileRate,
    verilatorWarmStartMs,
  };
}

/**
 * The 64x48 `shade` frame of the built-in scene on the TS simulator: one GPU (its setup included when
 * it is the process's first), then two render workers (each elaborates and compiles its own GPU).
 */
export async function measureGpuFrame(): Promise<Record<string, number>> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 64, height: 48, scene: defaultScene() });
  const r = await runFrame(job, { sim: 'ts' });
  const two = await runGpu(job, { sim: 'ts', jobs: 2 });
  const s = r.stats;
  const icBusy = s.icBusyCycles.reduce((a, b) => a + b, 0);
  return {
    gpuFrameCycles64x48: s.cycles,
    gpuCyclesPerRay: s.cycles / s.rays,
    gpuRaysPerFrame: s.rays,
    gpuRtUtilization: s.rtBusyCycles.reduce((a, b) => a + b, 0) / (s.rtBusyCycles.length * s.cycles),
    gpuIcUtilization: icBusy / (s.icBusyCycles.length * s.cycles),
    gpuIcTestsPerBusyCycle: s.triangleTests / icBusy,
    gpuFrameSeconds64x48: s.wallSeconds,
    gpuSetupSeconds: s.setupSeconds,
    gpuFrameSeconds64x48Workers2: two.stats.wallSeconds,
    gpuWorkerSetupSeconds: two.stats.setupSeconds,
  };
}

/** SHADOW_RAY_QUERY's words as lighting.s writes them with `s_write_high`/`s_write_low` into R4 (flags below 0x10000). */
const SHADOW_FLAGS = SHADOW_RAY_QUERY.flags;
const SHADOW_TMAX = { high: SHADOW_RAY_QUERY.tmax >>> 16, low: SHADOW_RAY_QUERY.tmax & 0xffff };

/** The job with the one instruction of `mnemonic` whose immediate is `from` changed to `to` (throws unless exactly one). */
function patchImmediate(job: GpuJob, mnemonic: string, from: number, to: number): GpuJob {
  const opcode = BY_MNEMONIC.get(mnemonic)!.opcode;
  const at = [...job.program.keys()].filter((i) => fieldOf(job.program[i]!, 'opcode') === opcode && (job.program[i]! & 0xffff) === from);
  if (at.length !== 1) throw new Error(`the shade kernel should hold one ${mnemonic} #0x${from.toString(16)} (its shadow query), found ${at.length}`);
  const program = job.program.slice();
  program[at[0]!] = ((program[at[0]!]! & ~0xffff) | to) >>> 0;
  return { ...job, program };
}

/** The job with its shadow rays' ANY_HIT flag cleared: closest-hit rays with the same interval, masks and culling. */
export const withClosestHitShadows = (job: GpuJob): GpuJob => patchImmediate(job, 's_write_low', SHADOW_FLAGS, SHADOW_FLAGS & ~RAY_FLAG_ANY_HIT);

/** The shadow rays as the kernel traced them before ray queries: closest hit with tmax = +inf (the frame's pixels are then not the kernel's, its ray and test counts are). */
export const withUnboundedShadows = (job: GpuJob): GpuJob =>
  patchImmediate(patchImmediate(withClosestHitShadows(job), 's_write_high', SHADOW_TMAX.high, 0x7f80), 's_write_low', SHADOW_TMAX.low, 0x0000);

/**
 * The 64x48 `shade` frame of the built-in scene with its any-hit shadow rays against the same frame with closest-hit
 * shadow rays (ANY_HIT cleared), and with closest-hit rays to +inf as the kernel traced them before ray queries, on the
 * brute-force, BVH and BVH8 GPUs: triangle tests and cycles as ratios.
 */
export async function measureShadowRays(): Promise<Record<string, number>> {
  const figures: Record<string, number> = {};
  for (const [name, traversal] of [['', 'brute-force'], ['Bvh', 'bvh'], ['Bvh8', 'bvh8']] as const satisfies readonly (readonly [string, Traversal])[]) {
    const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 64, height: 48, scene: defaultScene(), traversal });
    const anyHit = (await runFrame(job, { sim: 'ts' })).stats;
    const closest = (await runFrame(withClosestHitShadows(job), { sim: 'ts' })).stats;
    const unbounded = (await runFrame(withUnboundedShadows(job), { sim: 'ts' })).stats;
    figures[`shade${name}TriangleTests64x48`] = anyHit.triangleTests;
    figures[`shade${name}FrameCycles64x48`] = anyHit.cycles;
    figures[`shade${name}AnyHitTriangleTestsRatio`] = anyHit.triangleTests / closest.triangleTests;
    figures[`shade${name}AnyHitCyclesRatio`] = anyHit.cycles / closest.cycles;
    // Cycles are not compared with the unbounded frame: its rays reach the ceiling behind the lamps, so its kernel
    // skips the lighting of pixels that are lit, runs fewer instructions and draws another picture.
    figures[`shade${name}QueryTriangleTestsRatio`] = anyHit.triangleTests / unbounded.triangleTests;
  }
  return figures;
}
