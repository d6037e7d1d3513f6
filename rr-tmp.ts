import { runRays } from './src/gpu/icCore/rayRunner.ts';
import { randomIcScene, randomRay } from './src/gpu/icCore/rays.ts';
import { createRng } from './src/hdl/cosim/rng.ts';
const rng = createRng(1);
let t0 = performance.now();
for (const size of [0, 0, 40, 512]) {
  const scene = randomIcScene(rng, size);
  const rays = Array.from({ length: size === 512 ? 100 : 300 }, () => randomRay(rng, scene));
  const r = runRays(scene, rays);
  console.log(size, r.rays, r.tests, r.cycles, r.testsPerBusyCycle.toFixed(3), r.difference, ((performance.now() - t0) / 1000).toFixed(1), 's');
  t0 = performance.now();
}
