// BVHs with indices past what is loaded (verification code, not hardware): the malformed trees the host refuses, which
// the BVH IC cores must answer with a per-ray fault instead of reading out of range (docs/bvh-hardware.md, "Faults").
import { fromNumber } from '../../../golden/float32.ts';
import type { Box } from '../../../golden/rayBox.ts';
import { triangleCount, type Scene } from '../../../golden/scene.ts';
import { EMPTY_CHILD, encodeBvhSceneImage, type Bvh4, type Bvh4Child } from '../../../bvh/index.ts';
import type { Ray } from '../../icCore/verification/rayVectors.ts';

/** The three ways an index can point past the loaded BVH. */
export type BadIndex = 'node' | 'triRange' | 'triangles';
export const BAD_INDICES: readonly BadIndex[] = ['node', 'triRange', 'triangles'];

/** A tree with its image and the scene it is over (what `bvhSceneImage` returns), possibly malformed. */
export interface BvhImage {
  readonly image: Uint32Array;
  readonly bvh: Bvh4;
  readonly ordered: Scene;
}

const withImage = (ordered: Scene, bvh: Bvh4): BvhImage => ({ image: encodeBvhSceneImage(ordered, bvh), bvh, ordered });

/**
 * `good` with one index moved past the loaded part: the `nth` (0-based, in node order) child of kind node pointed at
 * node N (the node count), or of kind leaf at TriRange L (the TriRange count), or TriRange `nth` stretched one triangle
 * past the last. Boxes stay, so the rays that reach that entry are those that reached it in `good`.
 */
export function withBadIndex(good: BvhImage, bad: BadIndex, nth = 0): BvhImage {
  const { bvh, ordered } = good;
  if (bad === 'triangles') {
    const range = bvh.triRanges[nth];
    if (!range) throw new Error(`the BVH has no TriRange ${nth}`);
    const triRanges = bvh.triRanges.map((r, i) => (i === nth ? { first: r.first, count: triangleCount(ordered) - r.first + 1 } : r));
    return withImage(ordered, { ...bvh, triRanges });
  }
  const kind = bad === 'node' ? 'node' : 'leaf';
  const past = bad === 'node' ? bvh.nodes.length : bvh.triRanges.length;
  let seen = 0;
  const nodes = bvh.nodes.map((n) => ({ children: n.children.map((c) => (c.kind === kind && seen++ === nth ? { ...c, index: past } : c)) }));
  if (seen <= nth) throw new Error(`the BVH has ${seen} children of kind ${kind}, not ${nth + 1}`);
  return withImage(ordered, { ...bvh, nodes });
}

/** A ray with what the fault semantics make of it. */
export interface ColumnRay extends Ray {
  readonly fault: boolean;
  readonly hit: boolean;
}

const vec = (x: number, y: number, z: number) => [x, y, z].map(fromNumber) as unknown as Box['min'];
const box = (x: number, zNear: number, zFar: number): Box => ({ min: vec(x, 0, zFar), max: vec(x + 1, 1, zNear) });

/**
 * Four unit squares side by side (column c at x 2c .. 2c + 1, y 0 .. 1), each half covered by triangle c at z = −5 (the
 * corner x = 2c, y = 0), rays straight down −z at two heights and four x per column (two in the square, two in the gap
 * after it). The tree puts every kind of bad index in the rays' way:
 *
 * - column 0: node 1 holds triangle 0's leaf and a child node past the node count, boxed behind the triangle (z −8 .. −9):
 *   a ray that hits the triangle skips that entry (no fault); a ray that misses it reaches the entry and faults.
 * - column 1: node 2 holds triangle 1's leaf (a loose box from z −1, so it is popped first) and a leaf whose TriRange
 *   index is past the count, boxed at z −4 .. −5, nearer than the triangle: every ray in the square faults, and one
 *   that hit the triangle first answers a miss all the same.
 * - column 2: a leaf whose TriRange (triangles 2 .. 4 of 4) runs past the triangles: every ray in the square faults.
 * - column 3: triangle 3's leaf, a good one: hits and misses, no fault.
 */
export function faultColumns(): BvhImage & { readonly rays: readonly ColumnRay[] } {
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let c = 0; c < 4; c++) {
    vertices.push(...vec(2 * c, 0, -5), ...vec(2 * c + 1, 0, -5), ...vec(2 * c, 1, -5));
    triangles.push(3 * c, 3 * c + 1, 3 * c + 2, c + 1);
  }
  const ordered: Scene = { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
  const node = (index: number, b: Box): Bvh4Child => ({ kind: 'node', box: b, index });
  const leaf = (index: number, b: Box): Bvh4Child => ({ kind: 'leaf', box: b, index });
  const slots = (...children: Bvh4Child[]) => ({ children: [...children, ...Array<Bvh4Child>(4 - children.length).fill(EMPTY_CHILD)] });
  const bvh: Bvh4 = {
    nodes: [
      slots(node(1, box(0, -5, -9)), node(2, box(2, -1, -6)), leaf(2, box(4, -5, -5)), leaf(3, box(6, -5, -5))),
      slots(leaf(0, box(0, -5, -5)), node(50, box(0, -8, -9))),
      slots(leaf(1, box(2, -1, -6)), leaf(40, box(2, -4, -5))),
    ],
    triRanges: [
      { first: 0, count: 1 },
      { first: 1, count: 1 },
      { first: 2, count: 3 },
      { first: 3, count: 1 },
    ],
    perm: Uint32Array.from([0, 1, 2, 3]),
  };
  const rays: ColumnRay[] = [];
  for (const y of [0.125, 0.625])
    for (let i = 0; i < 16; i++) {
      const c = Math.floor(i / 4);
      const u = 0.25 + 0.5 * (i % 4); // x − 2c: 0.25 and 0.75 in the square, 1.25 and 1.75 in the gap
      const inSquare = u < 1;
      const onTriangle = inSquare && u + y < 1;
      const fault = inSquare && (c === 0 ? !onTriangle : c === 1 || c === 2);
      rays.push({ origin: vec(2 * c + u, y, 0), direction: vec(0, 0, -1), fault, hit: onTriangle && !fault });
    }
  return { ...withImage(ordered, bvh), rays };
}
