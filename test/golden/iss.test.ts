// The ISA simulator on directed programs; every expected value is worked out by hand from docs/isa.md.
import { describe, expect, test } from 'vitest';
import { Machine, Memory, Thread, InstructionLimitError, type Retired } from '../../src/iss/index.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { enc, f32 } from './encode.ts';

type Row = [string, ...number[]];
const EMPTY: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
const CONST = 0x20000000;
const NAN = 0x7fc00000;

/** Load a 32-bit constant into a register (two instructions). */
const li = (reg: number, value: number): Row[] => [
  ['s_write_high', reg, value >>> 16],
  ['s_write_low', reg, value & 0xffff],
];

interface RunOptions {
  readonly constants?: number[];
  readonly scene?: Scene;
  readonly pixel?: number;
  readonly max?: number;
}

/** Run one pixel's thread of a program (rows, or raw words) to its end; returns the thread and its records. */
function run(rows: (Row | number)[], o: RunOptions = {}) {
  const words = Uint32Array.from(rows.map((r) => (typeof r === 'number' ? r : enc(...r))));
  const records: Retired[] = [];
  const m = new Machine({ program: words, constants: Uint32Array.from(o.constants ?? []), scene: o.scene ?? EMPTY, maxInstructions: o.max ?? 10_000, onRetire: (_, r) => records.push(r) });
  const t = m.runThread(o.pixel ?? 0);
  return { t, records, m, base: (0x80000000 | ((o.pixel ?? 0) % 32 << 16)) >>> 0 };
}

const R = (rows: (Row | number)[], reg: number, o?: RunOptions): number => run([...rows, ['fin']], o).t.r[reg]!;
const RV = (t: Thread, n: number) => Array.from(t.v.subarray(4 * n, 4 * n + 4));

describe('thread start state', () => {
  test('R1 = pixel, R29 = 0x80(TID)0000, PC 0, flag Z, everything else zero', () => {
    const t = new Thread(5, 37, new Memory(new Uint32Array(0)), () => ({ hit: [0, 0, 0, 0], normal: [0, 0, 0, 0], hitParameters: [0, 0, 0, 0] }));
    expect(t.pc).toBe(0);
    expect(t.flag).toBe(0);
    expect(t.fault).toBe(false);
    expect(t.done).toBe(false);
    const want = new Uint32Array(32);
    want[1] = 37;
    want[29] = 0x80050000;
    expect(Array.from(t.r)).toEqual(Array.from(want));
    expect(t.v.every((x) => x === 0)).toBe(true);
  });

  test('pixel p runs as TID p % 32', () => {
    const { t } = run([['fin']], { pixel: 70 });
    expect([t.tid, t.r[1], t.r[29]]).toEqual([6, 70, 0x80060000]);
  });
});

