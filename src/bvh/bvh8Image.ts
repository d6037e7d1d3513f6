// The BVH8 memory image: every node a 128-byte GFX12 node in one word array, child pointers as seed 000's box node defines them (docs/bvh.md).
import { STACK_DEPTH } from './bvh4.ts';
import { OBB_MATRIX_COUNT, obbIndexIsValid } from './obbMatrices.ts';
import type { Bvh8 } from './bvh8.ts';
import {
  GFX12_NODE_WORDS,
  OBB_DISABLED,
  Gfx12Error,
  decodeGfx12BoxNode,
  decodeGfx12PrimitiveNode,
  encodeGfx12BoxNode,
  encodeGfx12PrimitiveNode,
  type Gfx12BoxChild,
  type Gfx12BoxNode,
  type Gfx12PrimitiveNode,
} from './gfx12.ts';
import { BVH8_INSTANCE_TYPE } from './gfx12Instance.ts';

/** node_type of a box child (radv's box32). */
export const BVH8_BOX_TYPE = 5;
/** node_type of a primitive child: triangle pairs from pair 0 of the first node (radv's triangle0). */
export const BVH8_TRIANGLE_TYPE = 0;
/** node_size is 4 bits: a leaf spans at most 15 consecutive primitive nodes. */
export const BVH8_MAX_LEAF_NODES = 15;
/** Child offsets count 8-byte units; a 128-byte node is 16 of them. */
export const OFFSET_UNITS_PER_NODE = 16;

export interface Bvh8Image {
  /** All nodes, 32 words each; node k at byte 128·k, the root is node 0 (no words for an empty BVH). */
  readonly words: Uint32Array;
  readonly boxNodes: number;
  readonly primitiveNodes: number;
  /** Node index in the image of each BVH8 node (`Bvh8.nodes` order). */
  readonly nodeAt: readonly number[];
}

/**
 * Lay the BVH8 out breadth first from the root at node 0: when a box node is placed, its box children take the
 * next nodes in slot order (internal_child_offset points at the first), then its leaves' primitive nodes
 * (primitive_child_offset at the first; each leaf's nodes consecutive, node_size of them). An offset with no
 * child of its kind is 0.
 */
export function encodeBvh8Image(bvh: Bvh8): Bvh8Image {
  const total = bvh.nodes.length + bvh.nodes.reduce((s, n) => s + n.children.reduce((t, c) => t + (c.kind === 'leaf' ? c.groups.length : 0), 0), 0);
  const words = new Uint32Array(total * GFX12_NODE_WORDS);
  const nodeAt: number[] = new Array<number>(bvh.nodes.length).fill(-1);
  let next = 0;
  let primitiveNodes = 0;
  const queue: number[] = [];
  if (bvh.nodes.length > 0) {
    nodeAt[0] = next++;
    queue.push(0);
  }
  for (let q = 0; q < queue.length; q++) {
    const index = queue[q]!;
    const node = bvh.nodes[index]!;
    const inner = node.children.filter((c) => c.kind === 'node');
    const internalBase = inner.length > 0 ? next : 0;
    for (const c of inner) {
      nodeAt[c.index] = next++;
      queue.push(c.index);
    }
    const leaves = node.children.filter((c) => c.kind === 'leaf');
    const primitiveBase = leaves.length > 0 ? next : 0;
    for (const c of leaves) {
      if (c.groups.length < 1 || c.groups.length > BVH8_MAX_LEAF_NODES) throw new Gfx12Error(`a leaf spans 1 to ${BVH8_MAX_LEAF_NODES} primitive nodes, got ${c.groups.length}`);
      c.groups.forEach((g, i) => words.set(encodeGfx12PrimitiveNode({ triangles: g, rangeStop: i === c.groups.length - 1 }), (next + i) * GFX12_NODE_WORDS));
      next += c.groups.length;
      primitiveNodes += c.groups.length;
    }
    const children = node.children.map(
      (c): Gfx12BoxChild =>
        c.kind === 'node'
          ? { box: c.box, nodeType: BVH8_BOX_TYPE, nodeSize: 1, cullMask: c.cullMask }
          : { box: c.box, nodeType: BVH8_TRIANGLE_TYPE, nodeSize: c.groups.length, cullMask: c.cullMask },
    );
    const encoded = encodeGfx12BoxNode({
      internalChildOffset: internalBase * OFFSET_UNITS_PER_NODE,
      primitiveChildOffset: primitiveBase * OFFSET_UNITS_PER_NODE,
      children,
      obbMatrixIndex: node.obbMatrixIndex,
    });
    words.set(encoded, nodeAt[index]! * GFX12_NODE_WORDS);
  }
  return { words, boxNodes: bvh.nodes.length, primitiveNodes, nodeAt };
}

/** The place each child of a box node points at: a box node or the first of `size` primitive nodes. */
export interface Bvh8ChildTarget {
  /** 'instance' only in a two-level image (bvh8Instanced.ts). */
  readonly kind: 'box' | 'primitive' | 'instance';
  /** Node index in the image. */
  readonly node: number;
  readonly size: number;
}

/**
 * The targets of a box node's children: box children from internal_child_offset, primitive children from
 * primitive_child_offset (instance children too), each advancing its own pointer by node_size nodes in slot order.
 * Throws Gfx12Error on an offset that is not a whole node or a node_type other than box (5), triangle (0) or instance (6).
 */
