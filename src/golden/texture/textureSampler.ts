// The sampler: a 2-word layout in texture memory (filter, LOD bias, LOD clamp), encoded and validated.
import { TextureError } from './textureError.ts';

/** Filters: nearest texel of the nearest level, bilinear in the nearest level, bilinear in two levels blended. */
export const FilterMode = { nearest: 0, bilinear: 1, trilinear: 2 } as const;
export type FilterModeName = keyof typeof FilterMode;

/** Words of a packed sampler. */
export const TEXTURE_SAMPLER_WORDS = 2;
/** LOD values are fixed point with 8 fraction bits (seed 003's u4.8 LOD clamp). */
export const LOD_FRACTION_BITS = 8;
const LOD_ONE = 1 << LOD_FRACTION_BITS;

export interface TextureSampler {
  readonly filter: FilterModeName;
  /** Added to λ: a multiple of 1/256 in −16 … 16 − 1/256 (s5.8). */
  readonly lodBias: number;
  /** λ is clamped to [lodMin, lodMax]: multiples of 1/256 in 0 … 16 − 1/256 (u4.8), lodMin ≤ lodMax. */
  readonly lodMin: number;
  readonly lodMax: number;
}

const FILTER_NAMES = Object.keys(FilterMode) as FilterModeName[];

/** value × 256 as an integer in [lo, hi], or a TextureError naming the field. */
function fixedLod(where: string, name: string, value: number, lo: number, hi: number): number {
  const raw = value * LOD_ONE;
  if (!Number.isInteger(raw) || raw < lo || raw > hi) {
    throw new TextureError(`${where}: ${name} must be a multiple of 1/256 from ${lo / LOD_ONE} to ${hi / LOD_ONE}, got ${value}`);
  }
  return raw;
}

/**
 * Packs a sampler: word 0 [1:0] filter, [15:2] zero, [28:16] LOD bias (s5.8, two's complement),
 * [31:29] zero; word 1 [11:0] LOD min (u4.8), [23:12] LOD max (u4.8), [31:24] zero.
 */
export function encodeTextureSampler(s: TextureSampler): Uint32Array {
  const where = `texture sampler ${JSON.stringify(s)}`;
  if (!(s.filter in FilterMode)) throw new TextureError(`${where}: filter must be one of ${FILTER_NAMES.join(', ')}`);
  const bias = fixedLod(where, 'lodBias', s.lodBias, -0x1000, 0xfff);
  const min = fixedLod(where, 'lodMin', s.lodMin, 0, 0xfff);
  const max = fixedLod(where, 'lodMax', s.lodMax, 0, 0xfff);
  if (min > max) throw new TextureError(`${where}: lodMin must not exceed lodMax`);
  return Uint32Array.of(FilterMode[s.filter] | ((bias & 0x1fff) << 16), min | (max << 12));
}

/** A decoded sampler with the LOD fields as raw fixed-point integers (value × 256), as the hardware holds them. */
export interface DecodedSampler extends TextureSampler {
  readonly lodBiasRaw: number;
  readonly lodMinRaw: number;
  readonly lodMaxRaw: number;
}

export type SamplerDecode = { readonly ok: true; readonly sampler: DecodedSampler } | { readonly ok: false; readonly reason: string };

/** Unpacks and validates a sampler (the first 2 words of `words`); an invalid one gives the reason. */
export function decodeTextureSampler(words: ArrayLike<number>): SamplerDecode {
  if (words.length < TEXTURE_SAMPLER_WORDS) return { ok: false, reason: `a sampler is ${TEXTURE_SAMPLER_WORDS} words, got ${words.length}` };
  const w0 = words[0]! >>> 0;
  const w1 = words[1]! >>> 0;
  const filter = w0 & 3;
  if (filter >= FILTER_NAMES.length) return { ok: false, reason: `unknown filter ${filter}` };
  if ((w0 & 0xe000fffc) !== 0 || w1 >>> 24 !== 0) return { ok: false, reason: 'reserved bits set' };
  const biasField = (w0 >>> 16) & 0x1fff;
  const lodBiasRaw = biasField & 0x1000 ? biasField - 0x2000 : biasField;
  const lodMinRaw = w1 & 0xfff;
  const lodMaxRaw = (w1 >>> 12) & 0xfff;
  if (lodMinRaw > lodMaxRaw) return { ok: false, reason: `LOD min ${lodMinRaw / LOD_ONE} above LOD max ${lodMaxRaw / LOD_ONE}` };
  return {
    ok: true,
    sampler: {
      filter: FILTER_NAMES[filter]!,
      lodBias: lodBiasRaw / LOD_ONE,
      lodMin: lodMinRaw / LOD_ONE,
      lodMax: lodMaxRaw / LOD_ONE,
      lodBiasRaw,
      lodMinRaw,
      lodMaxRaw,
    },
  };
}
