// The whole GPU in lockstep on the TS simulator, Verilator and Icarus: the built-in scene at 16x12 with
// both kernels; every output of rtgpu_top (the DMA writes carry the pixels) agrees in every cycle,
// and the pixels equal the ISA simulator's.
import { describe, expect, test } from 'vitest';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/golden/defaultScene.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { runFrameOnTs } from '../../src/host/runtime/gpuDriver.ts';
import { replayRecording } from '../../src/hdl/cosim/replay.ts';
import { formatMismatch } from '../../src/hdl/cosim/runCosim.ts';
import { gpuSimulator } from '../../src/gpu/top/gpuDesign.ts';

describe('rtgpu_top on TS, Verilator and Icarus', () => {
  test('the built-in scene at 16x12 with id: runGpu on each simulator gives the ISA simulator\'s pixels', async () => {
    const job = buildFrame({ kernel: 'id', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() });
    const iss = await runGpu(job, { sim: 'iss' });
    for (const sim of ['ts', 'verilator', 'icarus'] as const) {
      const r = await runGpu(job, { sim });
      expect(r.pixels.map((p) => [...p.ret]), sim).toEqual(iss.pixels.map((p) => [...p.ret]));
      expect(r.faults).toEqual([]);
    }
  }, 1_200_000);

  test('the built-in scene at 16x12 with shade: three simulators in lockstep, the ISA simulator\'s pixels', async () => {
    const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() });
    const run = runFrameOnTs(job, { sim: 'ts' });
    const replay = await replayRecording(run.design, run.recording, ['ts', 'verilator', 'icarus'], (l) => console.log(l), gpuSimulator(run.design));
    expect(replay.mismatch && formatMismatch(replay.mismatch)).toBeNull();
    console.log(`shade: ${run.recording.cycles} cycles; seconds ${JSON.stringify(replay.seconds)}`);
    const iss = await runGpu(job, { sim: 'iss' });
    expect(run.pixels.map((p) => [...p.ret])).toEqual(iss.pixels.map((p) => [...p.ret]));
  }, 1_200_000);

  test('random DMA stalls on both channels: the run replays in lockstep and the pixels do not change', async () => {
    const seed = Number(process.env.RTGPU_SEED ?? 17);
    console.log(`DMA stall seed ${seed} (RTGPU_SEED)`);
    const job = buildFrame({ kernel: 'id', camera: defaultCamera, width: 8, height: 6, scene: defaultScene() });
    const run = runFrameOnTs(job, { sim: 'ts', dmaStallSeed: seed });
    const replay = await replayRecording(run.design, run.recording, ['ts', 'verilator', 'icarus'], () => {}, gpuSimulator(run.design));
    expect(replay.mismatch && formatMismatch(replay.mismatch)).toBeNull();
    const iss = await runGpu(job, { sim: 'iss' });
    expect(run.pixels.map((p) => [...p.ret])).toEqual(iss.pixels.map((p) => [...p.ret]));
  }, 600_000);
});
