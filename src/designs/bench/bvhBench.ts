// BVH traversal cost on the bunny in the Cornell box, for `rtgpu bench` (bvhTestsPerRay, bvhTestSpeedup).
import { buildBvh, reorderScene, type BuildOptions } from '../../bvh/index.ts';
import { castRayBvh } from '../../bvh/traversal/bvhCaster.ts';
import { triangleCount, type Scene } from '../../golden/scene.ts';
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { defaultCamera, type Camera } from '../../host/camera.ts';
import { primaryRays } from '../../host/primaryRays.ts';

/** `rtgpu render`'s default image size. */
export const BVH_BENCH_SIZE = { width: 64, height: 48 } as const;

export interface BvhTraversalStats {
  readonly rays: number;
  readonly triangles: number;
  /** Averages per ray. */
  readonly nodeTests: number;
  readonly boxTests: number;
  readonly triangleTests: number;
  /** Triangle tests of the brute-force caster per ray: every triangle for every (valid) ray. */
  readonly bruteForceTests: number;
  readonly maxStack: number;
  readonly buildSeconds: number;
}

/** Cast the camera's primary rays (as the GPU forms them) through a BVH of the scene and average the counters. */
export function measureBvhTraversal(scene: Scene, camera: Camera, width: number, height: number, build: BuildOptions = {}): BvhTraversalStats {
  const start = performance.now();
  const bvh = buildBvh(scene, build);
  const buildSeconds = (performance.now() - start) / 1000;
  const ordered = reorderScene(scene, bvh);
  const rays = primaryRays(camera, width, height);
  const sum = { nodeTests: 0, boxTests: 0, triangleTests: 0, maxStack: 0 };
  for (const r of rays) {
    const c = castRayBvh(bvh, ordered, r.origin, r.direction).counters;
    sum.nodeTests += c.nodeTests;
    sum.boxTests += c.boxTests;
    sum.triangleTests += c.triangleTests;
    sum.maxStack = Math.max(sum.maxStack, c.maxStack);
  }
  const n = rays.length;
  const triangles = triangleCount(scene);
  return {
    rays: n,
    triangles,
    nodeTests: sum.nodeTests / n,
    boxTests: sum.boxTests / n,
    triangleTests: sum.triangleTests / n,
    bruteForceTests: triangles,
    maxStack: sum.maxStack,
    buildSeconds,
  };
}

/**
 * bvhTestsPerRay: node + triangle tests per primary ray of the bunny in the box at 64x48 (target ≤ 50);
 * bvhBoxTriangleTestsPerRay: box + triangle tests; bvhTestSpeedup: brute-force tests over node + triangle tests.
 */
export function measureBvhTests(): { bvhTestsPerRay: number; bvhBoxTriangleTestsPerRay: number; bvhTestSpeedup: number } {
  const s = measureBvhTraversal(bunnyInBox(), defaultCamera, BVH_BENCH_SIZE.width, BVH_BENCH_SIZE.height);
  const tests = s.nodeTests + s.triangleTests;
  return { bvhTestsPerRay: tests, bvhBoxTriangleTestsPerRay: s.boxTests + s.triangleTests, bvhTestSpeedup: s.bruteForceTests / tests };
}
