// GFX12 (RDNA4) BVH8 box nodes and compressed triangle-pair nodes of seed 000: the node formats of the BVH8 image (bvh8.ts) and its golden traversal.
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import { toNumber } from '../golden/float32.ts';

/** Both node kinds are 128 bytes: 32 little-endian words, bit i of the node is bit i % 32 of word ⌊i / 32⌋. */
export const GFX12_NODE_WORDS = 32;
const NODE_BITS = 32 * GFX12_NODE_WORDS;

/** A node that cannot be encoded or a word image that is not a valid node. */
export class Gfx12Error extends Error {
  override name = 'Gfx12Error';
}

// ---- bit fields, least significant bit first, in table order ----

function writeBits(words: Uint32Array, at: number, width: number, value: number): void {
  for (let i = 0; i < width; i++) if (Math.floor(value / 2 ** i) % 2) words[(at + i) >>> 5]! |= 1 << ((at + i) & 31);
}

function readBits(words: Uint32Array, at: number, width: number): number {
  let v = 0;
  for (let i = 0; i < width; i++) v += ((words[(at + i) >>> 5]! >>> ((at + i) & 31)) & 1) * 2 ** i;
  return v;
}

/** Writes or reads consecutive fields. */
export class BitCursor {
  constructor(
    readonly words: Uint32Array,
    public at = 0,
  ) {}
  put(width: number, value: number): this {
    writeBits(this.words, this.at, width, value);
    this.at += width;
    return this;
  }
  get(width: number): number {
    const v = readBits(this.words, this.at, width);
    this.at += width;
    return v;
  }
}

// ---- box node: header 256 bits, then 8 children of 96 bits ----

export const GFX12_MAX_CHILDREN = 8;
const HEADER_BITS = 256;
const CHILD_BITS = 96;
const QUANT_BITS = 12;
const QUANT_MAX = (1 << QUANT_BITS) - 1;
export const OBB_DISABLED = 0x7f;

export interface Gfx12BoxChild {
  /** The child's exact box (binary32 bits); the node stores it quantized and conservatively enlarged. */
  readonly box: Box;
  readonly nodeType: number;
  /** Increment of the child offset, in units of 128 bytes. */
  readonly nodeSize: number;
  /** Default 0. */
  readonly cullFlags?: number;
  /** Default 0xFF. */
  readonly cullMask?: number;
}

export interface Gfx12BoxNodeInput {
  /** Units of 8 bytes. */
  readonly internalChildOffset: number;
  readonly primitiveChildOffset: number;
  /** The unused word (amdvlk keeps the parent id there); default 0. */
  readonly unused?: number;
  /** Default OBB_DISABLED. */
  readonly obbMatrixIndex?: number;
  /** 1 to 8 children. */
  readonly children: readonly Gfx12BoxChild[];
}

export interface Gfx12QuantizedChild {
  /** 12-bit fixed-point minimum per axis: decoded min = origin + q · unit. */
  readonly qmin: Vec3;
  /** 12-bit fixed-point maximum per axis: decoded max = origin + (q + 1) · unit. */
  readonly qmax: Vec3;
  readonly cullFlags: number;
  readonly cullMask: number;
  readonly nodeType: number;
  readonly nodeSize: number;
}

export interface Gfx12BoxNode {
  readonly internalChildOffset: number;
  readonly primitiveChildOffset: number;
  readonly unused: number;
  /** binary32 bits. */
  readonly origin: Vec3;
  /** Per axis: one unit of the 12-bit coordinates is 2^(exponent − 127). */
  readonly exponents: Vec3;
  readonly obbMatrixIndex: number;
  readonly children: readonly Gfx12QuantizedChild[];
}

/** The part of a node that places its quantized children (box and instance nodes alike). */
export type Gfx12QuantizedBoxes = Pick<Gfx12BoxNode, 'origin' | 'exponents' | 'children'>;

/** A finite binary32 value as an exact integer count of 2^−149 (the smallest subnormal). */
function units(bits: number): bigint {
  const exp = (bits >>> 23) & 0xff;
  if (exp === 0xff) throw new Gfx12Error(`box coordinate 0x${(bits >>> 0).toString(16)} is not finite`);
  const mag = exp === 0 ? BigInt(bits & 0x7fffff) : BigInt((bits & 0x7fffff) | 0x800000) << BigInt(exp - 1);
  return bits >>> 31 ? -mag : mag;
}

