// The golden ray–box slab test and child ordering of BVH traversal, on binary32 bits (docs/bvh.md).
import { fcmp, fdiv, fmax, fmin, fmul, fsub, isNaN32, FLAG_NEGATIVE, FLAG_ZERO, NEG_INF, POS_INF } from './float32.ts';
import type { Vec3 } from './rayCaster.ts';

const ONE = 0x3f800000;
const ZERO = 0;

/**
 * tfar is scaled by 1 + 2^-22 before the comparison, so rounding in the slab arithmetic cannot cull a
 * box the ray grazes (Ize, "Robust BVH Ray Traversal", 2013: two ulps cover the rounded products).
 */
export const TFAR_SCALE = 0x3f800002;

/** An axis-aligned box as binary32 bit patterns. */
export interface Box {
  readonly min: Vec3;
  readonly max: Vec3;
}

export interface SlabResult {
  readonly hit: boolean;
  /** Entry distance, clamped below at `lower` (+0 by default; never NaN, never −0). */
  readonly tnear: number;
  /** Exit distance, clamped above at the limit and scaled by TFAR_SCALE. */
  readonly tfar: number;
}

/** 1/d per component, computed once per ray (a zero component gives ±infinity). */
export const rayInverse = (d: Vec3): Vec3 => [fdiv(ONE, d[0]), fdiv(ONE, d[1]), fdiv(ONE, d[2])];

/**
 * The slab test of one box: per axis t0 = (min − o)·inv, t1 = (max − o)·inv; tnear = max of the
 * per-axis minima and `lower` (+0 unless a ray query's tmin is larger: rayAccept.ts boxClamp); tfar = min of the
 * per-axis maxima and `limit`, scaled. min/max are IEEE
 * minimumNumber/maximumNumber. An axis where t0 or t1 is NaN drops out (its minimum is −∞, its
 * maximum +∞): that is 0·∞, a ray parallel to the axis with its origin on a face plane, which lies in
 * the closed slab for every t. Hit when tnear ≤ tfar.
 */
export function slabTest(o: Vec3, inv: Vec3, box: Box, limit: number = POS_INF, lower: number = ZERO): SlabResult {
  const lo: number[] = [];
  const hi: number[] = [];
  for (let a = 0; a < 3; a++) {
    const t0 = fmul(fsub(box.min[a]!, o[a]!), inv[a]!);
    const t1 = fmul(fsub(box.max[a]!, o[a]!), inv[a]!);
    // One NaN alone would give min/max the other product, ±∞, and cull a box the ray runs along.
    const inSlab = isNaN32(t0) || isNaN32(t1);
    lo.push(inSlab ? NEG_INF : fmin(t0, t1));
    hi.push(inSlab ? POS_INF : fmax(t0, t1));
  }
  const tnear = fmax(fmax(lo[0]!, lo[1]!), fmax(lo[2]!, lower));
  const tfar = fmul(fmin(fmin(hi[0]!, hi[1]!), fmin(hi[2]!, limit)), TFAR_SCALE);
  const flag = fcmp(tnear, tfar).flags;
  return { hit: flag === FLAG_NEGATIVE || flag === FLAG_ZERO, tnear, tfar };
}

/**
 * The order in which a node's hit children are visited: nearest first by tnear (tnear ≥ +0, so its
 * bits order as unsigned integers), equal tnear by child slot. Returns the slots.
 */
export function childOrder(tests: readonly (SlabResult | undefined)[]): number[] {
  return tests
    .map((r, slot) => ({ r, slot }))
    .filter((x): x is { r: SlabResult; slot: number } => x.r !== undefined && x.r.hit)
    .sort((a, b) => (a.r.tnear >>> 0) - (b.r.tnear >>> 0) || a.slot - b.slot)
    .map((x) => x.slot);
}
