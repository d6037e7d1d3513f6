// The GFX12 node decoders as co-simulation designs: a random node most cycles, rare resets; the host decoder checks every result at the decoder's latency (`rtgpu cosim gfx12_box`, `rtgpu cosim gfx12_primitive`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { bigIntToWords, boxAnswerFromOutputs, compareBoxAnswers, expectedBoxAnswer, randomBoxNode, wordsToBigInt } from './boxNodeVectors.ts';
import { GFX12_BOX_DECODER_LATENCY, Gfx12BoxDecoder } from '../gfx12BoxDecoder.ts';
import { GFX12_PRIMITIVE_DECODER_LATENCY, Gfx12PrimitiveDecoder } from '../gfx12PrimitiveDecoder.ts';
import { comparePrimitiveAnswers, expectedPrimitiveAnswer, primitiveAnswerFromOutputs, randomPrimitiveNode } from './primitiveNodeVectors.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight. */
const nodeStimulus =
  (randomNode: (rng: Rng) => Uint32Array) =>
  (cycle: number, rng: Rng): Record<string, bigint> => {
    const rst_n = cycle < 2 || rng.int(2000) === 0 ? 0n : 1n;
    return { rst_n, node: wordsToBigInt(randomNode(rng)), in_valid: rng.int(8) === 0 ? 0n : 1n };
  };

/** Each node's answer from the host decoder, checked at the decoder's latency. */
function nodeGolden<A>(latency: number, expected: (w: Uint32Array) => A, readAnswer: (o: Readonly<Record<string, bigint>>) => A, compare: (got: A, want: A) => string | null): GoldenModel {
  return pipelineGolden<Uint32Array, A>({
    latency,
    readItem: (ins) => bigIntToWords(ins.node!),
    expected,
    readAnswer,
    compare,
    describe: (node) => `node [${Array.from(node, (w) => '0x' + w.toString(16)).join(', ')}]`,
  });
}

export const gfx12BoxStimulus = nodeStimulus(randomBoxNode);
export const gfx12BoxGolden = (): GoldenModel => nodeGolden(GFX12_BOX_DECODER_LATENCY, expectedBoxAnswer, boxAnswerFromOutputs, compareBoxAnswers);
export const gfx12PrimitiveStimulus = nodeStimulus(randomPrimitiveNode);
export const gfx12PrimitiveGolden = (): GoldenModel => nodeGolden(GFX12_PRIMITIVE_DECODER_LATENCY, expectedPrimitiveAnswer, primitiveAnswerFromOutputs, comparePrimitiveAnswers);

export const gfx12BoxCosimDesign: CosimDesign = {
  name: 'gfx12_box',
  description: 'GFX12 box-node decoder: host-encoded BVH8 box nodes at scales 1e-44 to 3e38, raw nodes with extreme origins and exponents, bad child counts (golden: decodeGfx12BoxNode + gfx12ChildBox)',
  elaborate: () => elaborate(Gfx12BoxDecoder, {}).design,
  stimulus: gfx12BoxStimulus,
  golden: gfx12BoxGolden,
};

export const gfx12PrimitiveCosimDesign: CosimDesign = {
  name: 'gfx12_primitive',
  description: 'GFX12 triangle-pair node decoder: host-encoded groups of 1 to 16 triangles over up to 15 vertices, invalid and damaged nodes (golden: decodeGfx12PrimitiveNode)',
  elaborate: () => elaborate(Gfx12PrimitiveDecoder, {}).design,
  stimulus: gfx12PrimitiveStimulus,
  golden: gfx12PrimitiveGolden,
};
