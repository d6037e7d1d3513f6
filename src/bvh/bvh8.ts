// The BVH8 builder: the binary SAH BVH collapsed to 8 wide, its leaves paired and packed into GFX12 triangle-pair nodes (docs/bvh.md).
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import { fromNumber, toNumber } from '../golden/float32.ts';
import { triangleCount, triangleMask, triangleOneSided, vertexCount, type Scene } from '../golden/scene.ts';
import { BvhBuildError, buildBinaryBvh, isBinaryLeaf, toBox, wideChildren, type BinaryBuildOptions, type BinaryNode } from './builder.ts';
import { STACK_DEPTH } from './bvh4.ts';
import { buildObbBinaryBvh } from './obbBinaryBuild.ts';
import { chooseObb, obbMargin, trianglesAsDoubles } from './obbChoice.ts';
import { GFX12_MAX_CHILDREN, GFX12_MAX_PAIRS, Gfx12Error, planGfx12PrimitiveNode, type Gfx12Triangle } from './gfx12.ts';

/** Most triangles a BVH8 leaf may have (`maxLeafTriangles`): one node's worth of pairs. */
export const BVH8_MAX_LEAF_TRIANGLES = 2 * GFX12_MAX_PAIRS;
export const BVH8_DEFAULT_LEAF_TRIANGLES = 8;
export const BVH8_DEFAULT_TRIANGLE_COST = 0.25;
/** Shader ids travel as the GFX12 geometry index, a 30-bit field. */
export const BVH8_MAX_SHADER_ID = 2 ** 30 - 1;

export interface Bvh8BuildOptions extends BinaryBuildOptions {
  /** A node with at most this many triangles may become a leaf (default 8, at most 16). */
  readonly maxLeafTriangles?: number;
  /**
   * SAH cost of a triangle test in node visits (default 0.25: a pair of triangles costs one node's 8 box tests, and
   * the leaves grow large enough to fill primitive nodes: docs/bvh.md has the trade-off on the bunny).
   */
  readonly triangleCost?: number;
  /**
   * Oriented boxes (default false: the BVH8 traversal core tests axis-aligned boxes only): each box node takes the
   * ROM rotation that lowers its children's SAH cost, if one does (obbChoice.ts, docs/bvh.md "Oriented boxes").
   */
  readonly obb?: boolean;
}

/** A child slot of a BVH8 node: an inner node (index into `nodes`) or a leaf, with its exact box (binary32 bits). */
export type Bvh8Child =
  | { readonly kind: 'node'; readonly box: Box; readonly index: number; readonly cullMask?: number }
  | {
      readonly kind: 'leaf';
      readonly box: Box;
      /** The child's cull_mask: the OR of the geometry masks beneath it (a leaf's triangles share one mask); default 0xFF. */
      readonly cullMask?: number;
      /** The leaf's triangles in pair order, one array per 128-byte primitive node (consecutive in memory). */
      readonly groups: readonly (readonly Gfx12Triangle[])[];
    };

export interface Bvh8Node {
  /** 1 to 8 children, in slot order; their boxes in the frame of obbMatrixIndex. */
  readonly children: readonly Bvh8Child[];
  /** The OBB matrix (0–103) whose rotated frame the children's boxes are in; absent: off (axis-aligned). */
  readonly obbMatrixIndex?: number;
}

export interface Bvh8 {
  /** Node 0 is the root; none for a scene with no triangle that can be hit. */
  readonly nodes: readonly Bvh8Node[];
  /** Triangles left out because their three vertices are one point (they can never be hit), by original index. */
  readonly dropped: readonly number[];
  /** Stack entries the golden traversal can need at most: 1 + the most Σ (children − 1) on a root-to-node path. */
  readonly worstCaseStack: number;
}

/** A triangle's three vertices as binary32 bits. */
function triangleVertices(scene: Scene, t: number): [Vec3, Vec3, Vec3] {
  const v = (k: number): Vec3 => {
    const i = scene.triangles[4 * t + k]!;
    return [scene.vertices[3 * i]!, scene.vertices[3 * i + 1]!, scene.vertices[3 * i + 2]!];
  };
  return [v(0), v(1), v(2)];
}

const samePoint = (a: Vec3, b: Vec3): boolean => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * Build the BVH8 of a scene: the binary SAH BVH (builder.ts, here with leaves of up to 8 triangles and a triangle
 * cost of 0.25 by default), each node's children wideChildren(·, 8), each leaf's triangles paired (edge-sharing
 * partners first) and packed greedily into as few primitive nodes as their bit budget allows. Deterministic.
 */
