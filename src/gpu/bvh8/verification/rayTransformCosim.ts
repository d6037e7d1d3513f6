// The ray transform block as a co-simulation design: a random matrix and ray most cycles (NaN, inf, zero, subnormal and huge components among them), rare resets; the golden transformRay checks every result (`rtgpu cosim ray_transform`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { RayTransform, defaultRayTransformParams, type RayTransformParams } from '../rayTransform.ts';
import { randomTransformItem, rayTransformGolden, transformInputs } from './rayTransformVectors.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight. */
export const rayTransformStimulus =
  (p: RayTransformParams) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    return { rst_n, ...transformInputs(randomTransformItem(rng, p.tagBits)), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

export const rayTransformCosimDesign: CosimDesign = {
  name: 'ray_transform',
  description: 'BVH8 ray transform block: random 3×4 matrices and rays (NaN, inf, zero, subnormal, huge components) every cycle (golden: transformRay, M·o + t, M·d, 1/(M·d))',
  elaborate: () => elaborate(RayTransform, defaultRayTransformParams).design,
  stimulus: rayTransformStimulus(defaultRayTransformParams),
  golden: () => rayTransformGolden(defaultRayTransformParams),
};
