// A hand-made BVH8 image deeper than the 64-entry traversal stack (or just fitting it): a chain of box nodes, for the
// core's and the GPU's tests of a stack overflow against castRayBvh8 (docs/bvh-hardware.md "Faults").
import { encodeBvh8Image, type Bvh8, type Bvh8Child, type Bvh8Node, type Gfx12Triangle } from '../../../bvh/index.ts';
import { fromNumber } from '../../../golden/float32.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';

const v = (x: number, y: number, z: number): Vec3 => [fromNumber(x), fromNumber(y), fromNumber(z)];

/** Every box and triangle spans x, y in [−WIDE, WIDE]; the chain's rays run along +z at x, y ≈ 100. */
const WIDE = 1000;
/** The far end of every box node's box in z. */
const FAR = 1000;

/**
 * A leaf of one triangle at z, covering [−WIDE, WIDE]² in its box but only x + y ≤ 0 itself, so the chain's rays
 * (x + y ≈ 200) reach its box and miss the triangle: the leaf is read and tested and the best stays a miss.
 */
function missedLeaf(z: number, primitiveIndex: number): Bvh8Child {
  const triangle: Gfx12Triangle = { vertices: [v(-WIDE, -WIDE, z), v(WIDE, -WIDE, z), v(-WIDE, WIDE, z)], primitiveIndex };
  return { kind: 'leaf', box: { min: v(-WIDE, -WIDE, z), max: v(WIDE, WIDE, z) }, groups: [[triangle]] };
}

/**
 * A chain of `levels` box nodes, each a level deeper than the last (a degenerate BVH, as no SAH build makes one): box
 * node i has three children, a leaf at z = i + 0.5 (nearest: popped first, its pairs in the triangle engine while the
 * next box node is popped), box node i + 1 (its box z ∈ [i + 1, FAR]) and a leaf at z = FAR − 1 − i (farthest: stays on
 * the stack). A ray along +z through the chain (chainRay) pops the near leaf and the next node at every level and
 * leaves the far leaf behind: its stack grows by one entry a level, so a long enough chain overflows the 64 entries.
 * The last node has the near leaf only. 3 · levels − 1 nodes (box and primitive).
 */
export function deepChain(levels: number): { words: Uint32Array; triangles: number } {
  const nodes: Bvh8Node[] = [];
  for (let i = 0; i < levels; i++) {
    const near = missedLeaf(i + 0.5, 2 * i);
    if (i === levels - 1) {
      nodes.push({ children: [near] });
      break;
    }
    const next: Bvh8Child = { kind: 'node', index: i + 1, box: { min: v(-WIDE, -WIDE, i + 1), max: v(WIDE, WIDE, FAR) } };
    nodes.push({ children: [near, next, missedLeaf(FAR - 1 - i, 2 * i + 1)] });
  }
  const bvh: Bvh8 = { nodes, dropped: [], worstCaseStack: 1 + 2 * (levels - 1) };
  return { words: encodeBvh8Image(bvh).words, triangles: 2 * levels };
}

/** A ray down deepChain's levels: from z = −1 along +z at x, y = 100 + dx, 100 + dy (a small offset stays in the chain). */
export const chainRay = (dx = 0, dy = 0): { origin: Vec3; direction: Vec3 } => ({ origin: v(100 + dx, 100 + dy, -1), direction: v(0, 0, 1) });