export function bvh8ChildTargets(node: Gfx12BoxNode): Bvh8ChildTarget[] {
  const base = (name: string, offset: number): number => {
    if (offset % OFFSET_UNITS_PER_NODE !== 0) throw new Gfx12Error(`${name} ${offset} is not a whole 128-byte node (a multiple of ${OFFSET_UNITS_PER_NODE} 8-byte units)`);
    return offset / OFFSET_UNITS_PER_NODE;
  };
  let internal = base('internal_child_offset', node.internalChildOffset);
  let primitive = base('primitive_child_offset', node.primitiveChildOffset);
  return node.children.map((c, i) => {
    if (c.nodeSize === 0) throw new Gfx12Error(`child ${i} has node_size 0`);
    if (c.nodeType === BVH8_BOX_TYPE) {
      const at = internal;
      internal += c.nodeSize;
      return { kind: 'box', node: at, size: c.nodeSize };
    }
    if (c.nodeType === BVH8_TRIANGLE_TYPE || c.nodeType === BVH8_INSTANCE_TYPE) {
      const at = primitive;
      primitive += c.nodeSize;
      return { kind: c.nodeType === BVH8_TRIANGLE_TYPE ? 'primitive' : 'instance', node: at, size: c.nodeSize };
    }
    throw new Gfx12Error(`child ${i} has node_type ${c.nodeType}; the BVH8 image has box (${BVH8_BOX_TYPE}), triangle (${BVH8_TRIANGLE_TYPE}) and instance (${BVH8_INSTANCE_TYPE}) children only`);
  });
}

/** The number of nodes of an image; throws Gfx12Error when it is not whole nodes. */
export function bvh8ImageNodes(words: Uint32Array): number {
  if (words.length % GFX12_NODE_WORDS !== 0) throw new Gfx12Error(`a BVH8 image is whole 128-byte nodes (${GFX12_NODE_WORDS} words each), got ${words.length} words`);
  return words.length / GFX12_NODE_WORDS;
}

/** One node's 32 words of the image. */
export const bvh8NodeWords = (words: Uint32Array, node: number): Uint32Array => words.subarray(node * GFX12_NODE_WORDS, (node + 1) * GFX12_NODE_WORDS);

export interface DecodedBvh8Image {
  readonly boxNodes: ReadonlyMap<number, Gfx12BoxNode>;
  readonly primitiveNodes: ReadonlyMap<number, Gfx12PrimitiveNode>;
  readonly worstCaseStack: number;
}

/**
 * Decode and check a whole image: every node reached from the root exactly once, each as one kind; offsets and
 * node types valid; the OBB matrix index 0–103 or off; each leaf's nodes ending their range (prim_range_stop) on its last node and only
 * there; no node left unreached; the worst-case stack within STACK_DEPTH. Throws Gfx12Error naming the node.
 */
export function decodeBvh8Image(words: Uint32Array): DecodedBvh8Image {
  const count = bvh8ImageNodes(words);
  const boxNodes = new Map<number, Gfx12BoxNode>();
  const primitiveNodes = new Map<number, Gfx12PrimitiveNode>();
  const claimed = new Set<number>(count > 0 ? [0] : []);
  const claim = (node: number, from: string): void => {
    if (node >= count) throw new Gfx12Error(`${from} points at node ${node}, past the image's ${count} nodes`);
    if (claimed.has(node)) throw new Gfx12Error(`node ${node} is reached twice (again from ${from})`);
    claimed.add(node);
  };
  let worst = 0;
  // Iterative walk: entries carry the Σ (children − 1) above them.
  const todo: { node: number; above: number }[] = count > 0 ? [{ node: 0, above: 0 }] : [];
  while (todo.length > 0) {
    const { node, above } = todo.pop()!;
    const where = `box node ${node}`;
    const box = wrap(where, () => decodeGfx12BoxNode(bvh8NodeWords(words, node)));
    if (!obbIndexIsValid(box.obbMatrixIndex))
      throw new Gfx12Error(`${where}: obb_matrix_index is ${box.obbMatrixIndex}; it selects a matrix 0–${OBB_MATRIX_COUNT - 1} or is ${OBB_DISABLED} (off)`);
    boxNodes.set(node, box);
    const here = above + box.children.length - 1;
    worst = Math.max(worst, 1 + here);
    wrap(where, () => bvh8ChildTargets(box)).forEach((t, i) => {
      for (let k = 0; k < t.size; k++) claim(t.node + k, `${where} child ${i}`);
      if (t.kind === 'instance') throw new Gfx12Error(`${where} child ${i}: an instance node (node_type ${BVH8_INSTANCE_TYPE}) in a one-level image (two-level images: bvh8Instanced.ts)`);
      if (t.kind === 'box') {
        if (t.size !== 1) throw new Gfx12Error(`${where} child ${i}: a box child has node_size 1, got ${t.size}`);
        todo.push({ node: t.node, above: here });
        return;
      }
      for (let k = 0; k < t.size; k++) {
        const p = wrap(`primitive node ${t.node + k}`, () => decodeGfx12PrimitiveNode(bvh8NodeWords(words, t.node + k)));
        if (p.rangeStop !== (k === t.size - 1))
          throw new Gfx12Error(`primitive node ${t.node + k} (${where} child ${i}, node ${k + 1} of ${t.size}): prim_range_stop is ${p.rangeStop ? 'set' : 'clear'}`);
        primitiveNodes.set(t.node + k, p);
      }
    });
  }
  const reached = claimed.size;
  if (reached !== count) throw new Gfx12Error(`${count - reached} of the image's ${count} nodes are not reached from the root`);
  if (worst > STACK_DEPTH) throw new Gfx12Error(`the image can need ${worst} traversal stack entries, the stack holds ${STACK_DEPTH}`);
  return { boxNodes, primitiveNodes, worstCaseStack: worst };
}

/** Run a node decode, prefixing a Gfx12Error with the node's place. */
export function wrap<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof Gfx12Error) throw new Gfx12Error(`${where}: ${e.message}`);
    throw e;
  }
}
