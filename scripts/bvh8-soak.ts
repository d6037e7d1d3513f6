// Soak test of the BVH8 IC system: random scenes and rays through Bvh8IcSystem on the TS simulator against castRayBvh8
// (answers and every counter), at float latencies from none to long (the overlapped pops' and the early root pop's
// timing follows them) and 2 to 64 ray slots (64 with 6-bit thread ids), every configuration with BVHs built with and without oriented boxes, and one
// scene in three a random instanced scene's two-level image (one in four of those with a broken instance node); one ray
// in four any-hit (ray_any_hit, castRayBvh8's anyHit); with
// --gpu-lockstep, then a frame of the thin rods built with oriented boxes and an image deeper than the traversal stack on
// the whole rtgpu_top (BVH8 IC cores) in lockstep on TS, Verilator and Icarus against the ISA simulator.
// Usage: npx tsx scripts/bvh8-soak.ts [--rays 200000] [--seed S] [--gpu-lockstep]
import { parseArgs } from 'node:util';
import { bvh8SceneImage, encodeBvh8SceneImage } from '../src/bvh/index.ts';
import { INSTANCE_MALFORMATIONS, malformInstanceNode, randomInstancedScene } from '../src/gpu/bvh8/verification/instancedRayVectors.ts';
import { randomBvhScene, rayFromAnySide } from '../src/gpu/bvh/verification/bvhRayVectors.ts';
import { runBvh8Rays } from '../src/gpu/bvh8/verification/bvh8RayRunner.ts';
import type { Bvh8IcSystemParams } from '../src/gpu/bvh8/bvh8IcSystem.ts';
import { createRng, seedFromEnv } from '../src/util/seededRandom.ts';
import { bvh8GpuLockstep } from './bvh8GpuLockstep.ts';

/** Bad flags end the script with a one-line message and exit status 2, not a stack trace. */
function fail(message: string): never {
  console.error(`bvh8-soak: ${message}`);
  process.exit(2);
}

/** A disagreement with castRayBvh8: exit status 1. */
function mismatch(message: string): never {
  console.error(`bvh8-soak: ${message}`);
  process.exit(1);
}

function flags() {
  try {
    return parseArgs({ options: { rays: { type: 'string', default: '200000' }, seed: { type: 'string' }, 'gpu-lockstep': { type: 'boolean' } } }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}
const values = flags();
const whole = (name: string, v: string) => (/^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fail(`--${name} must be a positive whole number, got '${v}'`));
const target = whole('rays', values.rays);
const seed = values.seed !== undefined ? whole('seed', values.seed) >>> 0 : seedFromEnv();
const rng = createRng(seed);

/** Latencies around the GPU's (3, 5, 14): none at all, short dividers (the root popped at once), long ones. */
const CONFIGS: readonly Bvh8IcSystemParams[] = [
  { fadd: 3, fmul: 5, fdiv: 14, rays: 32, nodes: 1024, triangles: 4096, vertices: 4096 },
  { fadd: 0, fmul: 0, fdiv: 0, rays: 8, nodes: 1024, triangles: 4096, vertices: 4096 },
  { fadd: 1, fmul: 2, fdiv: 4, rays: 16, nodes: 1024, triangles: 4096, vertices: 4096 },
  { fadd: 4, fmul: 9, fdiv: 30, rays: 4, nodes: 1024, triangles: 4096, vertices: 4096 },
  { fadd: 2, fmul: 1, fdiv: 7, rays: 2, nodes: 1024, triangles: 4096, vertices: 4096 },
  { fadd: 3, fmul: 5, fdiv: 14, rays: 64, threadBits: 6, nodes: 1024, triangles: 4096, vertices: 4096 },
];

console.log(`bvh8 soak: at least ${target} rays over ${CONFIGS.length} latency configurations, seed ${seed}`);
const t0 = performance.now();
let rays = 0;
let scenes = 0;
while (rays < target) {
  const p = CONFIGS[scenes % CONFIGS.length]!;
  if (scenes % 3 === 2) {
    // Instances: TLAS, instance nodes (RayTransform), BLASes; sometimes an instance node broken.
    const s = randomInstancedScene(rng, 200, p.nodes);
    const how = rng.int(4) === 0 ? INSTANCE_MALFORMATIONS[rng.int(INSTANCE_MALFORMATIONS.length)]! : undefined;
    const image = how === undefined ? s.image : encodeBvh8SceneImage(s.image[0]!, malformInstanceNode(s.words, how, rng));
    const batch = Array.from({ length: 200 }, () => ({ ...s.ray(rng), anyHit: rng.int(4) === 0 }));
    const r = runBvh8Rays(image, batch, p);
    const what = `scene ${scenes} (${s.what}${how ? `, instance node broken: ${how}` : ''}; fadd ${p.fadd} fmul ${p.fmul} fdiv ${p.fdiv}, ${p.rays} slots)`;
    if (r.loadError) mismatch(`${what}: load_error (seed ${seed})`);
    if (r.difference !== null) mismatch(`${what}: ${r.difference} (seed ${seed})`);
    if (JSON.stringify(r.counts) !== JSON.stringify(r.golden)) mismatch(`${what}: counters ${JSON.stringify(r.counts)}, castRayBvh8 ${JSON.stringify(r.golden)} (seed ${seed})`);
    rays += batch.length;
    scenes++;
    continue;
  }
  const s = randomBvhScene(rng, 600);
  const maxLeafTriangles = [1, 2, 4, 8, 16][rng.int(5)]!;
  // OBB on for every other round of the configurations, so that each meets both kinds of image.
  const obb = Math.floor(scenes / CONFIGS.length) % 2 === 1;
  const batch = Array.from({ length: 200 }, () => ({ ...(rng.int(4) === 0 ? rayFromAnySide(rng, s.scene) : s.ray(rng)), anyHit: rng.int(4) === 0 }));
  const r = runBvh8Rays(bvh8SceneImage(s.scene, { maxLeafTriangles, obb }).image, batch, p);
  const what = `scene ${scenes} (${s.what}, maxLeafTriangles ${maxLeafTriangles}${obb ? ', OBB on' : ''}; fadd ${p.fadd} fmul ${p.fmul} fdiv ${p.fdiv}, ${p.rays} slots)`;
  if (r.loadError) mismatch(`${what}: load_error (seed ${seed})`);
  if (r.difference !== null) mismatch(`${what}: ${r.difference} (seed ${seed})`);
  if (JSON.stringify(r.counts) !== JSON.stringify(r.golden)) mismatch(`${what}: counters ${JSON.stringify(r.counts)}, castRayBvh8 ${JSON.stringify(r.golden)} (seed ${seed})`);
  rays += batch.length;
  scenes++;
  if (scenes % 50 === 0) console.log(`  ${rays} rays, ${scenes} scenes, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
console.log(`bvh8 soak: ${rays} rays in ${scenes} scenes, every answer and counter as castRayBvh8's, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (values['gpu-lockstep']) {
  const problem = await bvh8GpuLockstep((line) => console.log(`  ${line}`));
  if (problem !== null) mismatch(problem);
}
