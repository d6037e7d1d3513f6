// The texture-memory image: slots of header and sampler that decode back, mip chains at their bases, shared textures, sampleTxd on it, size limits.
import { describe, expect, test } from 'vitest';
import { textureMemoryImage, DEFAULT_TEXTURE_SAMPLER, TEXTURE_SLOT_WORDS } from '../../src/host/textureMemory.ts';
import {
  buildMipChain,
  decodeTextureHeader,
  decodeTextureSampler,
  mipChainWords,
  mipLevelOffset,
  sampleTxd,
  TextureError,
  UNORM8_TO_FLOAT,
  type TextureImage,
} from '../../src/golden/texture/index.ts';
import { checkerTexture, CHECKER, texturedMaterials, TEXTURED_SHADERS } from '../../src/golden/texturedScene.ts';
import { defaultMaterials } from '../../src/golden/defaultScene.ts';
import { fromNumber } from '../../src/golden/float32.ts';
import type { Material } from '../../src/golden/materials.ts';

const solid = (width: number, height: number, word: number): TextureImage => ({ width, height, format: 'rgba8', texels: new Uint32Array(width * height).fill(word) });
const textured = (name: string, image: TextureImage, file = `${name}.png`): Material => ({ name, kd: [1, 1, 1], texture: { file, image } });
const unorm = (bytes: readonly number[]): number[] => bytes.map((b) => UNORM8_TO_FLOAT[b]!);

