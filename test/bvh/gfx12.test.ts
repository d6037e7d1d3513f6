// GFX12 box and triangle-pair nodes: field positions, conservative quantization on seeded random boxes, lossless triangle round trips.
import { describe, expect, test, vi } from 'vitest';
import {
  decodeGfx12BoxNode,
  decodeGfx12PrimitiveNode,
  encodeGfx12BoxNode,
  encodeGfx12PrimitiveNode,
  gfx12ChildBounds,
  gfx12ChildContains,
  planGfx12PrimitiveNode,
  type Gfx12BoxChild,
  type Gfx12Triangle,
} from '../../src/bvh/index.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import type { Box } from '../../src/golden/rayBox.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { announceSeed, bits3, createRng, type Rng } from './helpers.ts';

// Random and large-scene tests take seconds; under load on the shared machine more than vitest's default 5 s.
vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('gfx12.test');

describe('box node', () => {
  test('field positions: header words, exponents and count, then 96-bit children', () => {
    const child: Gfx12BoxChild = { box: { min: bits3([0, 0, 0]), max: bits3([1, 1, 1]) }, nodeType: 5, nodeSize: 1 };
    const w = encodeGfx12BoxNode({ internalChildOffset: 0x11, primitiveChildOffset: 0x22, unused: 0x33, children: [child, { ...child, cullFlags: 0xa, cullMask: 0x3c }] });
    // 1 = 4096 units of 2^(115 − 127): the smallest exponent whose 12 bits reach 1.
    expect(Array.from(w.subarray(0, 8))).toEqual([0x11, 0x22, 0x33, 0, 0, 0, 115 | (115 << 8) | (115 << 16) | (1 << 28), 0x7f]);
    expect(Array.from(w.subarray(8, 11))).toEqual([0, ((4095 << 12) | (0xff << 24)) >>> 0, (4095 | (4095 << 12) | (5 << 24) | (1 << 28)) >>> 0]);
    expect(Array.from(w.subarray(11, 14))).toEqual([0xa << 24, ((4095 << 12) | (0x3c << 24)) >>> 0, (4095 | (4095 << 12) | (5 << 24) | (1 << 28)) >>> 0]);
    expect(w.subarray(14).every((x) => x === 0)).toBe(true);
    const node = decodeGfx12BoxNode(w);
    expect(node).toMatchObject({ internalChildOffset: 0x11, primitiveChildOffset: 0x22, unused: 0x33, origin: [0, 0, 0], exponents: [115, 115, 115], obbMatrixIndex: 0x7f });
    expect(node.children[1]).toEqual({ qmin: [0, 0, 0], qmax: [4095, 4095, 4095], cullFlags: 0xa, cullMask: 0x3c, nodeType: 5, nodeSize: 1 });
    expect(gfx12ChildBounds(node, 0)).toEqual({ min: [0, 0, 0], max: [1, 1, 1] });
  });

  test('a box flat at the origin keeps max ≥ origin: q = ceil(0) − 1 = −1 is clamped to 0', () => {
    const flat: Box = { min: bits3([0, 0, 0]), max: bits3([2, 0, 2]) };
    const node = decodeGfx12BoxNode(encodeGfx12BoxNode({ internalChildOffset: 0, primitiveChildOffset: 0, children: [{ box: flat, nodeType: 0, nodeSize: 1 }] }));
    expect(node.children[0]!.qmax[1]).toBe(0);
    expect(node.exponents[1]).toBe(0);
    expect(gfx12ChildContains(node, 0, flat)).toBe(true);
  });

  /** A binary32 value near `scale` (either sign), sometimes exactly on a power of two or zero. */
  const coordinate = (rng: Rng, scale: number): number => {
    const r = rng();
    if (r < 0.05) return 0;
    if (r < 0.1) return Math.fround(scale * 2 ** -rng.int(8));
    return Math.fround((rng() * 2 - 1) * scale);
  };
  const randomBox = (rng: Rng, scale: number): Box => {
    const a = [0, 1, 2].map(() => coordinate(rng, scale));
    const b = [0, 1, 2].map(() => coordinate(rng, scale));
    return { min: a.map((x, i) => fromNumber(Math.min(x, b[i]!))) as unknown as Vec3, max: a.map((x, i) => fromNumber(Math.max(x, b[i]!))) as unknown as Vec3 };
  };

  test('seeded random boxes: every decoded child box contains its exact box; exponents are the smallest that fit', () => {
    const rng = createRng(seed);
    const scales = [1, 1e-3, 1e3, 1e-30, 1e30, 1e-40, 3e38];
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const scale = scales[n % scales.length]!;
      const kids = Array.from({ length: 1 + rng.int(8) }, () => ({ box: randomBox(rng, scale), nodeType: rng.int(16), nodeSize: rng.int(16) }));
      const node = decodeGfx12BoxNode(encodeGfx12BoxNode({ internalChildOffset: rng.u32(), primitiveChildOffset: rng.u32(), children: kids }));
      expect(node.children.length).toBe(kids.length);
      kids.forEach((k, i) => {
        expect(gfx12ChildContains(node, i, k.box), `seed ${seed}, node ${n}, child ${i}`).toBe(true);
        expect(node.children[i]).toMatchObject({ nodeType: k.nodeType, nodeSize: k.nodeSize, cullMask: 0xff, cullFlags: 0 });
        // Where double precision holds the decoded bounds exactly, they contain the box as doubles too.
        if (scale >= 1e-3 && scale <= 1e3) {
          const b = gfx12ChildBounds(node, i);
          [0, 1, 2].forEach((a) => {
            expect(b.min[a]!).toBeLessThanOrEqual(toNumber(k.box.min[a]!));
            expect(b.max[a]!).toBeGreaterThanOrEqual(toNumber(k.box.max[a]!));
          });
        }
        checked++;
      });
      // One exponent less would not reach the farthest maximum: it needs more than 2048 units at this one.
      [0, 1, 2].forEach((a) => {
        const farthest = Math.max(...node.children.map((c) => c.qmax[a]! + 1));
        if (node.exponents[a]! > 0) expect(farthest, `seed ${seed}, node ${n}, axis ${a}`).toBeGreaterThan(2048);
      });
    }
    console.log(`gfx12 box quantization: ${checked} child boxes contained (seed ${seed})`);
  });

  test('errors: child count, field widths, non-finite coordinates', () => {
    const box: Box = { min: bits3([0, 0, 0]), max: bits3([1, 1, 1]) };
    const k = { box, nodeType: 0, nodeSize: 1 };
    const base = { internalChildOffset: 0, primitiveChildOffset: 0 };
    expect(() => encodeGfx12BoxNode({ ...base, children: [] })).toThrow('a box node has 1 to 8 children, got 0');
    expect(() => encodeGfx12BoxNode({ ...base, children: Array(9).fill(k) })).toThrow('a box node has 1 to 8 children, got 9');
    expect(() => encodeGfx12BoxNode({ ...base, children: [{ ...k, nodeType: 16 }] })).toThrow('nodeType must be a 4-bit unsigned integer, got 16');
    expect(() => encodeGfx12BoxNode({ ...base, children: [{ ...k, box: { ...box, max: [0x7f800000, 0, 0] } }] })).toThrow('box coordinate 0x7f800000 is not finite');
    const tooMany = encodeGfx12BoxNode({ ...base, children: [k] });
    tooMany[6] = (tooMany[6]! | (9 << 28)) >>> 0;
    expect(() => decodeGfx12BoxNode(tooMany)).toThrow('child_count_minus_one is 9; a node has at most 8 children');
  });
});