/** One unit of exponent e, in 2^−149 units: 2^(e − 127 + 149). */
const unitOf = (e: number): bigint => 1n << BigInt(e + 22);
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
export const fieldCheck = (name: string, value: number, bits: number): number => {
  if (!Number.isInteger(value) || value < 0 || value >= 2 ** bits) throw new Gfx12Error(`${name} must be a ${bits}-bit unsigned integer, got ${value}`);
  return value;
};

/** The smallest exponent whose 4096 units cover `span` (2^−149 units) from the origin. */
function exponentFor(span: bigint): number {
  let e = 0;
  while (unitOf(e) << BigInt(QUANT_BITS) < span) e++;
  return e;
}

/** Quantize children against the origin (per axis the smallest child minimum) and pack the node. */
export function encodeGfx12BoxNode(input: Gfx12BoxNodeInput): Uint32Array {
  const kids = input.children;
  if (kids.length < 1 || kids.length > GFX12_MAX_CHILDREN) throw new Gfx12Error(`a box node has 1 to ${GFX12_MAX_CHILDREN} children, got ${kids.length}`);
  const w = new BitCursor(new Uint32Array(GFX12_NODE_WORDS));
  w.put(32, fieldCheck('internalChildOffset', input.internalChildOffset, 32)).put(32, fieldCheck('primitiveChildOffset', input.primitiveChildOffset, 32));
  w.put(32, fieldCheck('unused', input.unused ?? 0, 32));
  putQuantizedChildren(w, kids, () => w.put(32, fieldCheck('obbMatrixIndex', input.obbMatrixIndex ?? OBB_DISABLED, 32)));
  return w.words;
}

/**
 * Origin x/y/z, exponents x/y/z, 4 unused bits, child_count_minus_one, then (after `afterCount` writes what the
 * node has there) the quantized children: the part box and instance nodes share.
 */
export function putQuantizedChildren(w: BitCursor, kids: readonly Gfx12BoxChild[], afterCount: () => void = () => {}): void {
  const origin = [0, 1, 2].map((a) => kids.map((k) => k.box.min[a]!).reduce((m, b) => (units(b) < units(m) ? b : m))) as unknown as Vec3;
  const o = origin.map(units);
  const exponents = [0, 1, 2].map((a) => exponentFor(kids.reduce((s, k) => (units(k.box.max[a]!) - o[a]! > s ? units(k.box.max[a]!) - o[a]! : s), 0n)));
  for (const b of origin) w.put(32, b >>> 0);
  for (const e of exponents) w.put(8, e);
  w.put(4, 0).put(4, kids.length - 1);
  afterCount();
  kids.forEach((k, i) => {
    const q = (a: number) => quantize(k.box, a, o[a]!, unitOf(exponents[a]!), i);
    const [x, y, z] = [q(0), q(1), q(2)];
    w.put(QUANT_BITS, x.min).put(QUANT_BITS, y.min).put(4, fieldCheck('cullFlags', k.cullFlags ?? 0, 4)).put(4, 0);
    w.put(QUANT_BITS, z.min).put(QUANT_BITS, x.max).put(8, fieldCheck('cullMask', k.cullMask ?? 0xff, 8));
    w.put(QUANT_BITS, y.max).put(QUANT_BITS, z.max).put(4, fieldCheck('nodeType', k.nodeType, 4)).put(4, fieldCheck('nodeSize', k.nodeSize, 4));
  });
}

/** min → floor((x − origin)/unit), max → ceil((x − origin)/unit) − 1, exactly; clamped outward into 12 bits. */
function quantize(box: Box, axis: number, origin: bigint, unit: bigint, child: number): { min: number; max: number } {
  const lo = units(box.min[axis]!) - origin;
  const hi = units(box.max[axis]!) - origin;
  if (hi < lo) throw new Gfx12Error(`child ${child}: box min > max on axis ${axis}`);
  return { min: Math.min(QUANT_MAX, Number(lo / unit)), max: Math.max(0, Number(ceilDiv(hi, unit)) - 1) };
}

