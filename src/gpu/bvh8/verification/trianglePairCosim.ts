// The BVH8 triangle engine as a co-simulation design: a random pair most cycles (shared edges and vertices, duplicates, degenerate triangles, ties with the incoming best, random ray queries and one-sided triangles), rare resets; the golden watertight test, `accepts` and `closer` check every result (`rtgpu cosim triangle_pair`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { TrianglePair, defaultTrianglePairParams, trianglePairLatency, type TrianglePairParams } from '../trianglePair.ts';
import { comparePairAnswers, describePair, expectedPair, pairAnswerFromOutputs, pairFromInputs, pairInputs, randomPair } from './trianglePairVectors.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight. */
export const trianglePairStimulus =
  (p: TrianglePairParams) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    return { rst_n, ...pairInputs(randomPair(rng, p.tagBits)), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

/** The golden model: testTriangleWatertight on both triangles, the query's `accepts` and castRayBvh8's closest-hit update, `latency` cycles after the pair entered. */
export const trianglePairGolden = (p: TrianglePairParams): GoldenModel =>
  pipelineGolden({
    latency: trianglePairLatency(p),
    readItem: pairFromInputs,
    expected: expectedPair,
    readAnswer: pairAnswerFromOutputs,
    compare: comparePairAnswers,
    describe: describePair,
  });

export const trianglePairCosimDesign: CosimDesign = {
  name: 'triangle_pair',
  description: 'BVH8 triangle engine: random triangle pairs (shared edges and vertices hit exactly, duplicates, degenerate, NaN/inf) every cycle, with an incoming best and random ray queries (golden: the watertight test, accepts and closer)',
  elaborate: () => elaborate(TrianglePair, defaultTrianglePairParams).design,
  stimulus: trianglePairStimulus(defaultTrianglePairParams),
  golden: () => trianglePairGolden(defaultTrianglePairParams),
};