describe('textureMemoryImage', () => {
  const image = textureMemoryImage(texturedMaterials());
  const slot = image.slots[0]!;
  const chainWords = mipChainWords(CHECKER.size, CHECKER.size, 7);

  test('the textured scene: one slot, the floor material uses it, the others none', () => {
    expect(image.slots.length).toBe(1);
    expect(image.materialSlots).toEqual([-1, -1, -1, -1, -1, -1, 0]);
    expect(image.materialSlots.length).toBe(TEXTURED_SHADERS.floor);
    expect(image.words.length).toBe(TEXTURE_SLOT_WORDS + chainWords);
    expect(chainWords).toBe(4096 + 1024 + 256 + 64 + 16 + 4 + 1);
  });

  test('the slot header and sampler decode back with the golden decoders', () => {
    expect([slot.headerAddress, slot.samplerAddress, slot.file]).toEqual([0, 4, '<checker>']);
    const h = decodeTextureHeader(image.words.subarray(slot.headerAddress, slot.headerAddress + 4));
    expect(h).toEqual({ ok: true, header: { base: TEXTURE_SLOT_WORDS, width: 64, height: 64, format: 'rgba8', mipCount: 7, wrapS: 'repeat', wrapT: 'repeat' } });
    expect(slot.header).toEqual(h.ok && h.header);
    const s = decodeTextureSampler(image.words.subarray(slot.samplerAddress, slot.samplerAddress + 2));
    expect(s.ok && { filter: s.sampler.filter, lodBias: s.sampler.lodBias, lodMin: s.sampler.lodMin, lodMax: s.sampler.lodMax }).toEqual(DEFAULT_TEXTURE_SAMPLER);
    expect(DEFAULT_TEXTURE_SAMPLER.filter).toBe('trilinear');
  });

  test('each mip level at base + its offset', () => {
    const levels = buildMipChain(checkerTexture());
    expect(levels.length).toBe(7);
    levels.forEach((level, l) => {
      const at = slot.header.base + mipLevelOffset(64, 64, l);
      expect(Array.from(image.words.subarray(at, at + level.texels.length))).toEqual(Array.from(level.texels));
    });
  });

  /** sampleTxd on the image through the slot's own header and sampler words. */
  const sample = (s: number, t: number, footprint = 0) => {
    const r = sampleTxd(image.words, image.words.subarray(0, 4), image.words.subarray(4, 6), fromNumber(s), fromNumber(t), fromNumber(footprint), 0, 0, fromNumber(footprint), 0, 0xf);
    expect(r.status).toBe(0);
    return r.rgba;
  };
  const light = unorm([...CHECKER.light, 255]);
  const dark = unorm([...CHECKER.dark, 255]);

  test('sampleTxd reads the checker colours at known coordinates (level 0), repeating', () => {
    const square = 1 / CHECKER.squares; // 0.125: one square of 8 texels
    const centre = square / 2;
    expect(sample(centre, centre)).toEqual(light);
    expect(sample(centre + square, centre)).toEqual(dark);
    expect(sample(centre, centre + square)).toEqual(dark);
    expect(sample(centre + square, centre + square)).toEqual(light);
    expect(sample(centre + 7 * square, centre)).toEqual(dark);
    // Repeat wrap: whole numbers of textures later, and before 0.
    expect(sample(3 + centre + square, 2 + centre)).toEqual(dark);
    expect(sample(-1 + centre, -2 + centre)).toEqual(light);
  });

  test('a footprint of the whole texture reads the 1×1 level: the checker mean (RGBA8 box filter, halves up)', () => {
    // Level 4 averages two light and two dark texels: floor((2·(2·235 + 2·40) + 4) / 8) = 138, likewise 138, 142.
    expect(sample(0.3, 0.7, 1)).toEqual(unorm([138, 138, 142, 255]));
  });

  test('materials sharing one image share a slot; slots in order of first use, chains one after another', () => {
    const a = solid(4, 2, 0x11223344);
    const b = solid(3, 3, 0xff0000ff);
    const r = textureMemoryImage([textured('a', a), defaultMaterials()[0]!, textured('b', b), textured('a again', a, 'other name.png')]);
    expect(r.materialSlots).toEqual([0, -1, 1, 0]);
    expect(r.slots.map((s) => [s.file, s.headerAddress, s.header.base, s.header.mipCount])).toEqual([
      ['a.png', 0, 12, 3],
      ['b.png', 6, 12 + mipChainWords(4, 2, 3), 2],
    ]);
    expect(r.words.length).toBe(12 + 8 + 2 + 1 + 9 + 1);
    expect(Array.from(r.words.subarray(12, 20))).toEqual(new Array(8).fill(0x11223344));
    expect(Array.from(r.words.subarray(23, 33))).toEqual(new Array(10).fill(0xff0000ff));
    const h = decodeTextureHeader(r.words.subarray(6, 10));
    expect(h.ok && [h.header.width, h.header.height, h.header.base]).toEqual([3, 3, 23]);
  });

  test('no textures: an empty image, every material −1', () => {
    const r = textureMemoryImage(defaultMaterials());
    expect([r.words.length, r.slots.length]).toEqual([0, 0]);
    expect(r.materialSlots).toEqual([-1, -1, -1, -1, -1, -1]);
  });

  test('another sampler in every slot', () => {
    const r = textureMemoryImage(texturedMaterials(), { sampler: { filter: 'nearest', lodBias: -0.5, lodMin: 0, lodMax: 2 } });
    const s = decodeTextureSampler(r.words.subarray(4, 6));
    expect(s.ok && [s.sampler.filter, s.sampler.lodBias, s.sampler.lodMax]).toEqual(['nearest', -0.5, 2]);
  });

  test('size limit: fits exactly; one word less is a TextureError naming the need and the textures', () => {
    const need = TEXTURE_SLOT_WORDS + mipChainWords(64, 64, 7);
    expect(textureMemoryImage(texturedMaterials(), { memoryWords: need }).words.length).toBe(need);
    expect(() => textureMemoryImage(texturedMaterials(), { memoryWords: need - 1 })).toThrow(TextureError);
    expect(() => textureMemoryImage(texturedMaterials(), { memoryWords: need - 1 })).toThrow(
      `the textures need ${need} words of texture memory (1 slot of 6 words, then the mip chains: <checker> 64×64, 7 levels: 5461 words), but it holds ${need - 1}`,
    );
    expect(() => textureMemoryImage(texturedMaterials(), { memoryWords: -1 })).toThrow('texture memory size must be a whole number of words, got -1');
    // Without textures any size fits, even 0.
    expect(textureMemoryImage(defaultMaterials(), { memoryWords: 0 }).words.length).toBe(0);
  });
});
