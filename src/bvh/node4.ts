// The BVH memory image: 128-byte BVHNode4 records and 16-byte TriRanges (seed 001 section 6.1 as docs/bvh.md resolves it).
import { isNaN32, toNumber } from '../golden/float32.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import { BVH_WIDTH, EMPTY_CHILD, STACK_DEPTH, worstCaseStack, type Bvh4, type Bvh4Child, type ChildKind, type TriRange } from './bvh4.ts';

/** 32-bit words per BVHNode4 (128 bytes: two 64-byte tiles). */
export const NODE_WORDS = 32;
/** 32-bit words per TriRange (16 bytes). */
export const TRI_RANGE_WORDS = 4;

/** Word offsets inside a node. */
export const NODE_LAYOUT = {
  /** Child c's box at words 6c .. 6c + 5: min x, y, z, max x, y, z. */
  boxes: 0,
  /** child_idx[0..3]. */
  childIndex: 24,
  /** 2 bits per child at [2c+1:2c]. */
  flags: 28,
  /** Words 29 .. 31 are zero. */
  padding: 29,
} as const;

/** child_flags values. */
export const CHILD_FLAG: Readonly<Record<ChildKind, number>> = { empty: 0b00, node: 0b01, leaf: 0b10 };
const KIND_OF_FLAG: readonly (ChildKind | undefined)[] = ['empty', 'node', 'leaf', undefined];

/** Where in the image a problem is: the node or TriRange it names, when it names one. */
export interface Bvh4Place {
  readonly node?: number;
  readonly triRange?: number;
}

/** A memory image that is not a valid BVH. */
export class Bvh4FormatError extends Error {
  override name = 'Bvh4FormatError';
  constructor(
    message: string,
    readonly place: Bvh4Place = {},
  ) {
    super(message);
  }
}

export interface Bvh4Image {
  /** NODE_WORDS words per node, node 0 first. */
  readonly nodes: Uint32Array;
  /** TRI_RANGE_WORDS words per TriRange: first, count, base low, base high (base 0). */
  readonly triRanges: Uint32Array;
}

/** The memory image of a BVH (little-endian words; byte i of the image is byte i % 4 of word ⌊i / 4⌋). */
export function encodeBvh4(bvh: Pick<Bvh4, 'nodes' | 'triRanges'>): Bvh4Image {
  const nodes = new Uint32Array(NODE_WORDS * bvh.nodes.length);
  bvh.nodes.forEach((node, n) => {
    const at = NODE_WORDS * n;
    let flags = 0;
    node.children.forEach((c, slot) => {
      nodes.set([...c.box.min, ...c.box.max], at + NODE_LAYOUT.boxes + 6 * slot);
      nodes[at + NODE_LAYOUT.childIndex + slot] = c.index;
      flags |= CHILD_FLAG[c.kind] << (2 * slot);
    });
    nodes[at + NODE_LAYOUT.flags] = flags;
  });
  const triRanges = new Uint32Array(TRI_RANGE_WORDS * bvh.triRanges.length);
  bvh.triRanges.forEach((r, i) => triRanges.set([r.first, r.count, 0, 0], TRI_RANGE_WORDS * i));
  return { nodes, triRanges };
}

/**
 * The BVH of a memory image over a triangle buffer of `triangles` triangles (already in BVH order, so
 * perm is the identity). Throws Bvh4FormatError naming the node and child of the first problem.
 */
export function decodeBvh4(image: Bvh4Image, triangles: number): Bvh4 {
  const { nodes: words, triRanges: rangeWords } = image;
  if (words.length === 0 || words.length % NODE_WORDS !== 0) throw new Bvh4FormatError(`the node image has ${words.length} words, not a positive multiple of ${NODE_WORDS}`);
  if (rangeWords.length % TRI_RANGE_WORDS !== 0) throw new Bvh4FormatError(`the TriRange image has ${rangeWords.length} words, not a multiple of ${TRI_RANGE_WORDS}`);
  const nodeCount = words.length / NODE_WORDS;
  const triRanges = Array.from({ length: rangeWords.length / TRI_RANGE_WORDS }, (_, i) => decodeTriRange(rangeWords, i, triangles));
  const nodes = Array.from({ length: nodeCount }, (_, n) => ({ children: decodeChildren(words, n, nodeCount, triRanges.length) }));
  const bvh: Bvh4 = { nodes, triRanges, perm: new Uint32Array(triangles).map((_, i) => i) };
  checkTree(bvh);
  const stack = worstCaseStack(bvh);
  if (stack > STACK_DEPTH) throw new Bvh4FormatError(`the tree can need ${stack} traversal stack entries, the stack holds ${STACK_DEPTH}`);
  return bvh;
}

