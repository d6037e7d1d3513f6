// The GFX12 node decoders against the host decoders, bit for bit: the binary32 box reference (outward, tight),
// directed nodes, seeded random nodes on the TS simulator, lockstep on TS, Verilator and Icarus, and lint.
import { describe, expect, test } from 'vitest';
import { elaborate, type Design } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import type { GoldenModel } from '../../src/hdl/cosim/index.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { buildBvh8, bvh8ChildTargets, bvh8NodeWords, encodeBvh8Image } from '../../src/bvh/index.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { decodeGfx12BoxNode, encodeGfx12BoxNode, encodeGfx12PrimitiveNode, gfx12ChildBox, Gfx12Error, type Gfx12BoxNode, type Gfx12Triangle } from '../../src/bvh/gfx12.ts';
import { Gfx12BoxDecoder, GFX12_BOX_DECODER_LATENCY } from '../../src/gpu/bvh8/gfx12BoxDecoder.ts';
import { Gfx12PrimitiveDecoder, GFX12_PRIMITIVE_DECODER_LATENCY } from '../../src/gpu/bvh8/gfx12PrimitiveDecoder.ts';
import { boxAnswerFromOutputs, expectedBoxAnswer, randomBoxNodeInput, randomEncodedBoxNode, wordsToBigInt, type BoxDecodeAnswer } from '../../src/gpu/bvh8/verification/boxNodeVectors.ts';
import { expectedPrimitiveAnswer, primitiveAnswerFromOutputs, type PrimitiveDecodeAnswer } from '../../src/gpu/bvh8/verification/primitiveNodeVectors.ts';
import { gfx12BoxCosimDesign, gfx12BoxGolden, gfx12BoxStimulus, gfx12PrimitiveCosimDesign, gfx12PrimitiveGolden, gfx12PrimitiveStimulus } from '../../src/gpu/bvh8/verification/gfx12DecodersCosim.ts';

const seed = seedFromEnv();
console.log(`gfx12Decoders.test seed=${seed} (rerun with SEED=${seed})`);

const BOX_OUTPUTS = ['out_valid', 'error', 'internal_child_offset', 'primitive_child_offset', 'parent_word', 'obb_matrix_index', 'child_valid', 'node_type', 'node_size', 'cull_flags', 'cull_mask', 'boxes'];
const PRIM_OUTPUTS = ['out_valid', 'error', 'pair_count', 'range_stop', 'vertices', 'tri_active', 'tri_vertex_index', 'tri_opaque', 'tri_double_sided', 'geometry_index', 'primitive_index'];

/** Drives a decoder a cycle at a time on the TS simulator. */
class Bench {
  readonly sim: Simulator;
  constructor(
    design: Design,
    readonly latency: number,
    readonly outputs: readonly string[],
  ) {
    this.sim = compileSimulator(design);
    this.sim.reset();
  }
  /** One cycle: inputs applied, outputs read (before the edge), then the edge. */
  cycle(ins: Record<string, bigint>): Record<string, bigint> {
    for (const [k, v] of Object.entries(ins)) this.sim.poke(k, v);
    const o: Record<string, bigint> = {};
    for (const k of this.outputs) o[k] = this.sim.peek(k);
    this.sim.step(1);
    return o;
  }
  /** One node alone: the outputs exactly `latency` cycles later, and out_valid only then. */
  decode(words: Uint32Array): Record<string, bigint> {
    const outs = [this.cycle({ rst_n: 1n, in_valid: 1n, node: wordsToBigInt(words) })];
    for (let c = 0; c < this.latency + 1; c++) outs.push(this.cycle({ in_valid: 0n }));
    expect(outs.map((o) => Number(o.out_valid))).toEqual(outs.map((_, c) => (c === this.latency ? 1 : 0)));
    return outs[this.latency]!;
  }
}

/** Runs a cosim stimulus and golden on the TS simulator; returns the number of answers checked. */
function runGolden(bench: Bench, stimulus: (cycle: number, rng: Rng) => Record<string, bigint>, golden: GoldenModel, cycles: number, rng: Rng): number {
  let answers = 0;
  for (let c = 0; c < cycles; c++) {
    const ins = stimulus(c, rng);
    const outs = bench.cycle(ins);
    expect(golden.check(c, ins, outs), `cycle ${c} (SEED=${seed})`).toBeNull();
    if (outs.out_valid === 1n) answers++;
  }
  return answers;
}