export function decodeGfx12BoxNode(words: Uint32Array): Gfx12BoxNode {
  if (words.length !== GFX12_NODE_WORDS) throw new Gfx12Error(`a box node is ${GFX12_NODE_WORDS} words, got ${words.length}`);
  const r = new BitCursor(words);
  const [internalChildOffset, primitiveChildOffset, unused] = [r.get(32), r.get(32), r.get(32)];
  const origin = [r.get(32), r.get(32), r.get(32)] as unknown as Vec3;
  const exponents = [r.get(8), r.get(8), r.get(8)] as unknown as Vec3;
  r.get(4);
  const count = r.get(4) + 1;
  const obbMatrixIndex = r.get(32);
  if (count > GFX12_MAX_CHILDREN) throw new Gfx12Error(`child_count_minus_one is ${count - 1}; a node has at most ${GFX12_MAX_CHILDREN} children`);
  const children = Array.from({ length: count }, () => getQuantizedChild(r));
  return { internalChildOffset, primitiveChildOffset, unused, origin, exponents, obbMatrixIndex, children };
}

/** One 96-bit quantized child (the layout box and instance nodes share). */
export function getQuantizedChild(r: BitCursor): Gfx12QuantizedChild {
  const [minX, minY, cullFlags] = [r.get(QUANT_BITS), r.get(QUANT_BITS), r.get(4)];
  r.get(4);
  const [minZ, maxX, cullMask, maxY, maxZ, nodeType, nodeSize] = [r.get(QUANT_BITS), r.get(QUANT_BITS), r.get(8), r.get(QUANT_BITS), r.get(QUANT_BITS), r.get(4), r.get(4)];
  return { qmin: [minX, minY, minZ], qmax: [maxX, maxY, maxZ], cullFlags, cullMask, nodeType, nodeSize };
}

/** Child i's decoded box in double precision: origin + q · 2^(e − 127) (min) and origin + (q + 1) · 2^(e − 127) (max). */
export function gfx12ChildBounds(node: Gfx12BoxNode, i: number): { min: number[]; max: number[] } {
  const c = node.children[i]!;
  const at = (a: number, q: number) => toNumber(node.origin[a]!) + q * 2 ** (node.exponents[a]! - 127);
  return { min: [0, 1, 2].map((a) => at(a, c.qmin[a]!)), max: [0, 1, 2].map((a) => at(a, c.qmax[a]! + 1)) };
}

/**
 * An exact count of 2^−149 units as binary32 bits, rounded toward −∞ ('down') or +∞ ('up'): beyond the
 * largest finite value 'up' gives ±∞ and 'down' the largest finite value of its sign (IEEE directed rounding).
 */
export function unitsToBinary32(u: bigint, dir: 'down' | 'up'): number {
  if (u === 0n) return 0;
  const negative = u < 0n;
  const mag = negative ? -u : u;
  // The magnitude rounds up when the direction points away from zero on its side.
  const magUp = (dir === 'up') !== negative;
  const shift = Math.max(0, mag.toString(2).length - 24);
  let q = mag >> BigInt(shift);
  if (magUp && q << BigInt(shift) !== mag) q += 1n;
  // shift · 2^23 + q is the bit pattern: q in [2^23, 2^24) puts exponent field shift + 1 over mantissa q − 2^23 (a carry to 2^24 moves it on by one).
  let bits = shift * 2 ** 23 + Number(q);
  if (bits >= 0x7f800000) bits = magUp ? 0x7f800000 : 0x7f7fffff;
  return (negative ? bits + 0x80000000 : bits) >>> 0;
}

/**
 * Child i's decoded box as binary32 bits, the box the traversal tests: per axis origin + qmin · 2^(e − 127)
 * rounded toward −∞ and origin + (qmax + 1) · 2^(e − 127) rounded toward +∞ (each the exact value, rounded
 * once). Rounding outward keeps it containing the exactly decoded box, which contains the child's exact box.
 */
export function gfx12ChildBox(node: Gfx12QuantizedBoxes, i: number): Box {
  const c = node.children[i]!;
  const at = (a: number, q: number, dir: 'down' | 'up') => unitsToBinary32(units(node.origin[a]!) + BigInt(q) * unitOf(node.exponents[a]!), dir);
  return { min: [0, 1, 2].map((a) => at(a, c.qmin[a]!, 'down')) as unknown as Vec3, max: [0, 1, 2].map((a) => at(a, c.qmax[a]! + 1, 'up')) as unknown as Vec3 };
}

