// The texture-memory image of a scene's materials: per texture a header and sampler slot, then its mip chain.
import {
  buildMipChain,
  encodeTextureHeader,
  encodeTextureSampler,
  layoutMipChain,
  mipChainWords,
  TEXTURE_HEADER_WORDS,
  TEXTURE_SAMPLER_WORDS,
  TextureError,
  type Material,
  type TextureHeader,
  type TextureImage,
  type TextureSampler,
} from '../golden/index.ts';

/** Words of one texture slot: its header, then its sampler. */
export const TEXTURE_SLOT_WORDS = TEXTURE_HEADER_WORDS + TEXTURE_SAMPLER_WORDS;

/** The sampler every slot gets unless told otherwise: trilinear, no bias, the whole LOD range (the header clamps to its mips). */
export const DEFAULT_TEXTURE_SAMPLER: TextureSampler = { filter: 'trilinear', lodBias: 0, lodMin: 0, lodMax: 4095 / 256 };

/** A material's texture as placed in texture memory. */
export interface TextureSlot {
  /** The image file (or a generated texture's name), for messages. */
  readonly file: string;
  /** Word address of the header; the sampler follows at headerAddress + TEXTURE_HEADER_WORDS. */
  readonly headerAddress: number;
  readonly samplerAddress: number;
  /** The header as encoded (its base is the mip chain's address). */
  readonly header: TextureHeader;
}

export interface TextureMemoryImage {
  /** Texture memory's contents from word 0. */
  readonly words: Uint32Array;
  readonly slots: readonly TextureSlot[];
  /** Per material (index = shader id − 1) its slot index, or −1 for a material without a texture. */
  readonly materialSlots: readonly number[];
}

export interface TextureMemoryOptions {
  /** Texture memory's size in words: the image must fit (a TextureError says by how much it does not). */
  readonly memoryWords?: number;
  /** The sampler of every slot (default DEFAULT_TEXTURE_SAMPLER). */
  readonly sampler?: TextureSampler;
}

/**
 * The words texture memory holds for `materials` (by shader id − 1): the distinct textures (materials
 * sharing one decoded image share its slot) in order of first use get slots 0, 1, …; slot k's header is at
 * word TEXTURE_SLOT_WORDS·k (base = its chain, full mip chain, wrap repeat on both axes) and its sampler
 * right after it; after the last slot come the mip chains (buildMipChain, layoutMipChain) one after
 * another in slot order. Throws a TextureError when the image exceeds `memoryWords`.
 */
export function textureMemoryImage(materials: readonly Material[], options: TextureMemoryOptions = {}): TextureMemoryImage {
  const sampler = encodeTextureSampler(options.sampler ?? DEFAULT_TEXTURE_SAMPLER);
  const textures: { file: string; image: TextureImage }[] = [];
  const materialSlots = materials.map((m) => {
    if (m.texture === undefined) return -1;
    const at = textures.findIndex((t) => t.image === m.texture!.image);
    return at >= 0 ? at : textures.push(m.texture) - 1;
  });
  let next = TEXTURE_SLOT_WORDS * textures.length;
  const placed = textures.map(({ file, image }) => {
    const levels = buildMipChain(image);
    const header: TextureHeader = { base: next, width: image.width, height: image.height, format: image.format, mipCount: levels.length, wrapS: 'repeat', wrapT: 'repeat' };
    next += mipChainWords(image.width, image.height, levels.length);
    return { file, header, chain: layoutMipChain(levels) };
  });
  checkFits(placed, next, options.memoryWords);
  const words = new Uint32Array(next);
  const slots = placed.map(({ file, header, chain }, k): TextureSlot => {
    const headerAddress = TEXTURE_SLOT_WORDS * k;
    words.set(encodeTextureHeader(header), headerAddress);
    words.set(sampler, headerAddress + TEXTURE_HEADER_WORDS);
    words.set(chain, header.base);
    return { file, headerAddress, samplerAddress: headerAddress + TEXTURE_HEADER_WORDS, header };
  });
  return { words, slots, materialSlots };
}

/** A clear error when `total` words exceed the memory, naming what takes the space. */
function checkFits(placed: readonly { file: string; header: TextureHeader }[], total: number, memoryWords: number | undefined): void {
  if (memoryWords !== undefined && (!Number.isInteger(memoryWords) || memoryWords < 0)) throw new TextureError(`texture memory size must be a whole number of words, got ${memoryWords}`);
  const limit = Math.min(memoryWords ?? Infinity, 2 ** 32);
  if (total <= limit) return;
  const each = placed.map(({ file, header: h }) => `${file} ${h.width}×${h.height}, ${h.mipCount} levels: ${mipChainWords(h.width, h.height, h.mipCount)} words`);
  const shown = each.slice(0, 4).join('; ') + (each.length > 4 ? `; and ${each.length - 4} more` : '');
  throw new TextureError(`the textures need ${total} words of texture memory (${placed.length} slot${placed.length === 1 ? '' : 's'} of ${TEXTURE_SLOT_WORDS} words, then the mip chains: ${shown}), but it holds ${limit}`);
}
