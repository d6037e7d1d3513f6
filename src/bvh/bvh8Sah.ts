// The SAH cost of a built BVH8: expected node visits and triangle tests of a random ray that hits the scene (docs/bvh.md, "Oriented boxes").
import { toNumber } from '../golden/float32.ts';
import type { Box } from '../golden/rayBox.ts';
import type { Bvh8 } from './bvh8.ts';

const area = (b: Box): number => {
  const [x, y, z] = [0, 1, 2].map((a) => toNumber(b.max[a]!) - toNumber(b.min[a]!));
  return 2 * (x! * y! + y! * z! + z! * x!);
};

/**
 * Σ over box nodes of P(visit) + Σ over leaves of P(visit) · triangles · triangleCost, where P(visit) is a box's
 * surface area over that of the scene's axis-aligned box (its triangles' bounds) (the root is always visited). A line's chance of meeting
 * a convex body is proportional to its surface area in any frame, so boxes in rotated frames count alike.
 */
export function bvh8SahCost(bvh: Bvh8, triangleCost: number): number {
  if (bvh.nodes.length === 0) return 0;
  const denominator = sceneArea(bvh);
  let cost = 1;
  for (const node of bvh.nodes)
    for (const c of node.children) cost += (area(c.box) / denominator) * (c.kind === 'node' ? 1 : triangleCost * c.groups.reduce((s, g) => s + g.length, 0));
  return cost;
}

/** The axis-aligned box of every triangle (from the leaves): the same for either frame of the root's children. */
function sceneArea(bvh: Bvh8): number {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const node of bvh.nodes)
    for (const c of node.children)
      if (c.kind === 'leaf')
        for (const g of c.groups)
          for (const t of g)
            for (const v of t.vertices)
              for (let a = 0; a < 3; a++) {
                lo[a] = Math.min(lo[a]!, toNumber(v[a]!));
                hi[a] = Math.max(hi[a]!, toNumber(v[a]!));
              }
  const [x, y, z] = [0, 1, 2].map((a) => hi[a]! - lo[a]!);
  return 2 * (x! * y! + y! * z! + z! * x!);
}
