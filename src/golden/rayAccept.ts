// When a triangle's hit is accepted by a ray query (docs/rays.md): the interval, the masks, the culled faces; and the box clamp.
import { fcmp, fmax, fmin, FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO } from './float32.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, RAY_FLAG_CULL_BACK, RAY_FLAG_CULL_FRONT, rayMask, type RayQuery } from './rayQuery.ts';

const ZERO = 0;

/** `query`, or the plain `trace`'s DEFAULT_RAY_QUERY when undefined. */
export const queryOf = (query: RayQuery | undefined): RayQuery => query ?? DEFAULT_RAY_QUERY;

/** fcmp(t, tmin) P or Z and fcmp(t, tmax) N or Z: a NaN bound accepts nothing, nor does tmin > tmax. */
export function inInterval(q: RayQuery, t: number): boolean {
  const lo = fcmp(t, q.tmin).flags;
  const hi = fcmp(t, q.tmax).flags;
  return (lo === FLAG_POSITIVE || lo === FLAG_ZERO) && (hi === FLAG_NEGATIVE || hi === FLAG_ZERO);
}

/** A triangle or instance with mask m is a candidate only when it shares a bit with the ray mask. */
export const maskAccepts = (q: RayQuery, mask: number): boolean => (rayMask(q) & mask) !== 0;

/**
 * The face a test's det says the ray meets: det > 0 (P) the front face (dot(d, cross(e1, e2)) < 0) for both
 * Möller–Trumbore (det = e1 · (d × e2) = −d · (e1 × e2)) and watertight (U + V + W in the sheared frame, whose
 * kx/ky swap keeps the winding seen along d); det < 0 the back face; zero or NaN neither (no hit anyway).
 */
export function faceOf(det: number): 'front' | 'back' | undefined {
  const f = fcmp(det, ZERO).flags;
  return f === FLAG_POSITIVE ? 'front' : f === FLAG_NEGATIVE ? 'back' : undefined;
}

/** A one-sided triangle meeting the ray on a face the query culls (double-sided triangles never are). */
export function culled(q: RayQuery, oneSided: boolean, det: number): boolean {
  if (!oneSided) return false;
  const face = faceOf(det);
  return (face === 'back' && (q.flags & RAY_FLAG_CULL_BACK) !== 0) || (face === 'front' && (q.flags & RAY_FLAG_CULL_FRONT) !== 0);
}

/** Whether a test's hit is accepted: it hit, t in the interval, the mask shares a bit with the ray's, and not culled. */
export function accepts(q: RayQuery, test: { readonly hit: boolean; readonly t: number; readonly det: number }, mask: number, oneSided: boolean): boolean {
  return test.hit && inInterval(q, test.t) && maskAccepts(q, mask) && !culled(q, oneSided, test.det);
}

export const isAnyHit = (q: RayQuery): boolean => (q.flags & RAY_FLAG_ANY_HIT) !== 0;

/**
 * The box test's clamps (docs/rays.md, seed 001's T_CLAMP): the entry distance below at fmax(+0, tmin), the exit
 * distance above at fmin(tmax, the closest accepted hit so far) before slabTest's TFAR_SCALE widening. fmin/fmax
 * are minimumNumber/maximumNumber, so a NaN bound drops out of the clamp (the ray then accepts no hit anyway);
 * the default query gives +0 and the closest hit, today's clamps bit for bit.
 */
export function boxClamp(q: RayQuery, best: number): { readonly lower: number; readonly limit: number } {
  return { lower: fmax(ZERO, q.tmin), limit: fmin(q.tmax, best) };
}
