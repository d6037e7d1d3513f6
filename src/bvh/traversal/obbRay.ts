// The golden oriented-box ray rotation: the ray in a box node's rotated frame, once per node, bit for bit as ObbRayRotate computes it (docs/bvh.md, "Oriented boxes").
import { OBB_DISABLED, obbIndexIsValid, obbMatrix } from '../obbMatrices.ts';
import { fadd, fmul } from '../../golden/float32.ts';
import { rayInverse } from '../../golden/rayBox.ts';
import type { Vec3 } from '../../golden/rayCaster.ts';

/** The ray as a box node's children are tested: origin, direction and 1/direction, binary32 bits. */
export interface ObbRay {
  readonly origin: Vec3;
  readonly direction: Vec3;
  readonly inv: Vec3;
}

/**
 * v rotated by the nine binary32 entries m (row-major): component i is
 * fadd(fadd(fmul(m_i0, x), fmul(m_i1, y)), fmul(m_i2, z)), no fused multiply-add, always in this order.
 */
export const rotateObb = (m: readonly number[], v: Vec3): Vec3 => [0, 1, 2].map((i) => fadd(fadd(fmul(m[3 * i]!, v[0]), fmul(m[3 * i + 1]!, v[1])), fmul(m[3 * i + 2]!, v[2]))) as unknown as Vec3;

/**
 * The ray in the frame of OBB matrix `index`: origin and direction rotated (rotateObb), the inverse of the rotated
 * direction (rayInverse). Off (0x7F): the ray itself with `inv` (its own rayInverse). undefined for an index that
 * is neither 0–103 nor 0x7F.
 */
export function obbRay(index: number, o: Vec3, d: Vec3, inv: Vec3 = rayInverse(d)): ObbRay | undefined {
  if (!obbIndexIsValid(index)) return undefined;
  if (index === OBB_DISABLED) return { origin: o, direction: d, inv };
  const m = obbMatrix(index);
  const direction = rotateObb(m, d);
  return { origin: rotateObb(m, o), direction, inv: rayInverse(direction) };
}
