// The BVH4 in memory: nodes of four child slots, triangle ranges, the triangle order, and checks on them.
import type { Box } from '../golden/rayBox.ts';
import { toNumber } from '../golden/float32.ts';
import { TEXCOORD_WORDS, triangleCount, type Scene } from '../golden/scene.ts';

/** Entries of the traversal stack; the builder refuses trees whose worst case needs more. */
export const STACK_DEPTH = 64;
/** Child slots per node. */
export const BVH_WIDTH = 4;

export type ChildKind = 'node' | 'leaf' | 'empty';

/** One child slot: a node (index into `nodes`), a leaf (index into `triRanges`) or empty. */
export interface Bvh4Child {
  readonly kind: ChildKind;
  /** The child's box, binary32 bit patterns; all zero for an empty slot. */
  readonly box: Box;
  /** Node index or TriRange index; 0 for an empty slot. */
  readonly index: number;
}

export interface Bvh4Node {
  /** Always BVH_WIDTH slots. */
  readonly children: readonly Bvh4Child[];
}

/** A leaf: triangles first .. first + count − 1 of the reordered scene. */
export interface TriRange {
  readonly first: number;
  readonly count: number;
}

export interface Bvh4 {
  /** Node 0 is the root. */
  readonly nodes: readonly Bvh4Node[];
  readonly triRanges: readonly TriRange[];
  /** Triangle i of the reordered scene is triangle perm[i] of the original scene. */
  readonly perm: Uint32Array;
}

export const ZERO_BOX: Box = { min: [0, 0, 0], max: [0, 0, 0] };
export const EMPTY_CHILD: Bvh4Child = { kind: 'empty', box: ZERO_BOX, index: 0 };

/** The scene with its triangles (and their texture coordinates) in BVH order: triangle i is the original triangle perm[i] (vertices shared as before). */
export function reorderScene(scene: Scene, bvh: Pick<Bvh4, 'perm'>): Scene {
  if (bvh.perm.length !== triangleCount(scene)) throw new Error(`the BVH orders ${bvh.perm.length} triangles, the scene has ${triangleCount(scene)}`);
  const triangles = new Uint32Array(scene.triangles.length);
  bvh.perm.forEach((from, i) => triangles.set(scene.triangles.subarray(4 * from, 4 * from + 4), 4 * i));
  // The per-triangle attributes travel with their triangles; a scene without them stays without.
  const byte = (a: Uint8Array | undefined) => (a === undefined ? {} : { value: Uint8Array.from(bvh.perm, (from) => a[from]!) });
  const masks = byte(scene.masks).value;
  const oneSided = byte(scene.oneSided).value;
  const attributes = { ...(masks && { masks }), ...(oneSided && { oneSided }) };
  if (scene.texcoords === undefined) return { vertices: scene.vertices, triangles, ...attributes };
  const uv = scene.texcoords;
  const texcoords = new Uint32Array(uv.length);
  bvh.perm.forEach((from, i) => texcoords.set(uv.subarray(TEXCOORD_WORDS * from, TEXCOORD_WORDS * (from + 1)), TEXCOORD_WORDS * i));
  return { vertices: scene.vertices, triangles, texcoords, ...attributes };
}

const innerChildren = (bvh: Bvh4, node: number): number[] => bvh.nodes[node]!.children.filter((c) => c.kind === 'node').map((c) => c.index);
const occupied = (bvh: Bvh4, node: number): number => bvh.nodes[node]!.children.filter((c) => c.kind !== 'empty').length;

/**
 * The nodes reachable from the root, in a tree each after all its descendants. Iterative, so a
 * decoded image of a deep chain of nodes cannot overflow the JavaScript stack.
 */
function bottomUp(bvh: Bvh4): number[] {
  const order: number[] = [];
  const seen = new Uint8Array(bvh.nodes.length);
  const stack = [0];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen[node]) continue;
    seen[node] = 1;
    order.push(node);
    stack.push(...innerChildren(bvh, node));
  }
  return order.reverse();
}

/** Per node, 1 + `own(node)` + the largest value among its inner children (computed bottom up). */
function pathMaximum(bvh: Bvh4, own: (node: number) => number): Float64Array {
  const value = new Float64Array(bvh.nodes.length);
  for (const node of bottomUp(bvh)) value[node] = own(node) + Math.max(0, ...innerChildren(bvh, node).map((c) => value[c]!));
  return value;
}

