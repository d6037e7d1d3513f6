// The whole GPU live on the TS simulator, Verilator and Icarus: the host runtime drives rtgpu_top on each
// (no recording is replayed), alone and in lockstep, where every output is compared every cycle; the
// pixels equal the ISA simulator's.
import { describe, expect, test } from 'vitest';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { runFrame, runGpu } from '../../src/host/runtime/index.ts';
import { ciOrSoak } from '../scale.ts';

const pixelsOf = (r: { pixels: readonly { ret: readonly number[] }[] }) => r.pixels.map((p) => [...p.ret]);

describe('rtgpu_top live on TS, Verilator and Icarus', () => {
  test("the built-in scene with id: runGpu live on each simulator alone gives the ISA simulator's pixels", async () => {
    // Icarus alone on a sixteenth of the frame: it is the slowest engine, and joins the lockstep below.
    const frames = { ts: [16, 12], verilator: [16, 12], icarus: [4, 3] } as const;
    const cycles: Record<string, number> = {};
    for (const sim of ['ts', 'verilator', 'icarus'] as const) {
      const [width, height] = frames[sim];
      const job = buildFrame({ kernel: 'id', camera: defaultCamera, width, height, scene: defaultScene() });
      const iss = await runGpu(job, { sim: 'iss' });
      const r = await runGpu(job, { sim, log: (l) => console.log(l) });
      expect(pixelsOf(r), sim).toEqual(pixelsOf(iss));
      expect(r.faults).toEqual([]);
      cycles[sim] = r.stats.cycles;
    }
    expect(cycles.verilator).toBe(cycles.ts);
    // The same frame as Icarus's on the TS simulator takes as many cycles.
    const small = await runGpu(buildFrame({ kernel: 'id', camera: defaultCamera, width: 4, height: 3, scene: defaultScene() }), { sim: 'ts' });
    expect(cycles.icarus).toBe(small.stats.cycles);
  }, 1_200_000);

  // Icarus runs the shade kernel at about 40 cycles/s in lockstep: it joins it on a one-patch 4x3 frame in CI (2,427
  // cycles) and on the two-patch 8x6 frame (4,408) in the soak; the 16x12 frame (six patches: threads streaming past
  // the two-patch window) runs on TS and Verilator.
  const [iw, ih] = ciOrSoak([4, 3], [8, 6]);
  const lockstepFrames = [
    { width: iw, height: ih, sims: ['ts', 'verilator', 'icarus'] },
    { width: 16, height: 12, sims: ['ts', 'verilator'] },
  ] as const;
  for (const { width, height, sims } of lockstepFrames) {
    test(`the built-in scene at ${width}x${height} with shade: ${sims.join(', ')} in lockstep, the ISA simulator's pixels`, async () => {
      const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width, height, scene: defaultScene() });
      const run = await runFrame(job, { sim: 'lockstep', lockstep: [...sims] });
      console.log(`shade ${width}x${height} in lockstep on ${sims.join(', ')}: ${run.stats.cycles} cycles, ${(run.stats.wallSeconds - run.stats.setupSeconds).toFixed(1)} s`);
      const iss = await runGpu(job, { sim: 'iss' });
      expect(pixelsOf(run)).toEqual(pixelsOf(iss));
    }, 1_200_000);
  }

  // TS and Verilator: the stalls exercise the host side of the GPU, whose RTL Icarus runs in lockstep above.
  test('random DMA stalls on both channels: lockstep agrees every cycle and the pixels do not change', async () => {
    const seed = Number(process.env.RTGPU_SEED ?? 17);
    console.log(`DMA stall seed ${seed} (RTGPU_SEED)`);
    const job = buildFrame({ kernel: 'id', camera: defaultCamera, width: 8, height: 6, scene: defaultScene() });
    const run = await runFrame(job, { sim: 'lockstep', lockstep: ['ts', 'verilator'], dmaStallSeed: seed });
    const iss = await runGpu(job, { sim: 'iss' });
    expect(pixelsOf(run)).toEqual(pixelsOf(iss));
  }, 600_000);
});
