// Cycles per ray of the BVH intersection core against the brute-force core on the bunny, and the node-test rate, for `rtgpu bench`.
import { createRng } from '../../util/seededRandom.ts';
import { sceneToImage, type Scene } from '../../golden/scene.ts';
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { fromNumber } from '../../golden/float32.ts';
import { defaultCamera } from '../../host/camera.ts';
import { primaryRays } from '../../host/primaryRays.ts';
import { runBvhRays } from '../../gpu/bvh/verification/bvhRayRunner.ts';
import { defaultBvhIcSystemParams, type BvhIcSystemParams } from '../../gpu/bvh/bvhIcSystem.ts';
import { runRays } from '../../gpu/icCore/verification/rayRunner.ts';
import { defaultIcSystemParams } from '../../gpu/icCore/icSystem.ts';
import type { Ray } from '../../gpu/icCore/verification/rayVectors.ts';
import { BVH_BENCH_SIZE } from './bvhBench.ts';

export interface BvhCoreFigures {
  /** Cycles per primary ray of one BVH IC system (default parameters) on the bunny in the box, 64x48. */
  readonly bvhCyclesPerRay: number;
  /** The same for one brute-force IC system (every triangle per ray; image load excluded), over the first `bruteForceRays` rays. */
  readonly bruteForceCyclesPerRay: number;
  readonly bruteForceRays: number;
  /** bruteForceCyclesPerRay / bvhCyclesPerRay (target ≥ 50). */
  readonly bvhSpeedup: number;
  /** Node tests per cycle with 32 rays in flight on a scene whose rays are mostly node tests (target 1 in steady state). */
  readonly bvhNodeTestsPerCycle: number;
  /** Whether every answer matched the golden traversal (a bench figure from a wrong answer is worthless). */
  readonly bvhMatchesGolden: boolean;
}

const BRUTE_FORCE_RAYS = 32;

/** Rays of the default camera at the bench size, as the kernels form them. */
const benchRays = (): Ray[] => primaryRays(defaultCamera, BVH_BENCH_SIZE.width, BVH_BENCH_SIZE.height).map((r) => ({ origin: r.origin, direction: r.direction }));

/**
 * "Dust": n tiny triangles scattered through a unit cube, rays along the cube. The BVH's inner boxes are large
 * and overlap the rays; its leaf boxes are tiny and mostly missed, so traversal is almost all node tests.
 */
export function dustScene(n: number, seed = 1): Scene {
  const rnd = createRng(seed);
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let t = 0; t < n; t++) {
    const c = [rnd(), rnd(), rnd()];
    for (let k = 0; k < 3; k++) vertices.push(...c.map((x) => fromNumber(x + (rnd() - 0.5) * 0.002)));
    triangles.push(3 * t, 3 * t + 1, 3 * t + 2, 1);
  }
  return { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
}

/** Rays across the dust cube: origins on the z = −1 plane over the cube, directions slightly tilted. */
export function dustRays(count: number): Ray[] {
  return Array.from({ length: count }, (_, i) => {
    const x = ((i * 0.618034) % 1) * 0.9 + 0.05;
    const y = ((i * 0.414214) % 1) * 0.9 + 0.05;
    return { origin: [fromNumber(x), fromNumber(y), fromNumber(-1)], direction: [fromNumber(0.01), fromNumber(-0.01), fromNumber(1)] };
  });
}

export function measureBvhCore(p: BvhIcSystemParams = defaultBvhIcSystemParams): BvhCoreFigures {
  const scene = bunnyInBox();
  const rays = benchRays();
  const bvh = runBvhRays(scene, rays, p);
  const brute = runRays(scene, rays.slice(0, BRUTE_FORCE_RAYS), { ...defaultIcSystemParams, triangles: 4096, vertices: 4096 });
  const bvhCyclesPerRay = bvh.cycles / bvh.rays;
  // runRays counts from reset: the image load (a word per cycle after three cycles of reset and start) is not ray time.
  const bruteForceCyclesPerRay = (brute.cycles - (4 + sceneToImage(scene).length)) / brute.rays;
  const dust = runBvhRays(dustScene(4096), dustRays(2048), { ...p, rays: 32, triangles: 4096, vertices: 16384, nodes: 4096, triRanges: 8192 });
  return {
    bvhCyclesPerRay,
    bruteForceCyclesPerRay,
    bruteForceRays: brute.rays,
    bvhSpeedup: bruteForceCyclesPerRay / bvhCyclesPerRay,
    bvhNodeTestsPerCycle: dust.nodeTestsPerCycle,
    bvhMatchesGolden: bvh.difference === null && brute.difference === null && dust.difference === null,
  };
}
