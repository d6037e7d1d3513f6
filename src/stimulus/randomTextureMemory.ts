// A random texture memory laid out as random programs' txd handles expect (RANDOM_TEXTURE_LAYOUT): every filter, format, wrap mode and failure.
import { RANDOM_TEXTURE_LAYOUT } from './randomProgram.ts';
import { TXD_HANDLE } from '../isa/textureOperands.ts';
import { MEMORY_MAP } from '../isa/instructions.ts';
import type { Rng } from '../util/seededRandom.ts';
import { fromNumber } from '../golden/float32.ts';
import { encodeTextureHeader, encodeTextureSampler, mipChainWords, mipLevelsFor, type TextureFormatName, type TextureSampler, type WrapModeName } from '../golden/texture/index.ts';

const WRAPS: readonly WrapModeName[] = ['repeat', 'clampToEdge', 'mirror'];
const FILTERS: readonly TextureSampler['filter'][] = ['nearest', 'bilinear', 'trilinear'];
/** Texel data starts past the pools. */
const DATA_BASE = 32;

/**
 * Samplers: the layout's last is invalid words, the others random valid ones (one per filter). Headers:
 * two random textures (RGBA8, R32F), one whose mip chain passes the end of memory, and invalid words.
 */
export function generateTextureMemory(rng: Rng): Uint32Array {
  const { headers, samplers } = RANDOM_TEXTURE_LAYOUT;
  const words: number[] = new Array(DATA_BASE).fill(0);
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
  samplers.forEach((s, k) => {
    const lod = () => rng.int(0x1000) / 256;
    const [a, b] = [lod(), lod()].sort((x, y) => x - y);
    const valid = k < samplers.length - 1;
    const encoded = valid ? encodeTextureSampler({ filter: FILTERS[k % FILTERS.length]!, lodBias: (rng.int(0x2000) - 0x1000) / 256, lodMin: rng.int(3) === 0 ? a! : 0, lodMax: rng.int(3) === 0 ? b! : 4095 / 256 }) : [0, 0xffffffff];
    Array.from(encoded).forEach((w, i) => (words[s * TXD_HANDLE.sampler.words + i] = w >>> 0));
  });
  const texture = (format: TextureFormatName) => {
    const width = 1 + rng.int(9);
    const height = 1 + rng.int(9);
    const mipCount = 1 + rng.int(mipLevelsFor(width, height));
    const base = words.length;
    for (let i = 0; i < mipChainWords(width, height, mipCount); i++) words.push(format === 'r32f' && rng.int(2) === 0 ? fromNumber(rng() * 4 - 2) : rng.u32());
    return encodeTextureHeader({ base, width, height, format, mipCount, wrapS: pick(WRAPS), wrapT: pick(WRAPS) });
  };
  const place = (h: number, encoded: ArrayLike<number>) => Array.from(encoded).forEach((w, i) => (words[h * TXD_HANDLE.header.words + i] = w >>> 0));
  place(headers[0], texture('rgba8'));
  place(headers[1], texture('r32f'));
  // Its chain needs more words than texture memory has past its base.
  place(headers[2], encodeTextureHeader({ base: MEMORY_MAP.textureWords - 2, width: 4, height: 4, format: 'rgba8', mipCount: 3, wrapS: 'repeat', wrapT: 'repeat' }));
  place(headers[3], [0, 0, 0, 0xffffffff]);
  return Uint32Array.from(words);
}
