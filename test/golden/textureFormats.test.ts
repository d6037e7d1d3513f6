// The texture formats: header and sampler words round-trip, every invalid case is caught, mip chains and their layout.
import { describe, expect, test } from 'vitest';
import {
  buildMipChain,
  decodeTextureHeader,
  decodeTextureSampler,
  encodeTextureHeader,
  encodeTextureSampler,
  layoutMipChain,
  mipChainWords,
  mipLevelOffset,
  mipLevelSize,
  mipLevelsFor,
  TextureError,
  type TextureHeader,
  type TextureImage,
  type TextureSampler,
} from '../../src/golden/texture/index.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';

const header: TextureHeader = { base: 0x1234, width: 640, height: 3, format: 'r32f', mipCount: 10, wrapS: 'mirror', wrapT: 'clampToEdge' };
const sampler: TextureSampler = { filter: 'trilinear', lodBias: -1.5, lodMin: 0.25, lodMax: 7.75 };

describe('texture header words', () => {
  test('encode gives the documented bit layout', () => {
    expect([...encodeTextureHeader(header)]).toEqual([0x1234, (639 | (2 << 16)) >>> 0, 1 | (10 << 4) | (2 << 8) | (1 << 10), 0]);
  });

  test('decode ∘ encode is the identity on every format, wrap pair and extreme size', () => {
    for (const format of ['rgba8', 'r32f'] as const)
      for (const wrapS of ['repeat', 'clampToEdge', 'mirror'] as const)
        for (const wrapT of ['repeat', 'clampToEdge', 'mirror'] as const)
          for (const [width, height] of [[1, 1], [16384, 16384], [3, 5], [1, 16384]]) {
            const h: TextureHeader = { base: 0xffffffff, width: width!, height: height!, format, mipCount: mipLevelsFor(width!, height!), wrapS, wrapT };
            expect(decodeTextureHeader(encodeTextureHeader(h))).toEqual({ ok: true, header: h });
          }
  });

  test('invalid words decode to a reason', () => {
    const good = [...encodeTextureHeader(header)];
    const bad = (edit: (w: number[]) => void, reason: RegExp) => {
      const w = [...good];
      edit(w);
      const d = decodeTextureHeader(w);
      expect(d.ok).toBe(false);
      if (!d.ok) expect(d.reason).toMatch(reason);
    };
    bad((w) => (w[1] = 16384), /size 16385×1 above/); // width − 1 = 16384
    bad((w) => (w[1] = 0x40000000), /above 16384/);
    bad((w) => (w[2] = (w[2]! & ~0xf) | 2), /unknown format 2/);
    bad((w) => (w[2] = w[2]! & ~0xf0), /mip count 0/);
    bad((w) => (w[2] = (w[2]! & ~0xf0) | (11 << 4)), /mip count 11 not in 1 … 10/); // 640 wide: 10 levels
    bad((w) => (w[2] = w[2]! | (3 << 8)), /unknown wrap mode 3/);
    bad((w) => (w[2] = w[2]! | (3 << 10)), /unknown wrap mode/);
    bad((w) => (w[2] = (w[2]! | 0x80000000) >>> 0), /reserved/);
    bad((w) => (w[2] = w[2]! | 0x1000), /reserved/);
    bad((w) => (w[3] = 1), /reserved/);
    bad((w) => w.pop(), /4 words/);
  });

  test('encode rejects what decode would reject, with the field named', () => {
    expect(() => encodeTextureHeader({ ...header, width: 0 })).toThrow(TextureError);
    expect(() => encodeTextureHeader({ ...header, width: 16385 })).toThrow(/width must be an integer 1 … 16384/);
    expect(() => encodeTextureHeader({ ...header, height: 2.5 })).toThrow(/height/);
    expect(() => encodeTextureHeader({ ...header, mipCount: 11 })).toThrow(/mipCount must be 1 … 10 for 640×3/);
    expect(() => encodeTextureHeader({ ...header, format: 'rgb8' as never })).toThrow(/format must be one of rgba8, r32f/);
    expect(() => encodeTextureHeader({ ...header, wrapT: 'border' as never })).toThrow(/wrapT must be one of/);
    expect(() => encodeTextureHeader({ ...header, base: -1 })).toThrow(/base/);
  });
});

