// Random operands for the texture blocks' tests and co-simulation: binary32 values rich in special cases, texture sizes, texel words.
import { fromNumber } from '../../../golden/float32.ts';
import type { Rng } from '../../../util/seededRandom.ts';

const SPECIALS = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x00000001, 0x807fffff, 0x00400000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000];

/** A binary32: one in six a special (±0, ±inf, NaNs, subnormals, extremes, ±1, 0.5), else random bits or a number of moderate size. */
export function randomFloatBits(rng: Rng): number {
  const kind = rng.int(6);
  if (kind === 0) return SPECIALS[rng.int(SPECIALS.length)]!;
  if (kind === 1) return rng.u32();
  // |x| = 2^e · m with e spread over −30 … 30, either sign.
  const x = (rng() + 0.5) * 2 ** (rng.int(61) - 30) * (rng.int(4) === 0 ? -1 : 1);
  return fromNumber(x);
}

/** A texture coordinate: mostly in [−2, 3], on texel centres and edges often, sometimes a random binary32. */
export function randomCoordinate(rng: Rng, size: number): number {
  const kind = rng.int(8);
  if (kind === 0) return randomFloatBits(rng);
  if (kind === 1) return fromNumber((rng.int(5 * size + 1) - 2 * size) / size); // a texel edge
  if (kind === 2) return fromNumber((rng.int(5 * size) - 2 * size + 0.5) / size); // a texel centre
  return fromNumber(rng() * 5 - 2);
}

/** A derivative of a coordinate: a footprint from 1/64 to 64 level-0 texels, or a special value. */
export function randomDerivative(rng: Rng, size: number): number {
  if (rng.int(5) === 0) return randomFloatBits(rng);
  return fromNumber(((rng() - 0.5) * 2 ** (rng.int(13) - 6)) / size);
}

/** A texture size 1 … 16384: the extremes, powers of two, and any other. */
export function randomSize(rng: Rng): number {
  const kind = rng.int(4);
  if (kind === 0) return [1, 2, 3, 16384, 16383, 5][rng.int(6)]!;
  if (kind === 1) return 2 ** rng.int(15);
  if (kind === 2) return 1 + rng.int(64);
  return 1 + rng.int(16384);
}

/** A texel word: random bytes for RGBA8, a random binary32 for R32F. */
export const randomTexel = (rng: Rng, r32f: boolean): number => (r32f ? randomFloatBits(rng) : rng.u32());
