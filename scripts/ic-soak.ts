// Soak test of the IC system: random scenes and rays through the core + triangle memory on the TS
// simulator against the golden caster. Usage: npx tsx scripts/ic-soak.ts [--tests 1000000] [--seed S]
// [--watertight] (the watertight triangle test; closed meshes with rays at their shared edges join the mix).
// Half the open scenes carry random masks and one-sided triangles, half the rays a random query (docs/rays.md).
import { parseArgs } from 'node:util';
import { runRays } from '../src/gpu/icCore/verification/rayRunner.ts';
import { closedMeshRay, randomClosedMesh, randomIcScene, randomRay, randomRayQuery, withRandomMasks, type Ray } from '../src/gpu/icCore/verification/rayVectors.ts';
import { defaultIcSystemParams } from '../src/gpu/icCore/icSystem.ts';
import { createRng, seedFromEnv } from '../src/util/seededRandom.ts';

/** Bad flags end the script with a one-line message and exit status 2, not a stack trace. */
function fail(message: string): never {
  console.error(`ic-soak: ${message}`);
  process.exit(2);
}

function flags() {
  try {
    return parseArgs({ options: { tests: { type: 'string', default: '1000000' }, seed: { type: 'string' }, watertight: { type: 'boolean' } } }).values;
  } catch (e) {
    fail((e as Error).message);
  }
}
const values = flags();
const whole = (name: string, v: string) => (/^\d+$/.test(v) && Number(v) > 0 ? Number(v) : fail(`--${name} must be a positive whole number, got '${v}'`));
const target = whole('tests', values.tests);
const seed = values.seed !== undefined ? whole('seed', values.seed) >>> 0 : seedFromEnv();
const rng = createRng(seed);
const params = values.watertight ? { ...defaultIcSystemParams, triangleTest: 'watertight' as const } : defaultIcSystemParams;
console.log(`ic soak: at least ${target} ray-triangle tests, seed ${seed}${values.watertight ? ', watertight test' : ''}`);
const t0 = performance.now();
let tests = 0;
let rays = 0;
let scenes = 0;
while (tests < target) {
  // A mix: tricky small scenes (degenerate, coplanar, duplicates), medium and full-size ones.
  const size = [0, 0, 8, 40, 200, 512][rng.int(6)]!;
  const closed = values.watertight && rng.int(3) === 0;
  const open = () => (rng.int(2) === 0 ? withRandomMasks(rng, randomIcScene(rng, size)) : randomIcScene(rng, size));
  const scene = closed ? randomClosedMesh(rng) : open();
  const ray = (): Ray => (closed ? closedMeshRay(rng, scene) : randomRay(rng, scene));
  const batch = Array.from({ length: size >= 200 ? 60 : 300 }, () => (rng.int(2) === 0 ? { ...ray(), query: randomRayQuery(rng) } : ray()));
  const r = runRays(scene, batch, params);
  scenes++;
  rays += r.rays;
  tests += r.tests;
  if (r.difference) {
    console.log(`scene ${scenes} (${size || 'small'} triangles): ${r.difference}`);
    process.exit(1);
  }
}
console.log(`${tests} tests, ${rays} rays, ${scenes} scenes, 0 differences, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
