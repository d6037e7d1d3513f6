// The BVH builder: a binned-SAH binary BVH over triangle centroids, collapsed into the 4-wide BVH of docs/bvh.md (the BVH8 of bvh8.ts collapses the same binary BVH).
import { fromNumber, toNumber } from '../golden/float32.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import { triangleCount, vertexCount, type Scene } from '../golden/scene.ts';
import { BVH_WIDTH, EMPTY_CHILD, STACK_DEPTH, bvhDepth, worstCaseStack, type Bvh4, type Bvh4Child, type Bvh4Node, type TriRange } from './bvh4.ts';

export interface BuildOptions {
  /** A node with at most this many triangles may become a leaf (default 4); larger ones are always split. */
  readonly maxLeafTriangles?: number;
  /** SAH bins per axis (default 16). */
  readonly bins?: number;
  /** Most levels of BVH4 nodes allowed (the root alone is 1); default: only the stack bound applies. */
  readonly maxDepth?: number;
}

/** A scene or option the builder cannot use, or a tree the traversal stack could not hold. */
export class BvhBuildError extends Error {
  override name = 'BvhBuildError';
}

/** Options of the binary SAH build that both the BVH4 and the BVH8 collapse. */
export interface BinaryBuildOptions {
  /** A node with at most this many triangles may become a leaf (default 4); larger ones are always split. */
  readonly maxLeafTriangles?: number;
  /** SAH bins per axis (default 16). */
  readonly bins?: number;
  /**
   * SAH cost of one triangle test in units of one node visit (default 1: the metric the BVH4 is judged by,
   * docs/bvh.md `bvhTestsPerRay`, counts both alike). Lower makes larger leaves.
   */
  readonly triangleCost?: number;
}

/** SAH cost of one node visit: the unit of `triangleCost`. */
const NODE_COST = 1;

/** A node of the binary BVH: triangles order[start .. start + count − 1], their box as doubles (binary32 values). */
export interface BinaryNode {
  readonly lo: Vec3;
  readonly hi: Vec3;
  readonly area: number;
  readonly start: number;
  readonly count: number;
  readonly left?: BinaryNode;
  readonly right?: BinaryNode;
}

/** The binary SAH BVH of a scene: its root (undefined for an empty scene) and the triangle order its leaves' ranges index. */
export interface BinaryBvh {
  readonly root: BinaryNode | undefined;
  /** Leaf ranges name order[start .. start + count − 1]; order[i] is an original triangle index. */
  readonly order: Uint32Array;
}

/** The triangles as the build sees them: per triangle its box and centroid (box centre), and the order being built. */
export interface Prims {
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly centre: Float64Array;
  readonly order: Uint32Array;
  readonly scratch: Uint32Array;
  /** Per-bin triangle counts and boxes, and the right sides' costs, reused by every split search. */
  readonly bins: { readonly counts: Int32Array; readonly blo: Float64Array; readonly bhi: Float64Array; readonly rightCost: Float64Array };
}

export interface Split {
  readonly axis: number;
  /** Bins 0 .. plane go left. */
  readonly plane: number;
  /** Σ area · triangles over the two sides. */
  readonly cost: number;
}

const surfaceArea = (lo: ArrayLike<number>, hi: ArrayLike<number>): number => {
  const dx = hi[0]! - lo[0]!;
  const dy = hi[1]! - lo[1]!;
  const dz = hi[2]! - lo[2]!;
  return 2 * (dx * dy + dy * dz + dz * dx);
};

/** Build the BVH4 of a scene. Deterministic: no randomness, every tie goes to the lower axis, bin or index. */
export function buildBvh(scene: Scene, opts: BuildOptions = {}): Bvh4 {
  const maxDepth = opts.maxDepth === undefined ? undefined : integerOption('maxDepth', opts.maxDepth, 0, 1, 1 << 20);
  const { root, order } = buildBinaryBvh(scene, { maxLeafTriangles: opts.maxLeafTriangles, bins: opts.bins });
  const bvh = collapse(root, order);
  checkLimits(bvh, maxDepth);
  return bvh;
}

/** The binary SAH BVH of a scene (the first step of buildBvh and buildBvh8). `maxLeafTriangles` may be capped by `leafLimit`. */
export function buildBinaryBvh(scene: Scene, opts: BinaryBuildOptions = {}, leafLimit = 1 << 24): BinaryBvh {
  const maxLeaf = integerOption('maxLeafTriangles', opts.maxLeafTriangles, 4, 1, leafLimit);
  const bins = integerOption('bins', opts.bins, 16, 2, 1024);
  const triangleCost = opts.triangleCost ?? 1;
  if (!(triangleCost > 0 && triangleCost <= 1024)) throw new BvhBuildError(`triangleCost must be a number above 0 and at most 1024, got ${triangleCost}`);
  const prims = primitives(scene, bins);
  const n = prims.order.length;
  const root = n === 0 ? undefined : buildNode(prims, 0, n, { maxLeaf, bins, triangleCost });
  return { root, order: prims.order };
}