function decodeTriRange(words: Uint32Array, i: number, triangles: number): TriRange {
  const [first, count, baseLo, baseHi] = words.subarray(TRI_RANGE_WORDS * i, TRI_RANGE_WORDS * (i + 1));
  const fail = (why: string): never => {
    throw new Bvh4FormatError(`TriRange ${i}: ${why}`, { triRange: i });
  };
  if (count === 0) fail('count is 0 (a leaf holds at least one triangle)');
  if (first! + count! > triangles) fail(`triangles ${first} .. ${first! + count! - 1} are out of range (the buffer has ${triangles})`);
  if (baseLo !== 0 || baseHi !== 0) fail('base is not 0 (there is one triangle buffer)');
  return { first: first!, count: count! };
}

function decodeChildren(words: Uint32Array, n: number, nodeCount: number, rangeCount: number): Bvh4Child[] {
  const at = NODE_WORDS * n;
  const flags = words[at + NODE_LAYOUT.flags]!;
  const fail = (why: string): never => {
    throw new Bvh4FormatError(`node ${n}: ${why}`, { node: n });
  };
  if (flags >>> (2 * BVH_WIDTH) !== 0) fail(`child_flags bits 31..8 are not 0 (0x${flags.toString(16)})`);
  for (let w = NODE_LAYOUT.padding; w < NODE_WORDS; w++) if (words[at + w] !== 0) fail(`padding word ${w} is not 0`);
  return Array.from({ length: BVH_WIDTH }, (_, slot): Bvh4Child => {
    const boxWords = Array.from(words.subarray(at + 6 * slot, at + 6 * slot + 6));
    const index = words[at + NODE_LAYOUT.childIndex + slot]!;
    const kind = KIND_OF_FLAG[(flags >>> (2 * slot)) & 3];
    const where = `child ${slot}`;
    if (kind === undefined) return fail(`${where} has flags 11, which is reserved`);
    if (kind === 'empty') {
      if (index !== 0 || boxWords.some((w) => w !== 0)) fail(`${where} is empty but its box or index is not 0`);
      return EMPTY_CHILD;
    }
    if (kind === 'node' && (index === 0 || index >= nodeCount)) fail(`${where}: node index ${index} is out of range (${nodeCount} nodes, node 0 is the root)`);
    if (kind === 'leaf' && index >= rangeCount) fail(`${where}: TriRange index ${index} is out of range (${rangeCount} TriRanges)`);
    const box: Box = { min: boxWords.slice(0, 3) as unknown as Vec3, max: boxWords.slice(3) as unknown as Vec3 };
    for (let a = 0; a < 3; a++) {
      if (isNaN32(box.min[a]!) || isNaN32(box.max[a]!) || !(toNumber(box.min[a]!) <= toNumber(box.max[a]!))) fail(`${where}: box axis ${a} is NaN or has min > max`);
    }
    return { kind, box, index };
  });
}

/** Every node but the root has exactly one parent and is reachable from the root; every TriRange has one leaf. */
function checkTree(bvh: Bvh4): void {
  const parents = new Uint32Array(bvh.nodes.length);
  const leaves = new Uint32Array(bvh.triRanges.length);
  for (const node of bvh.nodes)
    for (const c of node.children) {
      if (c.kind === 'node' && parents[c.index]++ > 0) throw new Bvh4FormatError(`node ${c.index} has more than one parent`, { node: c.index });
      if (c.kind === 'leaf' && leaves[c.index]++ > 0) throw new Bvh4FormatError(`TriRange ${c.index} is used by more than one leaf`, { triRange: c.index });
    }
  const unused = leaves.indexOf(0);
  if (unused >= 0) throw new Bvh4FormatError(`TriRange ${unused} is used by no leaf`, { triRange: unused });
  // An explicit stack: a decoded image may be a chain of nodes far deeper than JavaScript's call stack.
  const reached = new Uint8Array(bvh.nodes.length);
  const stack = [0];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (reached[n]) continue;
    reached[n] = 1;
    for (const c of bvh.nodes[n]!.children) if (c.kind === 'node') stack.push(c.index);
  }
  const lost = reached.indexOf(0);
  if (lost >= 0) throw new Bvh4FormatError(`node ${lost} is not reachable from the root`, { node: lost });
}
