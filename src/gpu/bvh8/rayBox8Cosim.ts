// The BVH8 box engine as a co-simulation design: a random 8-child node most cycles, rare resets; the golden slab test and child order check every result (`rtgpu cosim ray_box8`).
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign } from '../../hdl/cosim/index.ts';
import { rayBoxGolden, rayBoxStimulus } from '../bvh/cosimDesign.ts';
import { BVH8_CHILDREN, RayBox8, defaultRayBox8Params, rayBox8Latency } from './rayBox8.ts';

export const rayBox8CosimDesign: CosimDesign = {
  name: 'ray_box8',
  description: 'BVH8 box engine: random 8-child nodes (boxes ahead, behind, beside, degenerate, NaN/inf, equal tnear, limits) every cycle (golden: slabTest and childOrder)',
  elaborate: () => elaborate(RayBox8, defaultRayBox8Params).design,
  stimulus: rayBoxStimulus(defaultRayBox8Params.tagBits, BVH8_CHILDREN),
  golden: () => rayBoxGolden(rayBox8Latency(defaultRayBox8Params), BVH8_CHILDREN),
};
