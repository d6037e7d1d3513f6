// The TS reference checked independently: hand values are in directed.test.ts; here the directly
// written operations are compared with JavaScript's own arithmetic on random operands.
import { describe, expect, test } from 'vitest';
import * as ref from '../../src/golden/float32.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { randomFloat } from '../../src/designs/catalogue/floatVectors.ts';

const seed = seedFromEnv();
console.log(`float reference.test seed=${seed} (rerun with SEED=${seed})`);
const N = 200_000;

/** Collects disagreements (vitest's expect is too slow to call per operand). */
function checker() {
  const bad: string[] = [];
  return {
    same(got: unknown, want: unknown, what: () => string) {
      if (JSON.stringify(got) !== JSON.stringify(want) && bad.length < 10) bad.push(`${what()}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)} (SEED=${seed})`);
    },
    done: () => expect(bad).toEqual([]),
  };
}
const hex = (x: number) => `0x${(x >>> 0).toString(16)}`;

describe('reference', () => {
  test('itof agrees with Math.fround of the integer (a single rounding)', () => {
    const rng = createRng(seed);
    const c = checker();
    for (let i = 0; i < N; i++) {
      const x = i % 2 ? rng.u32() : rng.u32() >>> rng.int(32);
      c.same(ref.itof(x), ref.fromNumber(x | 0), () => `itof(${hex(x)})`);
    }
    c.done();
  });

  test('ftoi agrees with Math.trunc, saturating, NaN to 0', () => {
    const rng = createRng(seed + 1);
    const c = checker();
    for (let i = 0; i < N; i++) {
      const a = randomFloat(rng);
      const x = ref.toNumber(a);
      const want = Number.isNaN(x) ? 0 : x >= 2 ** 31 ? 0x7fffffff : x < -(2 ** 31) ? 0x80000000 : Math.trunc(x) >>> 0;
      c.same(ref.ftoi(a), want, () => `ftoi(${hex(a)})`);
    }
    c.done();
  });

  test('compare agrees with JavaScript comparisons', () => {
    const rng = createRng(seed + 2);
    const c = checker();
    for (let i = 0; i < N; i++) {
      const a = randomFloat(rng);
      const b = i % 4 ? randomFloat(rng) : (a ^ (rng.int(2) << 31)) >>> 0;
      const x = ref.toNumber(a);
      const y = ref.toNumber(b);
      const r = ref.fcmp(a, b);
      c.same([r.lt, r.eq, r.gt, r.unordered], [x < y, x === y, x > y, Number.isNaN(x) || Number.isNaN(y)], () => `fcmp(${hex(a)}, ${hex(b)})`);
      c.same(r.flags, r.unordered ? 0b01 : r.lt ? 0b11 : r.gt ? 0b10 : 0b00, () => `fcmp(${hex(a)}, ${hex(b)}).flags`);
    }
    c.done();
  });

  test('min/max agree with Math.min/Math.max except for NaN operands (which yield the other operand)', () => {
    const rng = createRng(seed + 3);
    const c = checker();
    for (let i = 0; i < N; i++) {
      const a = randomFloat(rng);
      const b = i % 4 ? randomFloat(rng) : (a ^ (rng.int(2) << 31)) >>> 0;
      const x = ref.toNumber(a);
      const y = ref.toNumber(b);
      const expectMin = Number.isNaN(x) ? (Number.isNaN(y) ? ref.CANONICAL_NAN : b) : Number.isNaN(y) ? a : ref.fromNumber(Math.min(x, y));
      const expectMax = Number.isNaN(x) ? (Number.isNaN(y) ? ref.CANONICAL_NAN : b) : Number.isNaN(y) ? a : ref.fromNumber(Math.max(x, y));
      c.same(ref.fmin(a, b), expectMin >>> 0, () => `fmin(${hex(a)}, ${hex(b)})`);
      c.same(ref.fmax(a, b), expectMax >>> 0, () => `fmax(${hex(a)}, ${hex(b)})`);
    }
    c.done();
  });

  test('arithmetic results: every NaN is canonical, nothing else changes', () => {
    const rng = createRng(seed + 4);
    for (let i = 0; i < 20_000; i++) {
      const a = randomFloat(rng);
      const b = randomFloat(rng);
      for (const r of [ref.fadd(a, b), ref.fsub(a, b), ref.fmul(a, b), ref.fdiv(a, b), ref.fsqrt(a), ref.fabs(a), ref.fneg(a)]) {
        if (ref.isNaN32(r)) expect(r).toBe(ref.CANONICAL_NAN);
      }
      if (!ref.isNaN32(a)) expect(ref.fneg(a)).toBe((a ^ 0x80000000) >>> 0);
    }
  });
});
