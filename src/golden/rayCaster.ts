// The golden ray caster: double-sided Möller–Trumbore (or another test passed in: watertight.ts) on binary32 bits, the exact op sequence of docs/intersection.md.
import { fadd, fsub, fmul, fdiv, fcmp, FLAG_ZERO, FLAG_POSITIVE, FLAG_NEGATIVE } from './float32.ts';
import { accepts, isAnyHit, queryOf } from './rayAccept.ts';
import type { RayQuery } from './rayQuery.ts';
import { triangleCount, triangleMask, triangleOneSided, type Scene } from './scene.ts';

/** Three binary32 bit patterns. */
export type Vec3 = readonly [number, number, number];
/** Four 32-bit words (a vector register). */
export type Vec4 = [number, number, number, number];

export interface TraceResult {
  /** RV14 after trace: hit x, y, z and the shader id (an integer); all zero on a miss. */
  readonly hit: Vec4;
  /**
   * RV15 after trace: the unnormalized geometric normal cross(e1, e2) and the hit triangle's index (`triangle`, as an
   * integer); all zero on a miss (RV14.w = 0 tells a miss from a hit on triangle 0).
   */
  readonly normal: Vec4;
  /** Index of the closest triangle hit, −1 on a miss. */
  readonly triangle: number;
  /** Ray parameter of the hit (binary32 bits), 0 on a miss. */
  readonly t: number;
  /** The hit's barycentric weight of v1 (the test's u, binary32 bits); absent on a miss (RV13.y = 0). */
  readonly u?: number;
  /** The hit's barycentric weight of v2 (the test's v, binary32 bits); absent on a miss (RV13.z = 0). */
  readonly v?: number;
  /**
   * The instance the hit is in (its user_data), NO_INSTANCE (0xFFFFFFFF) for a hit outside any instance; absent on a
   * miss (RV13.w = 0). u, v and instance are present on every hit (a miss keeps the four fields it always had).
   */
  readonly instance?: number;
}

/** RV13 after `trace RVa` (docs/rays.md): (t, u, v, instance) of a hit, all zero on a miss. */
export const hitParametersOf = (r: TraceResult): Vec4 => (r.triangle < 0 ? [0, 0, 0, 0] : [r.t, r.u ?? 0, r.v ?? 0, (r.instance ?? NO_INSTANCE) >>> 0]);

/** RV13.w of a hit outside any instance. */
export const NO_INSTANCE = 0xffffffff;

/** Per-triangle quantities of the intersection test, every one rounded to binary32. */
export interface TriangleTest {
  readonly e1: Vec3;
  readonly e2: Vec3;
  readonly det: number;
  readonly u: number;
  readonly v: number;
  readonly t: number;
  readonly hit: boolean;
}

const ONE = 0x3f800000;
const ZERO = 0;

const sub3 = (a: Vec3, b: Vec3): Vec3 => [fsub(a[0], b[0]), fsub(a[1], b[1]), fsub(a[2], b[2])];

/** cross(a, b) = (ay·bz − az·by, az·bx − ax·bz, ax·by − ay·bx), each product and difference rounded. */
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  fsub(fmul(a[1], b[2]), fmul(a[2], b[1])),
  fsub(fmul(a[2], b[0]), fmul(a[0], b[2])),
  fsub(fmul(a[0], b[1]), fmul(a[1], b[0])),
];

/** dot(a, b) = (ax·bx + ay·by) + az·bz. */
export const dot = (a: Vec3, b: Vec3): number => fadd(fadd(fmul(a[0], b[0]), fmul(a[1], b[1])), fmul(a[2], b[2]));

const isFinite32 = (x: number): boolean => ((x >>> 23) & 0xff) !== 0xff;
const isZero32 = (x: number): boolean => (x & 0x7fffffff) === 0;

/** A ray takes part only if all six components are finite and the direction is not all zero. */
export const rayIsValid = (o: Vec3, d: Vec3): boolean => [...o, ...d].every(isFinite32) && !d.every(isZero32);

/** Vertex k (0, 1, 2) of triangle t. */
export function triangleVertex(scene: Scene, t: number, k: number): Vec3 {
  const v = scene.triangles[4 * t + k]!;
  return [scene.vertices[3 * v]!, scene.vertices[3 * v + 1]!, scene.vertices[3 * v + 2]!];
}