/** Does child i's decoded box contain `box`? Decided exactly (integer arithmetic), not in floating point. */
export function gfx12ChildContains(node: Gfx12QuantizedBoxes, i: number, box: Box): boolean {
  const c = node.children[i]!;
  return [0, 1, 2].every((a) => {
    const o = units(node.origin[a]!);
    const unit = unitOf(node.exponents[a]!);
    return o + BigInt(c.qmin[a]!) * unit <= units(box.min[a]!) && units(box.max[a]!) <= o + BigInt(c.qmax[a]! + 1) * unit;
  });
}

// ---- compressed triangle-pair node ----

export const GFX12_MAX_PAIRS = 8;
/** 4-bit vertex indices; 0xF in v0 and v1 marks a procedural primitive, so triangles use 0 .. 14. */
export const GFX12_MAX_VERTICES = 15;
const PRIM_HEADER_BITS = 52;
const PAIR_DESC_BITS = 29;

export interface Gfx12Triangle {
  /** binary32 bits. */
  readonly vertices: readonly [Vec3, Vec3, Vec3];
  readonly primitiveIndex: number;
  /** Default 0. */
  readonly geometryIndex?: number;
  /** Default true. */
  readonly opaque?: boolean;
  /** Default true (our triangles are double-sided). */
  readonly doubleSided?: boolean;
}

export interface Gfx12PrimitiveNodeInput {
  /** 1 to 16; triangles 2p and 2p + 1 form pair p (an odd last triangle pairs with an inactive slot). */
  readonly triangles: readonly Gfx12Triangle[];
  /** prim_range_stop of the last pair (default true: the leaf ends in this node). */
  readonly rangeStop?: boolean;
}

/** How the bits of a primitive node are spent (the encoder's plan; the decoder reads the same from the header). */
export interface Gfx12PrimitiveLayout {
  readonly vertexBits: Vec3;
  readonly trailingZeroBits: number;
  readonly prefixBits: Vec3;
  readonly vertexCount: number;
  readonly geometryBaseBits: number;
  readonly geometryBits: number;
  readonly primitiveBaseBits: number;
  readonly primitiveBits: number;
  readonly indicesMidpoint: number;
  /** Bits used, pair descriptors included; at most 1024. */
  readonly usedBits: number;
}

const bitLength = (x: number): number => (x === 0 ? 0 : Math.floor(Math.log2(x)) + 1);
const clz = (x: number): number => Math.clz32(x);
const ctz = (x: number): number => (x === 0 ? 32 : 31 - Math.clz32(x & -x));

/** The index of triangle i ≥ 1 from its stored low bits and the base (seed 000). */
const deltaIndex = (stored: number, base: number, bits: number, baseBits: number): number =>
  bits >= baseBits ? stored : stored + (base - (base % 2 ** bits));

/** The fewest delta bits (stepping by `step`, at most `max`) that give back every index after the first. */
function deltaBitsFor(indices: readonly number[], baseBits: number, step: number, max: number, name: string): number {
  const base = indices[0]!;
  for (let bits = 0; bits <= max; bits += step) {
    if (indices.slice(1).every((x) => deltaIndex(x % 2 ** bits, base, bits, baseBits) === x)) return bits;
  }
  throw new Gfx12Error(`${name} indices ${indices.join(', ')} do not fit ${max} bits`);
}

/** The unique vertices in order of first use and each triangle's three indices into them. */
function shareVertices(tris: readonly Gfx12Triangle[]): { vertices: Vec3[]; refs: number[][] } {
  const vertices: Vec3[] = [];
  const key = new Map<string, number>();
  const refs = tris.map((t) =>
    t.vertices.map((v) => {
      const k = v.join(',');
      if (!key.has(k)) key.set(k, vertices.push(v.map((b) => b >>> 0) as unknown as Vec3) - 1);
      return key.get(k)!;
    }),
  );
  return { vertices, refs };
}

