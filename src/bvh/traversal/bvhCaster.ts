// The golden BVH traversal: the closest hit through a BVH4, step for step as the hardware traversal must do it (docs/bvh.md).
import { fcmp, FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO, POS_INF } from '../../golden/float32.ts';
import { childOrder, rayInverse, slabTest, type SlabResult } from '../../golden/rayBox.ts';
import { hitResult, missResult, rayIsValid, testTriangle, triangleVertex, type TraceResult, type TriangleTest, type TriangleTestFn, type Vec3 } from '../../golden/rayCaster.ts';
import { accepts, boxClamp, isAnyHit, queryOf } from '../../golden/rayAccept.ts';
import type { RayQuery } from '../../golden/rayQuery.ts';
import { triangleCount, triangleMask, triangleOneSided, type Scene } from '../../golden/scene.ts';
import { STACK_DEPTH, type Bvh4 } from '../bvh4.ts';

export type { TriangleTestFn };

export interface BvhCounters {
  /** Nodes popped and tested (entries skipped by the tnear check are not counted). */
  readonly nodeTests: number;
  /** Ray–box slab tests: the non-empty children of the tested nodes. */
  readonly boxTests: number;
  readonly triangleTests: number;
  /** The most entries the stack held at once. */
  readonly maxStack: number;
}

export interface BvhTraceResult extends TraceResult {
  readonly counters: BvhCounters;
  /**
   * Set (only) when the ray reached an entry it could not read: a node index past the nodes, a TriRange index past the
   * TriRanges, or a TriRange whose triangles run past the scene. The ray stops there and answers a miss (docs/bvh.md).
   */
  readonly fault?: true;
}

export interface BvhCastOptions {
  /** The ray–triangle test (default testTriangle, the Möller–Trumbore sequence of docs/intersection.md). */
  readonly triangleTest?: TriangleTestFn;
  /** The ray query (docs/rays.md); default DEFAULT_RAY_QUERY, the plain `trace`. */
  readonly query?: RayQuery;
}

/** A traversal stack entry: a node or a leaf (TriRange) with the entry distance of its box. */
interface Entry {
  readonly leaf: boolean;
  readonly index: number;
  readonly tnear: number;
}

/**
 * Cast one ray through `bvh` over `scene`, which must be the reordered scene (reorderScene): triangle
 * indices in the result are indices into it. The result equals castRay(scene, o, d) on every ray
 * whose boxes and triangle tests are consistent (docs/bvh.md says when they can differ), for any `opts.query`:
 * hits the query does not accept are passed by, boxes are clamped to its interval (boxClamp), and with ANY_HIT the
 * first accepted triangle in the traversal's order (stack order, then leaf order) is the answer.
 */
export function castRayBvh(bvh: Bvh4, scene: Scene, o: Vec3, d: Vec3, opts: BvhCastOptions = {}): BvhTraceResult {
  const triangles = triangleCount(scene);
  if (triangles !== bvh.perm.length) throw new Error(`the BVH covers ${bvh.perm.length} triangles, the scene has ${triangles}`);
  const counters = { nodeTests: 0, boxTests: 0, triangleTests: 0, maxStack: 0 };
  if (!rayIsValid(o, d)) return { ...missResult(), counters };
  const test = opts.triangleTest ?? testTriangle;
  const q = queryOf(opts.query);
  const anyHit = isAnyHit(q);
  const inv = rayInverse(d);
  const stack: Entry[] = [];
  const push = (e: Entry): void => {
    if (stack.length === STACK_DEPTH) throw new Error(`traversal stack overflow (${STACK_DEPTH} entries): the BVH is deeper than the builder allows`);
    stack.push(e);
    counters.maxStack = Math.max(counters.maxStack, stack.length);
  };
  let best: { index: number; test: TriangleTest } | undefined;
  push({ leaf: false, index: 0, tnear: 0 });
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (best !== undefined && fcmp(e.tnear, best.test.t).flags === FLAG_POSITIVE) continue;
    if (e.leaf) {
      const range = bvh.triRanges[e.index];
      if (range === undefined || range.first + range.count > triangles) return faulted(counters);
      for (let i = range.first; i < range.first + range.count; i++) {
        counters.triangleTests++;
        const r = test(o, d, triangleVertex(scene, i, 0), triangleVertex(scene, i, 1), triangleVertex(scene, i, 2));
        if (accepts(q, r, triangleMask(scene, i), triangleOneSided(scene, i)) && (best === undefined || closer(r.t, i, best.test.t, best.index))) {
          best = { index: i, test: r };
          if (anyHit) return { ...hitResult(scene, o, d, i, r), counters };
        }
      }
      continue;
    }
    if (e.index >= bvh.nodes.length) return faulted(counters);
    counters.nodeTests++;
    const { lower, limit } = boxClamp(q, best === undefined ? POS_INF : best.test.t);
    const children = bvh.nodes[e.index]!.children;
    const results = children.map((c): SlabResult | undefined => {
      if (c.kind === 'empty') return undefined;
      counters.boxTests++;
      return slabTest(o, inv, c.box, limit, lower);
    });
    // Nearest first: push in reverse so the nearest child is popped next.
    const order = childOrder(results);
    for (let k = order.length - 1; k >= 0; k--) {
      const slot = order[k]!;
      push({ leaf: children[slot]!.kind === 'leaf', index: children[slot]!.index, tnear: results[slot]!.tnear });
    }
  }
  const hit = best === undefined ? missResult() : hitResult(scene, o, d, best.index, best.test);
  return { ...hit, counters };
}

/** A ray that reached an index past the loaded BVH: a miss, whatever it had found, with the fault mark. */
const faulted = (counters: BvhCounters): BvhTraceResult => ({ ...missResult(), counters, fault: true });

/** Strictly nearer, or as near with a lower triangle index (the brute-force caster's order of preference). */
export function closer(t: number, index: number, bestT: number, bestIndex: number): boolean {
  const flag = fcmp(t, bestT).flags;
  return flag === FLAG_NEGATIVE || (flag === FLAG_ZERO && index < bestIndex);
}
