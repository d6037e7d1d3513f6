// Directed edge cases for every float unit, with hand-derived expected values: the reference must give
// them, and so must the hardware, combinational and pipelined.
import { describe, expect, test } from 'vitest';
import { UnitRunner, floatUnit, type FloatOp } from '../../src/designs/catalogue/floatVectors.ts';
import { FADD_NATURAL_STAGES, FDIV_NATURAL_STAGES, FMUL_NATURAL_STAGES, FSQRT_NATURAL_STAGES, FTOI_NATURAL_STAGES, ITOF_NATURAL_STAGES } from '../../src/hdl/lib/float/index.ts';

// Bit patterns used below.
const P0 = 0x00000000; // +0
const N0 = 0x80000000; // -0
const PINF = 0x7f800000;
const NINF = 0xff800000;
const QNAN = 0x7fc00000; // canonical quiet NaN
const SNAN = 0x7f800001; // a signaling NaN
const NNAN = 0xffc00001; // a negative NaN with payload
const MIN_SUB = 0x00000001; // 2^-149
const MAX_SUB = 0x007fffff; // 2^-126 - 2^-149
const MIN_NORM = 0x00800000; // 2^-126
const MAX_NORM = 0x7f7fffff; // (2 - 2^-23) * 2^127
const ONE = 0x3f800000;
const NEG_ONE = 0xbf800000;
const TWO = 0x40000000;
const THREE = 0x40400000;
const HALF = 0x3f000000;
const ONE_AND_HALF = 0x3fc00000;
const ONE_ULP_UP = 0x3f800001; // 1 + 2^-23
const neg = (x: number) => (x ^ 0x80000000) >>> 0;

type Case = readonly [a: number, b: number, expected: number | readonly number[], what: string];

