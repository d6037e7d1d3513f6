// The texture unit's coordinate stage against the golden axisSample and wrapTexelIndex, bit for bit: every wrap mode at the edges,
// negative offsets, NaN, ±inf and huge coordinates, sizes 1 … 16384; seeded random items at two sets of float latencies, one item per
// cycle, lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { CANONICAL_NAN, NEG_INF, POS_INF, fromNumber } from '../../src/golden/float32.ts';
import type { WrapModeName } from '../../src/golden/texture/index.ts';
import { TexelCoordinates, defaultTexelCoordinatesParams, texelCoordinatesLatency, type TexelCoordinatesParams } from '../../src/gpu/texture/texelCoordinates.ts';
import {
  coordinateAnswerFromOutputs,
  coordinateFromInputs,
  coordinateInputs,
  expectedCoordinates,
  randomCoordinateItem,
  texelCoordinatesCosimDesign,
  texelCoordinatesGolden,
  texelCoordinatesStimulus,
  type CoordinateAnswer,
  type CoordinateItem,
} from '../../src/gpu/texture/verification/texelCoordinatesCosim.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { expectOnePerCycle, runAgainstGolden } from './textureBench.ts';

const seed = seedFromEnv();
console.log(`texelCoordinates.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const zeroLatencies: TexelCoordinatesParams = { fadd: 0, fmul: 0, itof: 0, ftoi: 0 };
const design = (p: TexelCoordinatesParams = defaultTexelCoordinatesParams) => elaborate(TexelCoordinates, p).design;
const base: CoordinateItem = { s: 0, t: 0, width: 4, height: 4, du: 0, dv: 0, bilinear: false, wrapS: 'repeat', wrapT: 'repeat' };
const MODES: WrapModeName[] = ['repeat', 'clampToEdge', 'mirror'];

/** The hardware's answers for `items` entered on consecutive cycles, each checked against the golden. */
function hardware(items: readonly CoordinateItem[], p: TexelCoordinatesParams = defaultTexelCoordinatesParams): CoordinateAnswer[] {
  const got: CoordinateAnswer[] = [];
  const read = (outs: Record<string, bigint>) => {
    const a = coordinateAnswerFromOutputs(outs);
    got.push(a);
    return a;
  };
  expectOnePerCycle(design(p), texelCoordinatesLatency(p), items.map(coordinateInputs), (row) => expectedCoordinates(coordinateFromInputs(row)), read, seed);
  return got;
}

describe('parameters', () => {
  test('latency: itof, the scale multiply, the −½, two clamps, the × 256, ftoi and the floor, the offset, thirteen remainder stages, the wrap register', () => {
    expect(texelCoordinatesLatency(defaultTexelCoordinatesParams)).toBe(2 + 5 + 3 + 2 + 5 + 2 + 1 + 13 + 1);
    expect(texelCoordinatesLatency(zeroLatencies)).toBe(2 + 1 + 13 + 1);
  });
  test('bad latencies are refused with a clear error', () => {
    expect(() => texelCoordinatesLatency({ ...defaultTexelCoordinatesParams, itof: 41 })).toThrow('TexelCoordinates: itof latency must be an integer from 0 to 40, got 41');
  });
});

describe('directed coordinates', () => {
  test('nearest on 4 texels: s = 1 reads index 4, wrapped per mode; s just below 0 reads −1', () => {
    const below = 0xb3800000; // −2^−24
    const items = MODES.flatMap((m) => [f(1), below].map((s) => ({ ...base, s, wrapS: m })));
    const got = hardware(items).map((a) => a.x0);
    // repeat: 4 → 0, −1 → 3; clamp: 3, 0; mirror: 4 → 3, −1 → 0.
    expect(got).toEqual([0, 3, 3, 0, 3, 0]);
  });

  test('bilinear at a texel centre has weight 0, halfway between centres 128; x1 is the next texel wrapped', () => {
    const [centre, half, edge] = hardware([
      { ...base, s: f(0.375), t: f(0.125), bilinear: true },
      { ...base, s: f(0.5), t: f(0.5), bilinear: true },
      { ...base, s: f(0.99), t: f(0), bilinear: true, wrapT: 'clampToEdge' },
    ]);
    expect(centre).toEqual({ x0: 1, x1: 2, y0: 0, y1: 1, weightA: 0, weightB: 0 });
    expect(half).toEqual({ x0: 1, x1: 2, y0: 1, y1: 2, weightA: 128, weightB: 128 });
    expect(edge).toMatchObject({ x0: 3, x1: 0, y0: 0, y1: 0, weightB: 128 });
  });

  test('every wrap mode at both edges with offsets −8 … +7, sizes 1, 2, 3, 5, 16383 and 16384', () => {
    const items: CoordinateItem[] = [];
    for (const size of [1, 2, 3, 5, 16383, 16384]) {
      for (const wrapS of MODES) {
        for (const s of [0, 0x80000000, f(1), f(-1), f(0.5 / size), f(1 - 0.5 / size), f(-3.25)]) {
          for (const du of [-8, -1, 0, 7]) items.push({ ...base, s, t: s, width: size, height: size, du, dv: -du - 1, bilinear: du % 2 === 0, wrapS, wrapT: MODES[(MODES.indexOf(wrapS) + 1) % 3]! });
        }
      }
    }
    hardware(items);
  });

  test('NaN reads as +0; ±inf and huge coordinates land on ±2^22 texels before wrapping', () => {
    const items: CoordinateItem[] = [];
    for (const s of [CANONICAL_NAN, 0xffc00001, POS_INF, NEG_INF, f(1e30), f(-1e30), 0x00000001, f(4194303.75 / 3)]) {
      for (const wrapS of MODES) items.push({ ...base, s, t: s, width: 3, height: 16384, bilinear: true, wrapS, wrapT: wrapS, du: -8, dv: 7 });
    }
    const got = hardware(items);
    // NaN, repeat, bilinear on 3 texels: u = −0.5, index −1 − 8 = −9 → 0, weight 128.
    expect(got[0]).toMatchObject({ x0: 0, x1: 1, weightA: 128 });
  });
});

describe('random items on the TS simulator against the golden', () => {
  for (const [p, cycles] of [[defaultTexelCoordinatesParams, 10_000], [zeroLatencies, 3_000]] as const) {
    test(`${JSON.stringify(p)}: ${cycles} cycles with bubbles and resets, every result on time and exact`, () => {
      const answers = runAgainstGolden(design(p), texelCoordinatesGolden(p), texelCoordinatesStimulus, seed, p.fmul << 4, cycles);
      expect(answers).toBeGreaterThan(cycles * 0.8);
    }, 120_000);
  }

  test('the random items reach both edges of every wrap mode and nonzero weights', () => {
    const rng = createRng(seed ^ 0xc0);
    let lowEdge = 0;
    let highEdge = 0;
    let weights = 0;
    for (let k = 0; k < 4000; k++) {
      const x = randomCoordinateItem(rng);
      const a = expectedCoordinates(x);
      if (a.x0 === 0 && x.width > 1) lowEdge++;
      if (a.x0 === x.width - 1 && x.width > 1) highEdge++;
      if (a.weightA !== 0) weights++;
    }
    expect(lowEdge).toBeGreaterThan(100);
    expect(highEdge).toBeGreaterThan(100);
    expect(weights).toBeGreaterThan(1000);
  });
});

describe('throughput', () => {
  test('one item per cycle with in_valid held high: results in order, exactly `latency` cycles later', () => {
    const rng = createRng(seed ^ 0xc1);
    hardware(Array.from({ length: 300 }, () => randomCoordinateItem(rng)));
  });
});

describe('texel_coordinates on three simulators', () => {
  test('the design is registered', async () => {
    expect(await findDesign('texel_coordinates')).toBe(texelCoordinatesCosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden axisSample and wrapTexelIndex', async () => {
    await expectLockstepOnThree(texelCoordinatesCosimDesign, seed, 2000);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([design(), design(zeroLatencies)]);
  }, 300_000);

  test('the golden model notices a wrong index', () => {
    const L = texelCoordinatesLatency(defaultTexelCoordinatesParams);
    const item = { ...base, s: f(0.6), bilinear: true };
    const want = expectedCoordinates(item);
    const run = (x0: number) => {
      const model = texelCoordinatesGolden(defaultTexelCoordinatesParams);
      model.check(0, { rst_n: 1n, in_valid: 1n, ...coordinateInputs(item) }, { out_valid: 0n });
      for (let c = 1; c < L; c++) model.check(c, { rst_n: 1n, in_valid: 0n }, { out_valid: 0n });
      const o = { out_valid: 1n, x0: BigInt(x0), x1: BigInt(want.x1), y0: BigInt(want.y0), y1: BigInt(want.y1), weight_a: BigInt(want.weightA), weight_b: BigInt(want.weightB) };
      return model.check(L, { rst_n: 1n, in_valid: 0n }, o);
    };
    expect(run(want.x0)).toBeNull();
    expect(run(want.x0 + 1)).toMatch(/^\(0x3f19999a, 0x00000000\) on 4×4 .*expected \{"x0":1/);
  });
});
