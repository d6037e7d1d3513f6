// The BVH8 box engine against the golden slab test and child order, bit for bit: the sorting network, directed nodes,
// seeded random nodes on the TS simulator at several latencies, one node per cycle, and lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { CANONICAL_NAN, POS_INF, fromNumber } from '../../src/golden/float32.ts';
import { rayInverse, type Box } from '../../src/golden/rayBox.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { rayBoxGolden } from '../../src/gpu/bvh/verification/rayBox4Cosim.ts';
import { answerFromOutputs, expectedAnswer, nodeFromInputs, nodeInputs, type RayBoxAnswer, type RayBoxNode } from '../../src/gpu/bvh/verification/rayBox4Vectors.ts';
import { BVH8_CHILDREN, RAY_BOX8_SORT_LAYERS, RayBox8, defaultRayBox8Params, rayBox8Latency, type RayBox8Params } from '../../src/gpu/bvh8/rayBox8.ts';
import { rayBox8CosimDesign, rayBox8Stimulus } from '../../src/gpu/bvh8/verification/rayBox8Cosim.ts';
import { applyNetwork, oddEvenMergeSortLayers } from '../../src/gpu/bvh8/sortingNetwork.ts';
import { packWords } from '../../src/gpu/verification/portWords.ts';
import { VectorBench } from './vectorBench.ts';

