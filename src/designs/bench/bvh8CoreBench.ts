// The BVH8 IC core on the bunny in the Cornell box (64x48 primary rays) for `rtgpu bench`: box and triangle tests per
// cycle, and cycles per ray against the BVH4 IC core with as many rays in flight; beside them the engines' utilisation
// the bound the engines and the node port set on these rays, and the same rays as any-hit rays (docs/performance.md "BVH8 core").
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { defaultCamera } from '../../host/camera.ts';
import { primaryRays } from '../../host/primaryRays.ts';
import { bvh8SceneImage, bvhSceneImage } from '../../bvh/index.ts';
import { runBvhRays } from '../../gpu/bvh/verification/bvhRayRunner.ts';
import { defaultBvhIcSystemParams } from '../../gpu/bvh/bvhIcSystem.ts';
import { anyHitRay, runBvh8Rays } from '../../gpu/bvh8/verification/bvh8RayRunner.ts';
import { defaultBvh8IcSystemParams } from '../../gpu/bvh8/bvh8IcSystem.ts';
import { BVH_BENCH_SIZE } from './bvhBench.ts';

export interface Bvh8CoreFigures {
  /** Ray–box tests per cycle of one BVH8 core, from the first ray offered to the last answer (limit 8). */
  readonly bvh8BoxTestsPerCycle: number;
  /** Ray–triangle tests per cycle (limit 2). */
  readonly bvh8TriTestsPerCycle: number;
  readonly bvh8CyclesPerRay: number;
  /** The BVH4 IC core's cycles per ray (watertight test, as the BVH8's) over the BVH8's, each core with its most rays in flight (issue 21 aims ≥ 2). */
  readonly bvh8SpeedupOverBvh4: number;
  /** The BVH8 core with 32 slots on the GPU's 5-bit link: as many rays in flight as the BVH4 core. */
  readonly bvh8CyclesPerRay32Slots: number;
  readonly bvh8TriTestsPerCycle32Slots: number;
  /** The BVH4 core's cycles per ray over that 32-slot BVH8 core's. */
  readonly bvh8SpeedupOverBvh4EqualSlots: number;
  /** Box engine utilisation: box tests / (8 · cycles). */
  readonly bvh8BoxEngineUtilisation: number;
  /** Triangle engine utilisation: triangle tests / (2 · cycles). */
  readonly bvh8TriEngineUtilisation: number;
  /**
   * The fewest cycles per ray any core with these engines could take on these rays and this BVH: the busiest of the box
   * engine (box tests / 8), the triangle engine (triangle tests / 2) and the node read port (node reads / 1), per ray.
   */
  readonly bvh8CyclesPerRayBound: number;
  /** The most box tests per cycle reachable on these rays and this BVH: box tests / (bound · rays). */
  readonly bvh8BoxTestsPerCycleBound: number;
  /** The most triangle tests per cycle reachable: triangle tests / (bound · rays). */
  readonly bvh8TriTestsPerCycleBound: number;
  /** The same rays as any-hit rays (the query's ANY_HIT: the first pair with an accepted hit ends the walk, as for shadow rays). */
  readonly bvh8AnyHitCyclesPerRay: number;
  /** Triangle tests per ray any-hit over closest-hit on these rays. */
  readonly bvh8AnyHitTriTestsRatio: number;
  /** Every answer and counter matched the golden traversals (a figure from a wrong answer is worthless). */
  readonly bvh8MatchesGolden: boolean;
}

/** The engines' tests per cycle and the node memory's read ports (box and primitive nodes share the one port). */
export const BVH8_BOX_TESTS_PER_CYCLE = 8;
export const BVH8_TRI_TESTS_PER_CYCLE = 2;
export const BVH8_NODE_READ_PORTS = 1;

/** The busiest engine's (or the node port's) cycles per ray for these counts: no core with these engines can beat it. */
export function bvh8CyclesPerRayBound(counts: { readonly boxTests: number; readonly triangleTests: number; readonly nodeTests: number; readonly primitiveNodes: number }, rays: number): number {
  return Math.max(counts.boxTests / BVH8_BOX_TESTS_PER_CYCLE, counts.triangleTests / BVH8_TRI_TESTS_PER_CYCLE, (counts.nodeTests + counts.primitiveNodes) / BVH8_NODE_READ_PORTS) / rays;
}

/**
 * Each core with the most rays it takes, and the GPU's float latencies: the BVH8 core 64 slots with a 6-bit thread id on
 * its link (one id per slot; the GPU's link has 5 bits, 32 threads), the BVH4 core 32 (its link is the GPU's).
 */
export const BVH8_BENCH_RAYS = 64;
export const BVH8_BENCH_THREAD_BITS = 6;
export const BVH4_BENCH_RAYS = 32;

export function measureBvh8Core(width: number = BVH_BENCH_SIZE.width, height: number = BVH_BENCH_SIZE.height): Bvh8CoreFigures {
  const scene = bunnyInBox();
  const list = primaryRays(defaultCamera, width, height);
  const image = bvh8SceneImage(scene).image;
  const gpuLink = { ...defaultBvh8IcSystemParams, rays: BVH4_BENCH_RAYS, nodes: 1024, triangles: 4096, vertices: 4096 };
  const params = { ...gpuLink, rays: BVH8_BENCH_RAYS, threadBits: BVH8_BENCH_THREAD_BITS };
  const eight = runBvh8Rays(image, list, params);
  const anyHit = runBvh8Rays(image, list.map(anyHitRay), params);
  const equal = runBvh8Rays(image, list, gpuLink);
  const four = runBvhRays(scene, list, { ...defaultBvhIcSystemParams, rays: BVH4_BENCH_RAYS, triangleTest: 'watertight' }, {}, bvhSceneImage(scene));
  const exact = (r: typeof eight) => r.difference === null && !r.loadError && JSON.stringify(r.counts) === JSON.stringify(r.golden);
  const matches = exact(eight) && exact(anyHit) && exact(equal) && four.difference === null && !four.loadError;
  const fourCyclesPerRay = four.cycles / four.rays;
  const bvh8CyclesPerRay = eight.cycles / eight.rays;
  const bound = bvh8CyclesPerRayBound(eight.golden, eight.rays);
  return {
    bvh8BoxTestsPerCycle: eight.counts.boxTests / eight.cycles,
    bvh8TriTestsPerCycle: eight.counts.triangleTests / eight.cycles,
    bvh8CyclesPerRay,
    bvh8SpeedupOverBvh4: fourCyclesPerRay / bvh8CyclesPerRay,
    bvh8CyclesPerRay32Slots: equal.cycles / equal.rays,
    bvh8TriTestsPerCycle32Slots: equal.counts.triangleTests / equal.cycles,
    bvh8SpeedupOverBvh4EqualSlots: fourCyclesPerRay / (equal.cycles / equal.rays),
    bvh8BoxEngineUtilisation: eight.counts.boxTests / (BVH8_BOX_TESTS_PER_CYCLE * eight.cycles),
    bvh8TriEngineUtilisation: eight.counts.triangleTests / (BVH8_TRI_TESTS_PER_CYCLE * eight.cycles),
    bvh8CyclesPerRayBound: bound,
    bvh8BoxTestsPerCycleBound: eight.golden.boxTests / (bound * eight.rays),
    bvh8TriTestsPerCycleBound: eight.golden.triangleTests / (bound * eight.rays),
    bvh8AnyHitCyclesPerRay: anyHit.cycles / anyHit.rays,
    bvh8AnyHitTriTestsRatio: anyHit.counts.triangleTests / eight.counts.triangleTests,
    bvh8MatchesGolden: matches,
  };
}
