// The texture-memory image in txd's pools: sampler and headers that decode back, mip chains at their bases, shared textures, sampleTxd and the ISS's txd on it, size limits.
import { describe, expect, test } from 'vitest';
import { textureMemoryImage, DEFAULT_TEXTURE_SAMPLER, FIRST_HEADER_INDEX, TEXTURE_SAMPLER_INDEX } from '../../src/host/textureMemory.ts';
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
import { checkerTexture, CHECKER, texturedMaterials, TEXTURED_SHADERS } from '../../src/scenes/texturedScene.ts';
import { defaultMaterials } from '../../src/scenes/defaultScene.ts';
import { FLAG_ZERO, fromNumber } from '../../src/golden/float32.ts';
import type { Material } from '../../src/scenes/materials.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { Machine } from '../../src/iss/index.ts';
import { encodeTxdControl, encodeTxdHandle, MEMORY_MAP, txdHandleAddresses } from '../../src/isa/index.ts';
import { enc } from '../golden/encode.ts';

const solid = (width: number, height: number, word: number): TextureImage => ({ width, height, format: 'rgba8', texels: new Uint32Array(width * height).fill(word) });
const textured = (name: string, image: TextureImage, file = `${name}.png`): Material => ({ name, kd: [1, 1, 1], texture: { file, image } });
const unorm = (bytes: readonly number[]): number[] => bytes.map((b) => UNORM8_TO_FLOAT[b]!);

const image = textureMemoryImage(texturedMaterials());
const slot = image.slots[0]!;
const CHAIN_WORDS = mipChainWords(CHECKER.size, CHECKER.size, 7);
const light = unorm([...CHECKER.light, 255]);
const dark = unorm([...CHECKER.dark, 255]);
const SQUARE = 1 / CHECKER.squares; // 0.125 of the texture: one square of 8 texels
const CENTRE = SQUARE / 2;

describe('textureMemoryImage: layout', () => {
  test('the textured scene: one slot, used by the floor material only', () => {
    expect(image.slots.length).toBe(1);
    expect(image.materialSlots).toEqual([-1, -1, -1, -1, -1, -1, 0]);
    expect(image.materialSlots.length).toBe(TEXTURED_SHADERS.floor);
    expect(CHAIN_WORDS).toBe(4096 + 1024 + 256 + 64 + 16 + 4 + 1);
    expect(image.words.length).toBe(8 + CHAIN_WORDS);
  });

  test("txd's pools: the sampler at entry 0 (words 0, 1), slot k's header at entry k + 1; the handle names both", () => {
    expect([TEXTURE_SAMPLER_INDEX, FIRST_HEADER_INDEX]).toEqual([0, 1]);
    expect(slot.handle).toBe(encodeTxdHandle(1, 0));
    expect(txdHandleAddresses(slot.handle)).toEqual({ header: 4, sampler: 0 });
    expect([slot.headerAddress, slot.samplerAddress, slot.file]).toEqual([4, 0, '<checker>']);
    expect(Array.from(image.words.subarray(2, 4))).toEqual([0, 0]);
  });

  test('the header and sampler decode back with the golden decoders; header entry 0 is invalid', () => {
    const h = decodeTextureHeader(image.words.subarray(4, 8));
    expect(h).toEqual({ ok: true, header: { base: 8, width: 64, height: 64, format: 'rgba8', mipCount: 7, wrapS: 'repeat', wrapT: 'repeat' } });
    expect(slot.header).toEqual(h.ok && h.header);
    const s = decodeTextureSampler(image.words.subarray(0, 2));
    expect(s.ok && { filter: s.sampler.filter, lodBias: s.sampler.lodBias, lodMin: s.sampler.lodMin, lodMax: s.sampler.lodMax }).toEqual(DEFAULT_TEXTURE_SAMPLER);
    expect(DEFAULT_TEXTURE_SAMPLER.filter).toBe('trilinear');
    expect(decodeTextureHeader(image.words.subarray(0, 4)).ok).toBe(false);
  });

  test('each mip level at base + its offset', () => {
    const levels = buildMipChain(checkerTexture());
    expect(levels.length).toBe(7);
    levels.forEach((level, l) => {
      const at = slot.header.base + mipLevelOffset(64, 64, l);
      expect(Array.from(image.words.subarray(at, at + level.texels.length))).toEqual(Array.from(level.texels));
    });
  });

  test('materials sharing one image share a slot; slots in order of first use, chains one after another', () => {
    const a = solid(4, 2, 0x11223344);
    const b = solid(3, 3, 0xff0000ff);
    const r = textureMemoryImage([textured('a', a), defaultMaterials()[0]!, textured('b', b), textured('a again', a, 'other name.png')]);
    expect(r.materialSlots).toEqual([0, -1, 1, 0]);
    // Sampler words 0 … 3, headers at 4 and 8, chains from 12.
    expect(r.slots.map((s) => [s.file, s.headerAddress, s.header.base, s.header.mipCount, s.handle])).toEqual([
      ['a.png', 4, 12, 3, encodeTxdHandle(1, 0)],
      ['b.png', 8, 12 + mipChainWords(4, 2, 3), 2, encodeTxdHandle(2, 0)],
    ]);
    expect(r.words.length).toBe(12 + 8 + 2 + 1 + 9 + 1);
    expect(Array.from(r.words.subarray(12, 20))).toEqual(new Array(8).fill(0x11223344));
    expect(Array.from(r.words.subarray(23, 33))).toEqual(new Array(10).fill(0xff0000ff));
    const h = decodeTextureHeader(r.words.subarray(8, 12));
    expect(h.ok && [h.header.width, h.header.height, h.header.base]).toEqual([3, 3, 23]);
  });

  test('no textures: the sampler alone, every material −1', () => {
    const r = textureMemoryImage(defaultMaterials());
    expect([r.words.length, r.slots.length]).toEqual([4, 0]);
    expect(r.materialSlots).toEqual([-1, -1, -1, -1, -1, -1]);
  });

  test('another sampler', () => {
    const r = textureMemoryImage(texturedMaterials(), { sampler: { filter: 'nearest', lodBias: -0.5, lodMin: 0, lodMax: 2 } });
    const s = decodeTextureSampler(r.words.subarray(0, 2));
    expect(s.ok && [s.sampler.filter, s.sampler.lodBias, s.sampler.lodMax]).toEqual(['nearest', -0.5, 2]);
  });

  test("size limit: the ISA's texture memory by default; fits exactly; one word less is a TextureError naming the need", () => {
    const need = 8 + CHAIN_WORDS;
    expect(textureMemoryImage(texturedMaterials(), { memoryWords: need }).words.length).toBe(need);
    const short = () => textureMemoryImage(texturedMaterials(), { memoryWords: need - 1 });
    expect(short).toThrow(TextureError);
    expect(short).toThrow(`the textures need ${need} words of texture memory (8 for the sampler and 1 header, then the mip chains: <checker> 64×64, 7 levels: 5461 words), but it holds ${need - 1}`);
    expect(() => textureMemoryImage(texturedMaterials(), { memoryWords: -1 })).toThrow('texture memory size must be a whole number of words, got -1');
    // 512×512 takes 349,525 words: more than the ISA's 262,144.
    const big = [textured('big', solid(512, 512, 0))];
    expect(MEMORY_MAP.textureWords).toBe(262144);
    expect(() => textureMemoryImage(big)).toThrow(/^the textures need 349533 words of texture memory \(.*big\.png 512×512, 10 levels: 349525 words\), but it holds 262144$/);
    expect(textureMemoryImage([textured('ok', solid(256, 256, 0))]).words.length).toBe(8 + mipChainWords(256, 256, 9));
  });
});

