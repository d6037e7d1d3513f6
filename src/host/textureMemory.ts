// The texture-memory image of a scene's materials, in txd's pools: one sampler, a header per texture, then the mip chains.
import {
  buildMipChain,
  encodeTextureHeader,
  encodeTextureSampler,
  layoutMipChain,
  mipChainWords,
  TextureError,
  type TextureHeader,
  type TextureImage,
  type TextureSampler,
} from '../golden/index.ts';
import type { Material } from '../scenes/index.ts';
import { encodeTxdHandle, MEMORY_MAP, TXD_HANDLE, txdHandleAddresses } from '../isa/index.ts';

/** The sampler every texture gets unless told otherwise: trilinear, no bias, the whole LOD range (the header clamps to its mips). */
export const DEFAULT_TEXTURE_SAMPLER: TextureSampler = { filter: 'trilinear', lodBias: 0, lodMin: 0, lodMax: 4095 / 256 };

/** The sampler pool entry of the image's one sampler (words 0 and 1). */
export const TEXTURE_SAMPLER_INDEX = 0;
/** The header pool entry of slot 0; slot k's header is entry FIRST_HEADER_INDEX + k. Entry 0 (words 0 … 3) holds the sampler and reads as an invalid header. */
export const FIRST_HEADER_INDEX = 1;

/** A material's texture as placed in texture memory. */
export interface TextureSlot {
  /** The image file (or a generated texture's name), for messages. */
  readonly file: string;
  /** txd's handle for it (RVa.z): header pool entry and sampler pool entry (encodeTxdHandle). */
  readonly handle: number;
  /** Word addresses of its header and sampler (txdHandleAddresses of the handle). */
  readonly headerAddress: number;
  readonly samplerAddress: number;
  /** The header as encoded (its base is the mip chain's address). */
  readonly header: TextureHeader;
}

export interface TextureMemoryImage {
  /** Texture memory's contents from word 0 (the rest of the memory reads zero). */
  readonly words: Uint32Array;
  readonly slots: readonly TextureSlot[];
  /** Per material (index = shader id − 1) its slot index, or −1 for a material without a texture. */
  readonly materialSlots: readonly number[];
}

export interface TextureMemoryOptions {
  /** Texture memory's size in words (default MEMORY_MAP.textureWords, the ISA's): a TextureError says by how much the image does not fit. */
  readonly memoryWords?: number;
  /** The sampler of every texture (default DEFAULT_TEXTURE_SAMPLER). */
  readonly sampler?: TextureSampler;
}

/**
 * The words texture memory holds for `materials` (by shader id − 1), laid out in the pools `txd` reads
 * (header h at word 4·h, sampler s at word 2·s; docs/isa.md): the sampler at pool entry 0 (words 0, 1;
 * words 2, 3 zero); the distinct textures in order of first use (materials sharing one decoded image
 * share it) as slots 0, 1, … with slot k's header at pool entry k + 1 (word 4·(k + 1); base = its chain,
 * the full mip chain, wrap repeat on both axes); after the last header the mip chains (buildMipChain,
 * layoutMipChain), one after another in slot order. Throws a TextureError when the image exceeds the
 * memory or the textures the header pool can name.
 */
export function textureMemoryImage(materials: readonly Material[], options: TextureMemoryOptions = {}): TextureMemoryImage {
  const sampler = encodeTextureSampler(options.sampler ?? DEFAULT_TEXTURE_SAMPLER);
  const textures: { file: string; image: TextureImage }[] = [];
  const materialSlots = materials.map((m) => {
    if (m.texture === undefined) return -1;
    const at = textures.findIndex((t) => t.image === m.texture!.image);
    return at >= 0 ? at : textures.push(m.texture) - 1;
  });
  const maxTextures = (1 << TXD_HANDLE.header.width) - FIRST_HEADER_INDEX;
  if (textures.length > maxTextures) throw new TextureError(`${textures.length} textures; txd's header pool names at most ${maxTextures}`);
  const handles = textures.map((_, k) => encodeTxdHandle(FIRST_HEADER_INDEX + k, TEXTURE_SAMPLER_INDEX));
  let next = TXD_HANDLE.header.words * (FIRST_HEADER_INDEX + textures.length);
  const placed = textures.map(({ file, image }) => {
    const levels = buildMipChain(image);
    const header: TextureHeader = { base: next, width: image.width, height: image.height, format: image.format, mipCount: levels.length, wrapS: 'repeat', wrapT: 'repeat' };
    next += mipChainWords(image.width, image.height, levels.length);
    return { file, header, chain: layoutMipChain(levels) };
  });
  checkFits(placed, next, options.memoryWords ?? MEMORY_MAP.textureWords);
  const words = new Uint32Array(next);
  words.set(sampler, TXD_HANDLE.sampler.words * TEXTURE_SAMPLER_INDEX);
  const slots = placed.map(({ file, header, chain }, k): TextureSlot => {
    const handle = handles[k]!;
    const at = txdHandleAddresses(handle);
    words.set(encodeTextureHeader(header), at.header);
    words.set(chain, header.base);
    return { file, handle, headerAddress: at.header, samplerAddress: at.sampler, header };
  });
  return { words, slots, materialSlots };
}

/** A clear error when `total` words exceed the memory, naming what takes the space. */
function checkFits(placed: readonly { file: string; header: TextureHeader }[], total: number, memoryWords: number): void {
  if (!Number.isInteger(memoryWords) || memoryWords < 0) throw new TextureError(`texture memory size must be a whole number of words, got ${memoryWords}`);
  if (total <= memoryWords) return;
  const each = placed.map(({ file, header: h }) => `${file} ${h.width}×${h.height}, ${h.mipCount} levels: ${mipChainWords(h.width, h.height, h.mipCount)} words`);
  const shown = each.slice(0, 4).join('; ') + (each.length > 4 ? `; and ${each.length - 4} more` : '');
  const pools = TXD_HANDLE.header.words * (FIRST_HEADER_INDEX + placed.length);
  throw new TextureError(`the textures need ${total} words of texture memory (${pools} for the sampler and ${placed.length} header${placed.length === 1 ? '' : 's'}, then the mip chains: ${shown}), but it holds ${memoryWords}`);
}
