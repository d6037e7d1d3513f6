// TextureLod as a co-simulation design: random sizes, samplers, LOD clamps and derivatives (NaN, ±inf, zero, subnormal, huge) every cycle; the golden computeLod checks every result (`rtgpu cosim texture_lod`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import { computeLod, type LodInputs } from '../../../golden/texture/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { hex, itemStimulus } from './cosimItemVectors.ts';
import { TextureLod, defaultTextureLodParams, textureLodLatency, type TextureLodParams } from '../textureLod.ts';
import { randomDerivative, randomFloatBits, randomSize } from './textureOperandVectors.ts';

export interface LodItem extends LodInputs {
  readonly dsdx: number;
  readonly dsdy: number;
  readonly dtdx: number;
  readonly dtdy: number;
}

export interface LodAnswer {
  readonly lambda: number;
  readonly lod: number;
}

/** A random LOD computation: a valid header's size and mip count, a valid sampler (min ≤ max), any clamp. */
export function randomLodItem(rng: Rng): LodItem {
  const width = randomSize(rng);
  const height = randomSize(rng);
  const lodMinRaw = rng.int(4) === 0 ? 0 : rng.int(0x1000);
  const lodMaxRaw = rng.int(4) === 0 ? 0xfff : lodMinRaw + rng.int(0x1000 - lodMinRaw);
  // One item in eight has one special value on all four derivatives (a NaN footprint needs both axes NaN).
  const shared = rng.int(8) === 0 ? randomFloatBits(rng) : undefined;
  const derivative = (size: number) => shared ?? (rng.int(8) === 0 ? randomFloatBits(rng) : randomDerivative(rng, size));
  return {
    width,
    height,
    mipCount: 1 + rng.int(15),
    lodBiasRaw: rng.int(3) === 0 ? 0 : rng.int(0x2000) - 0x1000,
    lodMinRaw,
    lodMaxRaw,
    lodClampRaw: rng.int(3) === 0 ? 0 : rng.int(0x1000),
    dsdx: derivative(width),
    dsdy: derivative(width),
    dtdx: derivative(height),
    dtdy: derivative(height),
  };
}

export const lodInputs = (x: LodItem): Record<string, bigint> => ({
  width: BigInt(x.width),
  height: BigInt(x.height),
  mip_count: BigInt(x.mipCount),
  lod_bias: BigInt(x.lodBiasRaw & 0x1fff),
  lod_min: BigInt(x.lodMinRaw),
  lod_max: BigInt(x.lodMaxRaw),
  lod_clamp: BigInt(x.lodClampRaw),
  dsdx: BigInt(x.dsdx >>> 0),
  dsdy: BigInt(x.dsdy >>> 0),
  dtdx: BigInt(x.dtdx >>> 0),
  dtdy: BigInt(x.dtdy >>> 0),
});

export function lodFromInputs(ins: Readonly<Record<string, bigint>>): LodItem {
  const n = (name: string) => Number(ins[name] ?? 0n);
  const bias = n('lod_bias');
  return {
    width: n('width'),
    height: n('height'),
    mipCount: n('mip_count'),
    lodBiasRaw: bias & 0x1000 ? bias - 0x2000 : bias,
    lodMinRaw: n('lod_min'),
    lodMaxRaw: n('lod_max'),
    lodClampRaw: n('lod_clamp'),
    dsdx: n('dsdx'),
    dsdy: n('dsdy'),
    dtdx: n('dtdx'),
    dtdy: n('dtdy'),
  };
}

export function expectedLod(x: LodItem): LodAnswer {
  const steps = computeLod(x, x.dsdx, x.dsdy, x.dtdx, x.dtdy);
  return { lambda: steps.lambda >>> 0, lod: steps.lod };
}

export const lodAnswerFromOutputs = (outs: Readonly<Record<string, bigint>>): LodAnswer => ({ lambda: Number(outs.lambda ?? 0n), lod: Number(outs.lod ?? 0n) });

export const describeLod = (x: LodItem): string =>
  `LOD of ${x.width}×${x.height} (${x.mipCount} levels, bias ${x.lodBiasRaw}, min ${x.lodMinRaw}, max ${x.lodMaxRaw}, clamp ${x.lodClampRaw}) d ${[x.dsdx, x.dsdy, x.dtdx, x.dtdy].map(hex).join(' ')}`;

export const compareLod = (got: LodAnswer, want: LodAnswer): string | null =>
  got.lambda === want.lambda && got.lod === want.lod ? null : `got lambda ${hex(got.lambda)} lod ${got.lod}, expected lambda ${hex(want.lambda)} lod ${want.lod}`;

/** A random item most cycles, rare resets, a bubble one cycle in eight. */
export const textureLodStimulus = itemStimulus((rng) => lodInputs(randomLodItem(rng)));

export const textureLodGolden = (p: TextureLodParams): GoldenModel =>
  pipelineGolden({ latency: textureLodLatency(p), readItem: lodFromInputs, expected: expectedLod, readAnswer: lodAnswerFromOutputs, compare: compareLod, describe: describeLod });

export const textureLodCosimDesign: CosimDesign = {
  name: 'texture_lod',
  description: 'texture LOD stage: random sizes, samplers, .LC clamps and derivatives (NaN, ±inf, zero, subnormal, huge) every cycle (golden: computeLod)',
  elaborate: () => elaborate(TextureLod, defaultTextureLodParams).design,
  stimulus: textureLodStimulus,
  golden: () => textureLodGolden(defaultTextureLodParams),
};
