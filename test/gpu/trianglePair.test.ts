// The BVH8 triangle engine against the golden watertight test and the golden traversal's closest-hit update, bit for bit:
// directed pairs, shared-edge rays (watertightness), seeded random pairs at several latencies, two triangle tests per
// cycle, and lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { fromNumber } from '../../src/golden/float32.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { watertightRay } from '../../src/golden/watertight.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, RAY_FLAG_CULL_BACK, RAY_FLAG_CULL_FRONT, type RayQuery } from '../../src/golden/rayQuery.ts';
import { TrianglePair, defaultTrianglePairParams, trianglePairLatency, type TrianglePairParams } from '../../src/gpu/bvh8/trianglePair.ts';
import { trianglePairCosimDesign, trianglePairGolden, trianglePairStimulus } from '../../src/gpu/bvh8/verification/trianglePairCosim.ts';
import { expectedPair, pairAnswerFromOutputs, pairFromInputs, pairInputs, randomPair, type PairAnswer, type PairItem, type Triangle } from '../../src/gpu/bvh8/verification/trianglePairVectors.ts';
import { packWords } from '../../src/gpu/verification/portWords.ts';
import { VectorBench } from './vectorBench.ts';

const seed = seedFromEnv();
console.log(`trianglePair.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const vec = (x: number, y: number, z: number): Vec3 => [f(x), f(y), f(z)];
const idle = (n: number) => new Array<Record<string, bigint>>(n).fill({});

/** The engine on the TS simulator. */
function bench(p: TrianglePairParams = defaultTrianglePairParams) {
  const b = new VectorBench(elaborate(TrianglePair, p).design);
  const latency = trianglePairLatency(p);
  /** Pairs entering on consecutive cycles: their answers, each checked to come out exactly `latency` cycles after it entered. */
  const answers = (items: readonly PairItem[]): PairAnswer[] => {
    const outs = b.run([...items.map(pairInputs), ...idle(latency + 1)]);
    expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(latency) + '1'.repeat(items.length) + '0');
    return items.map((_, k) => pairAnswerFromOutputs(outs[latency + k]!));
  };
  return { run: (rows: Record<string, bigint>[]) => b.run(rows), answers, latency };
}

// A unit square in the plane z = 0 split along its diagonal a–b, as a GFX12 pair: (a, b, c) and (b, a, d).
const [a, b, c, d] = [vec(-1, -1, 0), vec(1, 1, 0), vec(1, -1, 0), vec(-1, 1, 0)];
const square: [Triangle, Triangle] = [
  [a, b, c],
  [b, a, d],
];

/** A pair test of the ray o + t·dir against `triangles`, both active and double-sided, no incoming best, a plain trace's query unless given. */
function pair(o: Vec3, dir: Vec3, extra: Partial<PairItem> = {}): PairItem {
  return { origin: o, ray: watertightRay(dir), triangles: square, active: 3, primIndex: [3, 7], bestValid: false, bestT: 0, bestIndex: 0, query: DEFAULT_RAY_QUERY, oneSided: 0, tag: 0x55, ...extra };
}
/** A plain trace's query with these flags added (and the ray mask, interval as given). */
const query = (extra: Partial<RayQuery> & { add?: number } = {}): RayQuery => ({ ...DEFAULT_RAY_QUERY, ...extra, flags: (extra.flags ?? DEFAULT_RAY_QUERY.flags) | (extra.add ?? 0) });
const anyHit = query({ add: RAY_FLAG_ANY_HIT });
const up = vec(0, 0, 1);

describe('parameters and latency', () => {
  test('latency: the watertight test (5 adds, 3 multiplies, a divide), the lane output register, the selection stage', () => {
    expect(trianglePairLatency(defaultTrianglePairParams)).toBe(5 * 3 + 3 * 5 + 14 + 2);
    expect(trianglePairLatency({ fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 })).toBe(2);
  });

  test('bad latencies and tag widths are refused with a clear error', () => {
    expect(() => trianglePairLatency({ fadd: 3, fmul: 3, fdiv: -2, tagBits: 8 })).toThrow('TrianglePair: fdiv latency must be an integer from 0 to 40, got -2');
    expect(() => elaborate(TrianglePair, { ...defaultTrianglePairParams, tagBits: 300 })).toThrow('TrianglePair: tagBits must be an integer from 1 to 256, got 300');
  });
});

describe('directed pairs', () => {
  const engine = bench();
  /** The hardware's answers (pairs entering back to back), which must also be the golden ones. */
  const check = (...items: PairItem[]): PairAnswer[] => {
    const got = engine.answers(items);
    got.forEach((g, k) => expect(g, `pair ${k}`).toEqual(expectedPair(items[k]!)));
    return got;
  };

  test('a ray through one triangle hits it at its t; the tag comes back', () => {
    const [x] = check(pair(vec(0.5, -0.25, -5), up));
    expect(x).toMatchObject({ hit: 0b01, bestValid: true, bestT: f(5), bestIndex: 3, bestFrom: 0b01, terminate: false, tag: 0x55 });
  });

  test('a ray through the shared edge hits both (watertight); equal t goes to the lower primitive index, whichever slot it is in', () => {
    const [x, y] = check(pair(vec(0.25, 0.25, -5), up), pair(vec(0.25, 0.25, -5), up, { primIndex: [9, 4] }));
    expect(x).toMatchObject({ hit: 0b11, bestT: f(5), bestIndex: 3, bestFrom: 0b01 });
    expect(y).toMatchObject({ hit: 0b11, bestT: f(5), bestIndex: 4, bestFrom: 0b10 });
  });

  test('the incoming best: kept when closer, replaced when farther, on an equal t by the lower index', () => {
    const o = vec(0.5, -0.25, -5);
    const [kept, replaced, tieLower, tieHigher] = check(
      pair(o, up, { bestValid: true, bestT: f(2), bestIndex: 100 }),
      pair(o, up, { bestValid: true, bestT: f(6), bestIndex: 1 }),
      pair(o, up, { bestValid: true, bestT: f(5), bestIndex: 2 }),
      pair(o, up, { bestValid: true, bestT: f(5), bestIndex: 4 }),
    );
    expect(kept).toMatchObject({ hit: 0b01, bestValid: true, bestT: f(2), bestIndex: 100, bestFrom: 0 });
    expect(replaced).toMatchObject({ bestT: f(5), bestIndex: 3, bestFrom: 0b01 });
    expect(tieLower).toMatchObject({ bestT: f(5), bestIndex: 2, bestFrom: 0 });
    expect(tieHigher).toMatchObject({ bestT: f(5), bestIndex: 3, bestFrom: 0b01 });
  });

  test('any-hit (the query\'s ANY_HIT): terminate with a hit (or an incoming best), not without', () => {
    const [hit, miss, carried, closest] = check(
      pair(vec(0.5, -0.25, -5), up, { query: anyHit }),
      pair(vec(3, 0, -5), up, { query: anyHit }),
      pair(vec(3, 0, -5), up, { query: anyHit, bestValid: true, bestT: f(1), bestIndex: 5 }),
      pair(vec(0.5, -0.25, -5), up),
    );
    expect([hit.terminate, miss.terminate, carried.terminate, closest.terminate]).toEqual([true, false, true, false]);
    expect(miss).toMatchObject({ hit: 0, bestValid: false, bestFrom: 0 });
  });

  test('inactive triangles never hit; a triangle behind the ray (t < 0) or seen edge-on misses; both windings hit (double-sided)', () => {
    const [inactive, behind, edgeOn, back] = check(
      pair(vec(-0.5, 0.25, -5), up, { active: 0b01 }),
      pair(vec(0.5, -0.25, 5), up),
      pair(vec(-5, -0.5, 0), vec(1, 0, 0)),
      pair(vec(0.5, -0.25, 5), vec(0, 0, -1)),
    );
    expect(inactive).toMatchObject({ hit: 0, bestValid: false });
    expect(behind.hit).toBe(0);
    expect(edgeOn.hit).toBe(0);
    expect(back).toMatchObject({ hit: 0b01, bestT: f(5) });
  });

  test('the barycentrics: u = V / det, v = W / det of each triangle, as testTriangleWatertight (the weights of v1 and v2)', () => {
    // (0.5, -0.25) in triangle 0 (a, b, c) = (-1,-1), (1,1), (1,-1): p = a + u·(b − a) + v·(c − a) gives u = 0.375, v = 0.375.
    const [x] = check(pair(vec(0.5, -0.25, -5), up));
    expect(x!.u[0]).toBe(f(0.375));
    expect(x!.v[0]).toBe(f(0.375));
    const [back] = check(pair(vec(0.5, -0.25, 5), vec(0, 0, -1)));
    expect([back!.u[0], back!.v[0]]).toEqual([f(0.375), f(0.375)]);
  });

  test('the interval: a hit is accepted only with tmin ≤ t ≤ tmax (bounds included); NaN bounds, tmin > tmax and tmax = 0 accept nothing', () => {
    const o = vec(0.5, -0.25, -5); // t = 5
    const cases: [Partial<RayQuery>, number][] = [
      [{ tmin: f(5), tmax: f(5) }, 0b01],
      [{ tmin: f(4), tmax: f(6) }, 0b01],
      [{ tmin: f(5.5) }, 0],
      [{ tmax: f(4.5) }, 0],
      [{ tmin: f(6), tmax: f(4) }, 0],
      [{ tmax: 0 }, 0],
      [{ tmin: 0x7fc00000 }, 0],
      [{ tmax: 0x7fc00000 }, 0],
      [{ tmin: 0xff800000, tmax: 0x7f800000 }, 0b01],
      [{ tmin: f(-1) }, 0b01],
    ];
    const got = check(...cases.map(([q]) => pair(o, up, { query: query(q) })));
    got.forEach((x, k) => expect(x!.hit, JSON.stringify(cases[k]![0])).toBe(cases[k]![1]));
    // A hit outside the interval is not the best: the incoming one stays, or none.
    const [outside] = check(pair(o, up, { query: query({ tmax: f(4) }), bestValid: true, bestT: f(7), bestIndex: 1 }));
    expect(outside).toMatchObject({ hit: 0, bestValid: true, bestT: f(7), bestFrom: 0 });
  });

  test('culling: CULL_BACK and CULL_FRONT drop a one-sided triangle met on that face (the sign of det), never a double-sided one; a ray mask of 0 accepts nothing', () => {
    // Triangle 0 (a, b, c): cross(e1, e2) = (0, 0, −4), so its front faces −z. Going up from below, the ray meets its front;
    // going down from above, its back.
    const fromAbove = vec(0.5, -0.25, 5);
    const down = vec(0, 0, -1);
    const fromBelow = vec(0.5, -0.25, -5);
    const back = query({ add: RAY_FLAG_CULL_BACK });
    const front = query({ add: RAY_FLAG_CULL_FRONT });
    const got = check(
      pair(fromAbove, down, { query: back, oneSided: 1 }),
      pair(fromAbove, down, { query: front, oneSided: 1 }),
      pair(fromBelow, up, { query: back, oneSided: 1 }),
      pair(fromBelow, up, { query: front, oneSided: 1 }),
      pair(fromBelow, up, { query: query({ add: RAY_FLAG_CULL_BACK | RAY_FLAG_CULL_FRONT }), oneSided: 2 }),
      pair(fromBelow, up, { query: query({ flags: 0 }) }),
    );
    expect(got.map((x) => x!.hit)).toEqual([0, 0b01, 0b01, 0, 0b01, 0]);
  });

  test('rays from grid points exactly through the shared edge (k/64 along it) never slip between the two triangles', () => {
    const rng = createRng(seed ^ 0xed);
    const items = Array.from({ length: 200 }, () => {
      const s = (8 + rng.int(49)) / 64;
      const target = [-1 + 2 * s, -1 + 2 * s, 0];
      const o = [rng.int(513) / 128 - 2, rng.int(513) / 128 - 2, -1 - rng.int(512) / 64];
      return pair(vec(o[0]!, o[1]!, o[2]!), vec(target[0]! - o[0]!, target[1]! - o[1]!, -o[2]!), { primIndex: [rng.int(100), rng.int(100)] });
    });
    const got = check(...items);
    expect(got.filter((x) => x.hit === 0)).toEqual([]);
    // Both hit exactly on the edge now and then, so the tie rule is exercised.
    expect(got.filter((x) => x.hit === 0b11).length).toBeGreaterThan(0);
  });
});

describe('random pairs on the TS simulator against the golden', () => {
  const configs: [TrianglePairParams, number][] = [
    [defaultTrianglePairParams, 8_000],
    [{ fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 }, 3_000],
    [{ fadd: 1, fmul: 2, fdiv: 5, tagBits: 40 }, 3_000],
  ];
  for (const [p, cycles] of configs) {
    test(`${JSON.stringify(p)}: ${cycles} cycles of random pairs with bubbles and resets, every result on time and exact`, () => {
      const engine = bench(p);
      const rng = createRng(seed ^ p.fadd ^ (p.fmul << 8) ^ (p.fdiv << 16));
      const stimulus = trianglePairStimulus(p);
      const rows = Array.from({ length: cycles }, (_, c) => stimulus(c, rng));
      const outs = engine.run(rows);
      const golden = trianglePairGolden(p);
      const seen = { answers: 0, hits: 0, both: 0, fromIncoming: 0, ties: 0, terminate: 0 };
      rows.forEach((row, c) => {
        expect(golden.check(c, row, outs[c]!), `cycle ${c} (SEED=${seed})`).toBeNull();
        if (outs[c]!.out_valid !== 1n) return;
        const x = pairAnswerFromOutputs(outs[c]!);
        seen.answers++;
        seen.hits += x.hit === 0 ? 0 : 1;
        seen.both += x.hit === 3 ? 1 : 0;
        seen.fromIncoming += x.hit !== 0 && x.bestFrom === 0 ? 1 : 0;
        seen.ties += x.hit === 3 && x.t[0] === x.t[1] ? 1 : 0;
        seen.terminate += x.terminate ? 1 : 0;
      });
      // Every case the tie rule and the modes depend on happens often enough to have been checked.
      expect(seen.answers).toBeGreaterThan(cycles * 0.8);
      for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(seen.answers / 50);
    }, 120_000);
  }

  test('random rays aimed exactly at a shared edge: at least one of the pair is hit, every time', () => {
    const rng = createRng(seed ^ 0x5e);
    // Only a plain trace's query with double-sided triangles says nothing may slip through: half the random pairs have one.
    const items = Array.from({ length: 16000 }, () => randomPair(rng, 16)).filter((x) => x.sharedEdge && x.active === 3);
    expect(items.length).toBeGreaterThan(300);
    const answers = bench().answers(items);
    answers.forEach((x, k) => expect(x, `pair ${k} (SEED=${seed})`).toEqual(expectedPair(items[k]!)));
    expect(answers.filter((x) => x.hit === 0).length).toBe(0);
  }, 120_000);
});

describe('throughput', () => {
  test('one pair per cycle with in_valid held high: 2 triangle tests per cycle, results in order, exactly `latency` cycles after each pair', () => {
    const engine = bench();
    const rng = createRng(seed ^ 0x2b);
    const items = Array.from({ length: 300 }, (_, k) => ({ ...randomPair(rng, 16), active: 3, tag: k }));
    const answers = engine.answers(items);
    answers.forEach((x, k) => {
      expect(x.tag).toBe(k);
      expect(x, `pair ${k} (SEED=${seed})`).toEqual(expectedPair(pairFromInputs(pairInputs(items[k]!))));
    });
  });
});

describe('triangle_pair on three simulators', () => {
  test('the design is registered', async () => {
    expect(await findDesign('triangle_pair')).toBe(trianglePairCosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden watertight test and closer', async () => {
    await expectLockstepOnThree(trianglePairCosimDesign, seed);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([defaultTrianglePairParams, { fadd: 0, fmul: 0, fdiv: 0, tagBits: 1 }].map((p) => elaborate(TrianglePair, p).design));
  }, 300_000);

  test('the golden model notices a wrong tie-break', () => {
    const item = pair(vec(0.25, 0.25, -5), up, { primIndex: [9, 4] });
    const L = trianglePairLatency(defaultTrianglePairParams);
    const want = expectedPair(item);
    const outs = (from: number, index: number) => ({ ...engineOutputs(want), best_from: BigInt(from), best_index_out: BigInt(index) });
    for (const [from, index, ok] of [[0b10, 4, true], [0b01, 9, false]] as const) {
      const model = trianglePairGolden(defaultTrianglePairParams);
      model.check(0, { rst_n: 1n, ...pairInputs(item) }, { out_valid: 0n });
      for (let cyc = 1; cyc < L; cyc++) model.check(cyc, { rst_n: 1n, in_valid: 0n }, { out_valid: 0n });
      const msg = model.check(L, { rst_n: 1n, in_valid: 0n }, outs(from, index));
      if (ok) expect(msg).toBeNull();
      else expect(msg).toMatch(/best 40a00000#9 from 1 .*expected .*best 40a00000#4 from 2/);
    }
  });
});

/** The output ports that carry an answer. */
function engineOutputs(x: PairAnswer): Record<string, bigint> {
  return {
    out_valid: 1n,
    out_tag: BigInt(x.tag),
    hit: BigInt(x.hit),
    t: packWords(x.t),
    u: packWords(x.u),
    v: packWords(x.v),
    normal: packWords(x.normal.flat()),
    best_valid_out: x.bestValid ? 1n : 0n,
    best_t_out: BigInt(x.bestT),
    best_index_out: BigInt(x.bestIndex),
    best_from: BigInt(x.bestFrom),
    terminate: x.terminate ? 1n : 0n,
  };
}
