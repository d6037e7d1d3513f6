// The oriented binary SAH build for OBB BVH8s: each node's split searched along the world axes and along the axes of the ROM rotation that fits the node best, so thin tilted objects are split along their own length (docs/bvh.md, "Oriented boxes").
import { toNumber } from '../golden/float32.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import type { Scene } from '../golden/scene.ts';
import { BvhBuildError, bestSplit, buildBinaryBvh, isBinaryLeaf, partition, type BinaryBuildOptions, type BinaryBvh, type BinaryNode, type Prims, type Split } from './builder.ts';
import { OBB_DISTINCT_ROTATIONS, obbMatrix } from './obbMatrices.ts';

const NODE_COST = 1;
/** Triangles sampled per node to pick its frame (every triangle of a small node). */
const FRAME_SAMPLE = 64;
const IDENTITY = Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]);
const ROTATIONS: readonly Float64Array[] = Array.from({ length: OBB_DISTINCT_ROTATIONS }, (_, k) => Float64Array.from(obbMatrix(k), toNumber));

interface Build {
  /** Per triangle its three vertices (x, y, z doubles). */
  readonly v: Float64Array;
  readonly order: Uint32Array;
  readonly scratch: Uint32Array;
  /** The triangles' boxes and centroids in the world frame, and (refilled per node) in a rotated one; both share `order`. */
  readonly world: Prims;
  readonly rotated: Prims;
  readonly maxLeaf: number;
  readonly bins: number;
  readonly triangleCost: number;
}

const area = (lo: ArrayLike<number>, hi: ArrayLike<number>): number => {
  const [x, y, z] = [hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!];
  return 2 * (x * y + y * z + z * x);
};

/**
 * The binary BVH an OBB BVH8 collapses: buildBinaryBvh's and orientedBinaryBvh's, whichever has the lower SAH cost
 * when every node is counted at its least area in the world frame and its best ROM frame (the frames the BVH8
 * builder can then give it). Deterministic.
 */
export function buildObbBinaryBvh(scene: Scene, opts: BinaryBuildOptions, leafLimit: number): BinaryBvh {
  const plain = buildBinaryBvh(scene, opts, leafLimit);
  const oriented = orientedBinaryBvh(scene, opts, leafLimit);
  // The oriented build's node areas are these least areas already.
  const cost = (bvh: BinaryBvh, areaOf: (n: BinaryNode) => number): number => {
    const triangleCost = opts.triangleCost ?? 1;
    const walk = (n: BinaryNode | undefined): number => {
      if (n === undefined) return 0;
      const a = areaOf(n);
      return isBinaryLeaf(n) ? triangleCost * n.count * a : NODE_COST * a + walk(n.left) + walk(n.right);
    };
    return walk(bvh.root);
  };
  const b = prepare(scene, opts, leafLimit, plain.order);
  return cost(oriented, (n) => n.area) < cost(plain, (n) => frames(b, n.start, n.count).least) ? oriented : plain;
}

/** A node's bounds in the world frame, its best ROM frame, and its least bounds area of the two. */
function frames(b: Build, start: number, count: number): { world: { lo: number[]; hi: number[] }; frame: Float64Array; least: number } {
  const world = bounds(b, IDENTITY, start, count);
  if (count === 1) return { world, frame: IDENTITY, least: area(world.lo, world.hi) };
  const frame = bestFrame(b, start, count).m;
  const inFrame = bounds(b, frame, start, count);
  return { world, frame, least: Math.min(area(world.lo, world.hi), area(inFrame.lo, inFrame.hi)) };
}

/**
 * As buildBinaryBvh (same options, same node and order format, deterministic), but each node's split plane is
 * searched in two frames: the world's and that of the ROM rotation whose rotated bounds of the node's (sampled)
 * vertices have the least surface area; the cheaper split by binned SAH wins. Node boxes (`lo`, `hi`) stay
 * axis-aligned; `area` is the node's least area in the two frames (wideChildren opens the largest first).
 */
export function orientedBinaryBvh(scene: Scene, opts: BinaryBuildOptions, leafLimit: number): BinaryBvh {
  const b = prepare(scene, opts, leafLimit);
  return { root: b.order.length === 0 ? undefined : node(b, 0, b.order.length), order: b.order };
}

/** The build state: options checked, the triangles' vertices as doubles, the order (given, or 0 .. n − 1). */
function prepare(scene: Scene, opts: BinaryBuildOptions, leafLimit: number, order?: Uint32Array): Build {
  const maxLeaf = opts.maxLeafTriangles ?? 4;
  const bins = opts.bins ?? 16;
  const triangleCost = opts.triangleCost ?? 1;
  if (!Number.isInteger(maxLeaf) || maxLeaf < 1 || maxLeaf > leafLimit) throw new BvhBuildError(`maxLeafTriangles must be a whole number from 1 to ${leafLimit}, got ${maxLeaf}`);
  if (!Number.isInteger(bins) || bins < 2 || bins > 1024) throw new BvhBuildError(`bins must be a whole number from 2 to 1024, got ${bins}`);
  if (!(triangleCost > 0 && triangleCost <= 1024)) throw new BvhBuildError(`triangleCost must be a number above 0 and at most 1024, got ${triangleCost}`);
  const n = scene.triangles.length / 4;
  const v = new Float64Array(9 * n);
  for (let t = 0; t < n; t++)
    for (let k = 0; k < 3; k++)
      for (let a = 0; a < 3; a++) {
        const x = toNumber(scene.vertices[3 * scene.triangles[4 * t + k]! + a]!);
        if (!Number.isFinite(x)) throw new BvhBuildError(`triangle ${t}: a vertex has a non-finite coordinate (${x})`);
        v[9 * t + 3 * k + a] = x;
      }
  const ord = order ?? new Uint32Array(n).map((_, i) => i);
  const scratch = new Uint32Array(n);
  const prims = (): Prims => ({
    lo: new Float64Array(3 * n),
    hi: new Float64Array(3 * n),
    centre: new Float64Array(3 * n),
    order: ord,
    scratch,
    bins: { counts: new Int32Array(bins), blo: new Float64Array(3 * bins), bhi: new Float64Array(3 * bins), rightCost: new Float64Array(bins) },
  });
  const b: Build = { v, order: ord, scratch, world: prims(), rotated: prims(), maxLeaf, bins, triangleCost };
  fillFrame(b, b.world, IDENTITY, 0, n);
  return b;
}

