// Primitive-node vectors for the GFX12 primitive decoder: seeded random triangle groups that fit a node, edge and invalid nodes, the decoder's outputs read back as the host decoder's triangles.
import { decodeGfx12PrimitiveNode, encodeGfx12PrimitiveNode, Gfx12Error, GFX12_MAX_VERTICES, type Gfx12Triangle } from '../../../bvh/index.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { GFX12_PRIM_TRIANGLES } from '../gfx12PrimitiveDecoder.ts';

/** What the decoder reports: the active triangles in slot order, as the host decoder lists them. */
export interface PrimitiveDecodeAnswer {
  readonly error: boolean;
  readonly rangeStop?: boolean;
  readonly triangles?: readonly Gfx12Triangle[];
}

const field = (v: bigint, at: number, width: number): number => Number((v >> BigInt(at)) & ((1n << BigInt(width)) - 1n));
/** The same key order on both sides, so answers compare as JSON. */
const canonical = (t: Gfx12Triangle): Gfx12Triangle => ({
  vertices: t.vertices.map((v) => v.map((b) => b >>> 0)) as unknown as Gfx12Triangle['vertices'],
  primitiveIndex: t.primitiveIndex,
  geometryIndex: t.geometryIndex ?? 0,
  opaque: t.opaque ?? true,
  doubleSided: t.doubleSided ?? true,
});

export function expectedPrimitiveAnswer(words: Uint32Array): PrimitiveDecodeAnswer {
  let node;
  try {
    node = decodeGfx12PrimitiveNode(words);
  } catch (e) {
    if (e instanceof Gfx12Error) return { error: true };
    throw e;
  }
  return { error: false, rangeStop: node.rangeStop, triangles: node.triangles.map(canonical) };
}

export function primitiveAnswerFromOutputs(o: Record<string, bigint>): PrimitiveDecodeAnswer {
  if (o.error === 1n) return { error: true };
  const vertex = (k: number): Vec3 => [0, 1, 2].map((a) => field(o.vertices!, 96 * k + 32 * a, 32)) as unknown as Vec3;
  const triangles: Gfx12Triangle[] = [];
  for (let i = 0; i < GFX12_PRIM_TRIANGLES; i++) {
    if (field(o.tri_active!, i, 1) === 0) continue;
    const refs = [0, 1, 2].map((j) => field(o.tri_vertex_index!, 12 * i + 4 * j, 4));
    triangles.push({
      vertices: refs.map(vertex) as unknown as Gfx12Triangle['vertices'],
      primitiveIndex: field(o.primitive_index!, 32 * i, 32),
      geometryIndex: field(o.geometry_index!, 32 * i, 32),
      opaque: field(o.tri_opaque!, i, 1) === 1,
      doubleSided: field(o.tri_double_sided!, i, 1) === 1,
    });
  }
  return { error: false, rangeStop: o.range_stop === 1n, triangles };
}

export function comparePrimitiveAnswers(got: PrimitiveDecodeAnswer, want: PrimitiveDecodeAnswer): string | null {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  return g === w ? null : `got ${g}, expected ${w}`;
}

/**
 * One binary32 coordinate from a family that shares top bits: a common sign and exponent range and
 * `fractionBits` random fraction bits, so the prefixes and trailing zeros vary from node to node.
 */
function coordinateFamily(rng: Rng, compact: boolean): () => number {
  const sign = rng.int(2) << 31;
  const exp = rng() < 0.1 ? rng.int(3) : rng() < 0.1 ? 250 + rng.int(5) : 100 + rng.int(50);
  const expSpread = compact ? 0 : rng.int(3);
  const fractionBits = compact ? 2 + rng.int(3) : rng.int(24);
  const shift = rng.int(24 - fractionBits);
  return () => (sign | (Math.min(254, exp + rng.int(expSpread + 1)) << 23) | (Number(rng.bits(fractionBits + 1) >> 1n) << shift)) >>> 0;
}

