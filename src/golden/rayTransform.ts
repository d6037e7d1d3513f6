// The ray transform of instancing (seed 002's ray transform block): a world-space ray into an instance's object space by its 3×4 world_to_object matrix, on binary32 bits in a fixed operation order.
import { fadd, fmul } from './float32.ts';
import { rayInverse } from './rayBox.ts';
import type { Vec3 } from './rayCaster.ts';

/** A 3×4 affine matrix as 12 binary32 bit patterns, row major: row r is words 4r .. 4r + 3, column 3 the translation. */
export type Mat3x4 = readonly number[];

export const MAT3X4_WORDS = 12;

/** A ray in one space: origin, direction and 1/direction per component (binary32 bits). */
export interface TransformedRay {
  readonly origin: Vec3;
  readonly dir: Vec3;
  readonly invDir: Vec3;
}

/**
 * Row r of M·o + translation: (m[r][0]·o0 + m[r][1]·o1) + (m[r][2]·o2 + m[r][3]), each product and sum rounded
 * to binary32 (round to nearest even); the two sums side by side so the hardware needs two adder levels.
 */
export const transformPointRow = (m: Mat3x4, r: number, o: Vec3): number =>
  fadd(fadd(fmul(m[4 * r]!, o[0]), fmul(m[4 * r + 1]!, o[1])), fadd(fmul(m[4 * r + 2]!, o[2]), m[4 * r + 3]!));

/** Row r of M·d (no translation): (m[r][0]·d0 + m[r][1]·d1) + m[r][2]·d2, each product and sum rounded to binary32. */
export const transformVectorRow = (m: Mat3x4, r: number, d: Vec3): number => fadd(fadd(fmul(m[4 * r]!, d[0]), fmul(m[4 * r + 1]!, d[1])), fmul(m[4 * r + 2]!, d[2]));

/**
 * The ray o + t·d in object space: origin M·o + translation, direction M·d (not normalized, so a hit's t in object
 * space is its world t up to rounding, whatever the scale), and 1/direction per component as rayInverse.
 */
export function transformRay(m: Mat3x4, o: Vec3, d: Vec3): TransformedRay {
  if (m.length !== MAT3X4_WORDS) throw new Error(`a 3×4 matrix is ${MAT3X4_WORDS} words, got ${m.length}`);
  const origin: Vec3 = [transformPointRow(m, 0, o), transformPointRow(m, 1, o), transformPointRow(m, 2, o)];
  const dir: Vec3 = [transformVectorRow(m, 0, d), transformVectorRow(m, 1, d), transformVectorRow(m, 2, d)];
  return { origin, dir, invDir: rayInverse(dir) };
}

/**
 * An object-space normal back to world space for shading: Mᵀ·n with M the linear part of world_to_object (the
 * inverse transpose of object_to_world), column c = (m[0][c]·n0 + m[1][c]·n1) + m[2][c]·n2, rounded as above.
 * Unnormalized, like the triangle normal cross(e1, e2) it transforms.
 */
export function normalToWorld(m: Mat3x4, n: Vec3): Vec3 {
  const col = (c: number) => fadd(fadd(fmul(m[c]!, n[0]), fmul(m[4 + c]!, n[1])), fmul(m[8 + c]!, n[2]));
  return [col(0), col(1), col(2)];
}
