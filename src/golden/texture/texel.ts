// Texel words to four binary32 channels: RGBA8 as unorm (the binary32 nearest to x / 255), R32F as (r, 0, 0, 1).
import { CANONICAL_NAN, fdiv, isNaN32, itof } from '../float32.ts';
import type { TextureFormatName } from './textureHeader.ts';

export const ONE_BITS = 0x3f800000;

/**
 * UNORM8_TO_FLOAT[x] = x / 255 rounded to nearest even binary32 (fdiv(itof(x), itof(255)), a correctly
 * rounded quotient). The hardware holds the same 256 constants as a table.
 */
export const UNORM8_TO_FLOAT: readonly number[] = Array.from({ length: 256 }, (_, x) => fdiv(itof(x), itof(255)));

/** Channels R, G, B, A of a texel word as binary32 bits. An R32F NaN becomes the canonical NaN. */
export function texelChannels(word: number, format: TextureFormatName): [number, number, number, number] {
  if (format === 'r32f') return [isNaN32(word) ? CANONICAL_NAN : word >>> 0, 0, 0, ONE_BITS];
  return [UNORM8_TO_FLOAT[word & 0xff]!, UNORM8_TO_FLOAT[(word >>> 8) & 0xff]!, UNORM8_TO_FLOAT[(word >>> 16) & 0xff]!, UNORM8_TO_FLOAT[word >>> 24]!];
}