/** Triangle boxes and centroids of the range in frame m, written into p; returns the centroids' bounds. */
function fillFrame(b: Build, p: Prims, m: Float64Array, start: number, count: number): { clo: number[]; chi: number[] } {
  const clo = [Infinity, Infinity, Infinity];
  const chi = [-Infinity, -Infinity, -Infinity];
  for (let i = start; i < start + count; i++) {
    const t = b.order[i]!;
    for (let a = 0; a < 3; a++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let k = 9 * t; k < 9 * t + 9; k += 3) {
        const r = m[3 * a]! * b.v[k]! + m[3 * a + 1]! * b.v[k + 1]! + m[3 * a + 2]! * b.v[k + 2]!;
        if (r < lo) lo = r;
        if (r > hi) hi = r;
      }
      const c = (lo + hi) / 2;
      p.lo[3 * t + a] = lo;
      p.hi[3 * t + a] = hi;
      p.centre[3 * t + a] = c;
      if (c < clo[a]!) clo[a] = c;
      if (c > chi[a]!) chi[a] = c;
    }
  }
  return { clo, chi };
}

/** The world frame's centroid bounds of the range. */
function centroidBounds(p: Prims, order: Uint32Array, start: number, count: number): { clo: number[]; chi: number[] } {
  const clo = [Infinity, Infinity, Infinity];
  const chi = [-Infinity, -Infinity, -Infinity];
  for (let i = start; i < start + count; i++)
    for (let a = 0; a < 3; a++) {
      const c = p.centre[3 * order[i]! + a]!;
      if (c < clo[a]!) clo[a] = c;
      if (c > chi[a]!) chi[a] = c;
    }
  return { clo, chi };
}

/** Bounds of the range's triangles in frame m (every `step`-th triangle). */
function bounds(b: Build, m: Float64Array, start: number, count: number, step = 1): { lo: number[]; hi: number[] } {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = start; i < start + count; i += step) {
    const t = 9 * b.order[i]!;
    for (let k = 0; k < 9; k += 3)
      for (let a = 0; a < 3; a++) {
        const r = m[3 * a]! * b.v[t + k]! + m[3 * a + 1]! * b.v[t + k + 1]! + m[3 * a + 2]! * b.v[t + k + 2]!;
        if (r < lo[a]!) lo[a] = r;
        if (r > hi[a]!) hi[a] = r;
      }
  }
  return { lo, hi };
}

/** The ROM rotation whose frame bounds the range's sampled vertices with the least area. */
function bestFrame(b: Build, start: number, count: number): { m: Float64Array; area: number } {
  const step = Math.max(1, Math.floor(count / FRAME_SAMPLE));
  let best: { m: Float64Array; area: number } = { m: IDENTITY, area: Infinity };
  for (const m of ROTATIONS) {
    const { lo, hi } = bounds(b, m, start, count, step);
    const a = area(lo, hi);
    if (a < best.area) best = { m, area: a };
  }
  return best;
}

function node(b: Build, start: number, count: number): BinaryNode {
  const { world, frame, least: nodeArea } = frames(b, start, count);
  const box = { lo: world.lo as unknown as Vec3, hi: world.hi as unknown as Vec3, area: nodeArea, start, count };
  if (count === 1) return box;
  // builder.ts's binned SAH search, once on the world boxes and once on the boxes in the node's frame.
  type Candidate = { p: Prims; split: Split; clo: number[]; chi: number[] };
  const search = (p: Prims, c: { clo: number[]; chi: number[] }): Candidate | undefined => {
    const split = bestSplit(p, start, count, c.clo, c.chi, b.bins);
    return split && { p, split, ...c };
  };
  const inWorld = search(b.world, centroidBounds(b.world, b.order, start, count));
  const inFrame = frame === IDENTITY ? undefined : search(b.rotated, fillFrame(b, b.rotated, frame, start, count));
  const best = inFrame !== undefined && (inWorld === undefined || inFrame.split.cost < inWorld.split.cost) ? inFrame : inWorld;
  const split = best?.split;
  const leafCost = b.triangleCost * count * nodeArea;
  const splitCost = split === undefined ? Infinity : NODE_COST * nodeArea + b.triangleCost * split.cost;
  if (count <= b.maxLeaf && leafCost <= splitCost) return box;
  // No usable plane (all centroids in one point): halve the range in index order.
  const mid = best === undefined ? start + (count >> 1) : partition(best.p, start, count, best.split, best.clo, best.chi, b.bins);
  return { ...box, left: node(b, start, mid - start), right: node(b, mid, start + count - mid) };
}
