// BilinearBlend as a co-simulation design: random RGBA8 and R32F texel quads (NaN, ±inf, −0, subnormal channels) and weights every cycle; the golden texelChannels and lerp32 check every result (`rtgpu cosim bilinear_blend`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import { lerp32, lodToFloat, texelChannels, type Rgba } from '../../../golden/texture/index.ts';
import { packWords } from '../../verification/portWords.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { hex, itemStimulus } from './cosimItemVectors.ts';
import { BilinearBlend, bilinearBlendLatency, defaultBilinearBlendParams, type BilinearBlendParams } from '../bilinearBlend.ts';
import { randomTexel } from './textureOperandVectors.ts';

export interface BlendItem {
  /** T00, T10, T01, T11. */
  readonly texels: readonly [number, number, number, number];
  readonly r32f: boolean;
  readonly weightA: number;
  readonly weightB: number;
}

/** Half the time an edge weight (0, 1/256, 1/2, 255/256), else any. */
const weight = (rng: Rng): number => (rng.int(2) ? [0, 1, 128, 255][rng.int(4)]! : rng.int(256));

export function randomBlendItem(rng: Rng): BlendItem {
  const r32f = rng.int(2) === 0;
  const texel = () => randomTexel(rng, r32f);
  return { texels: [texel(), texel(), texel(), texel()], r32f, weightA: weight(rng), weightB: weight(rng) };
}

export const blendInputs = (x: BlendItem): Record<string, bigint> => ({
  t00: BigInt(x.texels[0] >>> 0),
  t10: BigInt(x.texels[1] >>> 0),
  t01: BigInt(x.texels[2] >>> 0),
  t11: BigInt(x.texels[3] >>> 0),
  format: x.r32f ? 1n : 0n,
  weight_a: BigInt(x.weightA),
  weight_b: BigInt(x.weightB),
});

export function blendFromInputs(ins: Readonly<Record<string, bigint>>): BlendItem {
  const n = (name: string) => Number(ins[name] ?? 0n);
  return { texels: [n('t00'), n('t10'), n('t01'), n('t11')], r32f: n('format') === 1, weightA: n('weight_a'), weightB: n('weight_b') };
}

/** sampleLevel's bilinear blend: per channel lerp32(lerp32(T00, T10, a), lerp32(T01, T11, a), b). */
export function expectedBlend(x: BlendItem): Rgba {
  const [t00, t10, t01, t11] = x.texels.map((w) => texelChannels(w, x.r32f ? 'r32f' : 'rgba8'));
  const a = lodToFloat(x.weightA);
  const b = lodToFloat(x.weightB);
  return t00!.map((c, k) => lerp32(lerp32(c, t10![k]!, a), lerp32(t01![k]!, t11![k]!, a), b) >>> 0) as Rgba;
}

export const rgbaFromOutputs = (outs: Readonly<Record<string, bigint>>): Rgba => {
  const v = outs.rgba ?? 0n;
  return [0, 1, 2, 3].map((k) => Number((v >> BigInt(32 * k)) & 0xffffffffn)) as Rgba;
};

export const rgbaInput = (c: readonly number[]): bigint => packWords(c.map((x) => x >>> 0));

export const compareRgba = (got: Rgba, want: Rgba): string | null =>
  got.every((c, k) => c === want[k]) ? null : `got ${got.map(hex).join(' ')}, expected ${want.map(hex).join(' ')}`;

const describeBlend = (x: BlendItem): string => `${x.r32f ? 'R32F' : 'RGBA8'} texels ${x.texels.map(hex).join(' ')} weights ${x.weightA}, ${x.weightB}`;

/** A random item most cycles, rare resets, a bubble one cycle in eight. */
export const bilinearBlendStimulus = itemStimulus((rng) => blendInputs(randomBlendItem(rng)));

export const bilinearBlendGolden = (p: BilinearBlendParams): GoldenModel =>
  pipelineGolden({ latency: bilinearBlendLatency(p), readItem: blendFromInputs, expected: expectedBlend, readAnswer: rgbaFromOutputs, compare: compareRgba, describe: describeBlend });

export const bilinearBlendCosimDesign: CosimDesign = {
  name: 'bilinear_blend',
  description: 'texture filter stage: random RGBA8 and R32F texel quads (NaN, ±inf, −0, subnormal) and 8-bit weights every cycle (golden: texelChannels, lerp32)',
  elaborate: () => elaborate(BilinearBlend, defaultBilinearBlendParams).design,
  stimulus: bilinearBlendStimulus,
  golden: () => bilinearBlendGolden(defaultBilinearBlendParams),
};