export function buildBvh8(scene: Scene, opts: Bvh8BuildOptions = {}): Bvh8 {
  const n = triangleCount(scene);
  const nv = vertexCount(scene);
  const kept: number[] = [];
  const dropped: number[] = [];
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const v = scene.triangles[4 * t + k]!;
      if (v >= nv) throw new BvhBuildError(`triangle ${t} names vertex ${v}, but the scene has ${nv} vertices`);
    }
    const shader = scene.triangles[4 * t + 3]!;
    if (shader > BVH8_MAX_SHADER_ID) throw new BvhBuildError(`triangle ${t} has shader id ${shader}; the BVH8 stores it as the 30-bit geometry index (at most ${BVH8_MAX_SHADER_ID})`);
    const [a, b, c] = triangleVertices(scene, t);
    (samePoint(a, b) && samePoint(b, c) ? dropped : kept).push(t);
  }
  const sub: Scene = { vertices: scene.vertices, triangles: Uint32Array.from(kept.flatMap((t) => [...scene.triangles.subarray(4 * t, 4 * t + 4)])) };
  const { root, order } = (opts.obb ? buildObbBinaryBvh : buildBinaryBvh)(
    sub,
    { maxLeafTriangles: opts.maxLeafTriangles ?? BVH8_DEFAULT_LEAF_TRIANGLES, bins: opts.bins, triangleCost: opts.triangleCost ?? BVH8_DEFAULT_TRIANGLE_COST },
    BVH8_MAX_LEAF_TRIANGLES,
  );
  const nodes: Bvh8Node[] = [];
  const margin = opts.obb ? obbMargin(scene.vertices) : 0;
  const triangleCost = opts.triangleCost ?? BVH8_DEFAULT_TRIANGLE_COST;
  const obbChild = (k: BinaryNode) => ({
    vertices: trianglesAsDoubles(sub.vertices, sub.triangles, order.subarray(k.start, k.start + k.count)),
    weight: isBinaryLeaf(k) ? triangleCost * k.count : 1,
    box: toBox(k),
  });
  const leafOf = (ids: readonly number[], box: Box): Bvh8Child => {
    const mask = triangleMask(scene, ids[0]!);
    return { kind: 'leaf', box, groups: packPairs(pairTriangles(ids.map((t) => gfx12Triangle(scene, t)))), ...(scene.masks && { cullMask: mask }) };
  };
  // Extra stack entries the mask splits below a child add (0 for a leaf of one mask).
  let splitStack = 0;
  const leaf = (b: BinaryNode): Bvh8Child => {
    const ids = Array.from(order.subarray(b.start, b.start + b.count), (i) => kept[i]!);
    const byMask = new Map<number, number[]>();
    for (const t of ids) byMask.set(triangleMask(scene, t), [...(byMask.get(triangleMask(scene, t)) ?? []), t]);
    splitStack = 0;
    if (byMask.size === 1) return leafOf(ids, toBox(b));
    // A primitive node must not mix masks (its box child has one cull_mask): one leaf per mask under a box node of its own.
    const split = maskSplit([...byMask.values()].map((g) => leafOf(g, trianglesBox(scene, g))), nodes);
    splitStack = split.stack;
    return { ...split.child, box: toBox(b) };
  };
  // Depth first, a node before its children; returns the node's index and the most Σ (children − 1) on a path down from it.
  const node = (b: BinaryNode): { index: number; stack: number } => {
    const at = nodes.length;
    nodes.push({ children: [] });
    const kids = wideChildren(b, GFX12_MAX_CHILDREN);
    let below = 0;
    const children = kids.map((k): Bvh8Child => {
      if (isBinaryLeaf(k)) {
        const l = leaf(k);
        below = Math.max(below, splitStack);
        return l;
      }
      const c = node(k);
      below = Math.max(below, c.stack);
      return { kind: 'node', box: toBox(k), index: c.index, ...(scene.masks && { cullMask: orMasks(nodes[c.index]!.children) }) };
    });
    const obb = opts.obb ? chooseObb(kids.map(obbChild), margin) : undefined;
    nodes[at] = obb ? { children: children.map((c, i) => ({ ...c, box: obb.boxes[i]! })), obbMatrixIndex: obb.index } : { children };
    return { index: at, stack: kids.length - 1 + below };
  };
  const worstCaseStack = root === undefined ? 0 : 1 + node(root).stack;
  if (worstCaseStack > STACK_DEPTH)
    throw new BvhBuildError(`the BVH8 can need ${worstCaseStack} traversal stack entries, the stack holds ${STACK_DEPTH}; the scene's triangles are spread too unevenly`);
  return { nodes, dropped, worstCaseStack };
}

