// The OBB ray rotation against the golden obbRay, bit for bit: directed rays, seeded random rays with all 104 matrices, off and
// invalid indices on the TS simulator at several latencies, one ray per cycle, and lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { OBB_MATRIX_COUNT } from '../../src/bvh/index.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { rayInverse } from '../../src/golden/rayBox.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { ObbRayRotate, defaultObbRayRotateParams, obbRayRotateLatency, type ObbRayRotateParams } from '../../src/gpu/bvh8/obbRayRotate.ts';
import { obbRayRotateCosimDesign, obbRayRotateGolden, obbRayRotateStimulus } from '../../src/gpu/bvh8/verification/obbRayRotateCosim.ts';
import { expectedObb, obbAnswerFromOutputs, obbFromInputs, obbInputs, type ObbAnswer, type ObbItem } from '../../src/gpu/bvh8/verification/obbRayVectors.ts';
import { VectorBench } from './vectorBench.ts';

const seed = seedFromEnv();
console.log(`obbRayRotate.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const vec = (x: number, y: number, z: number): Vec3 => [f(x), f(y), f(z)];

/** The block on the TS simulator. */
function bench(p: ObbRayRotateParams = defaultObbRayRotateParams) {
  const b = new VectorBench(elaborate(ObbRayRotate, p).design);
  const latency = obbRayRotateLatency(p);
  /** One ray alone through the pipeline: its answer, checked to come out exactly `latency` cycles later. */
  const answer = (item: ObbItem): ObbAnswer => {
    const outs = b.run([obbInputs(item), ...new Array<Record<string, bigint>>(latency + 1).fill({})]);
    expect(outs.map((o) => Number(o.out_valid))).toEqual(outs.map((_, c) => (c === latency ? 1 : 0)));
    return obbAnswerFromOutputs(outs[latency]!);
  };
  return { run: (rows: Record<string, bigint>[]) => b.run(rows), answer, latency };
}

describe('parameters and latency', () => {
  test('latency: two ROM stages, the products, two sums, the divide', () => {
    expect(obbRayRotateLatency(defaultObbRayRotateParams)).toBe(2 + 5 + 3 + 3 + 14);
    expect(obbRayRotateLatency({ fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 })).toBe(2);
  });

  test('bad latencies and tag widths are refused with a clear error', () => {
    expect(() => obbRayRotateLatency({ fadd: 3, fmul: 3, fdiv: -2, tagBits: 8 })).toThrow('ObbRayRotate: fdiv latency must be an integer from 0 to 40, got -2');
    expect(() => elaborate(ObbRayRotate, { fadd: 3, fmul: 3, fdiv: 3, tagBits: 300 })).toThrow('ObbRayRotate: tagBits must be an integer from 1 to 256, got 300');
  });
});

describe('directed rays', () => {
  const b = bench();
  const o = vec(0.5, 1, 3.5);
  const d = vec(-0.25, -0.125, -1);
  const check = (item: ObbItem): ObbAnswer => {
    const got = b.answer(item);
    expect(got).toEqual(expectedObb(item));
    return got;
  };

  test('off (0x7F): the ray itself with its own inverse direction; the tag comes back', () => {
    expect(check({ index: 0x7f, origin: o, dir: d, tag: 0x1234 })).toEqual({ origin: [...o], dir: [...d], inv: [...rayInverse(d)], fault: false, tag: 0x1234 });
  });

  test('an invalid index (104, 0x80, 2^32 − 1): fault set, the ray passes unrotated', () => {
    for (const index of [104, 0x80, 0xffffffff]) expect(check({ index, origin: o, dir: d, tag: 7 })).toMatchObject({ origin: [...o], dir: [...d], fault: true });
  });

  test('matrix 0 is a rotation about z: z is kept exactly, the length of the direction to binary32 precision', () => {
    const a = check({ index: 0, origin: o, dir: d, tag: 1 });
    expect(a.dir[2]).toBe(d[2]);
    expect(a.origin).not.toEqual([...o]);
    const len = (v: readonly number[]) => Math.hypot(...v.map(toNumber));
    expect(Math.abs(len(a.dir) - len(d)) / len(d)).toBeLessThan(2 ** -21);
  });
});

describe('random rays on the TS simulator against the golden', () => {
  const configs: [ObbRayRotateParams, number][] = [
    [defaultObbRayRotateParams, 3_000],
    [{ fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 }, 1_500],
    [{ fadd: 1, fmul: 2, fdiv: 5, tagBits: 40 }, 1_500],
  ];
  for (const [p, cycles] of configs) {
    test(`${JSON.stringify(p)}: ${cycles} cycles with every matrix, off and invalid indices, bubbles and resets, every result on time and exact`, () => {
      const b = bench(p);
      const rng = createRng(seed ^ p.fadd ^ (p.fmul << 8) ^ (p.fdiv << 16));
      const stimulus = obbRayRotateStimulus(p);
      const rows = Array.from({ length: cycles }, (_, c) => stimulus(c, rng));
      const outs = b.run(rows);
      const golden = obbRayRotateGolden(p);
      const indices = new Set<number>();
      let answers = 0;
      rows.forEach((row, c) => {
        expect(golden.check(c, row, outs[c]!), `cycle ${c} (SEED=${seed})`).toBeNull();
        if (row.in_valid === 1n && row.rst_n === 1n) indices.add(Number(row.obb_index));
        if (outs[c]!.out_valid === 1n) answers++;
      });
      expect(answers).toBeGreaterThan(cycles * 0.8);
      // Every matrix, off and some invalid index entered.
      for (let k = 0; k < OBB_MATRIX_COUNT; k++) expect(indices.has(k), `matrix ${k}`).toBe(true);
      expect(indices.has(0x7f)).toBe(true);
      expect([...indices].some((k) => k >= OBB_MATRIX_COUNT && k !== 0x7f)).toBe(true);
    }, 120_000);
  }
});

describe('throughput', () => {
  test('one ray per cycle with in_valid held high, each exactly `latency` cycles later and in order', () => {
    const b = bench();
    const rng = createRng(seed ^ 0x0bb);
    const stimulus = obbRayRotateStimulus(defaultObbRayRotateParams);
    const count = 200;
    const rows: Record<string, bigint>[] = Array.from({ length: count }, (_, k) => ({ ...stimulus(k + 2, rng), in_valid: 1n, rst_n: 1n, tag: BigInt(k) }));
    const outs = b.run([...rows, ...new Array<Record<string, bigint>>(b.latency + 3).fill({})]);
    const L = b.latency;
    expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(L) + '1'.repeat(count) + '0'.repeat(3));
    rows.forEach((row, k) => {
      const got = obbAnswerFromOutputs(outs[k + L]!);
      expect(got.tag).toBe(k);
      expect(got, `ray ${k} (SEED=${seed})`).toEqual(expectedObb(obbFromInputs(row)));
    });
  });
});

describe('obb_ray_rotate on three simulators', () => {
  test('the design is registered', async () => {
    expect(await findDesign('obb_ray_rotate')).toBe(obbRayRotateCosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden obbRay', async () => {
    await expectLockstepOnThree(obbRayRotateCosimDesign, seed, 600);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([defaultObbRayRotateParams, { fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 }].map((p) => elaborate(ObbRayRotate, p).design));
  }, 300_000);

  test('the golden model notices a wrong rotation', () => {
    const p = defaultObbRayRotateParams;
    const L = obbRayRotateLatency(p);
    const item: ObbItem = { index: 5, origin: vec(1, 2, 3), dir: vec(0, 0, 1), tag: 3 };
    const want = expectedObb(item);
    const pack = (v: readonly number[]) => v.reduce((acc, x, i) => acc | (BigInt(x >>> 0) << BigInt(32 * i)), 0n);
    const right = { out_valid: 1n, out_tag: 3n, out_fault: 0n, out_origin: pack(want.origin), out_dir: pack(want.dir), out_inv_dir: pack(want.inv) };
    const run = (outs: Record<string, bigint>) => {
      const model = obbRayRotateGolden(p);
      expect(model.check(0, { rst_n: 1n, ...obbInputs(item) }, { out_valid: 0n })).toBeNull();
      for (let c = 1; c < L; c++) expect(model.check(c, { rst_n: 1n, in_valid: 0n }, { out_valid: 0n })).toBeNull();
      return model.check(L, { rst_n: 1n, in_valid: 0n }, outs);
    };
    expect(run(right)).toBeNull();
    expect(run({ ...right, out_dir: pack([want.dir[0]!, want.dir[1]!, (want.dir[2]! + 1) >>> 0]) })).toMatch(/^ray index 5 .*: got .* expected /);
  });
});
