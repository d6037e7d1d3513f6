// The OBB ray rotation as a co-simulation design: a random ray with each ROM matrix, off and invalid indices in turn most cycles, rare resets; the golden obbRay checks every result (`rtgpu cosim obb_ray_rotate`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { ObbRayRotate, defaultObbRayRotateParams, obbRayRotateLatency, type ObbRayRotateParams } from '../obbRayRotate.ts';
import { compareObbAnswers, describeObb, expectedObb, obbAnswerFromOutputs, obbFromInputs, obbInputs, randomObbItem } from './obbRayVectors.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight. */
export const obbRayRotateStimulus =
  (p: ObbRayRotateParams) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    return { rst_n, ...obbInputs(randomObbItem(rng, p.tagBits, cycle)), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

/** The golden model: obbRay on each ray, `latency` cycles after it entered. */
export const obbRayRotateGolden = (p: ObbRayRotateParams): GoldenModel =>
  pipelineGolden({
    latency: obbRayRotateLatency(p),
    readItem: obbFromInputs,
    expected: expectedObb,
    readAnswer: obbAnswerFromOutputs,
    compare: compareObbAnswers,
    describe: describeObb,
  });

export const obbRayRotateCosimDesign: CosimDesign = {
  name: 'obb_ray_rotate',
  description: 'OBB ray rotation: random rays (zeros, subnormals, inf/NaN, all scales) with every ROM matrix, off (0x7F) and invalid indices (golden: obbRay, rotateObb then rayInverse)',
  elaborate: () => elaborate(ObbRayRotate, defaultObbRayRotateParams).design,
  stimulus: obbRayRotateStimulus(defaultObbRayRotateParams),
  golden: () => obbRayRotateGolden(defaultObbRayRotateParams),
};
