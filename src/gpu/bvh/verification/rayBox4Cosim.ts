// The ray–box units' co-simulation stimulus and golden model, and the BVH4 unit as a co-simulation design: a random node most cycles (tricky boxes, rays and limits), rare resets; the golden slab test checks every result at the unit's latency (`rtgpu cosim ray_box4`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { CHILDREN, RayBox4, defaultRayBox4Params, rayBox4Latency, type RayBox4Params } from '../rayBox4.ts';
import { answerFromOutputs, compareAnswers, describeNode, expectedAnswer, nodeFromInputs, nodeInputs, randomNode, type RayBoxAnswer, type RayBoxNode } from './rayBox4Vectors.ts';

export const rayBox4CosimParams: RayBox4Params = defaultRayBox4Params;

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight. */
export const rayBoxStimulus =
  (tagBits: number, children: number) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    const node = randomNode(rng, tagBits, children);
    return { rst_n, ...nodeInputs(node), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

export const rayBox4Stimulus = (p: RayBox4Params) => rayBoxStimulus(p.tagBits, CHILDREN);

/** A ray–box unit's golden model: slabTest and childOrder per node, `latency` cycles after it entered. */
export const rayBoxGolden = (latency: number, children: number): GoldenModel =>
  pipelineGolden<RayBoxNode, RayBoxAnswer>({
    latency,
    readItem: (ins) => nodeFromInputs(ins, children),
    expected: expectedAnswer,
    readAnswer: (outs) => answerFromOutputs(outs, children),
    compare: compareAnswers,
    describe: (n) => `node ${describeNode(n)}`,
  });

export const rayBox4Golden = (p: RayBox4Params): GoldenModel => rayBoxGolden(rayBox4Latency(p), CHILDREN);

export const rayBox4CosimDesign: CosimDesign = {
  name: 'ray_box4',
  description: 'BVH4 ray–box unit: random nodes (boxes ahead, behind, beside, degenerate, NaN/inf, origins on faces, limits) every cycle (golden: the slab test and child order)',
  elaborate: () => elaborate(RayBox4, rayBox4CosimParams).design,
  stimulus: rayBox4Stimulus(rayBox4CosimParams),
  golden: () => rayBox4Golden(rayBox4CosimParams),
};
