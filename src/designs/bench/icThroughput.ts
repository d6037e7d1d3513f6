// Triangle tests per busy cycle of one IC core over 512-triangle sweeps, for `rtgpu bench` (icTestsPerCycle).
import { runRays } from '../../gpu/icCore/verification/rayRunner.ts';
import { randomIcScene, randomRay } from '../../gpu/icCore/verification/rayVectors.ts';
import { createRng } from '../../util/seededRandom.ts';
import { rayIsValid } from '../../golden/rayCaster.ts';

export function measureIcThroughput(): { icTestsPerCycle: number } {
  const rng = createRng(512);
  const scene = randomIcScene(rng, 512);
  // Valid rays only: an invalid ray is answered without a sweep.
  const rays = Array.from({ length: 20 }, () => randomRay(rng, scene)).filter((r) => rayIsValid(r.origin, r.direction));
  const r = runRays(scene, rays);
  if (r.difference) throw new Error(`IC throughput run disagrees with the caster: ${r.difference}`);
  return { icTestsPerCycle: r.testsPerBusyCycle };
}