describe('integer instructions', () => {
  test('s_write_high / s_write_low', () => {
    expect(R([['s_write_high', 2, 0x1234], ['s_write_low', 2, 0x5678]], 2)).toBe(0x12345678);
    // low half kept by s_write_high, high half kept by s_write_low
    expect(R([['ii_addi', 3, 0, -1], ['s_write_low', 3, 0x0001], ['s_write_high', 3, 0x8000]], 3)).toBe(0x80000001);
  });

  test('s_write_high/low read field B and write field A', () => {
    const high = ((0b100000 << 26) | (4 << 21) | (2 << 16) | 0xabcd) >>> 0; // A = R4, B = R2
    const low = ((0b100001 << 26) | (5 << 21) | (2 << 16) | 0x9999) >>> 0; // A = R5, B = R2
    const { t } = run([...li(2, 0x12345678), high, low, ['fin']]);
    expect([t.r[2], t.r[4], t.r[5]]).toEqual([0x12345678, 0xabcd5678, 0x12349999]);
  });

  test('ii_add / ii_sub / ii_mul wrap at 32 bits', () => {
    expect(R([...li(2, 0x7fffffff), ['ii_addi', 3, 0, 1], ['ii_add', 4, 2, 3]], 4)).toBe(0x80000000);
    expect(R([['ii_addi', 3, 0, 1], ['ii_sub', 4, 0, 3]], 4)).toBe(0xffffffff);
    expect(R([...li(2, 0x10000), ['ii_mul', 4, 2, 2]], 4)).toBe(0);
    expect(R([['ii_addi', 2, 0, -1], ['ii_addi', 3, 0, 3], ['ii_mul', 4, 2, 3]], 4)).toBe(0xfffffffd);
    expect(R([...li(2, 0x12345), ...li(3, 0x10001), ['ii_mul', 4, 2, 3]], 4)).toBe(0x23462345);
  });

  const div = (a: number, b: number) => R([...li(2, a >>> 0), ...li(3, b >>> 0), ['ii_div', 4, 2, 3]], 4);
  test('ii_div truncates toward zero', () => {
    expect(div(7, 2)).toBe(3);
    expect(div(-7, 2)).toBe(0xfffffffd);
    expect(div(7, -2)).toBe(0xfffffffd);
    expect(div(-7, -2)).toBe(3);
    expect(div(1, 2)).toBe(0);
    expect(div(0x80000000, 2)).toBe(0xc0000000);
    expect(div(0x80000000, 1)).toBe(0x80000000);
  });

  test('ii_div: x / 0 = 0xFFFFFFFF, INT_MIN / −1 = INT_MIN', () => {
    expect(div(5, 0)).toBe(0xffffffff);
    expect(div(-5, 0)).toBe(0xffffffff);
    expect(div(0, 0)).toBe(0xffffffff);
    expect(div(0x80000000, -1)).toBe(0x80000000);
  });

  test('immediate forms sign-extend their immediate', () => {
    expect(R([['ii_addi', 2, 0, -1]], 2)).toBe(0xffffffff);
    expect(R([['ii_addi', 2, 0, 0x7fff]], 2)).toBe(0x7fff);
    expect(R([['ii_subi', 2, 0, -32768]], 2)).toBe(0x8000);
    expect(R([['ii_addi', 2, 0, 3], ['ii_muli', 3, 2, -2]], 3)).toBe(0xfffffffa);
    expect(R([['ii_addi', 2, 0, -7], ['ii_divi', 3, 2, 2]], 3)).toBe(0xfffffffd);
    expect(R([['ii_addi', 2, 0, 9], ['ii_divi', 3, 2, 0]], 3)).toBe(0xffffffff);
    expect(R([...li(2, 0x80000000), ['ii_divi', 3, 2, -1]], 3)).toBe(0x80000000);
  });

  test('cmp_i is signed and writes only the flag', () => {
    const flag = (a: number, b: number) => {
      const { t, records } = run([...li(2, a >>> 0), ...li(3, b >>> 0), ['cmp_i', 2, 3], ['fin']]);
      expect(records[4]).toEqual({ pc: 16, word: enc('cmp_i', 2, 3), flag: t.flag });
      return t.flag;
    };
    expect(flag(-1, 1)).toBe(0b11);
    expect(flag(1, -1)).toBe(0b10);
    expect(flag(5, 5)).toBe(0b00);
    expect(flag(0x80000000, 0x7fffffff)).toBe(0b11);
  });

  test('logic: not, and, or, xor', () => {
    const pre = [...li(2, 0x0f0f00ff), ...li(3, 0x00ff0f0f)];
    expect(R([...pre, ['not', 4, 2]], 4)).toBe(0xf0f0ff00);
    expect(R([...pre, ['and', 4, 2, 3]], 4)).toBe(0x000f000f);
    expect(R([...pre, ['or', 4, 2, 3]], 4)).toBe(0x0fff0fff);
    expect(R([...pre, ['xor', 4, 2, 3]], 4)).toBe(0x0ff00ff0);
  });
});

