// The whole GPU (rtgpu_top) on the TS simulator against the ISA simulator: frames of both built-in
// kernels, partial patches, edge cases of the frame, core counts, faults, endless kernels, DMA stalls.
import { describe, expect, test } from 'vitest';
import { assemble } from '../../src/isa/assembler.ts';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { sceneToImage } from '../../src/golden/scene.ts';
import { GpuRunError, GpuSession, frameChunks, runGpu, type GpuJob, type GpuRunResult } from '../../src/host/runtime/index.ts';
import { runFrame } from '../../src/host/runtime/gpuDriver.ts';
import { cameraConstants } from '../../src/host/camera.ts';
import { returningRv15 } from './rv15Kernel.ts';
import { ciOrSoak } from '../scale.ts';

const frame = (kernel: 'id' | 'shade', width: number, height: number): GpuJob => buildFrame({ kernel, camera: defaultCamera, width, height, scene: defaultScene() });

function kernelJob(source: string, pixels: number, file = 'kernel.s'): GpuJob {
  const { words, sourceLines } = assemble(source, file);
  return { program: words, sourceFile: file, sourceLines, constants: new Uint32Array(0), triangles: sceneToImage(defaultScene()), pixels };
}

/** The GPU's pixels and faults equal the ISA simulator's, bit for bit. */
async function expectSameAsIss(job: GpuJob, gpu: GpuRunResult): Promise<void> {
  const iss = await runGpu(job, { sim: 'iss' });
  expect(gpu.pixels.length).toBe(job.pixels);
  gpu.pixels.forEach((p, i) => expect({ pixel: p.pixel, ret: [...p.ret] }).toEqual({ pixel: ((job.firstPixel ?? 0) + i) >>> 0, ret: [...iss.pixels[i]!.ret] }));
  expect(gpu.faults).toEqual(iss.faults);
  expect(gpu.stats.instructions).toBe(iss.stats.instructions);
}

// Each pixel returns (pixel, pixel × 3, float(pixel), 0): hand-checkable.
const simpleKernel = `
    ii_muli R2, R1, 3
    s_itof R3, R1
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R1, R7, 0
    s_store_4byte R2, R7, 4
    s_store_4byte R3, R7, 8
    fin
`;