// ------------------------------------------------------------------------------------ the binary32 box reference

/** A finite binary32 value as an exact count of 2^−149 (as the host encoder counts). */
function unitsOf(bits: number): bigint {
  const exp = (bits >>> 23) & 0xff;
  const mag = exp === 0 ? BigInt(bits & 0x7fffff) : BigInt((bits & 0x7fffff) | 0x800000) << BigInt(exp - 1);
  return bits >>> 31 ? -mag : mag;
}
/** The next binary32 value toward +∞ (finite, not −0 input). */
const nextUp = (bits: number): number => (bits === 0x80000000 ? 1 : bits >>> 31 ? bits - 1 : bits + 1) >>> 0;
const nextDown = (bits: number): number => (bits === 0 ? 0x80000001 : bits >>> 31 ? bits + 1 : bits - 1) >>> 0;
const isFinite32 = (bits: number): boolean => ((bits >>> 23) & 0xff) !== 0xff;
/** gfx12ChildBox's corners as arrays. */
const childBounds32 = (node: Gfx12BoxNode, i: number): { min: number[]; max: number[] } => {
  const b = gfx12ChildBox(node, i);
  return { min: [...b.min], max: [...b.max] };
};

describe('gfx12ChildBox: the host reference of the box decoder', () => {
  test('seeded random nodes at scales 1e-44 to 3e38: each bound is the tightest binary32 outside the exact decoded bound, so it contains the child box', () => {
    const rng = createRng(seed ^ 0x5eed);
    let bounds = 0;
    let inexact = 0;
    for (let n = 0; n < 3000; n++) {
      const words = randomEncodedBoxNode(rng);
      const node = decodeGfx12BoxNode(words);
      node.children.forEach((c, i) => {
        const b = childBounds32(node, i);
        [0, 1, 2].forEach((a) => {
          const unit = 1n << BigInt(node.exponents[a]! + 22);
          const exactMin = unitsOf(node.origin[a]!) + BigInt(c.qmin[a]!) * unit;
          const exactMax = unitsOf(node.origin[a]!) + BigInt(c.qmax[a]! + 1) * unit;
          const lo = b.min[a]!;
          const hi = b.max[a]!;
          // Outward: min ≤ exact min, max ≥ exact max (an infinite max is above everything).
          expect(unitsOf(lo) <= exactMin, `seed ${seed} node ${n} child ${i} axis ${a} min`).toBe(true);
          if (isFinite32(hi)) expect(unitsOf(hi) >= exactMax, `seed ${seed} node ${n} child ${i} axis ${a} max`).toBe(true);
          // Tight: one step inward crosses the exact bound.
          if (unitsOf(lo) !== exactMin) {
            inexact++;
            expect(unitsOf(nextUp(lo)) > exactMin).toBe(true);
          }
          if (isFinite32(hi) && unitsOf(hi) !== exactMax) expect(unitsOf(nextDown(hi)) < exactMax).toBe(true);
          bounds += 2;
        });
      });
    }
    expect(inexact).toBeGreaterThan(100);
    console.log(`gfx12ChildBox: ${bounds} bounds outward and tight, ${inexact} minima rounded (seed ${seed})`);
  });

  test('exact sums, outward rounding, signed zero, overflow; non-finite origins refused', () => {
    const child = (min: number[], max: number[]) => ({ box: { min: min.map(fromNumber) as unknown as Vec3, max: max.map(fromNumber) as unknown as Vec3 }, nodeType: 0, nodeSize: 1 });
    const node = decodeGfx12BoxNode(encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: [child([0, 0, 0], [1, 1, 1]), child([0.25, 0.5, 0], [0.5, 1, 0.75])] }));
    expect(childBounds32(node, 0)).toEqual({ min: [0, 0, 0], max: [fromNumber(1), fromNumber(1), fromNumber(1)] });
    expect(childBounds32(node, 1)).toEqual({ min: [0.25, 0.5, 0].map(fromNumber), max: [0.5, 1, 0.75].map(fromNumber) });
    // origin 1 + 2^-23 (one ulp above 1) plus one step of 2^-30: min stays, max rounds up to the next float.
    const words = encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: [child([1, 1, 1], [2, 2, 2])] });
    words[3] = 0x3f800001;
    words[6] = ((words[6]! & ~0xff) | 97) >>> 0;
    words[8] = (words[8]! & ~0xfff) >>> 0; // min_x = 0
    words[9] = ((words[9]! & ~(0xfff << 12)) | (0 << 12)) >>> 0; // max_x = 0: max = origin + 2^-30
    const odd = decodeGfx12BoxNode(words);
    expect(childBounds32(odd, 0).min[0]).toBe(0x3f800001);
    expect(childBounds32(odd, 0).max[0]).toBe(0x3f800002);
    // A negative origin cancelled exactly gives +0; exponent 255 overflows to +inf (max) and to the largest float (min, toward −inf).
    words[3] = fromNumber(-1);
    words[6] = ((words[6]! & ~0xff) | 115) >>> 0; // step 2^-12: 4096 steps = 1
    words[9] = ((words[9]! & ~(0xfff << 12)) | (4095 << 12)) >>> 0;
    expect(childBounds32(decodeGfx12BoxNode(words), 0).max[0]).toBe(0);
    words[6] = (words[6]! | 0xff) >>> 0;
    words[8] = (words[8]! | 1) >>> 0;
    const big = childBounds32(decodeGfx12BoxNode(words), 0);
    expect([big.min[0], big.max[0]]).toEqual([0x7f7fffff, 0x7f800000]);
    // An infinite or NaN origin has no decoded box: the host refuses it (the decoder's error).
    for (const origin of [0x7f800000, 0xff800000, 0x7fc00001]) {
      words[3] = origin;
      expect(() => gfx12ChildBox(decodeGfx12BoxNode(words), 0)).toThrow(Gfx12Error);
      expect(expectedBoxAnswer(words)).toEqual({ error: true });
    }
  });
});