describe('R0, R31 and RV0', () => {
  test('writes to R0 and R31 are ignored and not recorded; R31 reads PC + 4', () => {
    const { t, records } = run([['ii_addi', 0, 0, 5], ['ii_addi', 31, 0, 100], ['ii_add', 5, 31, 0], ['ii_addi', 30, 31, 4], ['fin']]);
    expect(t.r[0]).toBe(0);
    expect(records.map((r) => r.pc)).toEqual([0, 4, 8, 12, 16]);
    expect(records[0]).toEqual({ pc: 0, word: enc('ii_addi', 0, 0, 5) });
    expect(records[1]).toEqual({ pc: 4, word: enc('ii_addi', 31, 0, 100) });
    expect(records[2]!.scalar).toEqual({ reg: 5, value: 12 }); // at address 8
    expect(t.r[30]).toBe(20); // jmp_link's return address: 12 + 4 + 4
  });

  test('writes to RV0 are ignored and not recorded', () => {
    const { t, records } = run([['ii_addi', 2, 0, 1], ['v_get_from_s', 0, 2, 1], ['fin']]);
    expect(t.v.every((x) => x === 0)).toBe(true);
    expect(records[1]).toEqual({ pc: 4, word: enc('v_get_from_s', 0, 2, 1) });
  });
});

