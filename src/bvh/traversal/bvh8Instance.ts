// The instance step of the golden BVH8 traversal: an instance node read, the ray moved into its object space (rayTransform.ts), its boxes tested; and what a hit in an instance answers (docs/bvh.md "Instances").
import { fcmp, fmin, FLAG_NEGATIVE, FLAG_ZERO } from '../../golden/float32.ts';
import { slabTest } from '../../golden/rayBox.ts';
import { maskAccepts, queryOf } from '../../golden/rayAccept.ts';
import { hitWithShader, rayIsValid, type TraceResult, type TriangleTest, type Vec3 } from '../../golden/rayCaster.ts';
import type { RayQuery } from '../../golden/rayQuery.ts';
import { normalToWorld, transformRay, type TransformedRay } from '../../golden/rayTransform.ts';
import { GFX12_NODE_WORDS, Gfx12Error, gfx12ChildBox, type Gfx12Triangle } from '../gfx12.ts';
import { bvh8NodeWords } from '../bvh8Image.ts';
import { decodeGfx12InstanceNode, type Gfx12InstanceNode } from '../gfx12Instance.ts';
import { BVH_ADDR_UNITS_PER_NODE } from '../bvh8Instanced.ts';

/** The traversal inside a BLAS: the instance, its object-space ray, and the stack depth at which the BLAS's entries end. */
export interface InstanceLevel {
  readonly instance: Gfx12InstanceNode;
  readonly ray: TransformedRay;
  /** Entries below this index are the TLAS's: when the stack is down to it, the ray returns to world space. */
  readonly stackBase: number;
}

/** What entering an instance node gives: a fault, a miss of all its boxes, or the BLAS root to push with its entry distance. */
export type InstanceEntry = { readonly kind: 'fault' } | { readonly kind: 'miss' } | { readonly kind: 'enter'; readonly level: Omit<InstanceLevel, 'stackBase'>; readonly root: number; readonly tnear: number };

/**
 * Read instance node `node`: transform the world ray by world_to_object (transformRay: origin M·o + translation,
 * direction M·d, 1/direction), slab-test its 1 to 4 object-space boxes with the closest hit so far as the limit
 * (t is the world t: the direction is not normalized), and enter its BLAS when one is hit, with the smallest
 * tnear of those (entry distances clamped below at `lower`, rayAccept.ts boxClamp). An object-space ray that is not
 * finite (or has a zero direction) misses, and so does an instance whose cull_mask shares no bit with the query's
 * ray mask (not entered). A node that does not decode, a bvh_addr that is not a whole node or lies past the image is
 * a fault.
 */
export function enterInstance(image: Uint32Array, node: number, o: Vec3, d: Vec3, limit: number, lower = 0, query?: RayQuery): InstanceEntry {
  const instance = tryDecode(() => decodeGfx12InstanceNode(bvh8NodeWords(image, node)));
  if (instance === undefined) return { kind: 'fault' };
  const root = instance.bvhAddr / BVH_ADDR_UNITS_PER_NODE;
  if (!Number.isInteger(root) || root >= image.length / GFX12_NODE_WORDS) return { kind: 'fault' };
  if (!maskAccepts(queryOf(query), instance.cullMask)) return { kind: 'miss' };
  const ray = transformRay(instance.worldToObject, o, d);
  if (!rayIsValid(ray.origin, ray.dir)) return { kind: 'miss' };
  let tnear: number | undefined;
  for (let i = 0; i < instance.children.length; i++) {
    const box = tryDecode(() => gfx12ChildBox(instance, i));
    if (box === undefined) return { kind: 'fault' };
    const r = slabTest(ray.origin, ray.invDir, box, limit, lower);
    if (r.hit) tnear = tnear === undefined ? r.tnear : fmin(tnear, r.tnear);
  }
  return tnear === undefined ? { kind: 'miss' } : { kind: 'enter', level: { instance, ray }, root, tnear };
}

/** The node decoders' answer, or undefined where they refuse the words (a Gfx12Error). */
export function tryDecode<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof Gfx12Error) return undefined;
    throw e;
  }
}

/** A candidate hit: the triangle, its test, and the instance it lies in (none in a one-level image). */
export interface Bvh8Hit {
  readonly triangle: Gfx12Triangle;
  readonly test: TriangleTest;
  readonly level?: InstanceLevel;
}

/**
 * Does the hit at t (in `level`, primitive `index`) replace `best`? Smaller t, or equal t and a lower (instance id,
 * primitive index) — the instance id first, so ties resolve as in the flattened scene, where instance i's triangles
 * come before instance i + 1's. With no instances this is bvhCaster's `closer`.
 */
export function closerHit(t: number, tri: Gfx12Triangle, level: InstanceLevel | undefined, best: Bvh8Hit | undefined): boolean {
  if (best === undefined) return true;
  const flag = fcmp(t, best.test.t).flags;
  if (flag === FLAG_NEGATIVE) return true;
  if (flag !== FLAG_ZERO) return false;
  const [a, b] = [level?.instance.userData ?? -1, best.level?.instance.userData ?? -1];
  return a < b || (a === b && tri.primitiveIndex < best.triangle.primitiveIndex);
}

/**
 * castRay's answer for the best hit, from the image alone, in world space: hit point o + t·d of the world ray,
 * shader id the instance's (its shader id word) or else the triangle's geometry index, normal cross(e1, e2) of the
 * object-space vertices taken back to world space by normalToWorld (RV15.w the primitive index), `triangle` the primitive index (in its mesh),
 * `instance` the instance's user_data.
 */
export function instanceHitResult(o: Vec3, d: Vec3, best: Bvh8Hit): TraceResult {
  const inst = best.level?.instance;
  const shader = inst !== undefined && inst.shaderId !== 0 ? inst.shaderId : (best.triangle.geometryIndex ?? 0);
  const r = hitWithShader(o, d, best.triangle.primitiveIndex, shader, best.test);
  if (inst === undefined) return r;
  const n = normalToWorld(inst.worldToObject, [r.normal[0], r.normal[1], r.normal[2]]);
  return { ...r, normal: [n[0], n[1], n[2], r.normal[3]], instance: inst.userData };
}