/** Plan the node's bits; throws Gfx12Error when the group does not fit. */
export function planGfx12PrimitiveNode(input: Gfx12PrimitiveNodeInput): Gfx12PrimitiveLayout {
  const tris = input.triangles;
  if (tris.length < 1 || tris.length > 2 * GFX12_MAX_PAIRS) throw new Gfx12Error(`a primitive node holds 1 to ${2 * GFX12_MAX_PAIRS} triangles, got ${tris.length}`);
  const { vertices, refs } = shareVertices(tris);
  if (vertices.length > GFX12_MAX_VERTICES) throw new Gfx12Error(`the triangles use ${vertices.length} distinct vertices; a primitive node holds ${GFX12_MAX_VERTICES}`);
  const zeroRef = refs.findIndex((r) => r.every((v) => v === 0));
  if (zeroRef >= 0) throw new Gfx12Error(`triangle ${zeroRef} has all three vertex indices 0, which marks an inactive slot (a degenerate triangle)`);
  const all = vertices.flat();
  const trailingZeroBits = Math.min(31, ...all.map(ctz));
  const prefixBits = [0, 1, 2].map((a) => Math.min(31 - trailingZeroBits, clz(vertices.reduce((d, v) => d | (v[a]! ^ vertices[0]![a]!), 0)))) as unknown as Vec3;
  const vertexBits = prefixBits.map((p) => 32 - trailingZeroBits - p) as unknown as Vec3;
  const geometry = tris.map((t, i) => fieldCheck(`triangle ${i} geometryIndex`, t.geometryIndex ?? 0, 30));
  const primitive = tris.map((t, i) => fieldCheck(`triangle ${i} primitiveIndex`, t.primitiveIndex, 31));
  const geometryBaseBits = 2 * Math.ceil(bitLength(geometry[0]!) / 2);
  const geometryBits = deltaBitsFor(geometry, geometryBaseBits, 2, 30, 'geometry');
  const primitiveBaseBits = bitLength(primitive[0]!);
  const primitiveBits = deltaBitsFor(primitive, primitiveBaseBits, 1, 31, 'primitive');
  const sum = (v: Vec3) => v[0] + v[1] + v[2];
  const vertexEnd = PRIM_HEADER_BITS + sum(prefixBits) + vertices.length * sum(vertexBits);
  const indicesMidpoint = vertexEnd + geometryBaseBits + geometryBits * (tris.length - 1);
  const pairs = Math.ceil(tris.length / 2);
  const usedBits = indicesMidpoint + primitiveBaseBits + primitiveBits * (tris.length - 1) + PAIR_DESC_BITS * pairs;
  if (usedBits > NODE_BITS) throw new Gfx12Error(`these ${tris.length} triangles need ${usedBits} bits; a 128-byte primitive node holds ${NODE_BITS}`);
  return { vertexBits, trailingZeroBits, prefixBits, vertexCount: vertices.length, geometryBaseBits, geometryBits, primitiveBaseBits, primitiveBits, indicesMidpoint, usedBits };
}

export function encodeGfx12PrimitiveNode(input: Gfx12PrimitiveNodeInput): Uint32Array {
  const plan = planGfx12PrimitiveNode(input);
  const tris = input.triangles;
  const { vertices, refs } = shareVertices(tris);
  const w = new BitCursor(new Uint32Array(GFX12_NODE_WORDS));
  const tz = plan.trailingZeroBits;
  for (const b of plan.vertexBits) w.put(5, b - 1);
  w.put(5, tz).put(4, plan.geometryBaseBits / 2).put(4, plan.geometryBits / 2).put(3, Math.ceil(tris.length / 2) - 1).put(1, 0);
  w.put(5, plan.primitiveBaseBits).put(5, plan.primitiveBits).put(10, plan.indicesMidpoint);
  // Prefix: the common top bits of each axis; payload: the bits between the prefix and the trailing zeros.
  plan.prefixBits.forEach((p, a) => w.put(p, p === 0 ? 0 : vertices[0]![a]! >>> (32 - p)));
  for (const v of vertices) plan.vertexBits.forEach((bits, a) => w.put(bits, (v[a]! >>> tz) % 2 ** bits));
  const mid = plan.indicesMidpoint;
  tris.forEach((t, i) => {
    const g = t.geometryIndex ?? 0;
    const p = t.primitiveIndex;
    if (i === 0) {
      writeBits(w.words, mid - plan.geometryBaseBits, plan.geometryBaseBits, g);
      writeBits(w.words, mid, plan.primitiveBaseBits, p);
    } else {
      writeBits(w.words, mid - plan.geometryBaseBits - plan.geometryBits * i, plan.geometryBits, g % 2 ** plan.geometryBits);
      writeBits(w.words, mid + plan.primitiveBaseBits + plan.primitiveBits * (i - 1), plan.primitiveBits, p % 2 ** plan.primitiveBits);
    }
  });
  const pairs = Math.ceil(tris.length / 2);
  for (let pair = 0; pair < pairs; pair++) {
    const d = new BitCursor(w.words, NODE_BITS - (pair + 1) * PAIR_DESC_BITS);
    d.put(1, pair === pairs - 1 && (input.rangeStop ?? true) ? 1 : 0);
    for (const i of [2 * pair + 1, 2 * pair]) {
      const t = tris[i];
      d.put(1, t !== undefined && (t.doubleSided ?? true) ? 1 : 0).put(1, t !== undefined && (t.opaque ?? true) ? 1 : 0);
      for (const v of refs[i] ?? [0, 0, 0]) d.put(4, v);
    }
  }
  return w.words;
}