describe('float instructions', () => {
  const ff = (op: string, a: number, b: number) => R([...li(2, a), ...li(3, b), [op, 4, 2, 3]], 4);
  const unary = (op: string, a: number) => R([...li(2, a), [op, 4, 2]], 4);

  test('ff_add / ff_sub / ff_mul / ff_div', () => {
    expect(ff('ff_add', f32(1), f32(2))).toBe(0x40400000);
    expect(ff('ff_sub', f32(1), f32(2))).toBe(0xbf800000);
    expect(ff('ff_mul', f32(1.5), f32(2))).toBe(0x40400000);
    expect(ff('ff_div', f32(1), f32(4))).toBe(0x3e800000);
    expect(ff('ff_div', f32(1), 0)).toBe(0x7f800000);
    expect(ff('ff_div', f32(1), 0x80000000)).toBe(0xff800000);
    expect(ff('ff_div', 0, 0)).toBe(NAN);
    expect(ff('ff_add', 0x7f800000, 0xff800000)).toBe(NAN);
  });

  test('s_sqrt, s_itof, s_ftoi', () => {
    expect(unary('s_sqrt', f32(4))).toBe(0x40000000);
    expect(unary('s_sqrt', f32(-1))).toBe(NAN);
    expect(unary('s_sqrt', 0x80000000)).toBe(0x80000000);
    expect(unary('s_itof', 0xffffffff)).toBe(0xbf800000);
    expect(unary('s_itof', 0x01000001)).toBe(0x4b800000); // 16777217 rounds to even
    expect(unary('s_ftoi', f32(-2.5))).toBe(0xfffffffe);
    expect(unary('s_ftoi', NAN)).toBe(0);
    expect(unary('s_ftoi', f32(3e9))).toBe(0x7fffffff); // saturates
    expect(unary('s_ftoi', 0xff800000)).toBe(0x80000000);
  });

  test('cmp_f: Z for +0 = −0, N, P, unordered (01) for NaN', () => {
    const cmp = (a: number, b: number) => run([...li(2, a), ...li(3, b), ['cmp_f', 2, 3], ['fin']]).t.flag;
    expect(cmp(f32(1), f32(2))).toBe(0b11);
    expect(cmp(f32(2), f32(1))).toBe(0b10);
    expect(cmp(0, 0x80000000)).toBe(0b00);
    expect(cmp(NAN, f32(1))).toBe(0b01);
    expect(cmp(f32(1), 0x7f800001)).toBe(0b01);
    expect(cmp(0xff800000, 0x7f800000)).toBe(0b11);
  });

  /** RV1 = (a, b, c, d) through v_get_from_s, then the given rows. */
  const vec = (lanes: number[], reg = 1): Row[] => lanes.flatMap((x, i) => [...li(2, x), ['v_get_from_s', reg, 2, i] as Row]);

  test('vv_add / vv_sub / vv_mul_ele / vv_div per lane', () => {
    const pre = [...vec([f32(1), f32(2), f32(3), f32(4)], 1), ...vec([f32(0.5), f32(0.5), f32(-2), 0], 2)];
    const out = (op: string) => RV(run([...pre, [op, 3, 1, 2], ['fin']]).t, 3);
    expect(out('vv_add')).toEqual([f32(1.5), f32(2.5), f32(1), f32(4)]);
    expect(out('vv_sub')).toEqual([f32(0.5), f32(1.5), f32(5), f32(4)]);
    expect(out('vv_mul_ele')).toEqual([f32(0.5), f32(1), f32(-6), 0]);
    expect(out('vv_div')).toEqual([f32(2), f32(4), f32(-1.5), 0x7f800000]);
  });

  test('vf_* apply the scalar to every lane', () => {
    const pre = [...vec([f32(1), f32(2), f32(3), f32(-4)], 1), ...li(6, f32(2))];
    const out = (op: string) => RV(run([...pre, [op, 3, 1, 6], ['fin']]).t, 3);
    expect(out('vf_add')).toEqual([f32(3), f32(4), f32(5), f32(-2)]);
    expect(out('vf_sub')).toEqual([f32(-1), 0, f32(1), f32(-6)]);
    expect(out('vf_mul')).toEqual([f32(2), f32(4), f32(6), f32(-8)]);
    expect(out('vf_div')).toEqual([f32(0.5), f32(1), f32(1.5), f32(-2)]);
  });

  test('v_reduce = (x + y) + (z + w)', () => {
    // (1 + 2^24) rounds to 2^24 (tie to even), (1 − 2^24) is exact, their sum is 1. Left to right
    // would give 0, and (x + z) + (y + w) would give 2.
    const { t } = run([...vec([f32(1), f32(2 ** 24), f32(1), f32(-(2 ** 24))]), ['v_reduce', 4, 1], ['fin']]);
    expect(t.r[4]).toBe(f32(1));
  });

  test('s_get_from_v reads a lane; v_get_from_s writes one lane and keeps the others', () => {
    const pre = vec([11, 22, 33, 44]);
    expect(R([...pre, ['s_get_from_v', 5, 1, 2]], 5)).toBe(33);
    const { t, records } = run([...pre, ['ii_addi', 7, 0, 99], ['v_get_from_s', 1, 7, 3], ['fin']]);
    expect(RV(t, 1)).toEqual([11, 22, 33, 99]);
    expect(records.at(-2)!.vector).toEqual({ reg: 1, value: [11, 22, 33, 99] });
  });
});