// ------------------------------------------------------------------------------------ the box decoder

describe('Gfx12BoxDecoder', () => {
  const bench = new Bench(elaborate(Gfx12BoxDecoder, {}).design, GFX12_BOX_DECODER_LATENCY, BOX_OUTPUTS);
  const check = (words: Uint32Array): BoxDecodeAnswer => {
    const got = boxAnswerFromOutputs(bench.decode(words));
    expect(got).toEqual(expectedBoxAnswer(words));
    return got;
  };
  const unit = (x: number, y: number, z: number) => ({ box: { min: [x, y, z].map(fromNumber) as unknown as Vec3, max: [x + 1, y + 1, z + 1].map(fromNumber) as unknown as Vec3 }, nodeType: 5, nodeSize: 1 });

  test('latency 4: all 8 children, header fields and exact boxes', () => {
    const kids = Array.from({ length: 8 }, (_, c) => ({ ...unit(c, -c, 2 * c), nodeType: c, nodeSize: 8 - c, cullFlags: c & 3, cullMask: 0x10 + c }));
    const a = check(encodeGfx12BoxNode({ internalChildOffset: 0x1234, primitiveChildOffset: 0xabcd, unused: 77, obbMatrixIndex: 42, children: kids }));
    expect(a).toMatchObject({ error: false, internalChildOffset: 0x1234, primitiveChildOffset: 0xabcd, parentWord: 77, obbMatrixIndex: 42 });
    expect(a.children!.length).toBe(8);
    expect(a.children![3]).toEqual({ nodeType: 3, nodeSize: 5, cullFlags: 3, cullMask: 0x13, min: [3, -3, 6].map(fromNumber), max: [4, -2, 7].map(fromNumber) });
  });

  test('one child; a child count of 9 to 16 is an error with no valid child', () => {
    expect(check(encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: [unit(0.5, 0, 0)] })).children!.length).toBe(1);
    const w = encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: [unit(0.5, 0, 0)] });
    for (const count of [9, 16]) {
      w[6] = ((w[6]! & 0x0fffffff) | ((count - 1) << 28)) >>> 0;
      expect(check(w)).toEqual({ error: true });
      expect(bench.decode(w).child_valid).toBe(0n);
    }
  });

  test('extreme origins and exponents: subnormal, ±0, the largest float, exponents 0 and 255; infinite and NaN origins are errors', () => {
    const rng = createRng(seed ^ 0xe);
    const origins = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0xcb000000];
    for (const origin of origins) {
      for (const e of [0, 1, 22, 127, 140, 254, 255]) {
        const w = encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: Array.from({ length: 8 }, () => unit(rng.int(100), 0, 0)) });
        for (let k = 8; k < 32; k++) w[k] = rng.u32();
        w[3] = w[4] = origin;
        w[6] = ((w[6]! & 0xff000000) | e | (e << 8) | (rng.int(256) << 16)) >>> 0;
        check(w);
      }
    }
  });

  test('seeded random nodes with bubbles and resets (the cosim stimulus): every answer on time and equal to the host decoder', () => {
    const answers = runGolden(new Bench(elaborate(Gfx12BoxDecoder, {}).design, GFX12_BOX_DECODER_LATENCY, BOX_OUTPUTS), gfx12BoxStimulus, gfx12BoxGolden(), 6000, createRng(seed));
    expect(answers).toBeGreaterThan(6000 * 0.8);
  });

  test('one node per cycle: results in order, exactly 4 cycles after each node', () => {
    const b = new Bench(elaborate(Gfx12BoxDecoder, {}).design, GFX12_BOX_DECODER_LATENCY, BOX_OUTPUTS);
    const rng = createRng(seed ^ 0xb0);
    const nodes = Array.from({ length: 200 }, () => randomEncodedBoxNode(rng));
    const outs = [...nodes.map((w) => b.cycle({ rst_n: 1n, in_valid: 1n, node: wordsToBigInt(w) })), ...Array.from({ length: 6 }, () => b.cycle({ in_valid: 0n }))];
    expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(4) + '1'.repeat(200) + '0'.repeat(2));
    nodes.forEach((w, k) => expect(boxAnswerFromOutputs(outs[k + 4]!), `node ${k} (SEED=${seed})`).toEqual(expectedBoxAnswer(w)));
  });

  test('conservative: the hardware\'s float box contains every child\'s exact box (2,000 random nodes, all scales)', () => {
    const rng = createRng(seed ^ 0xc0);
    let children = 0;
    for (let n = 0; n < 2000; n++) {
      const input = randomBoxNodeInput(rng);
      const got = boxAnswerFromOutputs(bench.decode(encodeGfx12BoxNode(input)));
      input.children.forEach((k, i) => {
        const c = got.children![i]!;
        [0, 1, 2].forEach((a) => {
          expect(toNumber(c.min[a]!), `SEED=${seed} node ${n} child ${i} axis ${a} min`).toBeLessThanOrEqual(toNumber(k.box.min[a]!));
          expect(toNumber(c.max[a]!), `SEED=${seed} node ${n} child ${i} axis ${a} max`).toBeGreaterThanOrEqual(toNumber(k.box.max[a]!));
        });
        children++;
      });
    }
    expect(children).toBeGreaterThan(2000 * 4);
  });

  test('the golden model notices a wrong box bit and a wrong latency', () => {
    const w = encodeGfx12BoxNode({ internalChildOffset: 1, primitiveChildOffset: 2, children: [unit(0, 0, 0), unit(1, 1, 1)] });
    const ins = { rst_n: 1n, in_valid: 1n, node: wordsToBigInt(w) };
    const idle = { rst_n: 1n, in_valid: 0n, node: 0n };
    const right = bench.decode(w);
    const model = gfx12BoxGolden();
    expect(model.check(0, ins, { out_valid: 0n })).toBeNull();
    for (let c = 1; c < GFX12_BOX_DECODER_LATENCY; c++) expect(model.check(c, idle, { out_valid: 0n })).toBeNull();
    expect(model.check(4, idle, { ...right, boxes: right.boxes! ^ (1n << 200n) })).toMatch(/got .* expected/);
    const early = gfx12BoxGolden();
    expect(early.check(0, ins, { out_valid: 0n })).toBeNull();
    expect(early.check(1, idle, right)).toMatch(/out_valid is 1, expected 0/);
  });
});

