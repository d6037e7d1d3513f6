// Whole-GPU figures for `rtgpu bench`: simulation speed of rtgpu_top on the TS simulator against
// Verilator and Icarus (the same recorded run), and a 64x48 `shade` frame of the built-in scene.
import { buildFrame } from '../host/frame.ts';
import { defaultCamera } from '../host/camera.ts';
import { defaultScene } from '../golden/defaultScene.ts';
import { runFrameOnTs } from '../host/runtime/gpuDriver.ts';
import { replayRecording, type Recording } from '../hdl/cosim/replay.ts';
import { formatMismatch } from '../hdl/cosim/runCosim.ts';
import { gpuSimulator } from '../gpu/top/gpuDesign.ts';
import { topModule } from '../hdl/ir/netlist.ts';

/** Cycles of a recording Icarus replays (it runs a few hundred GPU cycles per second). */
const ICARUS_CYCLES = 4000;

function prefix(rec: Recording, cycles: number): Recording {
  const n = Math.min(cycles, rec.cycles);
  return { inputs: rec.inputs, rows: rec.rows.subarray(0, (rec.rows.length / rec.cycles) * n), cycles: n };
}

/** gpuTsOverVerilator, gpuTsOverIcarus: the 16x12 `shade` frame's inputs replayed on each simulator. */
export async function measureGpuSpeed(log: (s: string) => void = () => {}): Promise<Record<string, number>> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() });
  const run = runFrameOnTs(job, { sim: 'ts' });
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
  const v = await rate(run.recording, 'verilator');
  const i = await rate(prefix(run.recording, ICARUS_CYCLES), 'icarus');
  return {
    gpuTsCyclesPerSecond: v.ts,
    gpuTsCyclesPerSecondFirstPass: v.tsCold,
    gpuVerilatorCyclesPerSecond: v.other,
    gpuIcarusCyclesPerSecond: i.other,
    gpuTsOverVerilator: v.ts / v.other,
    gpuTsOverVerilatorFirstPass: v.tsCold / v.other,
    gpuTsOverIcarus: i.ts / i.other,
  };
}

/** The 64x48 `shade` frame of the built-in scene on the TS simulator. */
export function measureGpuFrame(): Record<string, number> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 64, height: 48, scene: defaultScene() });
  const r = runFrameOnTs(job, { sim: 'ts' });
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
  };
}