describe('branches, jmp and ret', () => {
  // Hand-written table (docs/isa.md): is each branch taken under flag Z, N, P, unordered?
  const TAKEN: Record<string, [boolean, boolean, boolean, boolean]> = {
    be: [true, false, false, false],
    bne: [false, true, true, true],
    bl: [false, true, false, false],
    bge: [true, false, true, false],
    bg: [false, false, true, false],
    ble: [true, true, false, false],
    jmp: [true, true, true, true],
  };
  const setFlag: Record<string, Row[]> = {
    Z: [['cmp_i', 0, 0]],
    N: [['ii_addi', 2, 0, 1], ['cmp_i', 0, 2]],
    P: [['ii_addi', 2, 0, 1], ['cmp_i', 2, 0]],
    U: [...li(3, NAN), ['cmp_f', 3, 0]],
  };
  for (const [br, taken] of Object.entries(TAKEN)) {
    test(`${br} on Z, N, P, unordered`, () => {
      const got = Object.values(setFlag).map((pre) => R([...pre, [br, 4], ['ii_addi', 5, 0, 1]], 5) === 0);
      expect(got).toEqual(taken);
    });
  }

  test('a branch goes to PC + 4 + offset, backwards too', () => {
    // 0: r3 = 5; 4: r2 += 1; 8: cmp r2, r3; 12: bl → 4 (16 − 12)
    const { t, records } = run([['ii_addi', 3, 0, 5], ['ii_addi', 2, 2, 1], ['cmp_i', 2, 3], ['bl', -12], ['fin']]);
    expect(t.r[2]).toBe(5);
    expect(records.length).toBe(1 + 5 * 3 + 1);
    // jmp 8 at 0 skips the two instructions at 4 and 8
    expect(run([['jmp', 8], ['ii_addi', 5, 0, 1], ['ii_addi', 5, 0, 2], ['ii_addi', 6, 0, 3], ['fin']]).t.r.slice(5, 7)).toEqual(Uint32Array.from([0, 3]));
  });

  test('ret jumps to the register; ret R31 continues; a call and return through R30', () => {
    // 0: r30 = 12; 4: ret r30; 8: r5 = 1 (skipped); 12: fin
    expect(R([['ii_addi', 30, 0, 12], ['ret', 30], ['ii_addi', 5, 0, 1]], 5)).toBe(0);
    expect(R([['ret', 31], ['ii_addi', 5, 0, 1]], 5)).toBe(1);
    // 0: jmp_link: r30 = PC+4+4 = 8; 4: jmp → 16; 8: r6 = 2; 12: fin; 16: r5 = 1; 20: ret r30
    const { t } = run([['ii_addi', 30, 31, 4], ['jmp', 8], ['ii_addi', 6, 0, 2], ['fin'], ['ii_addi', 5, 0, 1], ['ret', 30]]);
    expect([t.r[5], t.r[6], t.done]).toEqual([1, 2, true]);
  });

  test('the PC keeps the low two bits a ret gives it; fetch ignores them', () => {
    // ret to 9 fetches the word at 8, where R31 reads 13; the next PC is 13 (the word at 12).
    const { t, records } = run([['ii_addi', 30, 0, 9], ['ret', 30], ['ii_add', 5, 31, 0], ['ii_add', 6, 31, 0], ['fin']]);
    expect(records.map((r) => r.pc)).toEqual([0, 4, 9, 13, 17]);
    expect([t.r[5], t.r[6]]).toEqual([13, 17]);
  });
});