// ------------------------------------------------------------------------------------ the primitive decoder

describe('Gfx12PrimitiveDecoder', () => {
  const bench = new Bench(elaborate(Gfx12PrimitiveDecoder, {}).design, GFX12_PRIMITIVE_DECODER_LATENCY, PRIM_OUTPUTS);
  const check = (words: Uint32Array): PrimitiveDecodeAnswer => {
    const got = primitiveAnswerFromOutputs(bench.decode(words));
    expect(got).toEqual(expectedPrimitiveAnswer(words));
    return got;
  };
  const v = (x: number, y: number, z: number): Vec3 => [fromNumber(x), fromNumber(y), fromNumber(z)];
  /** Two triangles per cell of a 4 × 2 grid of points (i, j, 0.5): 16 triangles over 15 shared vertices. */
  const grid: Gfx12Triangle[] = Array.from({ length: 16 }, (_, t) => {
    const [i, j] = [(t >> 1) % 4, t >> 3];
    const [a, b, c, d] = [v(i, j, 0.5), v(i + 1, j, 0.5), v(i, j + 1, 0.5), v(i + 1, j + 1, 0.5)];
    return { vertices: t % 2 ? [b, d, c] : [a, b, c], primitiveIndex: 1000 + t, geometryIndex: 7, opaque: t % 3 !== 0, doubleSided: t % 4 !== 1 };
  });

  test('latency 3: one triangle', () => {
    const a = check(encodeGfx12PrimitiveNode({ triangles: [{ vertices: [v(1, 2, 3), v(-4, 5.5, 6), v(7, 8, -9.25)], primitiveIndex: 123456, geometryIndex: 5 }] }));
    expect(a).toMatchObject({ error: false, rangeStop: true });
    expect(a.triangles![0]).toEqual({ vertices: [v(1, 2, 3), v(-4, 5.5, 6), v(7, 8, -9.25)], primitiveIndex: 123456, geometryIndex: 5, opaque: true, doubleSided: true });
  });

  test('16 triangles (8 pairs) over 15 vertices; an odd count leaves tri1 of the last pair inactive; range stop off', () => {
    const a = check(encodeGfx12PrimitiveNode({ triangles: grid, rangeStop: false }));
    expect(a.triangles!.length).toBe(16);
    expect(new Set(a.triangles!.flatMap((t) => t.vertices.map((x) => x.join(',')))).size).toBe(15);
    expect(a.rangeStop).toBe(false);
    const five = encodeGfx12PrimitiveNode({ triangles: grid.slice(0, 5) });
    expect(check(five).triangles!.length).toBe(5);
    expect(bench.decode(five).tri_active).toBe(0b11111n);
    expect(bench.decode(five).pair_count).toBe(3n);
  });

  test('errors: vertex_type 1, vertex bits + trailing zeros past 32, a procedural triangle', () => {
    const good = () => encodeGfx12PrimitiveNode({ triangles: grid.slice(0, 4) });
    const vt = good();
    vt[0] = (vt[0]! | 0x80000000) >>> 0;
    expect(check(vt)).toEqual({ error: true });
    const wide = good();
    wide[0] = ((wide[0]! & ~0x1f) | 31 | (1 << 15)) >>> 0; // 32 x bits and 1 trailing zero
    expect(check(wide)).toEqual({ error: true });
    const proc = good();
    proc[31] = (proc[31]! | (0xff << 20)) >>> 0; // pair 0, tri0 v0 = v1 = 0xF
    expect(check(proc)).toEqual({ error: true });
  });

  test('random bits with a legal header: positions past either end read zeros, as in the host decoder', () => {
    const rng = createRng(seed ^ 0x7a);
    let accepted = 0;
    for (let n = 0; n < 300; n++) {
      const w = Uint32Array.from({ length: 32 }, () => rng.u32());
      w[0] = (w[0]! & 0x7fff8000) >>> 0; // vertex bits 1 and 0 trailing zeros (always legal), random rest
      w[0] = (w[0]! | (rng.int(32) << 15)) >>> 0;
      if (!check(w).error) accepted++;
    }
    expect(accepted).toBeGreaterThan(100);
  });

  test('seeded random nodes with bubbles and resets (the cosim stimulus): every answer on time and equal to the host decoder', () => {
    const answers = runGolden(new Bench(elaborate(Gfx12PrimitiveDecoder, {}).design, GFX12_PRIMITIVE_DECODER_LATENCY, PRIM_OUTPUTS), gfx12PrimitiveStimulus, gfx12PrimitiveGolden(), 6000, createRng(seed));
    expect(answers).toBeGreaterThan(6000 * 0.8);
  });

  test('the golden model notices a wrong vertex bit', () => {
    const w = encodeGfx12PrimitiveNode({ triangles: grid.slice(0, 2) });
    const right = bench.decode(w);
    const model = gfx12PrimitiveGolden();
    expect(model.check(0, { rst_n: 1n, in_valid: 1n, node: wordsToBigInt(w) }, { out_valid: 0n })).toBeNull();
    for (let c = 1; c < GFX12_PRIMITIVE_DECODER_LATENCY; c++) expect(model.check(c, { rst_n: 1n, in_valid: 0n, node: 0n }, { out_valid: 0n })).toBeNull();
    expect(model.check(3, { rst_n: 1n, in_valid: 0n, node: 0n }, { ...right, vertices: right.vertices! ^ 1n })).toMatch(/got .* expected/);
  });
});

