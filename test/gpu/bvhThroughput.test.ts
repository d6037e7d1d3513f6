// The BVH IC core's throughput in cycles (deterministic, not wall time): one node test per cycle when enough rays are
// in flight, and far fewer cycles per ray than the brute-force core on the same rays.
import { describe, expect, test } from 'vitest';
import { dustRays, dustScene } from '../../src/designs/bench/bvhCoreBench.ts';
import { runBvhRays } from '../../src/gpu/bvh/verification/bvhRayRunner.ts';
import { bvhNodeRoundTrip } from '../../src/gpu/bvh/bvhIcCore.ts';
import { runRays } from '../../src/gpu/icCore/verification/rayRunner.ts';
import { defaultIcSystemParams } from '../../src/gpu/icCore/icSystem.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { sceneToImage } from '../../src/golden/scene.ts';
import { primaryRays } from '../../src/host/primaryRays.ts';
import { defaultCamera } from '../../src/host/camera.ts';

const small = { fadd: 3, fmul: 5, fdiv: 14, rays: 32, triangles: 4096, vertices: 16384, nodes: 4096, triRanges: 8192 };

describe('BVH IC core throughput', () => {
  test('with 32 rays in flight on node-bound rays the ray–box unit takes a node every cycle', () => {
    const r = runBvhRays(dustScene(4096), dustRays(768), small);
    expect(r.difference).toBeNull();
    expect(r.nodeTests).toBe(r.goldenNodeTests);
    console.log(`dust: ${r.nodeTestsPerCycle.toFixed(3)} node tests per cycle in steady state, ${(r.cycles / r.rays).toFixed(2)} cycles per ray`);
    expect(r.nodeTestsPerCycle).toBeGreaterThan(0.97);
    expect(r.nodeTestsPerCycle).toBeLessThanOrEqual(1);
  }, 300_000);

  test('two ray slots are latency bound: at most two nodes per node round trip', () => {
    const r = runBvhRays(dustScene(4096), dustRays(64), { ...small, rays: 2 });
    expect(r.difference).toBeNull();
    const roundTrip = bvhNodeRoundTrip({ ...small, indexBits: 13, triangleBits: 13, memory: 2 });
    expect(roundTrip).toBe(21);
    expect(r.nodeTestsPerCycle).toBeLessThanOrEqual(2 / roundTrip);
    expect(r.nodeTestsPerCycle).toBeGreaterThan(1.5 / roundTrip);
  }, 300_000);

  test('fewer cycles per primary ray than the brute-force core on the same scene and rays', () => {
    const scene = defaultScene();
    const rays = primaryRays(defaultCamera, 16, 8).map((r) => ({ origin: r.origin, direction: r.direction }));
    const bvh = runBvhRays(scene, rays, { ...small, rays: 16 });
    const brute = runRays(scene, rays, defaultIcSystemParams);
    expect(bvh.difference).toBeNull();
    expect(brute.difference).toBeNull();
    const bruteCycles = brute.cycles - (4 + sceneToImage(scene).length);
    // 36 triangles: brute force sweeps 36 per ray; the BVH core overlaps 16 rays.
    expect(bvh.cycles / rays.length).toBeLessThan(bruteCycles / rays.length / 2);
  }, 300_000);
});