const seed = seedFromEnv();
console.log(`rayBox8.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const vec = (x: number, y: number, z: number): Vec3 => [f(x), f(y), f(z)];
const box = (min: [number, number, number], max: [number, number, number]): Box => ({ min: vec(...min), max: vec(...max) });
/** A cube of half-size h centred on (x, y, z). */
const cube = (x: number, y: number, z: number, h = 1): Box => box([x - h, y - h, z - h], [x + h, y + h, z + h]);
const ALL = 0xff;

/** The engine on the TS simulator. */
function bench(p: RayBox8Params = defaultRayBox8Params) {
  const b = new VectorBench(elaborate(RayBox8, p).design);
  const latency = rayBox8Latency(p);
  /** One node alone through the pipeline: its answer, checked to come out exactly `latency` cycles later. */
  const answer = (node: RayBoxNode): RayBoxAnswer => {
    const outs = b.run([nodeInputs(node), ...new Array<Record<string, bigint>>(latency + 1).fill({})]);
    expect(outs.map((o) => Number(o.out_valid))).toEqual(outs.map((_, c) => (c === latency ? 1 : 0)));
    return answerFromOutputs(outs[latency]!, BVH8_CHILDREN);
  };
  return { run: (rows: Record<string, bigint>[]) => b.run(rows), answer, latency };
}

/** A node with the ray o + t·d (1/d computed as the caller would), all eight children valid unless given. */
function node(o: Vec3, d: Vec3, boxes: Box[], extra: Partial<RayBoxNode> = {}): RayBoxNode {
  return { origin: o, invDir: rayInverse(d), limit: POS_INF, boxes, childValid: ALL, tag: 0x1234, ...extra };
}

const alongZ = { o: vec(0, 0, -5), d: vec(0, 0, 1) };
const far = cube(0, 0, 1000);

describe('the sorting network', () => {
  test('8 keys: Batcher odd–even merge sort, 19 comparators in 6 layers, each layer touching distinct positions', () => {
    expect(RAY_BOX8_SORT_LAYERS.map((l) => l.length)).toEqual([4, 4, 2, 4, 2, 3]);
    for (const layer of RAY_BOX8_SORT_LAYERS) expect(new Set(layer.flat()).size).toBe(2 * layer.length);
  });

  test('it sorts every 0/1 input (the 0–1 principle: so it sorts every input), for 2 to 16 keys', () => {
    for (const n of [2, 4, 8, 16]) {
      const layers = oddEvenMergeSortLayers(n);
      for (let x = 0; x < 1 << n; x++) {
        const keys = Array.from({ length: n }, (_, i) => BigInt((x >> i) & 1));
        expect(applyNetwork(layers, keys)).toEqual([...keys].sort((a, b) => Number(a - b)));
      }
    }
  });

  test('a key count that is not a power of two is refused', () => {
    expect(() => oddEvenMergeSortLayers(6)).toThrow('sorting network: the key count must be a power of two from 2 to 64, got 6');
  });
});

describe('parameters and latency', () => {
  test('latency: subtract, multiply, three min/max levels, the tfar multiply, the key stage and six sorting layers', () => {
    expect(rayBox8Latency({ fadd: 3, fmul: 3, tagBits: 16 })).toBe(19);
    expect(rayBox8Latency({ fadd: 3, fmul: 5, tagBits: 16 })).toBe(3 + 5 + 3 + 5 + 1 + 6);
    expect(rayBox8Latency({ fadd: 0, fmul: 0, tagBits: 1 })).toBe(10);
  });

  test('bad latencies and tag widths are refused with a clear error', () => {
    expect(() => rayBox8Latency({ fadd: -1, fmul: 3, tagBits: 8 })).toThrow('RayBox8: fadd latency must be an integer from 0 to 40, got -1');
    expect(() => elaborate(RayBox8, { fadd: 3, fmul: 3, tagBits: 0 })).toThrow('RayBox8: tagBits must be an integer from 1 to 256, got 0');
  });
});

describe('directed nodes', () => {
  const b = bench();
  /** The hardware's answer, which must also be the golden one. */
  const check = (n: RayBoxNode): RayBoxAnswer => {
    const got = b.answer(n);
    expect(got).toEqual(expectedAnswer(n));
    return got;
  };

  test('eight hits in reverse slot order come out nearest first; the tag comes back', () => {
    const a = check(node(alongZ.o, alongZ.d, [0, 1, 2, 3, 4, 5, 6, 7].map((c) => cube(0, 0, 30 - 3 * c))));
    expect(a).toMatchObject({ hit: ALL, hitCount: 8, order: [7, 6, 5, 4, 3, 2, 1, 0], tag: 0x1234 });
    expect(a.tnear[7]).toBe(f(13));
  });

  test('equal tnear: the lower slot first, among any number of ties', () => {
    // Slots 1, 4, 6 share a box, slots 0 and 7 share a nearer one; slots 2, 3 and 5 are farther, in descending slot order.
    const [near, mid] = [cube(0, 0, 1), cube(0, 0, 5)];
    const a = check(node(alongZ.o, alongZ.d, [near, mid, cube(0, 0, 20), cube(0, 0, 15), mid, cube(0, 0, 10), mid, near]));
    expect(a.order).toEqual([0, 7, 1, 4, 6, 5, 3, 2]);
  });

  test('an origin inside every box: tnear +0 for all, the order is by slot', () => {
    const a = check(node(alongZ.o, vec(0.3, -0.2, 1), [0, 1, 2, 3, 4, 5, 6, 7].map((c) => cube(0.1 * c, 0, -5, 1 + c))));
    expect(a).toMatchObject({ hit: ALL, order: [0, 1, 2, 3, 4, 5, 6, 7], tnear: new Array(8).fill(0) });
  });

  test('misses (behind, beside, beyond the limit, empty children) follow the hits in ascending slot order', () => {
    const boxes = [cube(0, 0, -10), cube(3, 0, 0), cube(0, 0, 6), cube(0, 0, 2), cube(0, 0, 40), cube(0, 0, 4), far, cube(0, 0, 3)];
    const a = check(node(alongZ.o, alongZ.d, boxes, { limit: f(30), childValid: 0b0111_1111 }));
    expect(a).toMatchObject({ hit: 0b0010_1100, hitCount: 3, order: [3, 5, 2, 0, 1, 4, 6, 7] });
    expect(check(node(alongZ.o, alongZ.d, boxes, { childValid: 0 }))).toMatchObject({ hit: 0, hitCount: 0, order: [0, 1, 2, 3, 4, 5, 6, 7] });
  });

  test('the entry clamp (lower, the query\'s fmax(+0, tmin)): tnear rises to it, boxes whose widened exit lies before it miss, the clamped ones tie by slot', () => {
    // Boxes along z at 1 ± 1, 3 ± 1, 5 ± 1 … (exits 2, 4, 6 …), a little widened: lower 3.5 keeps those exiting at 4 and beyond.
    const boxes = [0, 1, 2, 3, 4, 5, 6, 7].map((c) => cube(0, 0, -4 + 2 * c));
    const a = check(node(alongZ.o, alongZ.d, boxes, { lower: f(3.5) }));
    expect(a).toMatchObject({ hit: 0b1111_1110, hitCount: 7, order: [1, 2, 3, 4, 5, 6, 7, 0] });
    expect(a.tnear.slice(1, 3)).toEqual([f(3.5), f(4)]);
    // Past the limit: nothing hits; +inf: nothing (every exit is finite).
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: f(20), limit: f(10) })).hit).toBe(0);
    expect(check(node(alongZ.o, alongZ.d, boxes, { lower: POS_INF })).hit).toBe(0);
  });

  test('a zero direction component and an origin on a face plane (0 · inf = NaN: the axis drops out)', () => {
    const o = vec(1, 0, -5);
    for (const dx of [0, 0x80000000]) {
      const d: Vec3 = [dx, f(0), f(1)];
      const boxes = [box([1, -1, 0], [2, 1, 1]), box([0, -1, 0], [1, 1, 1]), box([1.5, -1, 0], [2, 1, 1]), box([1, -1, -9], [1, 1, -8]), box([-1, -1, 3], [3, 1, 4]), box([2, -1, 0], [3, 1, 1]), far, cube(1, 0, 2)];
      expect(check(node(o, d, boxes)).hit).toBe(0b1101_0011);
    }
  });

  test('degenerate, NaN, infinite and subnormal boxes: as the golden says, and tnear is never NaN', () => {
    const nan = CANONICAL_NAN;
    const boxes = [box([1, -1, -1], [-1, 1, 1]), box([0, 0, 2], [0, 0, 2]), { ...cube(0, 0, 2), min: [nan, 0, 0] as Vec3 }, { ...cube(0, 0, 2), max: [POS_INF, POS_INF, POS_INF] as Vec3 }, box([-1e-45, -1e-45, -1e-45], [1e-45, 1e-45, 1e-45]), cube(0, 0, 3e38, 1e38), { ...cube(0, 0, 2), min: [0xff800000, 0xff800000, 0xff800000] as Vec3 }, far];
    for (const n of [node(alongZ.o, alongZ.d, boxes), node([nan, nan, nan], alongZ.d, boxes, { limit: nan }), { ...node(alongZ.o, alongZ.d, boxes), invDir: [nan, POS_INF, f(1)] as Vec3 }]) {
      for (const t of check(n).tnear) expect(t & 0x7fffffff).toBeLessThanOrEqual(POS_INF);
    }
  });
});

describe('random nodes on the TS simulator against the golden', () => {
  const configs: [RayBox8Params, number][] = [
    [defaultRayBox8Params, 10_000],
    [{ fadd: 0, fmul: 0, tagBits: 1 }, 3_000],
    // The GPU's float latencies (src/gpu/floatLatencies.ts), and a tag wider than a word.
    [{ fadd: 3, fmul: 5, tagBits: 40 }, 3_000],
  ];
  for (const [p, cycles] of configs) {
    test(`${JSON.stringify(p)}: ${cycles} cycles of random nodes with bubbles and resets, every result on time and exact`, () => {
      const b = bench(p);
      const rng = createRng(seed ^ p.fadd ^ (p.fmul << 8) ^ 0x80);
      const stimulus = rayBox8Stimulus(p.tagBits);
      const rows = Array.from({ length: cycles }, (_, c) => stimulus(c, rng));
      const outs = b.run(rows);
      const golden = rayBoxGolden(b.latency, BVH8_CHILDREN);
      let answers = 0;
      let hits = 0;
      let ties = 0;
      rows.forEach((row, c) => {
        expect(golden.check(c, row, outs[c]!), `cycle ${c} (SEED=${seed})`).toBeNull();
        if (outs[c]!.out_valid === 1n) {
          answers++;
          const a = answerFromOutputs(outs[c]!, BVH8_CHILDREN);
          hits += a.hitCount;
          const hitNear = a.order.slice(0, a.hitCount).map((s) => a.tnear[s]);
          ties += hitNear.some((t, k) => k > 0 && t === hitNear[k - 1]) ? 1 : 0;
        }
      });
      expect(answers).toBeGreaterThan(cycles * 0.8);
      expect(hits).toBeGreaterThan(answers * 2);
      // Equal tnear among hits (ordered by slot) must be common enough to have been tested.
      expect(ties).toBeGreaterThan(answers / 20);
    }, 120_000);
  }
});

describe('throughput', () => {
  test('one node per cycle with in_valid held high: 8 box tests per cycle, results in order, exactly `latency` cycles after each node', () => {
    const b = bench();
    const rng = createRng(seed ^ 0xb8);
    const stimulus = rayBox8Stimulus(defaultRayBox8Params.tagBits);
    const count = 300;
    const nodes = Array.from({ length: count }, (_, k) => ({ ...stimulus(k + 2, rng), in_valid: 1n, rst_n: 1n, tag: BigInt(k) }));
    const outs = b.run([...nodes, ...new Array<Record<string, bigint>>(b.latency + 5).fill({})]);
    const L = b.latency;
    expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(L) + '1'.repeat(count) + '0'.repeat(5));
    nodes.forEach((ins, k) => {
      const got = answerFromOutputs(outs[k + L]!, BVH8_CHILDREN);
      expect(got.tag).toBe(k);
      expect(got, `node ${k} (SEED=${seed})`).toEqual(expectedAnswer(nodeFromInputs(ins, BVH8_CHILDREN)));
    });
  });
});

describe('ray_box8 on three simulators', () => {
  test('the design is registered', async () => {
    expect(await findDesign('ray_box8')).toBe(rayBox8CosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden slab test and child order', async () => {
    await expectLockstepOnThree(rayBox8CosimDesign, seed);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([defaultRayBox8Params, { fadd: 0, fmul: 0, tagBits: 1 }].map((p) => elaborate(RayBox8, p).design));
  }, 300_000);

  test('the golden model notices a wrong order', () => {
    const L = rayBox8Latency(defaultRayBox8Params);
    const n = node(alongZ.o, alongZ.d, [cube(0, 0, 3), cube(0, 0, 1), far, far, far, far, far, far], { childValid: 0b0011, tag: 7 });
    const ins = { rst_n: 1n, ...nodeInputs(n) };
    const idle = { rst_n: 1n, in_valid: 0n };
    const want = expectedAnswer(n);
    const right = { out_valid: 1n, out_tag: 7n, hit: 0b0011n, tnear: packWords(want.tnear), hit_count: 2n };
    const order = (slots: number[]) => slots.reduce((acc, s, k) => acc | (BigInt(s) << BigInt(3 * k)), 0n);
    const model = rayBoxGolden(L, BVH8_CHILDREN);
    expect(model.check(0, ins, { out_valid: 0n })).toBeNull();
    for (let c = 1; c < L; c++) expect(model.check(c, idle, { out_valid: 0n })).toBeNull();
    expect(model.check(L, idle, { ...right, order: order([0, 1, 2, 3, 4, 5, 6, 7]) })).toMatch(/order 01234567 .* expected hit 00000011 count 2 order 10234567/);
    const good = rayBoxGolden(L, BVH8_CHILDREN);
    good.check(0, ins, { out_valid: 0n });
    for (let c = 1; c < L; c++) good.check(c, idle, { out_valid: 0n });
    expect(good.check(L, idle, { ...right, order: order([1, 0, 2, 3, 4, 5, 6, 7]) })).toBeNull();
  });
});
