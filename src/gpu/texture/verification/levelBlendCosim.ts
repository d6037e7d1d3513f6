// LevelBlend as a co-simulation design: random fine and coarse colours (special values included) and LOD fractions (zero often) every cycle; sampleTxd's trilinear blend checks every result (`rtgpu cosim level_blend`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import { lerp32, lodToFloat, type Rgba } from '../../../golden/texture/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { hex, itemStimulus } from './cosimItemVectors.ts';
import { compareRgba, rgbaFromOutputs, rgbaInput } from './bilinearBlendCosim.ts';
import { LevelBlend, defaultLevelBlendParams, levelBlendLatency, type LevelBlendParams } from '../levelBlend.ts';
import { randomFloatBits } from './textureOperandVectors.ts';

export interface LevelBlendItem {
  readonly fine: Rgba;
  readonly coarse: Rgba;
  readonly fraction: number;
}

const rgba = (v: bigint): Rgba => [0, 1, 2, 3].map((k) => Number((v >> BigInt(32 * k)) & 0xffffffffn)) as Rgba;

export function randomLevelBlendItem(rng: Rng): LevelBlendItem {
  const colour = () => [0, 1, 2, 3].map(() => randomFloatBits(rng) >>> 0) as Rgba;
  return { fine: colour(), coarse: colour(), fraction: rng.int(4) === 0 ? 0 : rng.int(256) };
}

export const levelBlendInputs = (x: LevelBlendItem): Record<string, bigint> => ({ fine: rgbaInput(x.fine), coarse: rgbaInput(x.coarse), fraction: BigInt(x.fraction) });

export const levelBlendFromInputs = (ins: Readonly<Record<string, bigint>>): LevelBlendItem => ({
  fine: rgba(ins.fine ?? 0n),
  coarse: rgba(ins.coarse ?? 0n),
  fraction: Number(ins.fraction ?? 0n),
});

/** sampleTxd's trilinear step: the fine level alone for a zero fraction, else lerp32(fine, coarse, fraction / 256) per channel. */
export function expectedLevelBlend(x: LevelBlendItem): Rgba {
  if (x.fraction === 0) return x.fine;
  const w = lodToFloat(x.fraction);
  return x.fine.map((c, k) => lerp32(c, x.coarse[k]!, w) >>> 0) as Rgba;
}

const describeLevelBlend = (x: LevelBlendItem): string => `fine ${x.fine.map(hex).join(' ')} coarse ${x.coarse.map(hex).join(' ')} fraction ${x.fraction}`;

/** A random item most cycles, rare resets, a bubble one cycle in eight. */
export const levelBlendStimulus = itemStimulus((rng) => levelBlendInputs(randomLevelBlendItem(rng)));

export const levelBlendGolden = (p: LevelBlendParams): GoldenModel =>
  pipelineGolden({ latency: levelBlendLatency(p), readItem: levelBlendFromInputs, expected: expectedLevelBlend, readAnswer: rgbaFromOutputs, compare: compareRgba, describe: describeLevelBlend });

export const levelBlendCosimDesign: CosimDesign = {
  name: 'level_blend',
  description: 'texture trilinear stage: random fine and coarse colours (NaN, ±inf, −0, subnormal) and LOD fractions every cycle (golden: sampleTxd’s level blend)',
  elaborate: () => elaborate(LevelBlend, defaultLevelBlendParams).design,
  stimulus: levelBlendStimulus,
  golden: () => levelBlendGolden(defaultLevelBlendParams),
};