const cases: Partial<Record<FloatOp, readonly Case[]>> = {
  add: [
    [ONE, ONE, TWO, '1 + 1'],
    [ONE, NEG_ONE, P0, 'x + (-x) = +0'],
    [NEG_ONE, ONE, P0, '(-x) + x = +0'],
    [N0, N0, N0, '-0 + -0 = -0'],
    [P0, N0, P0, '+0 + -0 = +0'],
    [N0, P0, P0, '-0 + +0 = +0'],
    [0x00000005, 0x80000005, P0, 'subnormal x + (-x) = +0'],
    [N0, 0x00000007, 0x00000007, '-0 + subnormal'],
    [PINF, NINF, QNAN, 'inf + -inf = NaN'],
    [PINF, ONE, PINF, 'inf + 1'],
    [NINF, NINF, NINF, '-inf + -inf'],
    [SNAN, ONE, QNAN, 'sNaN + 1 = canonical NaN'],
    [P0, NNAN, QNAN, '0 + negative NaN = canonical NaN'],
    [PINF, SNAN, QNAN, 'inf + NaN'],
    [MIN_SUB, MIN_SUB, 0x00000002, 'smallest subnormal doubled'],
    [MAX_SUB, MIN_SUB, MIN_NORM, 'largest subnormal + smallest = smallest normal'],
    [MIN_NORM, neg(MIN_SUB), MAX_SUB, 'smallest normal - smallest subnormal = largest subnormal'],
    [0x00800001, neg(MIN_NORM), MIN_SUB, 'cancellation down to the smallest subnormal'],
    [MAX_NORM, MAX_NORM, PINF, 'overflow to inf'],
    [MAX_NORM, 0x72ffffff, MAX_NORM, 'max + just under half an ulp: stays max'],
    [MAX_NORM, 0x73000000, PINF, 'max + 2^103 (half an ulp): tie, rounds to even 2^128 = inf'],
    [ONE, 0x33800000, ONE, '1 + 2^-24: tie, rounds to even (down)'],
    [ONE_ULP_UP, 0x33800000, 0x3f800002, '(1 + 2^-23) + 2^-24: tie, rounds to even (up)'],
    [ONE, 0x33800001, ONE_ULP_UP, '1 + just over half an ulp: up (sticky through alignment)'],
    [ONE, 0x337fffff, ONE, '1 + just under half an ulp: down'],
    [ONE_ULP_UP, neg(ONE), 0x34000000, 'cancellation: (1 + 2^-23) - 1 = 2^-23'],
    [ONE, neg(0x33000000), ONE, '1 - 2^-25: tie between 1 - 2^-24 (odd) and 1 (even)'],
    [ONE, neg(0x33000001), 0x3f7fffff, '1 - (2^-25 + tiny): the sticky borrow rounds down'],
    [ONE, neg(0x33400000), 0x3f7fffff, '1 - 1.5 * 2^-25'],
    [0x7149f2ca, ONE, 0x7149f2ca, '1e30 + 1 = 1e30'],
    [THREE, NEG_ONE, TWO, '3 + (-1)'],
  ],
  sub: [
    [ONE, ONE, P0, '1 - 1 = +0'],
    [N0, P0, N0, '-0 - +0 = -0'],
    [P0, P0, P0, '0 - 0 = +0'],
    [N0, N0, P0, '-0 - -0 = +0'],
    [PINF, PINF, QNAN, 'inf - inf = NaN'],
    [PINF, NINF, PINF, 'inf - -inf = inf'],
    [THREE, ONE, TWO, '3 - 1'],
    [ONE, THREE, neg(TWO), '1 - 3'],
    [MIN_NORM, MIN_SUB, MAX_SUB, 'normal - subnormal = subnormal'],
    [SNAN, SNAN, QNAN, 'NaN - NaN'],
    [neg(MAX_NORM), MAX_NORM, NINF, 'overflow to -inf'],
  ],
  mul: [
    [ONE_AND_HALF, TWO, THREE, '1.5 * 2'],
    [P0, PINF, QNAN, '0 * inf = NaN'],
    [NINF, N0, QNAN, '-inf * -0 = NaN'],
    [N0, 0x40a00000, N0, '-0 * 5 = -0'],
    [NEG_ONE, P0, N0, '-1 * +0 = -0'],
    [PINF, neg(TWO), NINF, 'inf * -2'],
    [MAX_NORM, TWO, PINF, 'overflow to inf'],
    [MIN_NORM, HALF, 0x00400000, 'smallest normal / 2 = subnormal'],
    [MIN_SUB, HALF, P0, '2^-150: tie between 0 and 2^-149, rounds to even 0'],
    [MIN_SUB, 0x3f400000, MIN_SUB, '0.75 * 2^-149 rounds up'],
    [0x00000003, HALF, 0x00000002, '1.5 * 2^-149: tie, rounds to even 2'],
    [MIN_SUB, 0x7f000000, 0x34800000, '2^-149 * 2^127 = 2^-22 (subnormal input normalized)'],
    [MAX_SUB, TWO, 0x00fffffe, 'largest subnormal * 2 = normal'],
    [ONE_ULP_UP, ONE_AND_HALF, 0x3fc00002, '(1 + 2^-23) * 1.5: tie, rounds to even (up)'],
    [0x3f800003, ONE_AND_HALF, 0x3fc00004, '(1 + 3 * 2^-23) * 1.5: tie, rounds to even (down)'],
    [ONE_ULP_UP, ONE_ULP_UP, 0x3f800002, '(1 + 2^-23)^2 just above 1 + 2^-22'],
    [MIN_NORM, neg(MIN_NORM), N0, 'underflow to -0'],
    [NNAN, ONE, QNAN, 'NaN * 1'],
    [0x00400000, 0x40000000, MIN_NORM, '2^-127 * 2 = smallest normal'],
    [0x3f7fffff, MIN_NORM, MIN_NORM, '(1 - 2^-24) * 2^-126: tie, rounds to even, up across the normal boundary'],
  ],
  div: [
    [ONE, P0, PINF, '1 / +0 = inf'],
    [NEG_ONE, P0, NINF, '-1 / +0 = -inf'],
    [ONE, N0, NINF, '1 / -0 = -inf'],
    [P0, P0, QNAN, '0 / 0 = NaN'],
    [PINF, NINF, QNAN, 'inf / -inf = NaN'],
    [PINF, P0, PINF, 'inf / 0 = inf'],
    [P0, PINF, P0, '0 / inf = 0'],
    [N0, 0x40a00000, N0, '-0 / 5 = -0'],
    [0x40a00000, NINF, N0, '5 / -inf = -0'],
    [SNAN, ONE, QNAN, 'NaN / 1'],
    [ONE, THREE, 0x3eaaaaab, '1 / 3'],
    [TWO, THREE, 0x3f2aaaab, '2 / 3'],
    [0x40c00000, THREE, TWO, '6 / 3 exact'],
    [MIN_NORM, TWO, 0x00400000, 'smallest normal / 2 = subnormal'],
    [ONE, MAX_NORM, 0x00200000, '1 / max: subnormal, rounded down'],
    [MAX_NORM, HALF, PINF, 'overflow to inf'],
    [MIN_SUB, TWO, P0, '2^-150: tie, rounds to even 0'],
    [MIN_SUB, ONE_AND_HALF, MIN_SUB, '2^-149 / 1.5 rounds up to 2^-149'],
    [0x00000003, TWO, 0x00000002, '1.5 * 2^-149: tie, rounds to even 2'],
    [MIN_SUB, 0x00000002, HALF, 'subnormal / subnormal'],
    [MAX_SUB, MIN_SUB, 0x4afffffe, 'largest / smallest subnormal = 2^23 - 1'],
    [ONE, MIN_SUB, PINF, '1 / 2^-149 = 2^149 overflows'],
    [MIN_NORM, MAX_NORM, P0, 'underflow to 0'],
  ],
  sqrt: [
    [0x40800000, 0, TWO, 'sqrt(4) = 2'],
    [0x41100000, 0, THREE, 'sqrt(9) = 3'],
    [TWO, 0, 0x3fb504f3, 'sqrt(2)'],
    [P0, 0, P0, 'sqrt(+0) = +0'],
    [N0, 0, N0, 'sqrt(-0) = -0'],
    [PINF, 0, PINF, 'sqrt(inf) = inf'],
    [NINF, 0, QNAN, 'sqrt(-inf) = NaN'],
    [NEG_ONE, 0, QNAN, 'sqrt(-1) = NaN'],
    [neg(MIN_SUB), 0, QNAN, 'sqrt(-subnormal) = NaN'],
    [SNAN, 0, QNAN, 'sqrt(NaN)'],
    [MIN_SUB, 0, 0x1a3504f3, 'sqrt(2^-149) = 2^-75 * sqrt(2)'],
    [0x00000002, 0, 0x1a800000, 'sqrt(2^-148) = 2^-74 exact'],
    [MAX_NORM, 0, 0x5f7fffff, 'sqrt(max)'],
    [ONE_ULP_UP, 0, ONE, 'sqrt(1 + 2^-23) just under the tie'],
    [0x3f800002, 0, ONE_ULP_UP, 'sqrt(1 + 2^-22) just under 1 + 2^-23'],
  ],
  cmp: [
    // [a, b, [flags, lt, eq, gt, unordered]]
    [ONE, TWO, [0b11, 1, 0, 0, 0], '1 < 2: N'],
    [TWO, ONE, [0b10, 0, 0, 1, 0], '2 > 1: P'],
    [ONE, ONE, [0b00, 0, 1, 0, 0], '1 == 1: Z'],
    [P0, N0, [0b00, 0, 1, 0, 0], '+0 == -0'],
    [N0, P0, [0b00, 0, 1, 0, 0], '-0 == +0'],
    [QNAN, ONE, [0b01, 0, 0, 0, 1], 'NaN unordered'],
    [ONE, SNAN, [0b01, 0, 0, 0, 1], 'unordered with sNaN'],
    [NNAN, NNAN, [0b01, 0, 0, 0, 1], 'NaN != NaN'],
    [NINF, PINF, [0b11, 1, 0, 0, 0], '-inf < inf'],
    [PINF, PINF, [0b00, 0, 1, 0, 0], 'inf == inf'],
    [NEG_ONE, neg(TWO), [0b10, 0, 0, 1, 0], '-1 > -2'],
    [neg(TWO), NEG_ONE, [0b11, 1, 0, 0, 0], '-2 < -1'],
    [MIN_SUB, P0, [0b10, 0, 0, 1, 0], 'subnormal > 0'],
    [neg(MIN_SUB), N0, [0b11, 1, 0, 0, 0], '-subnormal < -0'],
    [MAX_NORM, PINF, [0b11, 1, 0, 0, 0], 'max < inf'],
    [NEG_ONE, ONE, [0b11, 1, 0, 0, 0], '-1 < 1'],
  ],
  itof: [
    [0, 0, P0, '0'],
    [1, 0, ONE, '1'],
    [0xffffffff, 0, NEG_ONE, '-1'],
    [0x7fffffff, 0, 0x4f000000, '2^31 - 1 rounds to 2^31'],
    [0x80000000, 0, 0xcf000000, '-2^31'],
    [0x80000001, 0, 0xcf000000, '-(2^31 - 1)'],
    [0x01000001, 0, 0x4b800000, '2^24 + 1: tie, rounds to even (down)'],
    [0x01000003, 0, 0x4b800002, '2^24 + 3: tie, rounds to even (up)'],
    [0x01000002, 0, 0x4b800001, '2^24 + 2 exact'],
    [0x00ffffff, 0, 0x4b7fffff, '2^24 - 1 exact'],
    [0x7fffffbf, 0, 0x4effffff, '2^31 - 65: below half, down'],
    [0x7fffffc0, 0, 0x4f000000, '2^31 - 64: tie, rounds to even 2^31'],
    [0xfffffffd, 0, 0xc0400000, '-3'],
  ],
  ftoi: [
    [P0, 0, 0, '+0'],
    [N0, 0, 0, '-0'],
    [HALF, 0, 0, '0.5'],
    [neg(HALF), 0, 0, '-0.5'],
    [ONE_AND_HALF, 0, 1, '1.5 truncates to 1'],
    [neg(ONE_AND_HALF), 0, 0xffffffff, '-1.5 truncates to -1'],
    [0x4f000000, 0, 0x7fffffff, '2^31 saturates'],
    [0xcf000000, 0, 0x80000000, '-2^31 exact'],
    [0x4effffff, 0, 0x7fffff80, 'largest float below 2^31'],
    [0xcf000001, 0, 0x80000000, 'below -2^31 saturates'],
    [QNAN, 0, 0, 'NaN gives 0'],
    [NNAN, 0, 0, 'negative NaN gives 0'],
    [PINF, 0, 0x7fffffff, 'inf saturates'],
    [NINF, 0, 0x80000000, '-inf saturates'],
    [MAX_SUB, 0, 0, 'subnormal'],
    [0x3f7fffff, 0, 0, '1 - 2^-24'],
    [0xbf7fffff, 0, 0, '-(1 - 2^-24)'],
    [0x42f78000, 0, 123, '123.75'],
    [0xc2f78000, 0, 0xffffff85, '-123.75'],
    [0x4b000001, 0, 0x800001, '2^23 + 1'],
    [ONE, 0, 1, '1'],
    [MAX_NORM, 0, 0x7fffffff, 'max saturates'],
  ],
  min: [
    [ONE, TWO, ONE, 'min(1, 2)'],
    [N0, P0, N0, 'min(-0, +0) = -0'],
    [P0, N0, N0, 'min(+0, -0) = -0'],
    [QNAN, ONE, ONE, 'min(NaN, 1) = 1'],
    [ONE, SNAN, ONE, 'min(1, sNaN) = 1'],
    [SNAN, NNAN, QNAN, 'two NaNs: canonical NaN'],
    [SNAN, NINF, NINF, 'min(NaN, -inf) = -inf'],
    [NEG_ONE, neg(TWO), neg(TWO), 'min(-1, -2) = -2'],
    [PINF, MAX_NORM, MAX_NORM, 'min(inf, max)'],
    [MIN_SUB, neg(MIN_SUB), neg(MIN_SUB), 'subnormals'],
  ],
  max: [
    [ONE, TWO, TWO, 'max(1, 2)'],
    [N0, P0, P0, 'max(-0, +0) = +0'],
    [P0, N0, P0, 'max(+0, -0) = +0'],
    [NINF, QNAN, NINF, 'max(-inf, NaN) = -inf'],
    [NNAN, QNAN, QNAN, 'two NaNs'],
    [NEG_ONE, neg(TWO), NEG_ONE, 'max(-1, -2) = -1'],
    [PINF, MAX_NORM, PINF, 'max(inf, max)'],
  ],
  abs: [
    [NEG_ONE, 0, ONE, '|-1|'],
    [N0, 0, P0, '|-0| = +0'],
    [NINF, 0, PINF, '|-inf|'],
    [NNAN, 0, QNAN, '|NaN| = canonical NaN'],
    [MIN_SUB, 0, MIN_SUB, '|subnormal|'],
  ],
  neg: [
    [P0, 0, N0, '-(+0) = -0'],
    [N0, 0, P0, '-(-0) = +0'],
    [ONE, 0, NEG_ONE, '-1'],
    [SNAN, 0, QNAN, '-NaN = canonical NaN'],
    [NINF, 0, PINF, '-(-inf)'],
  ],
};