describe('triangle-pair node', () => {
  const tri = (v: [number, number, number][], primitiveIndex: number, more: Partial<Gfx12Triangle> = {}): Gfx12Triangle => ({
    vertices: v.map((p) => bits3(p)) as unknown as Gfx12Triangle['vertices'],
    primitiveIndex,
    ...more,
  });
  const full = (t: Gfx12Triangle): Gfx12Triangle => ({ geometryIndex: 0, opaque: true, doubleSided: true, ...t });

  test('field positions of one triangle: header, prefixes, vertex data, indices, the pair descriptor at the top', () => {
    const t = tri([[0, 0, 0], [1, 0, 0], [0, 1, 0]], 5);
    const w = encodeGfx12PrimitiveNode({ triangles: [t] });
    const plan = planGfx12PrimitiveNode({ triangles: [t] });
    // 0 and 1.0 (0x3F800000) share 23 trailing zeros; x and y differ from bit 29 down (prefix 2, payload 7); z is all 0 (prefix 8, payload 1).
    expect(plan).toMatchObject({ trailingZeroBits: 23, prefixBits: [2, 2, 8], vertexBits: [7, 7, 1], vertexCount: 3, primitiveBaseBits: 3, primitiveBits: 0 });
    expect(plan.indicesMidpoint).toBe(52 + 12 + 3 * 15);
    const field = (at: number, width: number) => Number((BigInt.asUintN(1024, w.reduce((acc, x, i) => acc | (BigInt(x) << BigInt(32 * i)), 0n)) >> BigInt(at)) & ((1n << BigInt(width)) - 1n));
    expect([field(0, 5), field(5, 5), field(10, 5), field(15, 5), field(28, 3), field(31, 1), field(32, 5), field(37, 5), field(42, 10)]).toEqual([6, 6, 0, 23, 0, 0, 3, 0, 109]);
    // Vertex 1 = (1, 0, 0): x payload = bits 29..23 of 0x3F800000 = 0x7F.
    expect(field(52 + 12 + 15, 7)).toBe(0x7f);
    expect(field(109, 3)).toBe(5);
    // Pair 0 at 1024 − 29: stop, tri1 (inactive: 0), tri0 double-sided, opaque, indices 0, 1, 2.
    expect(field(995, 29)).toBe(1 | (1 << 15) | (1 << 16) | (0 << 17) | (1 << 21) | (2 << 25));
    expect(decodeGfx12PrimitiveNode(w)).toEqual({ triangles: [full(t)], rangeStop: true, layout: plan });
  });

  /** Random vertex coordinates around a common value (long shared prefixes), sometimes with trailing zeros. */
  const vertexPool = (rng: Rng, n: number): Vec3[] => {
    const centre = [0, 1, 2].map(() => (rng() * 2 - 1) * 2 ** (rng.int(20) - 10));
    const spread = 2 ** -(rng.int(12) + 1);
    // Sometimes on a power-of-two grid (trailing zero bits), fine enough for n distinct points.
    const grid = rng() < 0.3 ? 2 ** (Math.floor(Math.log2(spread * Math.abs(centre[0]! || 1))) - 4 - rng.int(6)) : 0;
    const pool = new Map<string, Vec3>();
    while (pool.size < n) {
      const v = centre.map((c) => {
        const x = c + (rng() * 2 - 1) * spread * Math.abs(c || 1);
        return fromNumber(grid ? Math.round(x / grid) * grid : x);
      }) as unknown as Vec3;
      pool.set(v.join(), v);
    }
    return [...pool.values()];
  };

  test('seeded random groups round-trip exactly (vertices, indices, flags), or are refused with the bit count', () => {
    const rng = createRng(seed ^ 0x9e37);
    let encoded = 0;
    let refused = 0;
    for (let n = 0; n < 800; n++) {
      const pool = vertexPool(rng, 3 + rng.int(13));
      const count = 1 + rng.int(16);
      const primBase = rng() < 0.5 ? rng.int(1 << 20) : rng.u32() >>> 1;
      const geomBase = rng.int(1 << rng.int(30));
      const triangles = Array.from({ length: count }, (_, i): Gfx12Triangle => {
        // Three different vertices (a triangle of one point would read as an inactive slot).
        const a = rng.int(pool.length);
        const b = (a + 1 + rng.int(pool.length - 1)) % pool.length;
        const c = rng() < 0.5 ? (a + b) % pool.length : rng.int(pool.length);
        return {
          vertices: [pool[a]!, pool[b]!, pool[c]!],
          primitiveIndex: rng() < 0.7 ? (primBase + i) % 2 ** 31 : rng.u32() >>> 1,
          geometryIndex: rng() < 0.8 ? geomBase : rng.int(1 << 30),
          opaque: rng() < 0.5,
          doubleSided: rng() < 0.5,
        };
      });
      const input = { triangles, rangeStop: rng() < 0.5 };
      let words: Uint32Array;
      try {
        words = encodeGfx12PrimitiveNode(input);
      } catch (e) {
        expect((e as Error).message, `seed ${seed}, group ${n}`).toMatch(/need \d+ bits; a 128-byte primitive node holds 1024|distinct vertices; a primitive node holds 15/);
        refused++;
        continue;
      }
      const back = decodeGfx12PrimitiveNode(words);
      expect(back.triangles, `seed ${seed}, group ${n}`).toEqual(triangles);
      expect(back.rangeStop).toBe(input.rangeStop);
      expect(back.layout).toEqual(planGfx12PrimitiveNode(input));
      encoded++;
    }
    console.log(`gfx12 triangle-pair nodes: ${encoded} groups round-tripped, ${refused} refused as too big (seed ${seed})`);
    expect(encoded).toBeGreaterThan(100);
  });

  test('a strip of 16 triangles over 10 grid vertices fits in one node', () => {
    const v = Array.from({ length: 10 }, (_, i): [number, number, number] => [i >> 1, i & 1, 0]);
    const strip = Array.from({ length: 8 }, (_, i) => tri([v[i]!, v[i + 1]!, v[i + 2]!], 100 + i));
    const triangles = [...strip, ...strip.map((t, i) => ({ ...t, primitiveIndex: 200 + i }))];
    const plan = planGfx12PrimitiveNode({ triangles });
    expect(plan.usedBits).toBeLessThanOrEqual(1024);
    expect(decodeGfx12PrimitiveNode(encodeGfx12PrimitiveNode({ triangles })).triangles).toEqual(triangles.map(full));
  });

  test('groups that do not fit, and triangles that cannot be stored, are refused clearly', () => {
    const rng = createRng(7);
    const random = (): [number, number, number] => [rng() * 1e6 - 5e5, rng() * 1e-6, -rng() * 1e20];
    const big = Array.from({ length: 8 }, (_, i) => tri([random(), random(), random()], i));
    expect(() => encodeGfx12PrimitiveNode({ triangles: big.slice(0, 5) })).toThrow('these 5 triangles need 1493 bits; a 128-byte primitive node holds 1024');
    const manyVertices = Array.from({ length: 6 }, (_, i) => tri([[i, 0, 0], [i, 1, 0], [i, 0, 1]], i));
    expect(() => encodeGfx12PrimitiveNode({ triangles: manyVertices })).toThrow('the triangles use 18 distinct vertices; a primitive node holds 15');
    const small = tri([[0, 0, 0], [1, 0, 0], [0, 1, 0]], 0);
    expect(() => encodeGfx12PrimitiveNode({ triangles: Array(17).fill(small) })).toThrow('a primitive node holds 1 to 16 triangles, got 17');
    expect(() => encodeGfx12PrimitiveNode({ triangles: [] })).toThrow('a primitive node holds 1 to 16 triangles, got 0');
    const point = tri([[0, 0, 0], [0, 0, 0], [0, 0, 0]], 0);
    expect(() => encodeGfx12PrimitiveNode({ triangles: [point] })).toThrow('triangle 0 has all three vertex indices 0, which marks an inactive slot (a degenerate triangle)');
    expect(() => encodeGfx12PrimitiveNode({ triangles: [{ ...small, primitiveIndex: 2 ** 31 }] })).toThrow('triangle 0 primitiveIndex must be a 31-bit unsigned integer, got 2147483648');
  });
});
