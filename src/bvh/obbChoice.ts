// The BVH8 builder's oriented-box choice: per box node, the ROM rotation whose frame gives its children the smallest SAH cost, and their conservative boxes in that frame (docs/bvh.md, "Oriented boxes").
import { fromNumber, toNumber } from '../golden/float32.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import { OBB_DISTINCT_ROTATIONS, obbMatrix } from './obbMatrices.ts';

/** One child of the node being built: its vertices (x, y, z as doubles, each a binary32 value) and its SAH weight. */
export interface ObbChild {
  readonly vertices: Float64Array;
  /**
   * The SAH cost of entering the child: 1 (a node visit) for a box node, triangleCost · triangles for a leaf. The
   * SAH of the tree is Σ over children of area · weight (bvh8Sah.ts), and a node's frame changes only its own
   * children's areas, so each node's choice minimizes its share.
   */
  readonly weight: number;
  /** Its exact axis-aligned box (what the node stores with OBB off). */
  readonly box: Box;
}

export interface ObbChoice {
  readonly index: number;
  /** The children's boxes in the frame of matrix `index`, conservative (see obbBox). */
  readonly boxes: Box[];
  /** Σ weight · surface area, axis-aligned and in the chosen frame. */
  readonly costOff: number;
  readonly cost: number;
}

/** Vertices of a child that take part in the choice: all of a small child, an even sample of a large one. */
const SAMPLE_VERTICES = 96;
/** A rotation is taken only when it lowers the cost by at least this fraction (else the node stays axis-aligned). */
export const OBB_MIN_GAIN = 0.02;

/** The ROM's distinct rotations as doubles (each entry a binary32 value), row-major. */
const MATRICES: readonly Float64Array[] = Array.from({ length: OBB_DISTINCT_ROTATIONS }, (_, k) => Float64Array.from(obbMatrix(k), toNumber));

const surfaceArea = (lo: readonly number[], hi: readonly number[]): number => {
  const [x, y, z] = [hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!];
  return 2 * (x * y + y * z + z * x);
};
const boxArea = (b: Box): number => surfaceArea(b.min.map(toNumber), b.max.map(toNumber));

/** The bounds of the rotated vertices (m · v, in doubles: each product is exact, each sum within an ulp of a double). */
function rotatedBounds(m: Float64Array, v: Float64Array, step: number): { lo: number[]; hi: number[] } {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let p = 0; p < v.length; p += 3 * step) {
    const [x, y, z] = [v[p]!, v[p + 1]!, v[p + 2]!];
    for (let i = 0; i < 3; i++) {
      const r = m[3 * i]! * x + m[3 * i + 1]! * y + m[3 * i + 2]! * z;
      if (r < lo[i]!) lo[i] = r;
      if (r > hi[i]!) hi[i] = r;
    }
  }
  return { lo, hi };
}

/** The binary32 value at or below x (toward −∞), and at or above. */
const down = (x: number): number => {
  const f = Math.fround(x);
  return f <= x ? f : nextBinary32(f, -1);
};
const up = (x: number): number => {
  const f = Math.fround(x);
  return f >= x ? f : nextBinary32(f, 1);
};
function nextBinary32(f: number, dir: 1 | -1): number {
  if (f === 0) return dir * 2 ** -149;
  const bits = fromNumber(f);
  // Away from zero is one more in the magnitude bits; toward zero one less.
  return toNumber((bits + ((f > 0) === (dir > 0) ? 1 : -1)) >>> 0);
}

/**
 * A child's box in the frame of matrix m: the bounds of its rotated vertices, widened outward by `margin` and
 * rounded outward to binary32. The margin covers the rounding of the ray's rotation (docs/bvh.md: a hit point on
 * the child's triangles then lies inside the box the rotated ray is tested against).
 */
export function obbBox(m: Float64Array, vertices: Float64Array, margin: number): Box {
  const { lo, hi } = rotatedBounds(m, vertices, 1);
  return { min: lo.map((x) => fromNumber(down(x - margin))) as unknown as Vec3, max: hi.map((x) => fromNumber(up(x + margin))) as unknown as Vec3 };
}

/**
 * The rotation for a node with these children: the one of the 93 distinct rotations that minimizes Σ weight ·
 * surface area of the children's rotated bounds (on up to 96 sampled vertices per child), if it beats the
 * axis-aligned boxes by OBB_MIN_GAIN once its boxes are computed exactly; else undefined (the node stays off).
 */
export function chooseObb(children: readonly ObbChild[], margin: number): ObbChoice | undefined {
  const costOff = children.reduce((s, c) => s + c.weight * boxArea(c.box), 0);
  if (costOff === 0) return undefined;
  let bestIndex = -1;
  let bestCost = Infinity;
  MATRICES.forEach((m, k) => {
    let cost = 0;
    for (const c of children) {
      const { lo, hi } = rotatedBounds(m, c.vertices, Math.max(1, Math.floor(c.vertices.length / 3 / SAMPLE_VERTICES)));
      cost += c.weight * surfaceArea(lo, hi);
      if (cost >= bestCost) return;
    }
    bestCost = cost;
    bestIndex = k;
  });
  if (bestIndex < 0 || bestCost >= costOff * (1 - OBB_MIN_GAIN)) return undefined;
  const boxes = children.map((c) => obbBox(MATRICES[bestIndex]!, c.vertices, margin));
  const cost = children.reduce((s, c, i) => s + c.weight * boxArea(boxes[i]!), 0);
  return cost < costOff * (1 - OBB_MIN_GAIN) ? { index: bestIndex, boxes, costOff, cost } : undefined;
}

/**
 * How far the builder widens every oriented child box: 2^-16 of the scene's largest vertex coordinate magnitude R.
 * The rotated ray's origin and direction are each within 3·√3·2^-24 of their exact rotations (per component:
 * two products and two sums, each rounded), so o' + t·d' is within 5.2·2^-24·(|o| + t·|d|) of the exact rotated
 * point; the margin covers that for every ray whose origin lies within 20·R of the world origin.
 */
export const obbMargin = (vertices: Uint32Array): number => 2 ** -16 * vertices.reduce((m, v) => Math.max(m, Math.abs(toNumber(v))), 0);

/** The vertices (three per triangle, as doubles) of some triangles of a scene, given each triangle's vertex indices. */
export function trianglesAsDoubles(vertices: Uint32Array, triangles: Uint32Array, ids: ArrayLike<number>): Float64Array {
  const out = new Float64Array(9 * ids.length);
  for (let k = 0; k < ids.length; k++)
    for (let c = 0; c < 3; c++) {
      const v = triangles[4 * ids[k]! + c]!;
      for (let a = 0; a < 3; a++) out[9 * k + 3 * c + a] = toNumber(vertices[3 * v + a]!);
    }
  return out;
}
