// The BVH IC core with the watertight triangle test: rays from inside closed meshes exactly through shared vertices and
// edges never fall through, and every answer and count equals the golden traversal with the watertight test.
import { describe, expect, test } from 'vitest';
import { closedMeshRay, randomClosedMesh } from '../../src/gpu/icCore/verification/rayVectors.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { runBvhRays } from '../../src/gpu/bvh/verification/bvhRayRunner.ts';
import { castRayBvh } from '../../src/bvh/traversal/bvhCaster.ts';
import { bvhSceneImage } from '../../src/bvh/index.ts';
import { testTriangle } from '../../src/golden/rayCaster.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { elaborate } from '../../src/hdl/index.ts';
import { BvhIcSystem } from '../../src/gpu/bvh/bvhIcSystem.ts';

const seed = seedFromEnv();
console.log(`bvhWatertight.test seed=${seed} (rerun with SEED=${seed})`);

const params = { fadd: 3, fmul: 5, fdiv: 14, rays: 8, triangles: 1024, vertices: 1024, nodes: 512, triRanges: 1024, triangleTest: 'watertight' as const };

describe('BVH IC core, watertight triangle test', () => {
  test('closed meshes: rays through shared vertices and edges hit, bit-exact with the golden traversal', () => {
    const rng = createRng(seed);
    let mollerTrumboreMisses = 0;
    for (let k = 0; k < 4; k++) {
      const scene = randomClosedMesh(rng);
      const rays = Array.from({ length: 120 }, () => closedMeshRay(rng, scene));
      const built = bvhSceneImage(scene, { maxLeafTriangles: 1 + rng.int(4) });
      const r = runBvhRays(scene, rays, params, {}, built);
      expect(r.difference, `mesh ${k}`).toBeNull();
      expect(r.loadError).toBe(false);
      expect({ nodes: r.nodeTests, triangles: r.triangleTests }).toEqual({ nodes: r.goldenNodeTests, triangles: r.goldenTriangleTests });
      for (const ray of rays) {
        // Every ray starts inside the closed mesh, so it must leave through some triangle.
        expect(castRayBvh(built.bvh, built.ordered, ray.origin, ray.direction, { triangleTest: testTriangleWatertight }).triangle).toBeGreaterThanOrEqual(0);
        if (castRayBvh(built.bvh, built.ordered, ray.origin, ray.direction, { triangleTest: testTriangle }).triangle < 0) mollerTrumboreMisses++;
      }
    }
    console.log(`rays that Möller–Trumbore lets fall through the same meshes: ${mollerTrumboreMisses} of 480`);
  }, 300_000);

  test('an unknown triangle test is refused when the system is built', () => {
    expect(() => elaborate(BvhIcSystem, { ...params, triangleTest: 'exact' as never })).toThrow(/triangleTest must be 'moller-trumbore' or 'watertight'/);
  });
});
