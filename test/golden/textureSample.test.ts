// The golden TXD sampler on hand-computed cases: wrap modes at edges, nearest and bilinear texels, LOD
// selection, trilinear blends, offsets, write masks, NaN/Inf/zero operands and invalid headers.
import { describe, expect, test } from 'vitest';
import {
  computeLod,
  encodeTextureHeader,
  encodeTextureSampler,
  log2Approx,
  sampleTxd,
  TxdStatus,
  UNORM8_TO_FLOAT,
  wrapTexelIndex,
  type TextureHeader,
  type TextureSampler,
  type TxdOptions,
} from '../../src/golden/texture/index.ts';
import { CANONICAL_NAN, fromNumber as f, NEG_INF, POS_INF, toNumber } from '../../src/golden/float32.ts';

const NAN = CANONICAL_NAN;
const BASE = 5; // level 0 starts at word 5: the header's base is honoured

/** Texture memory: five filler words, then `words`. */
const memoryOf = (words: number[]) => Uint32Array.from([0xdeadbeef, 1, 2, 3, 4, ...words]);
const r32 = (values: number[]) => values.map(f);

interface Case {
  memory: Uint32Array;
  header: Partial<TextureHeader> & Pick<TextureHeader, 'width' | 'height'>;
  sampler?: Partial<TextureSampler>;
}

/** Samples and returns the R channel as a number (s, t, derivatives as numbers; bits with `bits`). */
function red(c: Case, s: number, t: number, d: [number, number, number, number] = [0, 0, 0, 0], offset = 0, options: TxdOptions = {}): number {
  return toNumber(sample(c, f(s), f(t), d.map(f) as [number, number, number, number], offset, options).rgba[0]);
}

function sample(c: Case, s: number, t: number, d: [number, number, number, number], offset = 0, options: TxdOptions = {}) {
  const header = encodeTextureHeader({ base: BASE, format: 'r32f', mipCount: 1, wrapS: 'repeat', wrapT: 'repeat', ...c.header });
  const sampler = encodeTextureSampler({ filter: 'nearest', lodBias: 0, lodMin: 0, lodMax: 15, ...c.sampler });
  return sampleTxd(c.memory, header, sampler, s, t, d[0], d[1], d[2], d[3], offset, 0xf, options);
}

