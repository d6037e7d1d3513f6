// The texture header: a 4-word layout in texture memory (base, size, format, mips, wrap), encoded and validated.
import { TextureError } from './textureError.ts';

/** Texel formats. Every texel is one 32-bit word of texture memory. */
export const TextureFormat = { rgba8: 0, r32f: 1 } as const;
export type TextureFormatName = keyof typeof TextureFormat;

/** Wrap modes, per axis. */
export const WrapMode = { repeat: 0, clampToEdge: 1, mirror: 2 } as const;
export type WrapModeName = keyof typeof WrapMode;

/** Largest width and height (the 16-bit fields hold size − 1; larger values are invalid). */
export const MAX_TEXTURE_SIZE = 16384;
/** Words of a packed header. */
export const TEXTURE_HEADER_WORDS = 4;

export interface TextureHeader {
  /** Word address of level 0 in texture memory. */
  readonly base: number;
  readonly width: number;
  readonly height: number;
  readonly format: TextureFormatName;
  /** Levels stored, 1 … mipLevelsFor(width, height). */
  readonly mipCount: number;
  readonly wrapS: WrapModeName;
  readonly wrapT: WrapModeName;
}

/** The full chain's level count: floor(log2(max(width, height))) + 1 (halving with floor down to 1×1). */
export function mipLevelsFor(width: number, height: number): number {
  let levels = 1;
  for (let n = Math.max(width, height); n > 1; n = Math.floor(n / 2)) levels++;
  return levels;
}

const FORMAT_NAMES = Object.keys(TextureFormat) as TextureFormatName[];
const WRAP_NAMES = Object.keys(WrapMode) as WrapModeName[];

/**
 * Packs a header: word 0 base; word 1 [15:0] width − 1, [31:16] height − 1; word 2 [3:0] format,
 * [7:4] mip count, [9:8] wrap s, [11:10] wrap t, [31:12] zero; word 3 zero. Throws TextureError on a
 * header that decodeTextureHeader would reject.
 */
export function encodeTextureHeader(h: TextureHeader): Uint32Array {
  const where = `texture header ${JSON.stringify(h)}`;
  if (!Number.isInteger(h.base) || h.base < 0 || h.base > 0xffffffff) throw new TextureError(`${where}: base must be a word address 0 … 2^32 − 1`);
  for (const [name, v] of [['width', h.width], ['height', h.height]] as const) {
    if (!Number.isInteger(v) || v < 1 || v > MAX_TEXTURE_SIZE) throw new TextureError(`${where}: ${name} must be an integer 1 … ${MAX_TEXTURE_SIZE}`);
  }
  if (!(h.format in TextureFormat)) throw new TextureError(`${where}: format must be one of ${FORMAT_NAMES.join(', ')}`);
  const maxLevels = mipLevelsFor(h.width, h.height);
  if (!Number.isInteger(h.mipCount) || h.mipCount < 1 || h.mipCount > maxLevels) throw new TextureError(`${where}: mipCount must be 1 … ${maxLevels} for ${h.width}×${h.height}`);
  for (const [name, v] of [['wrapS', h.wrapS], ['wrapT', h.wrapT]] as const) {
    if (!(v in WrapMode)) throw new TextureError(`${where}: ${name} must be one of ${WRAP_NAMES.join(', ')}`);
  }
  const words = new Uint32Array(TEXTURE_HEADER_WORDS);
  words[0] = h.base;
  words[1] = ((h.width - 1) | ((h.height - 1) << 16)) >>> 0;
  words[2] = TextureFormat[h.format] | (h.mipCount << 4) | (WrapMode[h.wrapS] << 8) | (WrapMode[h.wrapT] << 10);
  return words;
}

export type HeaderDecode = { readonly ok: true; readonly header: TextureHeader } | { readonly ok: false; readonly reason: string };

/** Unpacks and validates a header (the first 4 words of `words`); an invalid one gives the reason. */
export function decodeTextureHeader(words: ArrayLike<number>): HeaderDecode {
  if (words.length < TEXTURE_HEADER_WORDS) return { ok: false, reason: `a header is ${TEXTURE_HEADER_WORDS} words, got ${words.length}` };
  const w1 = words[1]! >>> 0;
  const w2 = words[2]! >>> 0;
  const width = (w1 & 0xffff) + 1;
  const height = (w1 >>> 16) + 1;
  const format = w2 & 0xf;
  const mipCount = (w2 >>> 4) & 0xf;
  const wrapS = (w2 >>> 8) & 3;
  const wrapT = (w2 >>> 10) & 3;
  if (width > MAX_TEXTURE_SIZE || height > MAX_TEXTURE_SIZE) return { ok: false, reason: `size ${width}×${height} above ${MAX_TEXTURE_SIZE}` };
  if (format >= FORMAT_NAMES.length) return { ok: false, reason: `unknown format ${format}` };
  if (mipCount < 1 || mipCount > mipLevelsFor(width, height)) return { ok: false, reason: `mip count ${mipCount} not in 1 … ${mipLevelsFor(width, height)}` };
  if (wrapS >= WRAP_NAMES.length || wrapT >= WRAP_NAMES.length) return { ok: false, reason: `unknown wrap mode ${wrapS}/${wrapT}` };
  if (w2 >>> 12 !== 0 || words[3]! >>> 0 !== 0) return { ok: false, reason: 'reserved bits set' };
  return {
    ok: true,
    header: { base: words[0]! >>> 0, width, height, format: FORMAT_NAMES[format]!, mipCount, wrapS: WRAP_NAMES[wrapS]!, wrapT: WRAP_NAMES[wrapT]! },
  };
}