// ------------------------------------------------------------------------------------ a real BVH8 image

describe('the bunny-in-box BVH8 image (buildBvh8 + encodeBvh8Image)', () => {
  test('every node streamed one per cycle through its decoder equals the host: boxes as the golden traversal tests them', () => {
    const img = encodeBvh8Image(buildBvh8(bunnyInBox()));
    // Node kinds from the root down, as the traversal finds them.
    const kinds: ('box' | 'primitive' | 'instance')[] = ['box'];
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] !== 'box') continue;
      for (const c of bvh8ChildTargets(decodeGfx12BoxNode(bvh8NodeWords(img.words, k)))) for (let s = 0; s < c.size; s++) kinds[c.node + s] = c.kind;
    }
    const stream = <A>(bench: Bench, nodes: Uint32Array[], fromOutputs: (o: Record<string, bigint>) => A, expected: (w: Uint32Array) => A): void => {
      const outs = [...nodes.map((w) => bench.cycle({ rst_n: 1n, in_valid: 1n, node: wordsToBigInt(w) })), ...Array.from({ length: bench.latency }, () => bench.cycle({ in_valid: 0n }))];
      nodes.forEach((w, k) => {
        expect(outs[k + bench.latency]!.out_valid).toBe(1n);
        expect(fromOutputs(outs[k + bench.latency]!), `node ${k}`).toEqual(expected(w));
      });
    };
    const of = (kind: 'box' | 'primitive') => kinds.flatMap((x, k) => (x === kind ? [bvh8NodeWords(img.words, k)] : []));
    expect([of('box').length, of('primitive').length]).toEqual([img.boxNodes, img.primitiveNodes]);
    stream(new Bench(elaborate(Gfx12BoxDecoder, {}).design, GFX12_BOX_DECODER_LATENCY, BOX_OUTPUTS), of('box'), boxAnswerFromOutputs, expectedBoxAnswer);
    stream(new Bench(elaborate(Gfx12PrimitiveDecoder, {}).design, GFX12_PRIMITIVE_DECODER_LATENCY, PRIM_OUTPUTS), of('primitive'), primitiveAnswerFromOutputs, expectedPrimitiveAnswer);
  });
});

