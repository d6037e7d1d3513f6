// Oriented boxes against axis-aligned ones on the BVH8: SAH cost, build time and the golden traversal's box tests on primary rays (docs/performance.md, "Oriented boxes").
import { buildBvh8, bvh8SahCost, encodeBvh8Image, BVH8_DEFAULT_TRIANGLE_COST } from '../../bvh/index.ts';
import { castRayBvh8 } from '../../bvh/traversal/bvh8Caster.ts';
import type { Scene } from '../../golden/scene.ts';
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { thinRods } from '../../scenes/thinRodsScene.ts';
import { defaultCamera, type Camera } from '../../host/camera.ts';
import { primaryRays } from '../../host/primaryRays.ts';
import { BVH_BENCH_SIZE } from './bvhBench.ts';

/** One build and its traversal of the primary rays. */
export interface ObbSide {
  readonly buildMs: number;
  readonly sahCost: number;
  /** Box nodes with a rotation (0 with OBB off). */
  readonly rotatedNodes: number;
  readonly boxNodes: number;
  /** Per ray. */
  readonly nodeTests: number;
  readonly boxTests: number;
  readonly triangleTests: number;
}

export interface ObbComparison {
  readonly rays: number;
  readonly off: ObbSide;
  readonly obb: ObbSide;
  /** Rays whose hit (t bits or triangle) differs between the two: 0 expected (the hit comes from the same triangle test). */
  readonly differences: number;
  /** Rays that faulted in either traversal: 0 expected. */
  readonly faults: number;
  /** 1 − obb / off. */
  readonly sahSaved: number;
  readonly boxTestsSaved: number;
}

/** Build the scene's BVH8 with OBB off and on, cast the camera's primary rays through both, and compare. */
export function compareObb(scene: Scene, camera: Camera, width: number, height: number): ObbComparison {
  const rays = primaryRays(camera, width, height);
  let differences = 0;
  let faults = 0;
  const hits: { t: number; triangle: number }[] = [];
  const side = (obb: boolean): ObbSide => {
    const start = performance.now();
    const bvh = buildBvh8(scene, { obb });
    const buildMs = performance.now() - start;
    const image = encodeBvh8Image(bvh);
    const sum = { nodeTests: 0, boxTests: 0, triangleTests: 0 };
    rays.forEach((r, i) => {
      const h = castRayBvh8(image.words, r.origin, r.direction);
      if (h.fault) faults++;
      if (!obb) hits[i] = { t: h.t, triangle: h.triangle };
      else if (hits[i]!.t !== h.t || hits[i]!.triangle !== h.triangle) differences++;
      sum.nodeTests += h.counters.nodeTests;
      sum.boxTests += h.counters.boxTests;
      sum.triangleTests += h.counters.triangleTests;
    });
    const n = rays.length;
    return {
      buildMs,
      sahCost: bvh8SahCost(bvh, BVH8_DEFAULT_TRIANGLE_COST),
      rotatedNodes: bvh.nodes.filter((x) => x.obbMatrixIndex !== undefined).length,
      boxNodes: bvh.nodes.length,
      nodeTests: sum.nodeTests / n,
      boxTests: sum.boxTests / n,
      triangleTests: sum.triangleTests / n,
    };
  };
  const off = side(false);
  const obb = side(true);
  return { rays: rays.length, off, obb, differences, faults, sahSaved: 1 - obb.sahCost / off.sahCost, boxTestsSaved: 1 - obb.boxTests / off.boxTests };
}

/** The bench's figures: the bunny in the box and the thin rods (no box), `rtgpu render`'s default 64x48 primary rays. */
export const compareObbOnBunny = (): ObbComparison => compareObb(bunnyInBox(), defaultCamera, BVH_BENCH_SIZE.width, BVH_BENCH_SIZE.height);
export const compareObbOnThinRods = (): ObbComparison => compareObb(thinRods(), defaultCamera, BVH_BENCH_SIZE.width, BVH_BENCH_SIZE.height);

/**
 * obbBoxTestsSaved and obbSahSaved: the fraction of castRayBvh8's box tests per primary ray, and of the SAH cost,
 * that oriented boxes save on the thin rods (issue 21: report the box tests saved on thin rotated objects).
 */
export function measureObb(): { obbBoxTestsSaved: number; obbSahSaved: number } {
  const c = compareObbOnThinRods();
  if (c.differences > 0 || c.faults > 0) throw new Error(`OBB and axis-aligned BVH8s disagree on ${c.differences} rays (${c.faults} faults): the figures would be meaningless`);
  return { obbBoxTestsSaved: c.boxTestsSaved, obbSahSaved: c.sahSaved };
}