const natural: Partial<Record<FloatOp, number>> = {
  add: FADD_NATURAL_STAGES,
  sub: FADD_NATURAL_STAGES,
  mul: FMUL_NATURAL_STAGES,
  div: FDIV_NATURAL_STAGES,
  sqrt: FSQRT_NATURAL_STAGES,
  itof: ITOF_NATURAL_STAGES,
  ftoi: FTOI_NATURAL_STAGES,
};

const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;

for (const [op, list] of Object.entries(cases) as [FloatOp, readonly Case[]][]) {
  describe(`${op}: directed cases`, () => {
    const spec = floatUnit(op);
    const expectedOf = (c: Case) => (typeof c[2] === 'number' ? [c[2]] : c[2]).map((x) => x >>> 0);

    test('the reference gives the hand-derived values', () => {
      for (const c of list) expect(spec.reference(c[0], c[1]).map((x) => x >>> 0), `${c[3]}: ${hex(c[0])}, ${hex(c[1])}`).toEqual(expectedOf(c));
    });

    for (const stages of [0, 1, natural[op] ?? 2]) {
      test(`hardware with ${stages} stage(s)`, () => {
        const runner = new UnitRunner(spec, stages);
        const a = Uint32Array.from(list.map((c) => c[0]));
        const b = Uint32Array.from(list.map((c) => c[1]));
        const { outValid, outputs, earlyValid } = runner.simulate(a, b);
        expect(earlyValid.every((v) => v === 0)).toBe(true);
        list.forEach((c, i) => {
          expect(outValid[i], c[3]).toBe(1);
          expect(outputs.map((o) => hex(o[i]!)), `${c[3]}: ${hex(c[0])}, ${hex(c[1])}`).toEqual(expectedOf(c).map(hex));
        });
      });
    }
  });
}