describe('sampling the image', () => {
  /** sampleTxd on the image through the slot's own header and sampler words. */
  const sample = (s: number, t: number, footprint = 0) => {
    const r = sampleTxd(image.words, image.words.subarray(4, 8), image.words.subarray(0, 2), fromNumber(s), fromNumber(t), fromNumber(footprint), 0, 0, fromNumber(footprint), 0, 0xf);
    expect(r.status).toBe(0);
    return r.rgba;
  };

  test('sampleTxd reads the checker colours at known coordinates (level 0), repeating', () => {
    expect(sample(CENTRE, CENTRE)).toEqual(light);
    expect(sample(CENTRE + SQUARE, CENTRE)).toEqual(dark);
    expect(sample(CENTRE, CENTRE + SQUARE)).toEqual(dark);
    expect(sample(CENTRE + SQUARE, CENTRE + SQUARE)).toEqual(light);
    expect(sample(CENTRE + 7 * SQUARE, CENTRE)).toEqual(dark);
    // Repeat wrap: whole numbers of textures later, and before 0.
    expect(sample(3 + CENTRE + SQUARE, 2 + CENTRE)).toEqual(dark);
    expect(sample(-1 + CENTRE, -2 + CENTRE)).toEqual(light);
  });

  test('a footprint of the whole texture reads the 1×1 level: the checker mean (RGBA8 box filter, halves up)', () => {
    // Level 4 averages two light and two dark texels: floor((2·(2·235 + 2·40) + 4) / 8) = 138, likewise 138, 142.
    expect(sample(0.3, 0.7, 1)).toEqual(unorm([138, 138, 142, 255]));
  });

  test("the ISS's txd with the image as texture memory and the slot's handle returns the same colours, flag Z", () => {
    const EMPTY: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
    const toLane = (n: number, lane: number, value: number): [string, ...number[]][] => [
      ['s_write_high', 2, value >>> 16],
      ['s_write_low', 2, value & 0xffff],
      ['v_get_from_s', n, 2, lane],
    ];
    const txd = (s: number, t: number, handle: number) => {
      const rows: [string, ...number[]][] = [
        ...[fromNumber(s), fromNumber(t), handle, encodeTxdControl(0, 0, 0)].flatMap((v, k) => toLane(1, k, v)),
        ...[0, 0, 0, 0].flatMap((v, k) => toLane(2, k, v)),
        ['txd', 3, 1, 2, 0xf],
        ['fin'],
      ];
      const m = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY, texture: image.words });
      const th = m.runThread(0);
      return { rgba: Array.from(th.v.subarray(12, 16)), flag: th.flag };
    };
    expect(txd(CENTRE, CENTRE, slot.handle)).toEqual({ rgba: light, flag: FLAG_ZERO });
    expect(txd(CENTRE + SQUARE, 1 + CENTRE, slot.handle)).toEqual({ rgba: dark, flag: FLAG_ZERO });
    // Header entry 0 (the sampler's words) is invalid: zeros and the flag says the fetch failed.
    expect(txd(CENTRE, CENTRE, encodeTxdHandle(0, 0)).rgba).toEqual([0, 0, 0, 0]);
    expect(txd(CENTRE, CENTRE, encodeTxdHandle(0, 0)).flag).not.toBe(FLAG_ZERO);
  });
});