/**
 * The most stack entries any ray can need: popping a node and pushing its c non-empty children adds
 * c − 1, so the worst case is 1 + the largest sum of (c − 1) along a path from the root, and at least
 * the root's own entry. Assumes a tree (decodeBvh4 and the builder guarantee one).
 */
export function worstCaseStack(bvh: Bvh4): number {
  return Math.max(1, 1 + pathMaximum(bvh, (node) => occupied(bvh, node) - 1)[0]!);
}

/** Levels of nodes: a root alone has depth 1. */
export function bvhDepth(bvh: Bvh4): number {
  return pathMaximum(bvh, () => 1)[0]!;
}

const f = (bits: number): number => toNumber(bits >>> 0);

/** Does `outer` contain `inner` (as binary32 values, exactly)? */
export function boxContains(outer: Box, inner: Box): boolean {
  return [0, 1, 2].every((a) => f(outer.min[a]!) <= f(inner.min[a]!) && f(inner.max[a]!) <= f(outer.max[a]!));
}

/** The exact box of triangle t's three vertices. */
export function triangleBox(scene: Scene, t: number): Box {
  const min: number[] = [];
  const max: number[] = [];
  for (let a = 0; a < 3; a++) {
    const bits = [0, 1, 2].map((k) => scene.vertices[3 * scene.triangles[4 * t + k]! + a]!);
    min.push(bits.reduce((m, b) => (f(b) < f(m) ? b : m)));
    max.push(bits.reduce((m, b) => (f(b) > f(m) ? b : m)));
  }
  return { min: min as unknown as Box['min'], max: max as unknown as Box['max'] };
}

/**
 * Every structural problem of a BVH over `scene` (the original, unordered one): a permutation, leaf
 * ranges that cover each triangle once, a tree from node 0, boxes that contain their triangles and
 * subtrees exactly. Empty when all is well.
 */
export function bvhProblems(bvh: Bvh4, scene: Scene): string[] {
  const problems: string[] = [];
  const n = triangleCount(scene);
  if (bvh.perm.length !== n || new Set(bvh.perm).size !== n || bvh.perm.some((p) => p >= n)) problems.push('perm is not a permutation of the triangles');
  const covered = new Uint8Array(n);
  const seen = new Uint8Array(bvh.nodes.length);
  const permOk = problems.length === 0;
  const ordered = permOk ? reorderScene(scene, bvh) : scene;
  // Depth first in slot order, a node's subtree before its next slot; an explicit stack of (node, next slot), so deep trees cannot overflow.
  const frames: { node: number; slot: number }[] = [];
  const enter = (node: number): void => {
    if (seen[node]) return void problems.push(`node ${node} is reached twice`);
    seen[node] = 1;
    frames.push({ node, slot: 0 });
  };
  const check = (node: number, c: Bvh4Child, slot: number): void => {
    if (c.kind === 'node') {
      if (c.index >= bvh.nodes.length) return void problems.push(`node ${node} slot ${slot}: node ${c.index} does not exist`);
      const inner = bvh.nodes[c.index]!.children.filter((g) => g.kind !== 'empty');
      if (!inner.every((g) => boxContains(c.box, g.box))) problems.push(`node ${node} slot ${slot}: box does not contain its children's`);
      enter(c.index);
    } else if (c.kind === 'leaf') {
      const r = bvh.triRanges[c.index];
      if (r === undefined) return void problems.push(`node ${node} slot ${slot}: TriRange ${c.index} does not exist`);
      for (let t = r.first; t < r.first + r.count && t < n; t++) {
        if (covered[t]++) problems.push(`triangle ${t} is in two leaves`);
        if (permOk && !boxContains(c.box, triangleBox(ordered, t))) problems.push(`node ${node} slot ${slot}: box does not contain triangle ${t}`);
      }
    }
  };
  if (bvh.nodes.length === 0) return [...problems, 'no root node'];
  enter(0);
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    const children = bvh.nodes[top.node]!.children;
    if (top.slot === children.length) frames.pop();
    else check(top.node, children[top.slot]!, top.slot++);
  }
  if (seen.some((s) => !s)) problems.push('some nodes are unreachable from the root');
  if (covered.some((c) => c !== 1)) problems.push('some triangles are in no leaf');
  return problems;
}