describe('wrap modes on texel indices', () => {
  const at = (mode: 'repeat' | 'clampToEdge' | 'mirror', size: number) => Array.from({ length: 11 }, (_, k) => wrapTexelIndex(k - 4, size, mode));
  test('size 3, indices −4 … 6', () => {
    expect(at('repeat', 3)).toEqual([2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
    expect(at('clampToEdge', 3)).toEqual([0, 0, 0, 0, 0, 1, 2, 2, 2, 2, 2]);
    expect(at('mirror', 3)).toEqual([2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0]);
  });
  test('size 1 always gives 0', () => {
    for (const mode of ['repeat', 'clampToEdge', 'mirror'] as const) expect(at(mode, 1)).toEqual(Array(11).fill(0));
  });
});

describe('edge texels under each wrap mode (4×1: 10, 20, 30, 40)', () => {
  const row = (wrapS: 'repeat' | 'clampToEdge' | 'mirror', filter: 'nearest' | 'bilinear'): Case => ({ memory: memoryOf(r32([10, 20, 30, 40])), header: { width: 4, height: 1, wrapS }, sampler: { filter } });
  test('nearest just outside both edges', () => {
    expect([red(row('repeat', 'nearest'), -0.1, 0.5), red(row('clampToEdge', 'nearest'), -0.1, 0.5), red(row('mirror', 'nearest'), -0.1, 0.5)]).toEqual([40, 10, 10]);
    expect([red(row('repeat', 'nearest'), 1.05, 0.5), red(row('clampToEdge', 'nearest'), 1.05, 0.5), red(row('mirror', 'nearest'), 1.05, 0.5)]).toEqual([10, 40, 40]);
    expect(red(row('mirror', 'nearest'), 1.3, 0.5)).toBe(30); // u = 5.2: index 5 mirrors to 2
    expect(red(row('repeat', 'nearest'), -2.9, 0.5)).toBe(10); // u = −11.6: floor −12 ≡ 0 (mod 4)
    expect(red(row('repeat', 'nearest'), -2.7, 0.5)).toBe(20); // u = −10.8: floor −11 ≡ 1
  });
  test('bilinear on the edges blends across the wrap', () => {
    expect([red(row('repeat', 'bilinear'), 0, 0.5), red(row('clampToEdge', 'bilinear'), 0, 0.5), red(row('mirror', 'bilinear'), 0, 0.5)]).toEqual([25, 10, 10]);
    expect([red(row('repeat', 'bilinear'), 1, 0.5), red(row('clampToEdge', 'bilinear'), 1, 0.5), red(row('mirror', 'bilinear'), 1, 0.5)]).toEqual([25, 40, 40]);
    expect(red(row('repeat', 'bilinear'), 0.0625, 0.5)).toBe(17.5); // u = −0.25: texels 3 and 0, weight 3/4
  });
});

/** 4×4 R32F, texel (x, y) = x + 4y. */
const ramp = (extra: Partial<Case['header']> = {}, sampler: Partial<TextureSampler> = {}): Case => ({
  memory: memoryOf(r32(Array.from({ length: 16 }, (_, i) => i))),
  header: { width: 4, height: 4, ...extra },
  sampler,
});

describe('nearest and bilinear texels', () => {
  test('nearest picks floor(s·W), floor(t·H)', () => {
    expect(red(ramp(), 0.3, 0.6)).toBe(1 + 4 * 2);
    expect(red(ramp(), 0, 0)).toBe(0);
    expect(red(ramp(), 0.999, 0.999)).toBe(15);
    expect(red(ramp(), 0.25, 0.5)).toBe(1 + 4 * 2); // exactly on a texel boundary: the texel to the right
  });

  test('bilinear: 8-bit weights, horizontal lerps then vertical', () => {
    // u = 0.4·4 − 0.5 = 1.1000000238 → q = 281: texel 1, weight 25/256; v = 0.7·4 − 0.5 = 2.2999999523 → q = 588: texel 2, weight 76/256.
    // (9 + 25/256) + 76/256 · ((13 + 25/256) − (9 + 25/256)) = 10.28515625, every step exact.
    expect(red(ramp({}, { filter: 'bilinear' }), 0.4, 0.7)).toBe(10.28515625);
    // At a texel centre the weights are 0: the texel itself.
    expect(red(ramp({}, { filter: 'bilinear' }), 0.375, 0.625)).toBe(1 + 4 * 2);
  });

  test('the weights are floor(frac · 256) / 256, not rounded', () => {
    // u = 0.5 − 0.5 + 255.9/256 / 4 … chosen so that frac · 256 = 255.9: the weight is 255/256.
    const s = (0.5 + 255.9 / 256) / 4;
    expect(red(ramp({ height: 1 }, { filter: 'bilinear' }), s, 0.5)).toBe(255 / 256);
  });

  test('RGBA8 texels are x / 255 rounded to nearest binary32, channel R in bits 7:0', () => {
    const c: Case = { memory: memoryOf([0xff80_0100]), header: { width: 1, height: 1, format: 'rgba8' } };
    const r = sample(c, 0, 0, [0, 0, 0, 0]).rgba;
    expect(r).toEqual([0, f(1 / 255), f(128 / 255), 0x3f800000]);
    for (let x = 0; x < 256; x++) expect(UNORM8_TO_FLOAT[x]).toBe(f(x / 255));
  });

  test('R32F reads as (r, 0, 0, 1), a NaN texel as the canonical NaN', () => {
    const c: Case = { memory: memoryOf([0xffc12345]), header: { width: 1, height: 1 } };
    expect(sample(c, 0, 0, [0, 0, 0, 0]).rgba).toEqual([NAN, 0, 0, 0x3f800000]);
  });
});

/** 16×16 R32F whose level l holds the constant 10·l (laid out by hand, 5 levels). */
function levels(sampler: Partial<TextureSampler> = {}, width = 16, height = 16, mipCount = 5): Case {
  const words: number[] = [];
  for (let l = 0; l < mipCount; l++) {
    const n = Math.max(1, width >> l) * Math.max(1, height >> l);
    words.push(...Array(n).fill(f(10 * l)));
  }
  return { memory: memoryOf(words), header: { width, height, mipCount }, sampler };
}
const lodOf = (c: Case, d: [number, number, number, number], options: TxdOptions = {}) => sample(c, f(0.5), f(0.5), d.map(f) as never, 0, options).lod!.lod;

describe('LOD from the derivatives', () => {
  test('λ = log2 of the larger footprint axis, in level-0 texels', () => {
    const c = levels();
    expect([1, 2, 4, 8, 16, 64].map((k) => lodOf(c, [k / 16, 0, 0, 0]))).toEqual([0, 256, 512, 768, 1024, 1024]); // clamped to level 4
    expect(lodOf(c, [1 / 16, 0, 0, 4 / 16])).toBe(512); // the y axis is longer
    expect(lodOf(c, [0, 2 / 16, 0, 0])).toBe(256);
    expect(lodOf(c, [1 / 16, 0, 1 / 16, 0])).toBe(128); // |(1, 1)| = √2: λ = 0.5
    expect(lodOf(c, [0.5 / 16, 0, 0, 0])).toBe(0); // magnification clamps to lodMin = 0
  });

  test('width and height scale their own derivatives', () => {
    const c = levels({}, 16, 4, 5);
    expect(lodOf(c, [0, 0, 0, 1 / 4])).toBe(0);
    expect(lodOf(c, [4 / 16, 0, 0, 1 / 4])).toBe(512);
    expect(lodOf(c, [0, 0, 0, 2 / 4])).toBe(256);
  });

  test('log2 is exponent plus f + 11/32·f·(1 − f)', () => {
    expect(toNumber(log2Approx(f(9)))).toBe(3 + 0.125 + (0.125 * 0.875 * 11) / 32);
    expect(toNumber(log2Approx(f(2 ** -100)))).toBe(-100);
    for (let k = 0; k < 2000; k++) {
      const m = 2 ** (k / 50 - 20);
      expect(Math.abs(toNumber(log2Approx(f(m))) - Math.log2(m))).toBeLessThan(0.0081);
    }
    expect(lodOf(levels(), [3 / 16, 0, 0, 0])).toBe(405); // 0.5·log2Approx(9) = 1.5813 → 404.8 → 405 (log2 3 = 1.58496)
  });

  test('bias, lodMin, lodMax, the .LC clamp and the mip count', () => {
    const d: [number, number, number, number] = [2 / 16, 0, 0, 0]; // λ = 1
    expect(lodOf(levels({ lodBias: 1.5 }), d)).toBe(640);
    expect(lodOf(levels({ lodBias: -16 }), d)).toBe(0);
    expect(lodOf(levels({ lodMin: 1.25 }), d)).toBe(320);
    expect(lodOf(levels({ lodMax: 0.5 }), d)).toBe(128);
    expect(lodOf(levels(), d, { lodClamp: 2 * 256 + 3 })).toBe(515);
    expect(lodOf(levels({ lodMax: 1.5 }), d, { lodClamp: 3 * 256 })).toBe(384); // lodMax applies after the .LC clamp
    expect(lodOf(levels({ lodBias: 15 }, 16, 16, 3), d)).toBe(512); // 3 levels: at most 2
  });
});

describe('level selection and trilinear blending (level l holds 10·l)', () => {
  const base: [number, number, number, number] = [1 / 16, 0, 0, 0]; // λ = 0 before bias
  test('nearest and bilinear take the nearest level, halves rounding down', () => {
    for (const filter of ['nearest', 'bilinear'] as const) {
      expect([0.5, 0.5 + 1 / 256, 1.25, 3.5, 3.75].map((lodBias) => red(levels({ filter, lodBias }), 0.5, 0.5, base))).toEqual([0, 10, 10, 30, 40]);
    }
  });

  test('trilinear blends level ⌊λ⌋ and the next by the 8 fraction bits', () => {
    const tri = (lodBias: number) => red(levels({ filter: 'trilinear', lodBias }), 0.3, 0.7, base);
    expect([0, 0.25, 0.75, 1.5, 2, 3 + 255 / 256, 4, 6].map(tri)).toEqual([0, 2.5, 7.5, 15, 20, 39.9609375, 40, 40]);
  });

  test('trilinear reads exactly the two levels it blends, and one when the fraction is 0', () => {
    const c = levels({ filter: 'trilinear', lodBias: 1.5 });
    const read: number[] = [];
    sample(c, f(0.3), f(0.7), base.map(f) as never, 0, { onFetch: (a) => read.push(a) });
    const level1 = BASE + 256;
    const level2 = level1 + 64;
    expect(read).toHaveLength(8);
    expect(read.slice(0, 4).every((a) => a >= level1 && a < level2)).toBe(true);
    expect(read.slice(4).every((a) => a >= level2 && a < level2 + 16)).toBe(true);
    read.length = 0;
    sample(levels({ filter: 'trilinear', lodBias: 2 }), f(0.3), f(0.7), base.map(f) as never, 0, { onFetch: (a) => read.push(a) });
    expect(read).toHaveLength(4);
  });
});

describe('NaN, infinite, huge, tiny and zero operands', () => {
  const c = levels({ filter: 'trilinear', lodMax: 15 });
  const lodBits = (d: number[]) => sample(c, f(0.5), f(0.5), d as never).lod!.lod;
  test('derivatives', () => {
    expect(lodBits([0, 0, 0, 0])).toBe(0); // log2 0 = −inf: λ = lodMin
    expect(lodBits([0x80000000, 0x80000000, 0, 0])).toBe(0); // −0
    expect(lodBits([NAN, NAN, NAN, NAN])).toBe(0); // NaN λ becomes lodMin
    expect(lodBits([NAN, 0, NAN, f(4 / 16)])).toBe(512); // the NaN axis drops out, the other axis counts
    expect(lodBits([POS_INF, 0, 0, 0])).toBe(1024); // +inf: the coarsest level
    expect(lodBits([NEG_INF, 0, 0, 0])).toBe(1024);
    expect(lodBits([f(1e30), 0, 0, 0])).toBe(1024); // the square overflows to +inf
    expect(lodBits([1, 1, 1, 1])).toBe(0); // smallest subnormal
    expect(lodBits([POS_INF, 0, NAN, 0])).toBe(0); // inf² + NaN = NaN: the x axis drops out, its inf with it
    expect(lodBits([f(0), f(0), POS_INF, NEG_INF])).toBe(1024);
    expect(toNumber(computeLod({ width: 16, height: 16, mipCount: 5, lodBiasRaw: 0, lodMinRaw: 0, lodMaxRaw: 4095, lodClampRaw: 0 }, NAN, NAN, NAN, NAN).lambda)).toBeNaN();
  });

  test('coordinates: NaN reads as 0, ±inf and huge values as ±2^22 texels', () => {
    const clamp = ramp({ wrapS: 'clampToEdge', wrapT: 'clampToEdge' });
    const at = (c2: Case, s: number, t: number) => toNumber(sample(c2, s, t, [0, 0, 0, 0]).rgba[0]);
    expect(at(clamp, NAN, NAN)).toBe(0);
    expect(at(clamp, POS_INF, f(0.3))).toBe(3 + 4);
    expect(at(clamp, NEG_INF, POS_INF)).toBe(12);
    expect(at(ramp(), POS_INF, f(0))).toBe(0); // repeat: 2^22 ≡ 0 (mod 4)
    expect(at(ramp(), f(1e30), f(-1e30))).toBe(0);
    const bilinear = ramp({ wrapS: 'clampToEdge', wrapT: 'clampToEdge' }, { filter: 'bilinear' });
    expect(at(bilinear, POS_INF, NAN)).toBe(3); // t NaN → 0 → v = −0.5 → rows −1, 0 clamp to row 0
  });

  test('infinite R32F texels follow IEEE: a zero weight on inf gives NaN', () => {
    const c2: Case = { memory: memoryOf(r32([1, Infinity])), header: { width: 2, height: 1, wrapS: 'clampToEdge' }, sampler: { filter: 'bilinear' } };
    expect(red({ ...c2, sampler: { filter: 'nearest' } }, 0.75, 0.5)).toBe(Infinity);
    // Horizontally 1 + ½·(inf − 1) = inf, then vertically (one row, weight 0) inf + 0·(inf − inf) = NaN.
    expect(red(c2, 0.5, 0.5)).toBeNaN();
    expect(red(c2, 0.25, 0.5)).toBeNaN(); // 1 + 0·(inf − 1) = 1 + NaN
  });
});

describe('offsets, write mask and invalid operands', () => {
  test('offsets −8 … +7 move the integer texel indices of the sampled level before wrapping', () => {
    expect(red(ramp(), 0.1, 0.1, undefined, 0x01)).toBe(1);
    expect(red(ramp(), 0.1, 0.1, undefined, 0x0f)).toBe(3); // u −1, repeat
    expect(red(ramp({ wrapS: 'clampToEdge' }), 0.1, 0.1, undefined, 0x0f)).toBe(0);
    expect(red(ramp(), 0.1, 0.1, undefined, 0x70)).toBe(4 * 3); // v +7 ≡ 3
    expect(red(ramp(), 0.1, 0.1, undefined, 0x88)).toBe(0); // −8, −8 ≡ 0
    expect(red(ramp(), 0.1, 0.1, undefined, 0x27)).toBe(3 + 4 * 2); // u +7, v +2
    // At level 1 (8×8, texel (x, y) = 100 + x + 8y here) an offset counts texels of level 1.
    const c = levels({ filter: 'nearest', lodBias: 1 });
    c.memory.set(r32(Array.from({ length: 64 }, (_, i) => 100 + i)), BASE + 256);
    expect(red(c, 0.1, 0.1, [1 / 16, 0, 0, 0], 0x11)).toBe(100 + 1 + 8);
    expect(red(c, 0.1, 0.1, [1 / 16, 0, 0, 0], 0xf2)).toBe(100 + 2 + 8 * 7); // u +2, v −1 ≡ 7
  });

  test('lanes outside the write mask keep the destination', () => {
    const c: Case = { memory: memoryOf([0x04030201]), header: { width: 1, height: 1, format: 'rgba8' } };
    const header = encodeTextureHeader({ base: BASE, width: 1, height: 1, format: 'rgba8', mipCount: 1, wrapS: 'repeat', wrapT: 'repeat' });
    const sampler = encodeTextureSampler({ filter: 'bilinear', lodBias: 0, lodMin: 0, lodMax: 0 });
    const r = sampleTxd(c.memory, header, sampler, 0, 0, 0, 0, 0, 0, 0, 0b0101, { dest: [7, 8, 9, 10] });
    expect(r.rgba).toEqual([UNORM8_TO_FLOAT[1], 8, UNORM8_TO_FLOAT[3], 10]);
    expect(sampleTxd(c.memory, header, sampler, 0, 0, 0, 0, 0, 0, 0, 0).rgba).toEqual([0, 0, 0, 0]);
  });

  test('an invalid header or sampler, or a chain beyond memory, gives +0 in the written lanes and a status bit', () => {
    const c = ramp();
    const header = encodeTextureHeader({ base: BASE, width: 4, height: 4, format: 'r32f', mipCount: 3, wrapS: 'repeat', wrapT: 'repeat' });
    const sampler = encodeTextureSampler({ filter: 'bilinear', lodBias: 0, lodMin: 0, lodMax: 0 });
    const badHeader = Uint32Array.from(header);
    badHeader[2] = badHeader[2]! | (3 << 8);
    const run = (h: ArrayLike<number>, s: ArrayLike<number>, memory: ArrayLike<number>) =>
      sampleTxd(memory, h, s, f(0.5), f(0.5), 0, 0, 0, 0, 0, 0b0111, { dest: [1, 2, 3, 4] });
    const memory = new Uint32Array(BASE + 16 + 4 + 1);
    memory.set(c.memory);
    expect(run(header, sampler, memory).status).toBe(TxdStatus.ok);
    expect(run(badHeader, sampler, memory)).toEqual({ rgba: [0, 0, 0, 4], status: TxdStatus.invalidHeader });
    expect(run(header, [3, 0], memory)).toEqual({ rgba: [0, 0, 0, 4], status: TxdStatus.invalidSampler });
    expect(run(badHeader, [3, 0], memory).status).toBe(TxdStatus.invalidHeader | TxdStatus.invalidSampler);
    expect(run(header, sampler, memory.subarray(0, memory.length - 1))).toEqual({ rgba: [0, 0, 0, 4], status: TxdStatus.outOfMemory });
  });

  test('operands outside their fields are clear errors', () => {
    const c = ramp();
    expect(() => red(c, 0, 0, undefined, 256)).toThrow(/sampleTxd: offset must be an integer 0 … 255, got 256/);
    expect(() => red(c, 0, 0, undefined, 0, { lodClamp: 4096 })).toThrow(/lodClamp must be an integer 0 … 4095/);
  });
});