/** A node's children in a `width`-wide tree: its two binary children, then repeatedly the inner child of largest surface area (first on ties) replaced by its two children in its place, until there are `width` or only leaves. A binary leaf gives itself. */
export function wideChildren(n2: BinaryNode, width: number): BinaryNode[] {
  const kids = isBinaryLeaf(n2) ? [n2] : [n2.left!, n2.right!];
  while (kids.length < width) {
    let pick = -1;
    kids.forEach((k, i) => {
      if (!isBinaryLeaf(k) && (pick < 0 || k.area > kids[pick]!.area)) pick = i;
    });
    if (pick < 0) break;
    kids.splice(pick, 1, kids[pick]!.left!, kids[pick]!.right!);
  }
  return kids;
}

function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) throw new BvhBuildError(`${name} must be a whole number from ${min} to ${max}, got ${v}`);
  return v;
}

/** Per-triangle boxes from the exact binary32 vertex values; rejects bad indices and non-finite coordinates. */
function primitives(scene: Scene, bins: number): Prims {
  const n = triangleCount(scene);
  const nv = vertexCount(scene);
  const lo = new Float64Array(3 * n).fill(Infinity);
  const hi = new Float64Array(3 * n).fill(-Infinity);
  const centre = new Float64Array(3 * n);
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 3; k++) {
      const v = scene.triangles[4 * t + k]!;
      if (v >= nv) throw new BvhBuildError(`triangle ${t} names vertex ${v}, but the scene has ${nv} vertices`);
      for (let a = 0; a < 3; a++) {
        const x = toNumber(scene.vertices[3 * v + a]!);
        if (!Number.isFinite(x)) throw new BvhBuildError(`triangle ${t}: vertex ${v} has a non-finite coordinate (${x})`);
        lo[3 * t + a] = Math.min(lo[3 * t + a]!, x);
        hi[3 * t + a] = Math.max(hi[3 * t + a]!, x);
      }
    }
    for (let a = 0; a < 3; a++) centre[3 * t + a] = (lo[3 * t + a]! + hi[3 * t + a]!) / 2;
  }
  const order = new Uint32Array(n).map((_, i) => i);
  const binArrays = { counts: new Int32Array(bins), blo: new Float64Array(3 * bins), bhi: new Float64Array(3 * bins), rightCost: new Float64Array(bins) };
  return { lo, hi, centre, order, scratch: new Uint32Array(n), bins: binArrays };
}

/** Binary BVH over order[start .. start + count − 1]: SAH split, leaf when that is cheaper and small enough. */
function buildNode(p: Prims, start: number, count: number, opts: { readonly maxLeaf: number; readonly bins: number; readonly triangleCost: number }): BinaryNode {
  const { maxLeaf, bins, triangleCost } = opts;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const clo = [Infinity, Infinity, Infinity];
  const chi = [-Infinity, -Infinity, -Infinity];
  for (let i = start; i < start + count; i++) {
    const t = 3 * p.order[i]!;
    for (let a = 0; a < 3; a++) {
      if (p.lo[t + a]! < lo[a]!) lo[a] = p.lo[t + a]!;
      if (p.hi[t + a]! > hi[a]!) hi[a] = p.hi[t + a]!;
      if (p.centre[t + a]! < clo[a]!) clo[a] = p.centre[t + a]!;
      if (p.centre[t + a]! > chi[a]!) chi[a] = p.centre[t + a]!;
    }
  }
  const box = { lo: lo as unknown as Vec3, hi: hi as unknown as Vec3, area: surfaceArea(lo, hi), start, count };
  if (count === 1) return box;
  const split = bestSplit(p, start, count, clo, chi, bins);
  const leafCost = triangleCost * count * box.area;
  const splitCost = split === undefined ? Infinity : NODE_COST * box.area + triangleCost * split.cost;
  if (count <= maxLeaf && leafCost <= splitCost) return box;
  // No usable plane (all centroids in one point): halve the range in index order.
  const mid = split === undefined ? start + (count >> 1) : partition(p, start, count, split, clo, chi, bins);
  return { ...box, left: buildNode(p, start, mid - start, opts), right: buildNode(p, mid, start + count - mid, opts) };
}

const binOf = (c: number, lo: number, hi: number, bins: number): number => Math.min(bins - 1, Math.floor((bins * (c - lo)) / (hi - lo)));

