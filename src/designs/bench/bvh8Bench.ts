// BVH8 (GFX12 image) against the BVH4 on the bunny in the Cornell box, for `rtgpu bench` (bvh8MemoryRatio,
// bvh8InstancedMemoryRatio) and docs/bvh.md.
import { buildBvh8, buildBvh8Instanced, bvhSceneImage, encodeBvh8Image, type Bvh8BuildOptions } from '../../bvh/index.ts';
import { bunniesInBox } from '../../scenes/bunniesScene.ts';
import { flattenInstances } from '../../scenes/instancedScene.ts';
import { castRayBvh } from '../../bvh/traversal/bvhCaster.ts';
import { castRayBvh8 } from '../../bvh/traversal/bvh8Caster.ts';
import { testTriangleWatertight } from '../../golden/watertight.ts';
import type { Scene } from '../../golden/scene.ts';
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { defaultCamera, type Camera } from '../../host/camera.ts';
import { primaryRays } from '../../host/primaryRays.ts';
import { BVH_BENCH_SIZE } from './bvhBench.ts';

/** Per-ray averages of one traversal. */
export interface TraversalCost {
  readonly nodeTests: number;
  readonly boxTests: number;
  readonly triangleTests: number;
  /** Primitive nodes read (BVH8 only; 0 for the BVH4). */
  readonly primitiveNodes: number;
  readonly maxStack: number;
}

export interface Bvh8Comparison {
  readonly rays: number;
  /** The whole BVH4 scene image the BVH IC cores load: triangle section, nodes and TriRanges. */
  readonly bvh4Bytes: number;
  /** Of which the nodes and TriRanges. */
  readonly bvh4NodeBytes: number;
  /** The BVH8 image: box nodes and primitive nodes, which hold the vertices too. */
  readonly bvh8Bytes: number;
  readonly bvh8BoxNodes: number;
  readonly bvh8PrimitiveNodes: number;
  readonly bvh4: TraversalCost;
  /** Both with the watertight triangle test. */
  readonly bvh8: TraversalCost;
  /** Rays whose BVH8 hit (t bits) differs from the BVH4's: 0 expected. */
  readonly differences: number;
}

/** Build both BVHs of the scene, cast the camera's primary rays (as the GPU forms them) through each, and average. */
export function compareBvh8(scene: Scene, camera: Camera, width: number, height: number, build: Bvh8BuildOptions = {}): Bvh8Comparison {
  const four = bvhSceneImage(scene);
  const eight = encodeBvh8Image(buildBvh8(scene, build));
  const rays = primaryRays(camera, width, height);
  const sum4 = { nodeTests: 0, boxTests: 0, triangleTests: 0, primitiveNodes: 0, maxStack: 0 };
  const sum8 = { ...sum4 };
  let differences = 0;
  for (const r of rays) {
    const a = castRayBvh(four.bvh, four.ordered, r.origin, r.direction, { triangleTest: testTriangleWatertight });
    const b = castRayBvh8(eight.words, r.origin, r.direction);
    if (a.t !== b.t || (a.triangle < 0) !== (b.triangle < 0)) differences++;
    for (const [sum, c] of [
      [sum4, { ...a.counters, primitiveNodes: 0 }],
      [sum8, b.counters],
    ] as const) {
      sum.nodeTests += c.nodeTests;
      sum.boxTests += c.boxTests;
      sum.triangleTests += c.triangleTests;
      sum.primitiveNodes += c.primitiveNodes;
      sum.maxStack = Math.max(sum.maxStack, c.maxStack);
    }
  }
  const n = rays.length;
  const average = (s: typeof sum4): TraversalCost => ({ ...s, nodeTests: s.nodeTests / n, boxTests: s.boxTests / n, triangleTests: s.triangleTests / n, primitiveNodes: s.primitiveNodes / n });
  const nodeWords = four.image.length - 3 - four.image[0]!;
  return {
    rays: n,
    bvh4Bytes: 4 * four.image.length,
    bvh4NodeBytes: 4 * nodeWords,
    bvh8Bytes: 4 * eight.words.length,
    bvh8BoxNodes: eight.boxNodes,
    bvh8PrimitiveNodes: eight.primitiveNodes,
    bvh4: average(sum4),
    bvh8: average(sum8),
    differences,
  };
}

/**
 * bvh8MemoryRatio: bytes of the bunny scene's BVH8 image over its BVH4 scene image (both everything the traversal
 * reads: the BVH8's primitive nodes hold the vertices the BVH4 keeps in its triangle section); issue 21 aims ≤ 0.5.
 */
export function measureBvh8Memory(): { bvh8MemoryRatio: number } {
  const scene = bunnyInBox();
  return { bvh8MemoryRatio: encodeBvh8Image(buildBvh8(scene)).words.length / bvhSceneImage(scene).image.length };
}

/**
 * bvh8InstancedMemoryRatio: bytes of `--scene bunnies` (6 bunnies and the Cornell box) as a two-level image (each mesh's
 * BLAS once, instance nodes, a TLAS) over the BVH8 image of the same scene flattened; the point of instance nodes.
 */
export function measureBvh8InstancedMemory(): { bvh8InstancedMemoryRatio: number } {
  const { scene } = bunniesInBox();
  return { bvh8InstancedMemoryRatio: buildBvh8Instanced(scene).words.length / encodeBvh8Image(buildBvh8(flattenInstances(scene))).words.length };
}

/** The bench's comparison: the bunny in the box, `rtgpu render`'s default 64x48 primary rays. */
export const compareBvh8OnBunny = (): Bvh8Comparison => compareBvh8(bunnyInBox(), defaultCamera, BVH_BENCH_SIZE.width, BVH_BENCH_SIZE.height);
