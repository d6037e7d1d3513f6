// The ray of seeds 000–002 as `trace RVa` gives it: an interval [tmin, tmax], flags and an 8-bit mask (docs/rays.md).

/** What a ray asks of the traversal besides its origin and direction; binary32 bit patterns and a flags word. */
export interface RayQuery {
  /** Lowest accepted t (binary32 bits): a hit needs fcmp(t, tmin) P or Z. */
  readonly tmin: number;
  /** Highest accepted t (binary32 bits): a hit needs fcmp(t, tmax) N or Z. */
  readonly tmax: number;
  /** RAY_FLAG_* bits and the ray mask in bits [15:8] (RVa.z of `trace RVa`, an integer). */
  readonly flags: number;
}

/** Stop at the first accepted hit in the traversal's order and answer it (shadow rays). */
export const RAY_FLAG_ANY_HIT = 0x1;
/** A one-sided triangle whose back face the ray meets is no hit (seed 001 `RT.TRI` CULL_BACK). */
export const RAY_FLAG_CULL_BACK = 0x2;
/** A one-sided triangle whose front face the ray meets is no hit. */
export const RAY_FLAG_CULL_FRONT = 0x4;
/** Where the 8-bit ray mask sits in the flags word. */
export const RAY_MASK_SHIFT = 8;

/** +∞ as binary32 bits. */
const POSITIVE_INFINITY = 0x7f800000;

/** The ray of a plain `trace` (KEVIN's): (+0, +∞), closest hit, no culling, every mask bit. */
export const DEFAULT_RAY_QUERY: RayQuery = { tmin: 0, tmax: POSITIVE_INFINITY, flags: 0xff << RAY_MASK_SHIFT };

/**
 * The mask bit of geometry that casts shadows: the shade and textured kernels' shadow rays carry this ray mask
 * (SHADOW_RAY_QUERY in src/host/frame.ts), so a triangle whose geometry mask lacks it (a light fixture: MTL
 * `rt_mask 2`) casts no shadow while camera rays (plain trace, every bit) still see it.
 */
export const SHADOW_CASTER_MASK = 0x01;

/** The ray mask of a query: a triangle or instance with mask m is a candidate only when (rayMask & m) ≠ 0. */
export const rayMask = (q: RayQuery): number => (q.flags >>> RAY_MASK_SHIFT) & 0xff;
