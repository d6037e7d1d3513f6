// The whole GPU with the BVH IC cores (traversal 'bvh') on the TS simulator against the ISA simulator walking the same BVH:
// pixels, rays, node and triangle tests identical; the bunny; a malformed BVH image is an error, not a hang; indices past
// the loaded BVH fault exactly the ISS's pixels.
import { describe, expect, test } from 'vitest';
import { Bvh4FormatError, parseBvhSceneImage } from '../../src/bvh/index.ts';
import { Machine } from '../../src/iss/index.ts';
import { BAD_INDICES, withBadIndex, type BadIndex } from '../../src/gpu/bvh/verification/badIndexVectors.ts';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { GpuRunError, runGpu, type GpuJob } from '../../src/host/runtime/index.ts';
import { returningRv15 } from './rv15Kernel.ts';

const bvhFrame = (kernel: 'id' | 'shade', scene: Scene, width: number, height: number): GpuJob => buildFrame({ kernel, camera: defaultCamera, width, height, scene, traversal: 'bvh' });

async function expectSameAsIss(job: GpuJob): Promise<void> {
  const gpu = await runGpu(job, { sim: 'ts' });
  const iss = await runGpu(job, { sim: 'iss' });
  expect(gpu.faults).toEqual([]);
  gpu.pixels.forEach((p, i) => expect({ pixel: p.pixel, ret: [...p.ret] }).toEqual({ pixel: i, ret: [...iss.pixels[i]!.ret] }));
  // The IC cores count what the golden traversal counts, ray for ray.
  expect({ rays: gpu.stats.rays, nodeTests: gpu.stats.nodeTests, triangleTests: gpu.stats.triangleTests }).toEqual({ rays: iss.stats.rays, nodeTests: iss.stats.nodeTests, triangleTests: iss.stats.triangleTests });
  expect(gpu.stats.nodeTests).toBeGreaterThan(0);
  expect(gpu.stats.instructions).toBe(iss.stats.instructions);
}

describe('rtgpu_top with BVH traversal', () => {
  test('the built-in scene with shade at 16x12 equals the ISA simulator', async () => {
    await expectSameAsIss(bvhFrame('shade', defaultScene(), 16, 12));
  }, 300_000);

  test('the bunny in the box (3,710 triangles) with id at 16x12 equals the ISA simulator', async () => {
    const job = bvhFrame('id', bunnyInBox(), 16, 12);
    await expectSameAsIss(job);
  }, 300_000);

  test("the bunny in the box at 8x6, the kernel returning RV15 (normal, triangle index: in the BVH's triangle order), equals the ISA simulator", async () => {
    await expectSameAsIss(returningRv15(bvhFrame('id', bunnyInBox(), 8, 6)));
  }, 300_000);

  test('a BVH scene image cut short is reported by the GPU, not traced', async () => {
    const job = bvhFrame('id', defaultScene(), 4, 2);
    const cut = { ...job, triangles: job.triangles.subarray(0, job.triangles.length - 7) };
    await expect(runGpu(cut, { sim: 'ts' })).rejects.toThrow(GpuRunError);
    await expect(runGpu(cut, { sim: 'ts' })).rejects.toThrow(/rejected the scene image/);
  }, 300_000);

  // Which child (or TriRange) each kind moves past the loaded part: one that some of the frame's rays reach.
  const nthOf: Record<BadIndex, number> = { node: 0, triRange: 0, triangles: 3 };

  test('indices past the loaded BVH (the host check bypassed): the frame completes, the faulted pixels and every pixel are the ISS’s', async () => {
    const job = bvhFrame('shade', defaultScene(), 8, 6);
    const good = { image: job.triangles, ...parseBvhSceneImage(job.triangles) };
    const iss = (b: typeof good) => new Machine({ program: job.program, constants: job.constants, scene: b.ordered, bvh: b.bvh }).run(job.pixels);
    const before = iss(good);
    for (const bad of BAD_INDICES) {
      const broken = withBadIndex(good, bad, nthOf[bad]);
      expect(() => parseBvhSceneImage(broken.image), 'the host would refuse it').toThrow(Bvh4FormatError);
      const gpu = await runGpu({ ...job, triangles: broken.image }, { sim: 'ts', maxCycles: 200_000 });
      const want = iss(broken);
      expect(gpu.faults, `${bad}: the faulted pixels`).toEqual(want.faults);
      expect(want.faults.length, `${bad}: some pixels fault`).toBeGreaterThan(0);
      expect(want.faults.length, `${bad}: not all`).toBeLessThan(job.pixels);
      console.log(`${bad}: ${want.faults.length} of ${job.pixels} pixels fault (${gpu.stats.cycles} cycles)`);
      gpu.pixels.forEach((p, i) => expect({ pixel: p.pixel, ret: [...p.ret] }, bad).toEqual({ pixel: i, ret: [...want.pixels[i]!.ret] }));
      expect({ rays: gpu.stats.rays, nodeTests: gpu.stats.nodeTests, triangleTests: gpu.stats.triangleTests }, bad).toEqual(want.trace);
      // A pixel none of whose rays reached the bad index is the pixel of the good tree.
      want.pixels.forEach((p, i) => (want.faults.includes(p.pixel) ? undefined : expect(p.ret, `${bad}: pixel ${i}`).toEqual(before.pixels[i]!.ret)));
    }
  }, 300_000);
});