describe('memory', () => {
  const constants = new Array<number>(8192).fill(0);
  constants.splice(0, 2, 0xdeadbeef, 0x12345678);
  constants[8191] = 0xcafef00d;
  const withConst = (rows: Row[], o: RunOptions = {}) => run([...li(10, CONST), ...rows, ['ii_addi', 9, 0, 1], ['fin']], { constants, ...o });

  test('scalar store and load in the own main memory; the low two address bits are ignored', () => {
    const { t, records, base } = withConst([...li(2, 0xa5a5a5a5), ['s_store_4byte', 2, 29, 5], ['s_load_4byte', 3, 29, 4], ['ii_addi', 4, 29, 16], ['s_load_4byte', 5, 4, -12]]);
    expect([t.r[3], t.r[5], t.fault]).toEqual([0xa5a5a5a5, 0xa5a5a5a5, false]);
    expect(records[4]!.store).toEqual({ addr: base + 5, words: [0xa5a5a5a5] });
    expect(records[5]!.load).toEqual({ addr: base + 4 });
  });

  test('vector store and load; words in x, y, z, w order', () => {
    const pre: Row[] = [0, 1, 2, 3].flatMap((i) => [['ii_addi', 2, 0, 10 + i], ['v_get_from_s', 1, 2, i]] as Row[]);
    const { t, records, base, m } = withConst([...pre, ['v_store_16byte', 1, 29, 16], ['v_load_16byte', 2, 29, 16], ['s_load_4byte', 6, 29, 24]]);
    expect(RV(t, 2)).toEqual([10, 11, 12, 13]);
    expect(t.r[6]).toBe(12);
    expect(records.find((r) => r.store)!.store).toEqual({ addr: base + 16, words: [10, 11, 12, 13] });
    expect(Array.from(m.memory.main[0]!.subarray(4, 8))).toEqual([10, 11, 12, 13]);
  });

  test('scalar loads from constant memory, up to its last word', () => {
    const { t } = withConst([['s_load_4byte', 2, 10, 4], ['s_load_4byte', 3, 10, 0], ...li(11, CONST + 0x7ffc), ['s_load_4byte', 4, 11, 0]]);
    expect([t.r[2], t.r[3], t.r[4], t.fault]).toEqual([0x12345678, 0xdeadbeef, 0xcafef00d, false]);
  });

  /** A faulting access: the thread keeps running (R9 = 1 at the end), fault set, result as given. */
  const faults = (rows: Row[], o?: RunOptions) => {
    const r = withConst([['ii_addi', 3, 0, 7], ...li(4, 0xffffffff), ['v_get_from_s', 5, 4, 0], ['v_get_from_s', 5, 4, 3], ...rows], o);
    expect(r.t.fault).toBe(true);
    expect(r.t.r[9]).toBe(1);
    expect(r.records.at(-1)!.event).toBe('fin');
    expect(r.records.some((x) => x.memoryFault)).toBe(true);
    return r;
  };

  test('load faults return zero: unmapped, past constant memory, another thread, below the own memory', () => {
    expect(faults([['s_load_4byte', 3, 0, 0]]).t.r[3]).toBe(0);
    expect(faults([...li(11, CONST + 0x8000), ['s_load_4byte', 3, 11, 0]]).t.r[3]).toBe(0);
    expect(faults([...li(11, 0x80010000), ['s_load_4byte', 3, 11, 0]]).t.r[3]).toBe(0);
    expect(faults([['s_load_4byte', 3, 29, -4]], { pixel: 1 }).t.r[3]).toBe(0);
    expect(faults([...li(11, 0x80000000), ['s_load_4byte', 3, 11, 0]], { pixel: 1 }).t.r[3]).toBe(0);
  });

  test('vector load faults: from constant memory, straddling the end of the own memory', () => {
    expect(RV(faults([['v_load_16byte', 5, 10, 0]]).t, 5)).toEqual([0, 0, 0, 0]);
    const r = faults([...li(11, 0x8000fff4), ['v_load_16byte', 5, 11, 0]]);
    expect(RV(r.t, 5)).toEqual([0, 0, 0, 0]);
    expect(r.records.find((x) => x.memoryFault)).toMatchObject({ load: { addr: 0x8000fff4 }, vector: { reg: 5, value: [0, 0, 0, 0] } });
  });

  test('store faults are dropped: to constant memory (scalar and vector), another thread, straddling the end', () => {
    const a = faults([['s_store_4byte', 3, 10, 0], ['s_load_4byte', 6, 10, 0]]);
    expect(a.t.r[6]).toBe(0xdeadbeef);
    expect(a.records.some((x) => x.store)).toBe(false);
    faults([['v_store_16byte', 5, 10, 0]]);
    const b = faults([...li(11, 0x80010000), ['s_store_4byte', 3, 11, 0]]);
    expect(b.m.memory.main[1]!.every((x) => x === 0)).toBe(true);
    const c = faults([...li(11, 0x8000fffc), ['v_store_16byte', 5, 11, -8]]); // 0x8000fff4: last word outside
    expect(c.m.memory.main[0]!.every((x) => x === 0)).toBe(true);
  });

  test('a vector at 0x80(TID)FFF0 is the last one inside', () => {
    const { t } = withConst([...li(11, 0x8000fff0), ['v_store_16byte', 1, 11, 0], ['v_load_16byte', 2, 11, 0]]);
    expect(t.fault).toBe(false);
  });
});

