// Box-node vectors for the GFX12 box decoder: seeded random nodes (host-encoded, raw edge cases), the decoder's outputs read back, and the expected answer from the host decoder.
import { decodeGfx12BoxNode, encodeGfx12BoxNode, gfx12ChildBox, Gfx12Error, type Gfx12BoxChild, type Gfx12BoxNodeInput } from '../../../bvh/index.ts';
import type { Box } from '../../../golden/rayBox.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { fromNumber } from '../../../golden/float32.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { GFX12_BOX_CHILDREN } from '../gfx12BoxDecoder.ts';

/** What the decoder reports for one node (children past the count are left out). */
export interface BoxDecodeAnswer {
  readonly error: boolean;
  readonly internalChildOffset?: number;
  readonly primitiveChildOffset?: number;
  readonly parentWord?: number;
  readonly obbMatrixIndex?: number;
  readonly children?: readonly { nodeType: number; nodeSize: number; cullFlags: number; cullMask: number; min: number[]; max: number[] }[];
}

export const wordsToBigInt = (words: Uint32Array): bigint => words.reduceRight((acc, w) => (acc << 32n) | BigInt(w >>> 0), 0n);
export const bigIntToWords = (v: bigint): Uint32Array => Uint32Array.from({ length: 32 }, (_, k) => Number((v >> BigInt(32 * k)) & 0xffffffffn));
const field = (v: bigint, at: number, width: number): number => Number((v >> BigInt(at)) & ((1n << BigInt(width)) - 1n));

/** The answer the host gives (decodeGfx12BoxNode, gfx12ChildBox): an error where it refuses the node. */
export function expectedBoxAnswer(words: Uint32Array): BoxDecodeAnswer {
  try {
    const node = decodeGfx12BoxNode(words);
    return {
      error: false,
      internalChildOffset: node.internalChildOffset,
      primitiveChildOffset: node.primitiveChildOffset,
      parentWord: node.unused,
      obbMatrixIndex: node.obbMatrixIndex,
      children: node.children.map((c, i) => {
        const box = gfx12ChildBox(node, i);
        return { nodeType: c.nodeType, nodeSize: c.nodeSize, cullFlags: c.cullFlags, cullMask: c.cullMask, min: [...box.min], max: [...box.max] };
      }),
    };
  } catch (e) {
    if (e instanceof Gfx12Error) return { error: true };
    throw e;
  }
}

/** The decoder's output ports as an answer. */
export function boxAnswerFromOutputs(o: Record<string, bigint>): BoxDecodeAnswer {
  if (o.error === 1n) return { error: true };
  const valid = Number(o.child_valid);
  const count = [...Array(GFX12_BOX_CHILDREN).keys()].filter((c) => (valid >> c) & 1).length;
  return {
    error: false,
    internalChildOffset: Number(o.internal_child_offset),
    primitiveChildOffset: Number(o.primitive_child_offset),
    parentWord: Number(o.parent_word),
    obbMatrixIndex: Number(o.obb_matrix_index),
    children: Array.from({ length: count }, (_, c) => {
      const box = (k: number) => field(o.boxes!, 192 * c + 32 * k, 32);
      return {
        nodeType: field(o.node_type!, 4 * c, 4),
        nodeSize: field(o.node_size!, 4 * c, 4),
        cullFlags: field(o.cull_flags!, 4 * c, 4),
        cullMask: field(o.cull_mask!, 8 * c, 8),
        min: [box(0), box(1), box(2)],
        max: [box(3), box(4), box(5)],
      };
    }),
  };
}

/** A binary32 value near `scale` (either sign), sometimes zero or exactly a power of two. */
function coordinate(rng: Rng, scale: number): number {
  const r = rng();
  if (r < 0.05) return 0;
  if (r < 0.1) return Math.fround(scale * 2 ** -rng.int(8));
  return Math.fround((rng() * 2 - 1) * scale);
}

function randomBox(rng: Rng, scale: number): Box {
  const a = [0, 1, 2].map(() => coordinate(rng, scale));
  const b = [0, 1, 2].map(() => coordinate(rng, scale));
  const off = rng() < 0.3 ? coordinate(rng, scale * 2 ** (rng.int(60) - 20)) : 0;
  return {
    min: a.map((x, i) => fromNumber(Math.fround(Math.min(x, b[i]!) + off))) as unknown as Vec3,
    max: a.map((x, i) => fromNumber(Math.fround(Math.max(x, b[i]!) + off))) as unknown as Vec3,
  };
}

const SCALES = [1, 1e-3, 1e3, 1e-30, 1e30, 1e-40, 1e-44, 3e38, 1e20];

/** A node's encoder input: 1 to 8 children (often all 8) at one of many scales, random fields. */
export function randomBoxNodeInput(rng: Rng): Gfx12BoxNodeInput {
  const scale = SCALES[rng.int(SCALES.length)]!;
  const count = rng() < 0.3 ? GFX12_BOX_CHILDREN : 1 + rng.int(GFX12_BOX_CHILDREN);
  const kids: Gfx12BoxChild[] = Array.from({ length: count }, () => {
    let box = randomBox(rng, scale);
    // Boxes whose corners overflowed to infinity are not encodable; fall back to a unit box.
    if ([...box.min, ...box.max].some((b) => ((b >>> 23) & 0xff) === 0xff)) box = randomBox(rng, 1);
    return { box, nodeType: rng.int(16), nodeSize: rng.int(16), cullFlags: rng.int(16), cullMask: rng.int(256) };
  });
  return { internalChildOffset: rng.u32(), primitiveChildOffset: rng.u32(), unused: rng.u32(), obbMatrixIndex: rng() < 0.5 ? 0x7f : rng.int(104), children: kids };
}

/** A node from the host encoder (randomBoxNodeInput). */
export const randomEncodedBoxNode = (rng: Rng): Uint32Array => encodeGfx12BoxNode(randomBoxNodeInput(rng));

/** Origins and exponents the encoder never writes: extremes, subnormals, ±0, infinities, NaN; random 12-bit fields. */
function rawBoxNode(rng: Rng): Uint32Array {
  const w = Uint32Array.from({ length: 32 }, () => rng.u32());
  const specials = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0xbf800000];
  for (let a = 0; a < 3; a++) if (rng() < 0.5) w[3 + a] = specials[rng.int(specials.length)]!;
  const exps = [0, 1, 22, 104, 105, 127, 254, 255];
  let e = w[6]!;
  for (let a = 0; a < 3; a++) if (rng() < 0.5) e = ((e & ~(0xff << (8 * a))) | (exps[rng.int(exps.length)]! << (8 * a))) >>> 0;
  // Mostly a legal child count; sometimes 9 to 16 (the decoder's error).
  const count = rng() < 0.9 ? rng.int(8) : 8 + rng.int(8);
  w[6] = ((e & 0x0fffffff) | (count << 28)) >>> 0;
  return w;
}

/** The cosim's node mix: mostly host-encoded nodes, a quarter raw edge cases. */
export function randomBoxNode(rng: Rng): Uint32Array {
  return rng() < 0.75 ? randomEncodedBoxNode(rng) : rawBoxNode(rng);
}

/** The first difference between two answers, or null. */
export function compareBoxAnswers(got: BoxDecodeAnswer, want: BoxDecodeAnswer): string | null {
  const g = JSON.stringify(got);
  const w = JSON.stringify(want);
  return g === w ? null : `got ${g}, expected ${w}`;
}