/** The intersection test of one ray against one triangle (ray validity is checked by the caller). */
export function testTriangle(o: Vec3, d: Vec3, v0: Vec3, v1: Vec3, v2: Vec3): TriangleTest {
  const e1 = sub3(v1, v0);
  const e2 = sub3(v2, v0);
  const p = cross(d, e2);
  const det = dot(e1, p);
  const s = sub3(o, v0);
  const q = cross(s, e1);
  const inv = fdiv(ONE, det);
  const u = fmul(dot(s, p), inv);
  const v = fmul(dot(d, q), inv);
  const t = fmul(dot(e2, q), inv);
  const geZero = (x: number) => {
    const f = fcmp(x, ZERO).flags;
    return f === FLAG_POSITIVE || f === FLAG_ZERO;
  };
  const sumFlag = fcmp(fadd(u, v), ONE).flags;
  const hit =
    fcmp(det, ZERO).flags !== FLAG_ZERO &&
    geZero(u) &&
    geZero(v) &&
    (sumFlag === FLAG_NEGATIVE || sumFlag === FLAG_ZERO) &&
    fcmp(t, ZERO).flags === FLAG_POSITIVE;
  return { e1, e2, det, u, v, t, hit };
}

/** The answer of a ray that hits nothing: RV14 = RV15 = 0, shader id 0. */
export const missResult = (): TraceResult => ({ hit: [0, 0, 0, 0], normal: [0, 0, 0, 0], triangle: -1, t: 0 });

/** A ray–triangle test: testTriangle (Möller–Trumbore, the default) or testTriangleWatertight (watertight.ts). */
export type TriangleTestFn = (o: Vec3, d: Vec3, v0: Vec3, v1: Vec3, v2: Vec3) => TriangleTest;

/**
 * Cast one ray over every triangle with `test`; among the hits `query` accepts (docs/rays.md; default the plain
 * `trace`'s DEFAULT_RAY_QUERY) the closest wins, on equal t the lower triangle index; with ANY_HIT the lowest
 * accepted triangle index.
 */
export function castRay(scene: Scene, o: Vec3, d: Vec3, test: TriangleTestFn = testTriangle, query?: RayQuery): TraceResult {
  if (!rayIsValid(o, d)) return missResult();
  const q = queryOf(query);
  const anyHit = isAnyHit(q);
  let best = -1;
  let bestTest: TriangleTest | undefined;
  const n = triangleCount(scene);
  for (let i = 0; i < n; i++) {
    const r = test(o, d, triangleVertex(scene, i, 0), triangleVertex(scene, i, 1), triangleVertex(scene, i, 2));
    if (accepts(q, r, triangleMask(scene, i), triangleOneSided(scene, i)) && (bestTest === undefined || fcmp(r.t, bestTest.t).flags === FLAG_NEGATIVE)) {
      best = i;
      bestTest = r;
      if (anyHit) break;
    }
  }
  if (bestTest === undefined) return missResult();
  return hitResult(scene, o, d, best, bestTest);
}

/** The answer for the closest hit, triangle `index` with its test: hit point o + t·d, shader id, normal cross(e1, e2). */
export function hitResult(scene: Scene, o: Vec3, d: Vec3, index: number, test: TriangleTest): TraceResult {
  return hitWithShader(o, d, index, scene.triangles[4 * index + 3]!, test);
}

/**
 * hitResult for a triangle known by its index and shader id alone (the BVH8 image holds no scene). `index` is the
 * triangle as the tracer numbers it, and RV15.w: the scene's order (castRay), the BVH's (castRayBvh, the reordered scene),
 * or the GFX12 primitive index (castRayBvh8).
 */
export function hitWithShader(o: Vec3, d: Vec3, index: number, shader: number, test: TriangleTest): TraceResult {
  const t = test.t;
  const nrm = cross(test.e1, test.e2);
  return {
    hit: [fadd(o[0], fmul(t, d[0])), fadd(o[1], fmul(t, d[1])), fadd(o[2], fmul(t, d[2])), shader],
    normal: [nrm[0], nrm[1], nrm[2], index],
    triangle: index,
    t,
    u: test.u,
    v: test.v,
    instance: NO_INSTANCE,
  };
}