export interface Gfx12PrimitiveNode {
  readonly triangles: Gfx12Triangle[];
  readonly rangeStop: boolean;
  readonly layout: Gfx12PrimitiveLayout;
}

export function decodeGfx12PrimitiveNode(words: Uint32Array): Gfx12PrimitiveNode {
  if (words.length !== GFX12_NODE_WORDS) throw new Gfx12Error(`a primitive node is ${GFX12_NODE_WORDS} words, got ${words.length}`);
  const r = new BitCursor(words);
  const vertexBits = [r.get(5) + 1, r.get(5) + 1, r.get(5) + 1] as unknown as Vec3;
  const tz = r.get(5);
  const [geometryBaseBits, geometryBits, pairs] = [2 * r.get(4), 2 * r.get(4), r.get(3) + 1];
  if (r.get(1) !== 0) throw new Gfx12Error('vertex_type 1 is not supported (binary32 vertices only)');
  const [primitiveBaseBits, primitiveBits, mid] = [r.get(5), r.get(5), r.get(10)];
  const prefixBits = vertexBits.map((b) => 32 - tz - b) as unknown as Vec3;
  if (prefixBits.some((p) => p < 0)) throw new Gfx12Error(`vertex bits ${vertexBits.join('/')} and ${tz} trailing zero bits exceed 32`);
  const prefix = prefixBits.map((p) => (p === 0 ? 0 : r.get(p) * 2 ** (32 - p)));
  const dataStart = r.at;
  const vertexSize = vertexBits[0] + vertexBits[1] + vertexBits[2];
  const vertex = (k: number): Vec3 => {
    const c = new BitCursor(words, dataStart + k * vertexSize);
    return vertexBits.map((b, a) => (prefix[a]! + c.get(b) * 2 ** tz) >>> 0) as unknown as Vec3;
  };
  const gBase = readBits(words, mid - geometryBaseBits, geometryBaseBits);
  const pBase = readBits(words, mid, primitiveBaseBits);
  const triangles: Gfx12Triangle[] = [];
  const refsUsed: number[] = [];
  let rangeStop = false;
  for (let pair = 0; pair < pairs; pair++) {
    const d = new BitCursor(words, NODE_BITS - (pair + 1) * PAIR_DESC_BITS);
    rangeStop = d.get(1) === 1;
    const slots = [1, 0].map((s) => ({ i: 2 * pair + s, doubleSided: d.get(1) === 1, opaque: d.get(1) === 1, refs: [d.get(4), d.get(4), d.get(4)] }));
    for (const s of slots.reverse()) {
      if (s.refs.every((v) => v === 0)) continue;
      refsUsed.push(...s.refs);
      if (s.refs[0] === 0xf && s.refs[1] === 0xf) throw new Gfx12Error(`triangle ${s.i} is a procedural primitive (not supported)`);
      const i = s.i;
      const geometryIndex = i === 0 ? gBase : deltaIndex(readBits(words, mid - geometryBaseBits - geometryBits * i, geometryBits), gBase, geometryBits, geometryBaseBits);
      const primitiveIndex = i === 0 ? pBase : deltaIndex(readBits(words, mid + primitiveBaseBits + primitiveBits * (i - 1), primitiveBits), pBase, primitiveBits, primitiveBaseBits);
      triangles.push({ vertices: s.refs.map(vertex) as unknown as Gfx12Triangle['vertices'], primitiveIndex, geometryIndex, opaque: s.opaque, doubleSided: s.doubleSided });
    }
  }
  const n = triangles.length;
  const vertexCount = 1 + Math.max(...refsUsed);
  const usedBits = mid + primitiveBaseBits + primitiveBits * (n - 1) + PAIR_DESC_BITS * pairs;
  const layout = { vertexBits, trailingZeroBits: tz, prefixBits, vertexCount, geometryBaseBits, geometryBits, primitiveBaseBits, primitiveBits, indicesMidpoint: mid, usedBits };
  return { triangles, rangeStop, layout };
}