describe('texture sampler words', () => {
  test('encode gives the documented bit layout (bias s5.8, min/max u4.8)', () => {
    expect([...encodeTextureSampler(sampler)]).toEqual([(2 | ((0x2000 - 384) << 16)) >>> 0, 64 | (1984 << 12)]);
  });

  test('round-trips, extremes included', () => {
    for (const filter of ['nearest', 'bilinear', 'trilinear'] as const)
      for (const [lodBias, lodMin, lodMax] of [[-16, 0, 0], [15 + 255 / 256, 15 + 255 / 256, 15 + 255 / 256], [0, 1 / 256, 2], [-1 / 256, 0, 15]]) {
        const s = { filter, lodBias: lodBias!, lodMin: lodMin!, lodMax: lodMax! };
        const d = decodeTextureSampler(encodeTextureSampler(s));
        expect(d.ok && { filter: d.sampler.filter, lodBias: d.sampler.lodBias, lodMin: d.sampler.lodMin, lodMax: d.sampler.lodMax }).toEqual(s);
        expect(d.ok && d.sampler.lodBiasRaw).toBe(lodBias! * 256);
      }
  });

  test('invalid words decode to a reason', () => {
    const reason = (w: number[]) => {
      const d = decodeTextureSampler(w);
      return d.ok ? 'ok' : d.reason;
    };
    expect(reason([3, 0])).toMatch(/unknown filter 3/);
    expect(reason([0x4, 0])).toMatch(/reserved/);
    expect(reason([0x20000000, 0])).toMatch(/reserved/);
    expect(reason([0, 0x01000000])).toMatch(/reserved/);
    expect(reason([0, 0x001001])).toBe('ok'); // min = max = 1/256 is allowed
    expect(reason([0, 2 | (1 << 12)])).toMatch(/LOD min 0.0078125 above LOD max 0.00390625/);
    expect(reason([0])).toMatch(/2 words/);
    expect(reason([0, 0])).toBe('ok');
  });

  test('encode rejects values the fixed-point fields cannot hold', () => {
    expect(() => encodeTextureSampler({ ...sampler, lodBias: 16 })).toThrow(/lodBias must be a multiple of 1\/256 from -16 to 15.99609375/);
    expect(() => encodeTextureSampler({ ...sampler, lodBias: 0.001 })).toThrow(TextureError);
    expect(() => encodeTextureSampler({ ...sampler, lodMin: -1 / 256 })).toThrow(/lodMin/);
    expect(() => encodeTextureSampler({ ...sampler, lodMin: 3, lodMax: 2 })).toThrow(/lodMin must not exceed lodMax/);
    expect(() => encodeTextureSampler({ ...sampler, filter: 'anisotropic' as never })).toThrow(/filter must be one of nearest, bilinear, trilinear/);
  });
});

const rgba = (r: number, g: number, b: number, a: number) => (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;

describe('mip chains', () => {
  test('level sizes halve with floor down to 1×1', () => {
    expect(mipLevelsFor(640, 3)).toBe(10);
    expect(mipLevelsFor(1, 1)).toBe(1);
    expect(mipLevelsFor(5, 5)).toBe(3);
    expect([0, 1, 2, 3].map((l) => mipLevelSize(5, 12, l))).toEqual([{ width: 5, height: 12 }, { width: 2, height: 6 }, { width: 1, height: 3 }, { width: 1, height: 1 }]);
    expect(mipLevelOffset(5, 12, 3)).toBe(60 + 12 + 3);
    expect(mipChainWords(5, 12, 4)).toBe(76);
  });

  test('RGBA8 box filter: 2×2 means rounded half up, per channel', () => {
    const img: TextureImage = { width: 2, height: 2, format: 'rgba8', texels: Uint32Array.of(rgba(0, 255, 1, 10), rgba(1, 255, 0, 20), rgba(0, 255, 0, 30), rgba(0, 254, 0, 41)) };
    const chain = buildMipChain(img);
    expect(chain).toHaveLength(2);
    // R (1/4 = 0.25 → 0), G (1019/4 = 254.75 → 255), B (1/4 → 0), A (101/4 = 25.25 → 25)
    expect([...chain[1]!.texels]).toEqual([rgba(0, 255, 0, 25)]);
    const half = buildMipChain({ width: 2, height: 1, format: 'rgba8', texels: Uint32Array.of(rgba(1, 2, 3, 4), rgba(2, 3, 4, 5)) });
    expect([...half[1]!.texels]).toEqual([rgba(2, 3, 4, 5)]); // 1.5 → 2, ties up
  });

  test('odd sizes: the last texel of a level takes three source texels, nothing is dropped', () => {
    // 3×3 R32F with values 0 … 8: one level below it is 1×1, the mean of all nine (4).
    const r = (v: number[]) => Uint32Array.from(v.map(fromNumber));
    const chain = buildMipChain({ width: 3, height: 3, format: 'r32f', texels: r([0, 1, 2, 3, 4, 5, 6, 7, 8]) });
    expect(chain.map((l) => [l.width, l.height])).toEqual([[3, 3], [1, 1]]);
    expect(toNumber(chain[1]!.texels[0]!)).toBe(4);
    // 5×1: [0 1 | 2 3 4] → [0.5, 3], then [1.75].
    const row = buildMipChain({ width: 5, height: 1, format: 'r32f', texels: r([0, 1, 2, 3, 4]) });
    expect(row.map((l) => [...l.texels].map(toNumber))).toEqual([[0, 1, 2, 3, 4], [0.5, 3], [1.75]]);
  });

  test('layout puts the levels one after another', () => {
    const img: TextureImage = { width: 4, height: 2, format: 'rgba8', texels: Uint32Array.from({ length: 8 }, (_, i) => rgba(i * 10, 0, 0, 255)) };
    const chain = buildMipChain(img);
    const words = layoutMipChain(chain);
    expect(words.length).toBe(8 + 2 + 1);
    expect([...words.subarray(0, 8)]).toEqual([...img.texels]);
    expect([...words.subarray(8)]).toEqual([...chain[1]!.texels, ...chain[2]!.texels]);
    expect(() => layoutMipChain([img, img])).toThrow(/mip level 1 is 4×2 rgba8, expected 2×1 rgba8/);
  });

  test('bad images are clear errors', () => {
    expect(() => buildMipChain({ width: 2, height: 2, format: 'rgba8', texels: new Uint32Array(3) })).toThrow(/needs 4 texels, got 3/);
    expect(() => buildMipChain({ width: 0, height: 2, format: 'rgba8', texels: new Uint32Array(0) })).toThrow(TextureError);
    expect(() => buildMipChain({ width: 1, height: 1, format: 'bgr' as never, texels: new Uint32Array(1) })).toThrow(/format must be rgba8 or r32f/);
  });
});
