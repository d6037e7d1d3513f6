// The BVH8 box engine as a co-simulation design: a random 8-child node most cycles (with an entry clamp), rare resets; the golden slab test and child order check every result (`rtgpu cosim ray_box8`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { rayBoxGolden } from '../../bvh/verification/rayBox4Cosim.ts';
import { nodeInputs, randomNode } from '../../bvh/verification/rayBox4Vectors.ts';
import { BVH8_CHILDREN, RayBox8, defaultRayBox8Params, rayBox8Latency } from '../rayBox8.ts';

/** Reset for the first two cycles, then rarely; a bubble one cycle in eight; every node with an entry clamp (`lower`: +0 half the time). */
export const rayBox8Stimulus =
  (tagBits: number) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    return { rst_n, ...nodeInputs(randomNode(rng, tagBits, BVH8_CHILDREN, true)), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

export const rayBox8CosimDesign: CosimDesign = {
  name: 'ray_box8',
  description: 'BVH8 box engine: random 8-child nodes (boxes ahead, behind, beside, degenerate, NaN/inf, equal tnear, limits, entry clamps) every cycle (golden: slabTest and childOrder)',
  elaborate: () => elaborate(RayBox8, defaultRayBox8Params).design,
  stimulus: rayBox8Stimulus(defaultRayBox8Params.tagBits),
  golden: () => rayBoxGolden(rayBox8Latency(defaultRayBox8Params), BVH8_CHILDREN),
};