/** The cheapest plane between bins over the three axes, both sides non-empty; undefined if there is none. */
export function bestSplit(p: Prims, start: number, count: number, clo: number[], chi: number[], bins: number): Split | undefined {
  let best: Split | undefined;
  for (let axis = 0; axis < 3; axis++) {
    if (!(chi[axis]! > clo[axis]!)) continue;
    const { counts, blo, bhi, rightCost } = p.bins;
    counts.fill(0);
    blo.fill(Infinity);
    bhi.fill(-Infinity);
    const [cl, ch] = [clo[axis]!, chi[axis]!];
    for (let i = start; i < start + count; i++) {
      const t = 3 * p.order[i]!;
      const b = binOf(p.centre[t + axis]!, cl, ch, bins);
      counts[b]!++;
      for (let a = 0, at = 3 * b; a < 3; a++, at++) {
        if (p.lo[t + a]! < blo[at]!) blo[at] = p.lo[t + a]!;
        if (p.hi[t + a]! > bhi[at]!) bhi[at] = p.hi[t + a]!;
      }
    }
    // Right side's area · count for planes after bin j, swept from the right.
    const rlo = [Infinity, Infinity, Infinity];
    const rhi = [-Infinity, -Infinity, -Infinity];
    for (let j = bins - 1, n = 0; j > 0; j--) {
      n += counts[j]!;
      for (let a = 0; a < 3; a++) {
        rlo[a] = Math.min(rlo[a]!, blo[3 * j + a]!);
        rhi[a] = Math.max(rhi[a]!, bhi[3 * j + a]!);
      }
      rightCost[j - 1] = n === 0 ? NaN : n * surfaceArea(rlo, rhi);
    }
    const llo = [Infinity, Infinity, Infinity];
    const lhi = [-Infinity, -Infinity, -Infinity];
    for (let j = 0, n = 0; j < bins - 1; j++) {
      n += counts[j]!;
      for (let a = 0; a < 3; a++) {
        llo[a] = Math.min(llo[a]!, blo[3 * j + a]!);
        lhi[a] = Math.max(lhi[a]!, bhi[3 * j + a]!);
      }
      if (n === 0 || Number.isNaN(rightCost[j]!)) continue;
      const cost = n * surfaceArea(llo, lhi) + rightCost[j]!;
      if (best === undefined || cost < best.cost) best = { axis, plane: j, cost };
    }
  }
  return best;
}

/** Stable partition of the range by the split; returns where the right side starts. */
export function partition(p: Prims, start: number, count: number, s: Split, clo: number[], chi: number[], bins: number): number {
  let left = start;
  let right = 0;
  for (let i = start; i < start + count; i++) {
    const t = p.order[i]!;
    if (binOf(p.centre[3 * t + s.axis]!, clo[s.axis]!, chi[s.axis]!, bins) <= s.plane) p.order[left++] = t;
    else p.scratch[right++] = t;
  }
  p.order.set(p.scratch.subarray(0, right), left);
  return left;
}

/** A binary node's box as binary32 bits (its coordinates are binary32 values already). */
export const toBox = (n: BinaryNode): Box => ({ min: n.lo.map(fromNumber) as unknown as Vec3, max: n.hi.map(fromNumber) as unknown as Vec3 });
export const isBinaryLeaf = (n: BinaryNode): boolean => n.left === undefined;

/**
 * The BVH4: each node's children are wideChildren(binary node, 4).
 * Nodes and TriRanges are numbered in depth-first order, root 0.
 */
function collapse(root: BinaryNode | undefined, order: Uint32Array): Bvh4 {
  const nodes: Bvh4Node[] = [];
  const triRanges: TriRange[] = [];
  const leaf = (n: BinaryNode): Bvh4Child => {
    triRanges.push({ first: n.start, count: n.count });
    return { kind: 'leaf', box: toBox(n), index: triRanges.length - 1 };
  };
  const node = (n2: BinaryNode): number => {
    const at = nodes.length;
    nodes.push({ children: [] });
    const kids = wideChildren(n2, BVH_WIDTH);
    const children = kids.map((k): Bvh4Child => (isBinaryLeaf(k) ? leaf(k) : { kind: 'node', box: toBox(k), index: node(k) }));
    while (children.length < BVH_WIDTH) children.push(EMPTY_CHILD);
    nodes[at] = { children };
    return at;
  };
  if (root === undefined) nodes.push({ children: Array.from({ length: BVH_WIDTH }, () => EMPTY_CHILD) });
  else node(root);
  return { nodes, triRanges, perm: order };
}

/** The depth bound (if given) and the traversal stack bound. */
function checkLimits(bvh: Bvh4, maxDepth: number | undefined): void {
  const depth = bvhDepth(bvh);
  if (maxDepth !== undefined && depth > maxDepth) throw new BvhBuildError(`the BVH has ${depth} levels of nodes, more than maxDepth ${maxDepth}`);
  const stack = worstCaseStack(bvh);
  if (stack > STACK_DEPTH)
    throw new BvhBuildError(
      `the BVH (${depth} levels) can need ${stack} traversal stack entries, the stack holds ${STACK_DEPTH}; the scene's triangles are spread too unevenly (sizes and distances over many orders of magnitude)`,
    );
}
