// Header and sampler words decoded in hardware (decodeTextureHeader's and decodeTextureSampler's checks), and mip level sizes and offsets as mipChain.ts computes them.
import { lit, mux, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { MAX_TEXTURE_SIZE } from '../../golden/texture/index.ts';

/** Levels a 4-bit mip count can name; the offset table has one more entry (the chain's total). */
export const MAX_MIP_LEVELS = 15;
/** Width of a level offset or a chain's size in words: 16384² · 4/3 < 2^29. */
export const MIP_OFFSET_BITS = 30;

export interface HeaderFields {
  readonly base: UIntValue;
  /** Level-0 size, 1 … 16384 when valid (15 bits). */
  readonly width: UIntValue;
  readonly height: UIntValue;
  /** 0 RGBA8, 1 R32F (1 bit; the format code's low bit). */
  readonly format: UIntValue;
  readonly mipCount: UIntValue;
  readonly wrapS: UIntValue;
  readonly wrapT: UIntValue;
  readonly invalid: BoolValue;
}

/** floor(log2(n)) + 1 for 1 ≤ n < 2^17: mipLevelsFor(width, height) with n = max(width, height). */
function bitLength(n: UIntValue): UIntValue {
  let levels = lit(0, 5);
  for (let b = 0; b < n.width; b++) levels = mux(n.bit(b), lit(b + 1, 5), levels);
  return levels;
}

/** decodeTextureHeader on four words (word k in bits 32k + 31 … 32k). */
export function decodeHeaderHw(words: UIntValue): HeaderFields {
  const w1 = words.bits(63, 32);
  const w2 = words.bits(95, 64);
  const width = w1.bits(15, 0).zext(17).add(1);
  const height = w1.bits(31, 16).zext(17).add(1);
  const format = w2.bits(3, 0);
  const mipCount = w2.bits(7, 4);
  const wrapS = w2.bits(9, 8);
  const wrapT = w2.bits(11, 10);
  const largest = mux(width.gt(height), width, height);
  const invalid = width
    .gt(MAX_TEXTURE_SIZE)
    .or(height.gt(MAX_TEXTURE_SIZE))
    .or(format.ge(2))
    .or(mipCount.eq(0))
    .or(mipCount.zext(5).gt(bitLength(largest)))
    .or(wrapS.eq(3))
    .or(wrapT.eq(3))
    .or(w2.bits(31, 12).ne(0))
    .or(words.bits(127, 96).ne(0));
  return { base: words.bits(31, 0), width: width.trunc(15), height: height.trunc(15), format: format.bits(0, 0), mipCount, wrapS, wrapT, invalid };
}

export interface SamplerFields {
  /** 0 nearest, 1 bilinear, 2 trilinear. */
  readonly filter: UIntValue;
  /** Raw fixed point: bias s5.8 (13 bits, two's complement), min and max u4.8. */
  readonly lodBias: UIntValue;
  readonly lodMin: UIntValue;
  readonly lodMax: UIntValue;
  readonly invalid: BoolValue;
}

/** decodeTextureSampler on two words (word k in bits 32k + 31 … 32k). */
export function decodeSamplerHw(words: UIntValue): SamplerFields {
  const w0 = words.bits(31, 0);
  const w1 = words.bits(63, 32);
  const filter = w0.bits(1, 0);
  const lodMin = w1.bits(11, 0);
  const lodMax = w1.bits(23, 12);
  const invalid = filter.eq(3).or(w0.and(0xe000fffc).ne(0)).or(w1.bits(31, 24).ne(0)).or(lodMin.gt(lodMax));
  return { filter, lodBias: w0.bits(28, 16), lodMin, lodMax, invalid };
}

/** mipLevelSize along one axis: max(1, size >> level), size 1 … 16384 (15 bits), level 0 … 15. */
export function mipAxisSize(size: UIntValue, level: UIntValue): UIntValue {
  const shifted = size.shr(level.zext(size.width));
  return mux(shifted.eq(0), lit(1, size.width), shifted);
}

/** The texels of each level 0 … MAX_MIP_LEVELS − 1 (the terms of mipLevelOffset's sum), MIP_OFFSET_BITS wide. */
export function mipLevelTexels(width: UIntValue, height: UIntValue): UIntValue[] {
  return Array.from({ length: MAX_MIP_LEVELS }, (_, l) => {
    const level = lit(l, 4);
    return mipAxisSize(width, level).zext(MIP_OFFSET_BITS).mul(mipAxisSize(height, level).zext(MIP_OFFSET_BITS));
  });
}

/** mipLevelOffset for levels 0 … MAX_MIP_LEVELS (the last the whole chain's words): prefix sums of the level sizes. */
export function mipOffsetTable(levelTexels: readonly UIntValue[]): UIntValue[] {
  const table = [lit(0, MIP_OFFSET_BITS)];
  for (const t of levelTexels) table.push(table.at(-1)!.add(t));
  return table;
}
