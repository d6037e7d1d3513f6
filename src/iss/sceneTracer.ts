// The `trace` of the ISA simulator: brute force over every triangle, the BVH traversal of the BVH IC cores, or the BVH8
// traversal of the BVH8 IC cores, with counters.
import { buildBvh, buildBvh8, encodeBvh8Image, reorderScene, type Bvh4 } from '../bvh/index.ts';
import { castRayBvh } from '../bvh/traversal/bvhCaster.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../bvh/traversal/bvh8Caster.ts';
import { castRay, hitParametersOf, rayIsValid, type TraceResult, type TriangleTestFn, type Vec3, type Vec4 } from '../golden/rayCaster.ts';
import type { RayQuery } from '../golden/rayQuery.ts';
import { triangleCount, type Scene } from '../golden/scene.ts';

/** How `trace` finds the closest hit: every triangle (the seed 004 IC cores), a BVH4 (src/bvh, the BVH IC cores) or a GFX12 BVH8 image (the BVH8 IC cores). */
export type Traversal = 'brute-force' | 'bvh' | 'bvh8';

/** What the traced rays cost, counted as the IC cores count it. */
export interface TraceCounters {
  /** Every `trace`, valid or not. */
  rays: number;
  /** Ray–triangle tests (none for an invalid ray, which answers a miss at once). */
  triangleTests: number;
  /** BVH nodes tested (0 for brute force; box nodes for the BVH8). */
  nodeTests: number;
}

export interface SceneTracerOptions {
  /** Default 'brute-force', or 'bvh' when `bvh` is given. */
  readonly traversal?: Traversal;
  /** The ray–triangle test (default testTriangle, Möller–Trumbore). */
  readonly triangleTest?: TriangleTestFn;
  /** A prebuilt BVH of the scene, which must then be in the BVH's order. */
  readonly bvh?: Bvh4;
  /** For 'bvh8': the BVH8 image's node words to walk exactly (parseBvh8SceneImage's); absent: built from the scene (buildBvh8's defaults). */
  readonly bvh8?: Uint32Array;
}

/** A trace's answer: RV14 (`hit`), RV15 (`normal`), RV13 (`hitParameters`) and the caster's details. */
export type SceneTraceResult = TraceResult & {
  /** The ray reached an index past the BVH (castRayBvh); its answer is a miss and its thread faults. */
  readonly fault?: true;
  /** RV13 after `trace RVa` (docs/rays.md): (t, u, v, instance) of the hit, instance 0xFFFFFFFF outside one; all 0 on a miss. */
  readonly hitParameters: Vec4;
};

export interface SceneTracer {
  /** Cast a ray with `query` (`trace RVa`), or the plain `trace`'s DEFAULT_RAY_QUERY when it is undefined. */
  readonly trace: (o: Vec3, d: Vec3, query?: RayQuery) => SceneTraceResult;
  readonly counters: TraceCounters;
}

/**
 * A tracer over `scene`. For 'bvh' without `bvh`, the BVH is built here (binned SAH, buildBvh's defaults)
 * and the scene traced in its order. With `bvh` (a prebuilt BVH, as parseBvhSceneImage returns it),
 * `scene` must already be in that BVH's order (the triangle memory's) and exactly that BVH is traversed;
 * `traversal` then defaults to 'bvh'. A BVH whose indices point past its nodes, TriRanges or triangles (a malformed
 * image the host would refuse) is traced as the BVH IC cores trace it: a ray that reaches such an index faults.
 */
export function sceneTracer(scene: Scene, opts: SceneTracerOptions = {}): SceneTracer {
  const { bvh, triangleTest, traversal = bvh === undefined ? 'brute-force' : 'bvh' } = opts;
  const counters: TraceCounters = { rays: 0, triangleTests: 0, nodeTests: 0 };
  if (traversal === 'brute-force') {
    if (bvh !== undefined) throw new Error("a BVH was given for 'brute-force' traversal; use traversal 'bvh'");
    const n = triangleCount(scene);
    return {
      counters,
      trace: (o, d, query) => {
        counters.rays++;
        if (rayIsValid(o, d)) counters.triangleTests += n;
        return withParameters(castRay(scene, o, d, triangleTest, query));
      },
    };
  }
  if (traversal === 'bvh8') {
    if (bvh !== undefined) throw new Error("a BVH4 was given for 'bvh8' traversal; give the BVH8 image's nodes as bvh8");
    // castRayBvh8 has the watertight test built in: the BVH8 cores' TrianglePair.
    const nodes = opts.bvh8 ?? encodeBvh8Image(buildBvh8(scene)).words;
    return {
      counters,
      trace: (o, d, query) => {
        const r = castRayBvh8(nodes, o, d, { ...BVH8_CORE_FEATURES, query });
        counters.rays++;
        counters.triangleTests += r.counters.triangleTests;
        counters.nodeTests += r.counters.nodeTests;
        return withParameters(r);
      },
    };
  }
  if (traversal !== 'bvh') throw new Error(`traversal must be 'brute-force', 'bvh' or 'bvh8', got '${String(traversal)}'`);
  const tree = bvh ?? buildBvh(scene);
  const ordered = bvh === undefined ? reorderScene(scene, tree) : scene;
  return {
    counters,
    trace: (o, d, query) => {
      const r = castRayBvh(tree, ordered, o, d, { triangleTest, query });
      counters.rays++;
      counters.triangleTests += r.counters.triangleTests;
      counters.nodeTests += r.counters.nodeTests;
      return withParameters(r);
    },
  };
}

const withParameters = <R extends TraceResult>(r: R): R & { readonly hitParameters: Vec4 } => ({ ...r, hitParameters: hitParametersOf(r) });