describe('trace, fin and faults that end a thread', () => {
  // One triangle in the plane z = −2: v0 (−1,−1,−2), v1 (1,−1,−2), v2 (0,1,−2), shader 3.
  // The ray from the origin along −z hits (0, 0, −2) at t = 2; normal e1 × e2 = (2,0,0) × (1,2,0) = (0,0,4).
  const scene: Scene = {
    vertices: Uint32Array.from([-1, -1, -2, 1, -1, -2, 0, 1, -2].map(f32)),
    triangles: Uint32Array.from([0, 1, 2, 3]),
  };

  test('after trace: registers zero except R1, R29, RV14 = hit and shader, RV15 = normal; flag Z; next PC', () => {
    const rows: Row[] = [
      ['ii_addi', 2, 0, 5],
      ['ii_addi', 28, 0, 6],
      ['ii_addi', 30, 0, 7],
      ['ii_addi', 29, 29, 0x100],
      ['v_get_from_s', 3, 2, 1],
      ['cmp_i', 0, 2], // flag N
      ...li(4, f32(-1)),
      ['v_get_from_s', 15, 4, 2], // direction (0, 0, −1), origin RV14 = 0
      ['trace'],
      ['fin'],
    ];
    const { t, records } = run(rows, { scene, pixel: 33 });
    const traceAt = 4 * (rows.length - 2);
    const tr = records.find((r) => r.event === 'trace')!;
    expect(tr.pc).toBe(traceAt);
    expect(tr.trace).toEqual({ origin: [0, 0, 0], direction: [0, 0, f32(-1)], hit: [0, 0, f32(-2), 3], normal: [0, 0, f32(4), 0], hitParameters: [0, 0, 0, 0] });
    expect(records.at(-1)!.pc).toBe(traceAt + 4);
    const want = new Uint32Array(32);
    want[1] = 33;
    want[29] = 0x80010100;
    expect(Array.from(t.r)).toEqual(Array.from(want));
    expect(t.flag).toBe(0);
    const v = new Uint32Array(64);
    v.set([0, 0, f32(-2), 3, 0, 0, f32(4), 0], 56);
    expect(Array.from(t.v)).toEqual(Array.from(v));
  });

  test('a miss returns zero in RV14 and RV15', () => {
    const { t } = run([...li(4, f32(1)), ['v_get_from_s', 15, 4, 2], ['v_get_from_s', 14, 4, 0], ['trace'], ['fin']], { scene });
    expect(RV(t, 14)).toEqual([0, 0, 0, 0]);
    expect(RV(t, 15)).toEqual([0, 0, 0, 0]);
  });

  test('fin: the result is the 4 words at 0xFFF0 of the main memory', () => {
    const rows: Row[] = [...li(2, f32(1)), ['v_get_from_s', 1, 2, 0], ['v_get_from_s', 1, 1, 3], ['ii_addi', 3, 29, 0x7ff0], ['ii_addi', 3, 3, 0x7ff0], ['ii_addi', 3, 3, 0x10], ['v_store_16byte', 1, 3, 0], ['fin']];
    const m = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY });
    const res = m.run(2);
    expect(res.pixels).toEqual([
      { pixel: 0, ret: [f32(1), 0, 0, 0] },
      { pixel: 1, ret: [f32(1), 0, 0, 1] },
    ]);
    expect(res.faults).toEqual([]);
    expect(res.instructions).toBe(2 * rows.length);
  });

  test('main memory of a TID persists from patch to patch', () => {
    // counter at offset 0x100: load, +1, store, and also store it as the result
    const rows: Row[] = [['s_load_4byte', 2, 29, 0x100], ['ii_addi', 2, 2, 1], ['s_store_4byte', 2, 29, 0x100], ...li(3, 0x0000fff0), ['ii_add', 3, 3, 29], ['s_store_4byte', 2, 3, 0], ['fin']];
    const res = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY }).run(65);
    expect(res.pixels.map((p) => p.ret[0])).toEqual([...Array(32).fill(1), ...Array(32).fill(2), 3]);
  });

  test('an invalid opcode ends the thread with a fault', () => {
    const bad = (0b000100 << 26) >>> 0;
    const { t, records } = run([['ii_addi', 2, 0, 1], bad, ['ii_addi', 3, 0, 1], ['fin']]);
    expect([t.done, t.fault, t.r[3], t.retired]).toEqual([true, true, 0, 1]);
    expect(records.at(-1)).toEqual({ pc: 4, word: bad, event: 'fault-end' });
  });

  test('a PC at or past 0x4000 ends the thread with a fault', () => {
    const jmp = run([['jmp', 0x3ffc]]);
    expect(jmp.records.at(-1)).toEqual({ pc: 0x4000, word: 0, event: 'fault-end' });
    const ret = run([['ii_addi', 30, 0, -4], ['ret', 30]]);
    expect(ret.records.at(-1)).toEqual({ pc: 0xfffffffc, word: 0, event: 'fault-end' });
    expect(ret.t.fault).toBe(true);
    // Zero words are vv_add RV0, RV0, RV0: a program without fin runs on to 0x4000.
    const off = run([['ii_addi', 2, 0, 1]]);
    expect([off.t.retired, off.records.at(-1)!.pc, off.t.fault]).toEqual([4096, 0x4000, true]);
  });

  test('Machine.run lists faulting pixels', () => {
    // pixel 1 faults (loads from address 0), the others do not
    const rows: Row[] = [['ii_addi', 2, 1, -1], ['cmp_i', 2, 0], ['bne', 4], ['s_load_4byte', 3, 0, 0], ['fin']];
    const res = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY }).run(3);
    expect(res.faults).toEqual([1]);
    expect(res.instructions).toBe(4 + 5 + 4);
  });

  test('the instruction limit names the pixel and the PC', () => {
    const rows: Row[] = [['ii_addi', 2, 0, 1], ['jmp', -4]];
    const m = new Machine({ program: Uint32Array.from(rows.map((r) => enc(...r))), scene: EMPTY, maxInstructions: 100 });
    expect(() => m.run(3)).toThrow(InstructionLimitError);
    expect(() => m.runThread(2)).toThrow('pixel 2: no fin after 100 instructions (PC 0x0004)');
  });
});