// ------------------------------------------------------------------------------------ three simulators and lint

describe('gfx12_box and gfx12_primitive on three simulators', () => {
  test('the designs are registered', async () => {
    expect(await findDesign('gfx12_box')).toBe(gfx12BoxCosimDesign);
    expect(await findDesign('gfx12_primitive')).toBe(gfx12PrimitiveCosimDesign);
  });

  for (const design of [gfx12BoxCosimDesign, gfx12PrimitiveCosimDesign]) {
    test(`${design.name}: 2000 cycles in lockstep on the TS simulator, Verilator and Icarus, with the host decoder as golden`, async () => {
      const r = await runCosim(design, { cycles: 2000, seed, sims: ['ts', 'verilator', 'icarus'] });
      expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
      expect(r.golden).toBeNull();
      expect(Object.keys(r.seconds)).toEqual(['ts', 'verilator', 'icarus']);
    }, 900_000);
  }

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    for (const design of [elaborate(Gfx12BoxDecoder, {}).design, elaborate(Gfx12PrimitiveDecoder, {}).design]) {
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      const [vl, ic] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(vl.output, `verilator on ${design.top}`).toBe('');
      expect(vl.ok).toBe(true);
      expect(ic.output, `icarus on ${design.top}`).toBe('');
    }
  }, 300_000);
});
