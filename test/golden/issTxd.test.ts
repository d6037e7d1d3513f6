// txd on the ISA simulator: results equal the golden sampleTxd called directly, write masks, the status flag, invalid handles, and no texture memory.
import { describe, expect, test } from 'vitest';
import { Machine, MemoryImageError, TEXTURE_WORDS, type Retired } from '../../src/iss/index.ts';
import { buildMipChain, encodeTextureHeader, encodeTextureSampler, layoutMipChain, sampleTxd, TxdStatus, type TextureSampler } from '../../src/golden/texture/index.ts';
import { FLAG_NEGATIVE, FLAG_UNORDERED, FLAG_ZERO, fromNumber as f } from '../../src/golden/float32.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { encodeTxdControl, encodeTxdHandle } from '../../src/isa/textureOperands.ts';
import { enc } from './encode.ts';

type Row = [string, ...number[]];
const EMPTY: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };

/** Texture memory: samplers at pool indices 0 … 2 (words 0 … 5), the header at pool index 2 (words 8 … 11), a 6×4 RGBA8 chain from word 16. */
const BASE = 16;
const HEADER = 2;
const SAMPLERS: readonly TextureSampler[] = [
  { filter: 'bilinear', lodBias: 0, lodMin: 0, lodMax: 15 },
  { filter: 'trilinear', lodBias: 0.5, lodMin: 0, lodMax: 15 },
  { filter: 'nearest', lodBias: 0, lodMin: 0, lodMax: 15 },
];
const TEXELS = Uint32Array.from({ length: 24 }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) ^ (i << 3)) >>> 0);
const CHAIN = layoutMipChain(buildMipChain({ width: 6, height: 4, format: 'rgba8', texels: TEXELS }));

function textureMemory(header = encodeTextureHeader({ base: BASE, width: 6, height: 4, format: 'rgba8', mipCount: 3, wrapS: 'repeat', wrapT: 'mirror' })): Uint32Array {
  const mem = new Uint32Array(BASE + CHAIN.length);
  SAMPLERS.forEach((s, k) => mem.set(encodeTextureSampler(s), 2 * k));
  mem.set(header, 4 * HEADER);
  mem.set(CHAIN, BASE);
  return mem;
}

/** Load a 32-bit value into R2 and then into lane `lane` of RVn. */
const toLane = (n: number, lane: number, value: number): Row[] => [
  ['s_write_high', 2, value >>> 16],
  ['s_write_low', 2, value & 0xffff],
  ['v_get_from_s', n, 2, lane],
];

interface Txd {
  /** RVa = (s, t, handle, control); RVb = the derivatives (all binary32 bits but handle and control). */
  readonly a: readonly number[];
  readonly b: readonly number[];
  readonly mask?: number;
  /** RVd's lanes before the txd. */
  readonly dest?: readonly number[];
  readonly d?: number;
}

/** Runs `txd RVd, RV1, RV2, #mask` (RVd = RV3 unless given) after a cmp_i that sets the flag to N; returns RVd, the flag and txd's record. */
function run(op: Txd, texture: Uint32Array | undefined) {
  const d = op.d ?? 3;
  const rows: Row[] = [
    ...op.a.flatMap((v, k) => toLane(1, k, v)),
    ...op.b.flatMap((v, k) => toLane(2, k, v)),
    ...(op.dest ?? [0, 0, 0, 0]).flatMap((v, k) => toLane(d, k, v)),
    ['ii_addi', 4, 0, -1],
    ['cmp_i', 4, 0],
    ['txd', d, 1, 2, op.mask ?? 0xf],
    ['fin'],
  ];
  const records: Retired[] = [];
  const m = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY, ...(texture ? { texture } : {}), onRetire: (_, r) => records.push(r) });
  const t = m.runThread(0);
  const rec = records.find((r) => r.word >>> 26 === 0b101110)!;
  return { rv: Array.from(t.v.subarray(4 * d, 4 * d + 4)), flag: t.flag, rec, fault: t.fault, retired: t.retired };
}

/** sampleTxd called directly with the same operands. */
function golden(op: Txd, mem: Uint32Array, samplerIndex: number, headerIndex = HEADER) {
  const padded = new Uint32Array(TEXTURE_WORDS);
  padded.set(mem);
  const [s, t, , control] = op.a;
  const [dsdx, dsdy, dtdx, dtdy] = op.b;
  const lodClamp = control! >>> 20;
  const offset = (control! >>> 12) & 0xff;
  const header = padded.subarray(4 * headerIndex, 4 * headerIndex + 4);
  const sampler = padded.subarray(2 * samplerIndex, 2 * samplerIndex + 2);
  return sampleTxd(padded, header, sampler, s!, t!, dsdx!, dsdy!, dtdx!, dtdy!, offset, op.mask ?? 0xf, { dest: op.dest ?? [0, 0, 0, 0], lodClamp });
}