describe('assembled programs', () => {
  test('a value saved on the stack survives trace; jmp_link and ret', () => {
    const source = `
        ii_addi R5, R0, 7          ; kept across the trace on the stack
        s_push R5
        s_write_high R2, 0xbf80
        v_get_from_s RV15, R2, 2   ; direction (0, 0, -1); the origin RV14 is zero
        trace
        s_pop R6                   ; R29 survived the trace, so R6 = 7
        jmp_link double            ; R6 = 14
        s_get_from_v R7, RV14, 3   ; shader id 3
        ii_add R6, R6, R7          ; 17
        v_get_from_s RV1, R6, 0
        ii_addi R4, R29, 0x7ff0
        ii_addi R4, R4, 0x7ff0
        ii_addi R4, R4, 0x10
        v_store_16byte RV1, R4, 0
        fin
    double:
        ii_add R6, R6, R6
        ret
    `;
    const scene: Scene = { vertices: Uint32Array.from([-1, -1, -2, 1, -1, -2, 0, 1, -2].map(f32)), triangles: Uint32Array.from([0, 1, 2, 3]) };
    const res = new Machine({ program: assemble(source, 'call.s').words, scene }).run(1);
    expect(res.pixels[0]!.ret).toEqual([17, 0, 0, 0]);
    expect(res.faults).toEqual([]);
  });
});