function randomIndices(rng: Rng, count: number, maxBits: number, compact: boolean): number[] {
  const base = rng() < 0.2 ? 0 : rng.int(2 ** (1 + rng.int(maxBits)));
  if (compact) return Array.from({ length: count }, (_, i) => Math.min(2 ** maxBits - 1, base + i));
  const spread = rng() < 0.5 ? 0 : 2 ** rng.int(maxBits);
  return Array.from({ length: count }, (_, i) => (i === 0 ? base : rng() < 0.2 ? rng.int(2 ** maxBits) : Math.min(2 ** maxBits - 1, base + rng.int(spread + 1))));
}

/**
 * 1 to 16 triangles over up to 15 shared vertices, shrunk until the group fits a node. A third are
 * compact (few fraction bits, consecutive indices, 15 vertices and 16 triangles mostly) so full nodes occur.
 */
export function randomTriangleGroup(rng: Rng): { triangles: Gfx12Triangle[]; rangeStop: boolean } {
  for (;;) {
    const compact = rng() < 0.3;
    const xs = [coordinateFamily(rng, compact), coordinateFamily(rng, compact), coordinateFamily(rng, compact)];
    const poolSize = compact && rng() < 0.7 ? GFX12_MAX_VERTICES : 3 + rng.int(GFX12_MAX_VERTICES - 2);
    const pool: Vec3[] = Array.from({ length: poolSize }, () => [xs[0]!(), xs[1]!(), xs[2]!()] as unknown as Vec3);
    let count = rng() < 0.1 ? 1 : compact || rng() < 0.2 ? 16 : 1 + rng.int(16);
    const geometry = randomIndices(rng, 16, 30, compact);
    const primitive = randomIndices(rng, 16, 31, compact);
    const pick = (): Vec3 => pool[rng.int(pool.length)]!;
    const tris: Gfx12Triangle[] = Array.from({ length: 16 }, (_, i) => {
      const a = pick();
      let b = pick();
      while (b === a && pool.length > 1) b = pick();
      return { vertices: [a, b, pick()], primitiveIndex: primitive[i]!, geometryIndex: geometry[i]!, opaque: rng() < 0.7, doubleSided: rng() < 0.7 };
    });
    const rangeStop = rng() < 0.8;
    for (; count >= 1; count = count > 4 ? count - 1 - rng.int(3) : count - 1) {
      try {
        encodeGfx12PrimitiveNode({ triangles: tris.slice(0, count), rangeStop });
        return { triangles: tris.slice(0, count), rangeStop };
      } catch (e) {
        if (!(e instanceof Gfx12Error)) throw e;
      }
    }
  }
}

/** A node from the host encoder. */
export function randomEncodedPrimitiveNode(rng: Rng): Uint32Array {
  return encodeGfx12PrimitiveNode(randomTriangleGroup(rng));
}

/** Encoded nodes with one thing broken or stretched: vertex_type 1, prefix overflow, a procedural slot, random bits (whatever the host makes of them). */
function oddPrimitiveNode(rng: Rng): Uint32Array {
  const w = randomEncodedPrimitiveNode(rng);
  const kind = rng.int(5);
  if (kind === 0) w[0] = (w[0]! | 0x80000000) >>> 0; // vertex_type 1
  else if (kind === 1) w[0] = ((w[0]! & ~(0x1f << 15)) | ((16 + rng.int(16)) << 15) | (0x1f << (5 * rng.int(3)))) >>> 0; // tz + vertex bits > 32
  else if (kind === 2) {
    const k = 31 - rng.int(2);
    w[k] = (w[k]! | (0xff << (3 + rng.int(8)))) >>> 0; // vertex indices 0xF in a descriptor
  }
  else if (kind === 3) {
    // Random bits with a legal header: out-of-range positions read zeros, any vertex index is read.
    for (let k = 0; k < 32; k++) w[k] = rng.u32();
    w[0] = (w[0]! & 0x7fffffff) >>> 0;
  } else for (let k = 2; k < 30; k++) w[k] = rng() < 0.1 ? rng.u32() : w[k]!; // random damage in the data
  return w;
}

/** The cosim's node mix: mostly encoded groups, a quarter odd nodes. */
export function randomPrimitiveNode(rng: Rng): Uint32Array {
  return rng() < 0.75 ? randomEncodedPrimitiveNode(rng) : oddPrimitiveNode(rng);
}