/** The OR of the children's cull masks (0xFF for one without). */
const orMasks = (children: readonly Bvh8Child[]): number => children.reduce((m, c) => m | (c.cullMask ?? 0xff), 0);

/** The exact box of triangles `ids` (binary32 bits). */
function trianglesBox(scene: Scene, ids: readonly number[]): Box {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const t of ids)
    for (const v of triangleVertices(scene, t))
      for (let a = 0; a < 3; a++) [lo[a], hi[a]] = [Math.min(lo[a]!, toNumber(v[a]!)), Math.max(hi[a]!, toNumber(v[a]!))];
  return { min: lo.map(fromNumber) as unknown as Vec3, max: hi.map(fromNumber) as unknown as Vec3 };
}

/** The union of boxes. */
const unionBox = (boxes: readonly Box[]): Box => {
  const pick = (f: (a: number, b: number) => number, k: 'min' | 'max') => [0, 1, 2].map((a) => fromNumber(boxes.map((b) => toNumber(b[k][a]!)).reduce((x, y) => f(x, y)))) as unknown as Vec3;
  return { min: pick(Math.min, 'min'), max: pick(Math.max, 'max') };
};

/**
 * Leaves of one mask each under box nodes appended to `nodes`: up to 8 under one node, more in chunks of 8 under
 * nodes of their own. Returns the node child (its cull_mask the OR of the masks) and the stack entries it adds.
 */
function maskSplit(leaves: readonly Bvh8Child[], nodes: Bvh8Node[]): { child: Bvh8Child; stack: number } {
  let level = leaves;
  let stack = 0;
  for (;;) {
    const chunks: Bvh8Child[][] = [];
    for (let i = 0; i < level.length; i += GFX12_MAX_CHILDREN) chunks.push(level.slice(i, i + GFX12_MAX_CHILDREN));
    stack += Math.max(...chunks.map((c) => c.length)) - 1;
    const up = chunks.map((children): Bvh8Child => {
      nodes.push({ children });
      return { kind: 'node', box: unionBox(children.map((c) => c.box)), index: nodes.length - 1, cullMask: orMasks(children) };
    });
    if (up.length === 1) return { child: up[0]!, stack };
    level = up;
  }
}

/** Original triangle t as a GFX12 triangle: primitive index t, geometry index its shader id, opaque, double_sided unless the scene makes it one-sided. */
function gfx12Triangle(scene: Scene, t: number): Gfx12Triangle {
  return { vertices: triangleVertices(scene, t), primitiveIndex: t, geometryIndex: scene.triangles[4 * t + 3]!, doubleSided: !triangleOneSided(scene, t) };
}

const vertexKey = (v: Vec3): string => `${v[0]},${v[1]},${v[2]}`;
const sharedVertices = (a: Gfx12Triangle, b: Gfx12Triangle): number => {
  const keys = new Set(a.vertices.map(vertexKey));
  return new Set(b.vertices.map(vertexKey).filter((k) => keys.has(k))).size;
};

/**
 * Pairs in leaf order: the first unpaired triangle takes the first later one sharing an edge, else the first
 * sharing a vertex, else the next. At most one triangle is left alone, and it comes last (an odd pair can only
 * end a primitive node).
 */
export function pairTriangles(tris: readonly Gfx12Triangle[]): Gfx12Triangle[][] {
  const rest = [...tris];
  const pairs: Gfx12Triangle[][] = [];
  while (rest.length > 1) {
    const first = rest.shift()!;
    const shares = rest.map((t) => sharedVertices(first, t));
    let pick = shares.findIndex((s) => s >= 2);
    if (pick < 0) pick = shares.findIndex((s) => s === 1);
    if (pick < 0) pick = 0;
    pairs.push([first, rest.splice(pick, 1)[0]!]);
  }
  if (rest.length === 1) pairs.push([rest[0]!]);
  return pairs;
}

/** Pairs into primitive nodes: each node takes pairs in order while planGfx12PrimitiveNode says they fit. */
export function packPairs(pairs: readonly (readonly Gfx12Triangle[])[]): Gfx12Triangle[][] {
  const groups: Gfx12Triangle[][] = [];
  let current: Gfx12Triangle[] = [];
  const fits = (tris: Gfx12Triangle[]): boolean => {
    try {
      planGfx12PrimitiveNode({ triangles: tris });
      return true;
    } catch (e) {
      if (e instanceof Gfx12Error) return false;
      throw e;
    }
  };
  for (const pair of pairs) {
    if (current.length > 0 && fits([...current, ...pair])) current.push(...pair);
    else {
      if (current.length > 0) groups.push(current);
      current = [...pair];
      // A pair always fits (at most 779 bits); this only guards the claim.
      planGfx12PrimitiveNode({ triangles: current });
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