describe('rtgpu_top on the TS simulator', () => {
  for (const kernel of ['id', 'shade'] as const) {
    test(`the built-in scene at 16x12 with ${kernel} equals the ISA simulator`, async () => {
      const job = frame(kernel, 16, 12);
      const r = await runGpu(job, { sim: 'ts' });
      await expectSameAsIss(job, r);
      expect(r.stats.rays).toBeGreaterThanOrEqual(job.pixels);
      expect(r.stats.triangleTests).toBe(r.stats.rays * 36);
      // The ISA simulator counts the same rays and tests.
      const iss = await runGpu(job, { sim: 'iss' });
      expect({ rays: iss.stats.rays, tests: iss.stats.triangleTests }).toEqual({ rays: r.stats.rays, tests: r.stats.triangleTests });
      for (const busy of [...r.stats.rtBusyCycles, ...r.stats.icBusyCycles]) expect(busy).toBeGreaterThan(0);
      for (const busy of r.stats.rtBusyCycles) expect(busy).toBeLessThanOrEqual(r.stats.cycles);
    }, 300_000);
  }

  test('hand-checked results, a partial last patch (45 pixels = 32 + 13)', async () => {
    const job = kernelJob(simpleKernel, 45);
    const r = await runGpu(job, { sim: 'ts' });
    r.pixels.forEach((p, i) => expect([...p.ret]).toEqual([i, 3 * i, new Uint32Array(new Float32Array([i]).buffer)[0], 0]));
    expect(r.stats.instructions).toBe(45 * 8);
    expect(r.faults).toEqual([]);
  }, 120_000);

  test('one pixel, and a frame of no pixels', async () => {
    const one = await runGpu(kernelJob(simpleKernel, 1), { sim: 'ts' });
    expect(one.pixels.map((p) => [...p.ret])).toEqual([[0, 0, 0, 0]]);
    const none = await runGpu(kernelJob(simpleKernel, 0), { sim: 'ts' });
    expect(none.pixels).toEqual([]);
    expect(none.stats.instructions).toBe(0);
  }, 120_000);

  test('RV15 after trace (the normal and the hit triangle index) reaches the kernel as on the ISA simulator', async () => {
    const job = returningRv15(frame('id', 8, 6));
    const r = await runGpu(job, { sim: 'ts' });
    await expectSameAsIss(job, r);
    // The rays hit several triangles (the Cornell box has no background), so RV15.w carries more than one index.
    expect(new Set(r.pixels.map((p) => p.ret[3])).size).toBeGreaterThan(3);
  }, 300_000);

  test('a scene of no triangles: every ray misses', async () => {
    const job = { ...frame('id', 8, 4), triangles: sceneToImage({ vertices: new Uint32Array(0), triangles: new Uint32Array(0) }) };
    const r = await runGpu(job, { sim: 'ts' });
    await expectSameAsIss(job, r);
    for (const p of r.pixels) expect([...p.ret]).toEqual([0, 0, 0, 0]);
    expect(r.stats.rays).toBe(32);
    expect(r.stats.triangleTests).toBe(0);
  }, 120_000);

  test('1 RT core with 1 IC core', async () => {
    const job = frame('shade', 8, 5);
    const r = await runGpu(job, { sim: 'ts', rtCores: 1, icCores: 1 });
    await expectSameAsIss(job, r);
    expect(r.stats.rtBusyCycles).toHaveLength(1);
    expect(r.stats.icBusyCycles).toHaveLength(1);
  }, 300_000);

  // The most IC cores (32) in the soak: elaborating and compiling them took a minute; CI runs 16, and the blocks that
  // index the cores take 32 in gpuBlocks.test.ts's and icBuffer.test.ts's corner parameters.
  const icCores = ciOrSoak(16, 32);
  test(`4 RT cores with ${icCores} IC cores`, async () => {
    const job = frame('id', 8, 4);
    const r = await runGpu(job, { sim: 'ts', rtCores: 4, icCores });
    await expectSameAsIss(job, r);
    expect(r.stats.icBusyCycles).toHaveLength(icCores);
    // 32 rays over the cores: the dispatcher spreads them.
    expect(r.stats.icBusyCycles.filter((b) => b > 0).length).toBeGreaterThan(1);
  }, 600_000);

  test('a thread that faults is reported and the frame completes', async () => {
    const source = `
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R1, R7, 0
    ii_subi R2, R1, 5
    cmp_i R2, R0
    bne ok
    real_jmp #28000          // past the end of instruction memory: a fault
ok:
    fin
`;
    const job = kernelJob(source, 40);
    const r = await runGpu(job, { sim: 'ts' });
    await expectSameAsIss(job, r);
    expect(r.faults).toEqual([5]);
    expect(r.pixels[5]!.ret[0]).toBe(5);
  }, 120_000);

  test('a kernel that never ends stops at the cycle limit naming the stuck threads and their PCs', async () => {
    const job = kernelJob('    s_mov R2, R1\nloop:\n    jmp loop\n', 2, 'spin.s');
    const err = await runGpu(job, { sim: 'ts', maxCycles: 3000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuRunError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/did not finish within 3000 cycles/);
    expect(msg).toMatch(/thread 0 \(pixel 0\) on RT core \d context \d at PC 0x000[04] \(spin\.s:[23]\)/);
    expect(msg).toMatch(/thread 1 \(pixel 1\) on RT core \d context \d at PC 0x000[04] \(spin\.s:[23]\)/);
  }, 120_000);

  test('random DMA stalls change nothing but the timing', async () => {
    const job = frame('id', 8, 6);
    const seed = Number(process.env.RTGPU_SEED ?? 6);
    console.log(`DMA stall seed ${seed} (RTGPU_SEED)`);
    const calm = await runFrame(job, { sim: 'ts' });
    const stalled = await runFrame(job, { sim: 'ts', dmaStallSeed: seed });
    expect(stalled.pixels).toEqual(calm.pixels);
    expect(stalled.stats.cycles).toBeGreaterThan(calm.stats.cycles);
  }, 120_000);

  test('the hardware rejects a triangle image over capacity with an error', async () => {
    const many = { vertices: new Uint32Array(3 * 3), triangles: new Uint32Array(Array.from({ length: 513 }, () => [0, 1, 2, 1]).flat()) };
    const job = { ...frame('id', 2, 1), triangles: sceneToImage(many) };
    await expect(runGpu(job, { sim: 'ts' })).rejects.toThrow(/rejected the scene image/);
  }, 120_000);

  test('a job with a texture image on a GPU without a texture unit: the driver reads FEATURES and refuses it', async () => {
    const job = { ...kernelJob(simpleKernel, 1), texture: new Uint32Array(16) };
    // runGpu refuses it before building anything; the driver itself asks the hardware.
    await expect(runGpu(job, { sim: 'ts' })).rejects.toThrow(/needs a GPU with a texture unit; the simulated GPU \(--sim ts\) has none: add --texture-unit, or use --sim iss/);
    await expect(runFrame(job, { sim: 'ts' })).rejects.toThrow(/the job has a texture image, but this GPU has no texture unit \(FEATURES.TEXTURE_UNIT is 0\)/);
  }, 120_000);

  test('the host refuses a program longer than instruction memory before running', async () => {
    const job = { ...kernelJob(simpleKernel, 1), program: new Uint32Array(4097), constants: cameraConstants(defaultCamera, 1, 1) };
    await expect(runGpu(job, { sim: 'ts' })).rejects.toThrow(/instruction memory holds 4096/);
  });
});

describe('a frame from a first pixel, several frames on one GPU, a frame across render workers', () => {
  // s_itof reads R1 as a signed integer.
  const expected = (p: number) => [p, Math.imul(p, 3) >>> 0, new Uint32Array(new Float32Array([p | 0]).buffer)[0], 0];

  test('FIRST_PIXEL: thread i runs pixel first + i (ids wrap at 2^32); results and reports index from 0', async () => {
    for (const first of [1000, 2 ** 32 - 10]) {
      const job = { ...kernelJob(simpleKernel, 45), firstPixel: first };
      const r = await runGpu(job, { sim: 'ts' });
      r.pixels.forEach((p, i) => {
        const id = (first + i) >>> 0;
        expect({ pixel: p.pixel, ret: [...p.ret] }).toEqual({ pixel: id, ret: expected(id) });
      });
      await expectSameAsIss(job, r);
    }
  }, 120_000);

  test('one session runs ranges one after another: the images load once, each range equals the ISA simulator', async () => {
    const job = frame('shade', 16, 6);
    const iss = await runGpu(job, { sim: 'iss' });
    const session = await GpuSession.open(job, { sim: 'ts' });
    try {
      const ranges = [{ first: 64, count: 32 }, { first: 0, count: 64 }, { first: 96, count: 0 }, { first: 90, count: 6 }];
      const cycles: number[] = [];
      for (const { first, count } of ranges) {
        const r = session.run(first, count);
        expect(r.pixels.map((p) => p.pixel)).toEqual(Array.from({ length: count }, (_, i) => first + i));
        expect(r.pixels.map((p) => [...p.ret])).toEqual(iss.pixels.slice(first, first + count).map((p) => [...p.ret]));
        cycles.push(session.stats().cycles);
      }
      // The first range streams the images in; the later ones start at once (no loads): fewer cycles for as many pixels.
      const again = await runGpu({ ...job, firstPixel: 90, pixels: 6 }, { sim: 'iss' });
      expect(session.stats().instructions).toBe(iss.stats.instructions + again.stats.instructions);
      expect(cycles[3]! - cycles[2]!).toBeLessThan(cycles[0]!);
    } finally {
      session.close();
    }
  }, 300_000);

  test('frameChunks: whole patches in pixel order, covering the frame exactly', () => {
    expect(frameChunks(0, 100, 2)).toEqual([{ first: 0, count: 64 }, { first: 64, count: 36 }]);
    expect(frameChunks(5, 65, 8)).toEqual([{ first: 5, count: 32 }, { first: 37, count: 32 }, { first: 69, count: 1 }]);
    expect(frameChunks(0, 0, 4)).toEqual([]);
    expect(frameChunks(0, 3072, 8).map((c) => c.count)).toEqual(new Array(8).fill(384));
  });

  test('two render workers give the frame of one GPU, bit for bit; the counters add up', async () => {
    const job = frame('shade', 16, 10);
    const one = await runGpu(job, { sim: 'ts' });
    const two = await runGpu(job, { sim: 'ts', jobs: 2 });
    expect(two.pixels).toEqual(one.pixels);
    expect(two.faults).toEqual(one.faults);
    expect(two.stats.gpus).toBe(2);
    expect({ instructions: two.stats.instructions, rays: two.stats.rays, tests: two.stats.triangleTests }).toEqual({ instructions: one.stats.instructions, rays: one.stats.rays, tests: one.stats.triangleTests });
    expect(two.stats.rtBusyCycles).toHaveLength(4);
    // The second GPU loads the images again and each chunk starts with an empty pipeline: more cycles in all.
    expect(two.stats.cycles).toBeGreaterThan(one.stats.cycles);
  }, 300_000);

  test('workers: faults keep their pixel ids; a stuck kernel in a worker is a GpuRunError naming the pixel', async () => {
    const faulty = kernelJob(`
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R1, R7, 0
    ii_subi R2, R1, 70
    cmp_i R2, R0
    bne ok
    real_jmp #28000
ok:
    fin
`, 100);
    const r = await runGpu(faulty, { sim: 'ts', jobs: 2 });
    expect(r.faults).toEqual([70]);
    // Four one-patch chunks: each worker's GPU ran one at least, however late it started (its counters are in the sum).
    expect(r.stats.gpus).toBe(2);
    expect(r.pixels.map((p) => p.ret[0])).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const spin = kernelJob('    s_mov R2, R1\nloop:\n    jmp loop\n', 40, 'spin.s');
    const err = await runGpu(spin, { sim: 'ts', jobs: 2, maxCycles: 3000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GpuRunError);
    expect((err as Error).message).toMatch(/did not finish within 3000 cycles.*\n.*thread \d+ \(pixel \d+\) on RT core/);
    await expect(runGpu(faulty, { sim: 'verilator', jobs: 2 })).rejects.toThrow(/render workers run the TS simulator only/);
    const none = await runGpu({ ...faulty, pixels: 0 }, { sim: 'ts', jobs: 2 });
    expect(none.pixels).toEqual([]);
  }, 300_000);
});