describe('txd on the ISS with texture memory', () => {
  const mem = textureMemory();
  const cases: { name: string; sampler: number; st: [number, number]; deriv: [number, number, number, number]; lodClamp?: number; du?: number; dv?: number }[] = [
    { name: 'bilinear, magnified', sampler: 0, st: [0.3, 0.55], deriv: [0.01, 0, 0, 0.01] },
    { name: 'bilinear, level 1 by the derivatives', sampler: 0, st: [0.71, 0.2], deriv: [0.35, 0, 0, 0.5] },
    { name: 'bilinear with offsets (-3, 2) across the repeat and mirror edges', sampler: 0, st: [0.05, 0.9], deriv: [0, 0, 0, 0], du: -3, dv: 2 },
    { name: 'trilinear between levels 0 and 1', sampler: 1, st: [0.42, 0.61], deriv: [0.2, 0.05, -0.1, 0.25] },
    { name: 'trilinear with the LOD clamp at 1.75', sampler: 1, st: [0.42, 0.61], deriv: [0, 0, 0, 0], lodClamp: 0x1c0 },
    { name: 'nearest, coarsest level', sampler: 2, st: [-1.3, 7.2], deriv: [10, 0, 0, 10] },
    { name: 'nearest, NaN coordinates read as +0', sampler: 2, st: [NaN, NaN], deriv: [0, 0, 0, 0] },
  ];
  test.each(cases)('$name: RVd equals sampleTxd, flag Z, status 0', (c) => {
    const op: Txd = {
      a: [f(c.st[0]), f(c.st[1]), encodeTxdHandle(HEADER, c.sampler), encodeTxdControl(c.lodClamp ?? 0, c.du ?? 0, c.dv ?? 0)],
      b: c.deriv.map(f),
    };
    const want = golden(op, mem, c.sampler);
    expect(want.status).toBe(TxdStatus.ok);
    const got = run(op, mem);
    expect(got.rv).toEqual([...want.rgba]);
    // Not all zero: the case reads texels.
    expect(got.rv.some((x) => x !== 0)).toBe(true);
    expect(got.flag).toBe(FLAG_ZERO);
    expect(got.rec.flag).toBe(FLAG_ZERO);
    expect(got.rec.vector).toEqual({ reg: 3, value: [...want.rgba] });
    expect(got.rec.textureStatus).toBe(0);
    expect(got.fault).toBe(false);
  });

  test('the offsets and the LOD clamp change the result (so they reach sampleTxd)', () => {
    const a = (control: number) => [f(0.42), f(0.61), encodeTxdHandle(HEADER, 1), control];
    const plain = run({ a: a(0), b: [0, 0, 0, 0] }, mem).rv;
    expect(run({ a: a(encodeTxdControl(0, 1, 0)), b: [0, 0, 0, 0] }, mem).rv).not.toEqual(plain);
    expect(run({ a: a(encodeTxdControl(0x100, 0, 0)), b: [0, 0, 0, 0] }, mem).rv).not.toEqual(plain);
    // Bits 11:0 of the control word (the seed's array index) are ignored.
    expect(run({ a: a(0xfff), b: [0, 0, 0, 0] }, mem).rv).toEqual(plain);
  });

  test('the write mask: masked-off lanes keep RVd, written lanes equal sampleTxd', () => {
    const dest = [0x11111111, 0x22222222, 0x33333333, 0x44444444];
    const op: Txd = { a: [f(0.3), f(0.55), encodeTxdHandle(HEADER, 0), 0], b: [0, 0, 0, 0].map(f), mask: 0b0101, dest };
    const full = golden({ ...op, mask: 0xf }, mem, 0).rgba;
    const got = run(op, mem);
    expect(got.rv).toEqual([full[0], dest[1], full[2], dest[3]]);
    expect(got.rv).toEqual([...golden(op, mem, 0).rgba]);
  });

  test('RV0 as destination writes nothing but still sets the flag', () => {
    const got = run({ a: [f(0.3), f(0.55), encodeTxdHandle(HEADER, 0), 0], b: [0, 0, 0, 0], d: 0 }, mem);
    expect(got.rv).toEqual([0, 0, 0, 0]);
    expect(got.rec.vector).toBeUndefined();
    expect(got.rec.flag).toBe(FLAG_ZERO);
  });

  test('an invalid header gives zeroes in the written lanes, flag unordered, status invalidHeader', () => {
    const dest = [0x11111111, 0x22222222, 0x33333333, 0x44444444];
    // Header pool index 3 (words 12 … 15) is zero: mip count 0.
    const op: Txd = { a: [f(0.3), f(0.55), encodeTxdHandle(3, 0), 0], b: [0, 0, 0, 0], mask: 0b1011, dest };
    const got = run(op, mem);
    expect(got.rv).toEqual([0, 0, dest[2], 0]);
    expect(got.flag).toBe(FLAG_UNORDERED);
    expect(got.rec.textureStatus).toBe(TxdStatus.invalidHeader);
    expect(got.fault).toBe(false);
  });

  test('a header pointer past texture memory reads as an invalid header; an invalid sampler and a chain past the end have their own bits', () => {
    const past = run({ a: [0, 0, encodeTxdHandle(TEXTURE_WORDS / 4, 0), 0], b: [0, 0, 0, 0] }, mem);
    expect(past.rec.textureStatus).toBe(TxdStatus.invalidHeader);
    expect(past.rv).toEqual([0, 0, 0, 0]);
    // The last header that fits is read (zero there: invalid for its mip count, not for its place).
    const withSampler = textureMemory();
    withSampler[7] = 0xffffffff; // sampler pool index 3: reserved bits set
    const bad = run({ a: [0, 0, encodeTxdHandle(TEXTURE_WORDS / 4, 3), 0], b: [0, 0, 0, 0] }, withSampler);
    expect(bad.rec.textureStatus).toBe(TxdStatus.invalidHeader | TxdStatus.invalidSampler);
    const outside = textureMemory(encodeTextureHeader({ base: TEXTURE_WORDS - 10, width: 6, height: 4, format: 'rgba8', mipCount: 1, wrapS: 'repeat', wrapT: 'repeat' }));
    const oom = run({ a: [0, 0, encodeTxdHandle(HEADER, 0), 0], b: [0, 0, 0, 0] }, outside);
    expect(oom.rec.textureStatus).toBe(TxdStatus.outOfMemory);
    expect(oom.flag).toBe(FLAG_UNORDERED);
  });

  test('a program branches on the status with bne', () => {
    const prog = (handle: number): Row[] => [...toLane(1, 2, handle), ['txd', 3, 1, 2, 0xf], ['bne', 8], ['ii_addi', 5, 0, 1], ['fin'], ['ii_addi', 5, 0, 2], ['fin']];
    const r5 = (handle: number) => new Machine({ program: Uint32Array.from(prog(handle).map((r) => enc(...r))), scene: EMPTY, texture: mem }).runThread(0).r[5];
    expect(r5(encodeTxdHandle(HEADER, 0))).toBe(1);
    expect(r5(encodeTxdHandle(3, 0))).toBe(2);
  });

  test('a texture image larger than texture memory is refused', () => {
    expect(() => new Machine({ program: new Uint32Array(1), scene: EMPTY, texture: new Uint32Array(TEXTURE_WORDS + 1) })).toThrow(MemoryImageError);
    expect(() => new Machine({ program: new Uint32Array(1), scene: EMPTY, texture: new Uint32Array(TEXTURE_WORDS + 1) })).toThrow('the texture image has 262145 words; texture memory holds 262144');
  });
});

describe('txd on the ISS without texture memory (as the RT core today)', () => {
  test('is an illegal instruction: the thread ends with a fault there, RVd and the flag untouched', () => {
    const dest = [1, 2, 3, 4];
    const got = run({ a: [f(0.3), f(0.55), encodeTxdHandle(HEADER, 0), 0], b: [0, 0, 0, 0], dest }, undefined);
    expect(got.rv).toEqual(dest);
    expect(got.flag).toBe(FLAG_NEGATIVE);
    expect(got.rec.event).toBe('fault-end');
    expect(got.rec.vector).toBeUndefined();
    expect(got.rec.textureStatus).toBeUndefined();
    expect(got.fault).toBe(true);
    // Everything before txd retired (8 × 3 loads, 4 more for RVd, ii_addi, cmp_i); the faulting fetch and fin did not.
    expect(got.retired).toBe(24 + 12 + 2);
  });
});
