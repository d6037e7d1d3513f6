// The BVH4 ray–box unit against the golden slab test and child order, bit for bit: directed nodes, seeded
// random nodes on the TS simulator at several latencies, one node per cycle, and lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { VectorBench } from './vectorBench.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { CANONICAL_NAN, POS_INF, fromNumber } from '../../src/golden/float32.ts';
import { rayInverse, type Box } from '../../src/golden/rayBox.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { RayBox4, defaultRayBox4Params, rayBox4Latency, type RayBox4Params } from '../../src/gpu/bvh/rayBox4.ts';
import { rayBox4CosimDesign, rayBox4Golden, rayBox4Stimulus } from '../../src/gpu/bvh/verification/rayBox4Cosim.ts';
import { answerFromOutputs, expectedAnswer, nodeFromInputs, nodeInputs, type RayBoxAnswer, type RayBoxNode } from '../../src/gpu/bvh/verification/rayBox4Vectors.ts';

const seed = seedFromEnv();
console.log(`rayBox4.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const vec = (x: number, y: number, z: number): Vec3 => [f(x), f(y), f(z)];
const box = (min: [number, number, number], max: [number, number, number]): Box => ({ min: vec(...min), max: vec(...max) });
/** A cube of half-size h centred on (x, y, z). */
const cube = (x: number, y: number, z: number, h = 1): Box => box([x - h, y - h, z - h], [x + h, y + h, z + h]);

// ------------------------------------------------------------------------------------ a vector runner

/** The unit on the TS simulator, driven a table of input rows at a time (runVectors); returns the output rows. */
class Bench {
  private readonly vectors: VectorBench;
  readonly latency: number;
  constructor(readonly p: RayBox4Params) {
    this.vectors = new VectorBench(elaborate(RayBox4, p).design);
    this.latency = rayBox4Latency(p);
  }

  run(rows: readonly Record<string, bigint>[]): Record<string, bigint>[] {
    return this.vectors.run(rows);
  }

  /** One node alone through the pipeline: its answer, checked to come out exactly `latency` cycles later. */
  answer(node: RayBoxNode): RayBoxAnswer {
    const outs = this.run([nodeInputs(node), ...new Array<Record<string, bigint>>(this.latency + 1).fill({})]);
    expect(outs.map((o) => Number(o.out_valid))).toEqual(outs.map((_, c) => (c === this.latency ? 1 : 0)));
    return answerFromOutputs(outs[this.latency]!);
  }
}

/** A node with the ray o + t·d (1/d computed as the caller would), all four children valid unless given. */
function node(o: Vec3, d: Vec3, boxes: Box[], extra: Partial<RayBoxNode> = {}): RayBoxNode {
  return { origin: o, invDir: rayInverse(d), limit: POS_INF, lower: 0, boxes, childValid: 0xf, tag: 0x1234, ...extra };
}

const alongZ = { o: vec(0, 0, -5), d: vec(0, 0, 1) };
const far = cube(0, 0, 1000);

// ------------------------------------------------------------------------------------ the tests

describe('parameters and latency', () => {
  test('latency: subtract, multiply, three min/max levels, the tfar multiply, the compare stage and the order step', () => {
    expect(rayBox4Latency({ fadd: 3, fmul: 3, tagBits: 16 })).toBe(14);
    expect(rayBox4Latency({ fadd: 3, fmul: 5, tagBits: 16 })).toBe(3 + 5 + 3 + 5 + 2);
    expect(rayBox4Latency({ fadd: 0, fmul: 0, tagBits: 1 })).toBe(5);
    expect(rayBox4Latency({ fadd: 6, fmul: 1, tagBits: 1 })).toBe(6 + 1 + 3 + 1 + 2);
  });

  test('bad latencies and tag widths are refused with a clear error', () => {
    expect(() => rayBox4Latency({ fadd: -1, fmul: 3, tagBits: 8 })).toThrow('RayBox4: fadd latency must be an integer from 0 to 40, got -1');
    expect(() => rayBox4Latency({ fadd: 3, fmul: 2.5, tagBits: 8 })).toThrow('RayBox4: fmul latency must be an integer from 0 to 40, got 2.5');
    expect(() => elaborate(RayBox4, { fadd: 3, fmul: 3, tagBits: 0 })).toThrow('RayBox4: tagBits must be an integer from 1 to 256, got 0');
  });
});

describe('directed nodes', () => {
  const bench = new Bench(defaultRayBox4Params);
  /** The hardware's answer, which must also be the golden one. */
  const check = (n: RayBoxNode): RayBoxAnswer => {
    const got = bench.answer(n);
    expect(got).toEqual(expectedAnswer(n));
    return got;
  };

  test('a box straight ahead is hit at its entry distance; the tag comes back', () => {
    // Ray along +z from z = -5 (inv = +inf, +inf, 1), unit cube at the origin in slot 0 only.
    const a = check(node(alongZ.o, alongZ.d, [cube(0, 0, 0), far, far, far], { childValid: 0b0001 }));
    expect(a).toMatchObject({ hit: 0b0001, hitCount: 1, order: [0, 1, 2, 3], tag: 0x1234 });
    expect(a.tnear[0]).toBe(f(4));
  });

  test('hits are ordered nearest first, whatever their slots', () => {
    const a = check(node(alongZ.o, alongZ.d, [cube(0, 0, 10), cube(0, 0, 7), cube(0, 0, 4), cube(0, 0, 1)]));
    expect(a).toMatchObject({ hit: 0b1111, hitCount: 4, order: [3, 2, 1, 0] });
    expect(a.tnear).toEqual([f(14), f(11), f(8), f(5)]);
  });

  test('equal tnear: the lower slot first', () => {
    // Slots 0 and 2 are the same box; slot 1 is nearer, slot 3 farther.
    const a = check(node(alongZ.o, alongZ.d, [cube(0, 0, 3), cube(0, 0, 0), cube(0, 0, 3), cube(0, 0, 8)]));
    expect(a.order).toEqual([1, 0, 2, 3]);
    expect(a.tnear[0]).toBe(a.tnear[2]);
  });

  test('an origin inside every box: tnear is +0 for all, the order is by slot', () => {
    const a = check(node(alongZ.o, vec(0.3, -0.2, 1), [cube(0, 0, -5, 3), cube(0, 0, -5, 1), cube(0.5, 0, -5, 2), cube(0, 0, -5, 0.5)]));
    expect(a).toMatchObject({ hit: 0b1111, order: [0, 1, 2, 3], tnear: [0, 0, 0, 0] });
  });

  test('boxes behind or beside the ray miss; the missed slots follow the hits in ascending order', () => {
    const a = check(node(alongZ.o, alongZ.d, [cube(0, 0, -10), cube(3, 0, 0), cube(0, 0, 6), cube(0, 0, 2)]));
    expect(a).toMatchObject({ hit: 0b1100, hitCount: 2, order: [3, 2, 0, 1] });
  });

  test('the limit: a box beyond it misses, one straddling it hits; at limit +0 only a box around the origin hits', () => {
    const boxes = [cube(0, 0, 4), cube(0, 0, 1), cube(0, 0, -5), far];
    expect(check(node(alongZ.o, alongZ.d, boxes, { limit: f(5) }))).toMatchObject({ hit: 0b0110, order: [2, 1, 0, 3] });
    expect(check(node(alongZ.o, alongZ.d, boxes, { limit: 0 }))).toMatchObject({ hit: 0b0100, order: [2, 0, 1, 3] });
  });

  test('the entry clamp (a ray query’s tmin): tnear is at least `lower`, so a box wholly before it misses; with the limit, only boxes that reach into [lower, limit] hit', () => {
    // t ranges along the ray: box 0 [8, 10], box 1 [5, 7], box 2 [−1, 1] (around the origin), far [1004, 1006].
    const boxes = [cube(0, 0, 4), cube(0, 0, 1), cube(0, 0, -5), far];
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: f(6) }))).toMatchObject({ hit: 0b1011, order: [1, 0, 3, 2], tnear: [f(8), f(6), f(6), f(1004)] });
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: f(6), limit: f(9) }))).toMatchObject({ hit: 0b0011, order: [1, 0, 2, 3] });
    // Entry and exit at the same t: the box is kept (tnear ≤ tfar).
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: f(7), limit: f(7) }))).toMatchObject({ hit: 0b0010 });
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: POS_INF }))).toMatchObject({ hit: 0, tnear: [POS_INF, POS_INF, POS_INF, POS_INF] });
  });

  test('a grazing hit survives rounding: tnear equal to the unscaled tfar (a flat box across the ray)', () => {
    // min z = max z: t0 = t1 on z, so tnear = tfar before the 1 + 2^-22 scale.
    const a = check(node(alongZ.o, vec(0.1, 0.2, 0.7), [box([-5, -5, 0.3], [5, 5, 0.3]), far, far, far], { childValid: 1 }));
    expect(a.hit).toBe(1);
  });

  test('a grazing hit through a box edge survives rounding: tnear an ulp past the unscaled tfar, the 1 + 2^-22 scale keeps it', () => {
    // The ray enters the x slab where it leaves the y slab; rounded, tnear = 0x4089fe73 and min(hi) = 0x4089fe72.
    const a = check(node(vec(1.515625, 0.953125, -4.8125), vec(0.625, -1, 1.375), [box([4.210819244384766, -3.3591854572296143, 0.1169269010424614], [5.210819244384766, -2.3591854572296143, 2.116926908493042]), far, far, far], { childValid: 1 }));
    expect(a.tnear[0]).toBe(0x4089fe73);
    expect(a.hit).toBe(1);
  });

  test('a zero direction component (1/d = ±inf): the slab on that axis is all or nothing', () => {
    // d.x = +0 and -0: inside the x slab the axis gives (-inf, +inf); outside it (+inf, +inf) or (-inf, -inf).
    for (const dx of [0, 0x80000000]) {
      const d: Vec3 = [dx, f(0), f(1)];
      const a = check(node(alongZ.o, d, [box([-1, -1, 0], [1, 1, 1]), box([1, -1, 0], [2, 1, 1]), box([-2, -1, 0], [-1, 1, 1]), box([0.5, -1, 0], [0.5, 1, 1])]));
      expect(a.hit).toBe(0b0001);
    }
  });

  test('an origin on a face plane of a slab it runs along: 0 · inf is NaN, the axis drops out, the box is hit', () => {
    // o.x = 1, d.x = 0: the box's min x (slot 0) or max x (slot 1) is 1, so one product is (1 - 1) · inf.
    const o = vec(1, 0, -5);
    const a = check(node(o, alongZ.d, [box([1, -1, 0], [2, 1, 1]), box([0, -1, 0], [1, 1, 1]), box([1.5, -1, 0], [2, 1, 1]), box([1, -1, -9], [1, 1, -8])]));
    expect(a).toMatchObject({ hit: 0b0011, order: [0, 1, 2, 3] });
  });

  test('degenerate boxes: min > max on an axis is the swapped box (the test is symmetric), min = max on every axis is a point', () => {
    const swapped = box([1, -1, -1], [-1, 1, 1]);
    const a = check(node(alongZ.o, alongZ.d, [swapped, cube(0, 0, 0), box([0, 0, 2], [0, 0, 2]), box([0.5, 0, 2], [0.5, 0, 2])]));
    expect(a.tnear[0]).toBe(a.tnear[1]);
    expect(a).toMatchObject({ hit: 0b0111, order: [0, 1, 2, 3] });
  });

  test('child_valid masks hits: empty children never hit, and follow in ascending order', () => {
    const a = check(node(alongZ.o, alongZ.d, [cube(0, 0, 4), cube(0, 0, 3), cube(0, 0, 2), cube(0, 0, 1)], { childValid: 0b0101 }));
    expect(a).toMatchObject({ hit: 0b0101, hitCount: 2, order: [2, 0, 1, 3] });
    expect(check(node(alongZ.o, alongZ.d, [cube(0, 0, 4), cube(0, 0, 3), cube(0, 0, 2), cube(0, 0, 1)], { childValid: 0 }))).toMatchObject({ hit: 0, hitCount: 0, order: [0, 1, 2, 3] });
  });

  test('NaN, infinite and subnormal coordinates: as the golden says, and tnear is never NaN', () => {
    const nan = CANONICAL_NAN;
    const withWord = (b: Box, k: number, w: number): Box => {
      const all = [...b.min, ...b.max];
      all[k] = w;
      return { min: all.slice(0, 3) as unknown as Vec3, max: all.slice(3) as unknown as Vec3 };
    };
    const nodes = [
      node(alongZ.o, alongZ.d, [withWord(cube(0, 0, 2), 0, nan), withWord(cube(0, 0, 2), 5, POS_INF), withWord(cube(0, 0, 2), 2, 0xff800000), withWord(cube(0, 0, 2), 3, 1)]),
      node([nan, 0, 0], alongZ.d, [cube(0, 0, 2), cube(5, 5, 5), cube(0, 0, -9), far], { limit: f(3) }),
      // Every product NaN and a NaN limit: each axis is (-inf, +inf) and fmin drops the NaN limit, so every box is hit.
      node([nan, nan, nan], alongZ.d, [cube(0, 0, 2), cube(5, 5, 5), cube(0, 0, -9), far], { limit: nan }),
      node(vec(0, 0, 0), [1, 0x80000001, f(1)], [box([-1e-45, -1e-45, -1e-45], [1e-45, 1e-45, 1e-45]), cube(0, 0, 0, 1e-40), cube(1e30, 0, 0, 1e29), cube(0, 0, 3e38, 1e38)]),
      { ...node(alongZ.o, alongZ.d, [cube(0, 0, 2), far, far, far]), invDir: [nan, POS_INF, f(1)] as Vec3 },
    ];
    for (const n of nodes) for (const t of check(n).tnear) expect(t & 0x7fffffff).toBeLessThanOrEqual(POS_INF);
    expect(check(nodes[2]!)).toMatchObject({ hit: 0b1111, tnear: [0, 0, 0, 0] });
  });
});

describe('random nodes on the TS simulator against the golden', () => {
  const configs: [RayBox4Params, number][] = [
    [defaultRayBox4Params, 20_000],
    [{ fadd: 1, fmul: 1, tagBits: 5 }, 4_000],
    [{ fadd: 0, fmul: 0, tagBits: 1 }, 4_000],
    // The GPU's float latencies (src/gpu/floatLatencies.ts: multiplier at 5 for 200 MHz), and a tag wider than a word.
    [{ fadd: 3, fmul: 5, tagBits: 40 }, 4_000],
  ];
  for (const [p, cycles] of configs) {
    test(`${JSON.stringify(p)}: ${cycles} cycles of random nodes with bubbles and resets, every result on time and exact`, () => {
      const bench = new Bench(p);
      const rng = createRng(seed ^ p.fadd ^ (p.fmul << 8));
      const stimulus = rayBox4Stimulus(p);
      const rows = Array.from({ length: cycles }, (_, c) => stimulus(c, rng));
      const outs = bench.run(rows);
      const golden = rayBox4Golden(p);
      let answers = 0;
      let hits = 0;
      rows.forEach((row, c) => {
        const msg = golden.check(c, row, outs[c]!);
        expect(msg, `cycle ${c} (SEED=${seed})`).toBeNull();
        if (outs[c]!.out_valid === 1n) {
          answers++;
          hits += Number(outs[c]!.hit_count);
        }
      });
      expect(answers).toBeGreaterThan(cycles * 0.8);
      expect(hits).toBeGreaterThan(answers);
    }, 120_000);
  }
});

describe('throughput', () => {
  test('one node per cycle with in_valid held high: results in order, exactly `latency` cycles after each node', () => {
    const bench = new Bench(defaultRayBox4Params);
    const rng = createRng(seed ^ 0xb0);
    const stimulus = rayBox4Stimulus(defaultRayBox4Params);
    const count = 300;
    const nodes = Array.from({ length: count }, (_, k) => ({ ...stimulus(k + 2, rng), in_valid: 1n, rst_n: 1n, tag: BigInt(k) }));
    const outs = bench.run([...nodes, ...new Array<Record<string, bigint>>(bench.latency + 5).fill({})]);
    const L = bench.latency;
    expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(L) + '1'.repeat(count) + '0'.repeat(5));
    nodes.forEach((ins, k) => {
      const got = answerFromOutputs(outs[k + L]!);
      expect(got.tag).toBe(k);
      expect(got, `node ${k} (SEED=${seed})`).toEqual(expectedAnswer(nodeFromInputs(ins)));
    });
  });
});

describe('ray_box4 on three simulators', () => {
  test('the design is registered', async () => {
    expect(await findDesign('ray_box4')).toBe(rayBox4CosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden slab test', async () => {
    await expectLockstepOnThree(rayBox4CosimDesign, seed);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([defaultRayBox4Params, { fadd: 0, fmul: 0, tagBits: 1 }].map((p) => elaborate(RayBox4, p).design));
  }, 300_000);

  test('the golden model notices a wrong order and a wrong latency', () => {
    const L = rayBox4Latency(defaultRayBox4Params);
    const n = node(alongZ.o, alongZ.d, [cube(0, 0, 3), cube(0, 0, 1), far, far], { childValid: 0b0011, tag: 7 });
    const ins = { rst_n: 1n, ...nodeInputs(n) };
    const idle = { rst_n: 1n, in_valid: 0n };
    const right = { out_valid: 1n, out_tag: 7n, hit: 0b0011n, tnear: BigInt(f(6)) | (BigInt(f(4)) << 32n), order: 0b11_10_00_01n, hit_count: 2n };
    const model = rayBox4Golden(defaultRayBox4Params);
    expect(model.check(0, ins, { out_valid: 0n })).toBeNull();
    for (let c = 1; c < L; c++) expect(model.check(c, idle, { out_valid: 0n })).toBeNull();
    expect(model.check(L, idle, { ...right, order: 0b11_10_01_00n })).toMatch(/got hit 0011 count 2 order 0123 .* expected hit 0011 count 2 order 1023/);
    const early = rayBox4Golden(defaultRayBox4Params);
    expect(early.check(0, ins, { out_valid: 0n })).toBeNull();
    expect(early.check(1, idle, right)).toMatch(/out_valid is 1, expected 0/);
  });
});
