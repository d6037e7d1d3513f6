// TexelCoordinates as a co-simulation design: random coordinates (texel edges and centres, NaN, ±inf, huge), sizes 1 … 16384, offsets, filters and wrap modes every cycle; the golden axisSample and wrapTexelIndex check every result (`rtgpu cosim texel_coordinates`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import { isNaN32, toNumber } from '../../../golden/float32.ts';
import { WrapMode, axisSample, wrapTexelIndex, type WrapModeName } from '../../../golden/texture/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import { hex, itemStimulus } from './cosimItemVectors.ts';
import { TexelCoordinates, defaultTexelCoordinatesParams, texelCoordinatesLatency, type TexelCoordinatesParams } from '../texelCoordinates.ts';
import { randomCoordinate, randomSize } from './textureOperandVectors.ts';

export interface CoordinateItem {
  readonly s: number;
  readonly t: number;
  readonly width: number;
  readonly height: number;
  /** Offsets −8 … +7. */
  readonly du: number;
  readonly dv: number;
  readonly bilinear: boolean;
  readonly wrapS: WrapModeName;
  readonly wrapT: WrapModeName;
}

export interface CoordinateAnswer {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
  readonly weightA: number;
  readonly weightB: number;
}

const WRAP_NAMES = Object.keys(WrapMode) as WrapModeName[];
export function randomCoordinateItem(rng: Rng): CoordinateItem {
  const width = randomSize(rng);
  const height = randomSize(rng);
  return {
    s: randomCoordinate(rng, width),
    t: randomCoordinate(rng, height),
    width,
    height,
    du: rng.int(16) - 8,
    dv: rng.int(16) - 8,
    bilinear: rng.int(4) !== 0,
    wrapS: WRAP_NAMES[rng.int(3)]!,
    wrapT: WRAP_NAMES[rng.int(3)]!,
  };
}

export const coordinateInputs = (x: CoordinateItem): Record<string, bigint> => ({
  s: BigInt(x.s >>> 0),
  t: BigInt(x.t >>> 0),
  width: BigInt(x.width),
  height: BigInt(x.height),
  du: BigInt(x.du & 15),
  dv: BigInt(x.dv & 15),
  bilinear: x.bilinear ? 1n : 0n,
  wrap_s: BigInt(WrapMode[x.wrapS]),
  wrap_t: BigInt(WrapMode[x.wrapT]),
});

const nibble = (v: number): number => ((v & 0xf) ^ 8) - 8;

export function coordinateFromInputs(ins: Readonly<Record<string, bigint>>): CoordinateItem {
  const n = (name: string) => Number(ins[name] ?? 0n);
  return {
    s: n('s'),
    t: n('t'),
    width: n('width'),
    height: n('height'),
    du: nibble(n('du')),
    dv: nibble(n('dv')),
    bilinear: n('bilinear') === 1,
    wrapS: WRAP_NAMES[n('wrap_s')] ?? 'repeat',
    wrapT: WRAP_NAMES[n('wrap_t')] ?? 'repeat',
  };
}

/** sampleLevel's indices along one axis: axisSample, the offset, wrapTexelIndex of i and i + 1; the weight × 256. */
function axis(coord: number, size: number, offset: number, bilinear: boolean, mode: WrapModeName): [number, number, number] {
  const a = axisSample(isNaN32(coord) ? 0 : coord >>> 0, size, bilinear);
  const i = a.index + offset;
  return [wrapTexelIndex(i, size, mode), wrapTexelIndex(i + 1, size, mode), toNumber(a.weight) * 256];
}

export function expectedCoordinates(x: CoordinateItem): CoordinateAnswer {
  const [x0, x1, weightA] = axis(x.s, x.width, x.du, x.bilinear, x.wrapS);
  const [y0, y1, weightB] = axis(x.t, x.height, x.dv, x.bilinear, x.wrapT);
  return { x0, x1, y0, y1, weightA, weightB };
}

export const coordinateAnswerFromOutputs = (outs: Readonly<Record<string, bigint>>): CoordinateAnswer => ({
  x0: Number(outs.x0 ?? 0n),
  x1: Number(outs.x1 ?? 0n),
  y0: Number(outs.y0 ?? 0n),
  y1: Number(outs.y1 ?? 0n),
  weightA: Number(outs.weight_a ?? 0n),
  weightB: Number(outs.weight_b ?? 0n),
});

export const describeCoordinates = (x: CoordinateItem): string =>
  `(${hex(x.s)}, ${hex(x.t)}) on ${x.width}×${x.height} offset (${x.du}, ${x.dv}) ${x.bilinear ? 'bilinear' : 'nearest'} ${x.wrapS}/${x.wrapT}`;

export function compareCoordinates(got: CoordinateAnswer, want: CoordinateAnswer): string | null {
  const keys = Object.keys(want) as (keyof CoordinateAnswer)[];
  const bad = keys.filter((k) => got[k] !== want[k]);
  return bad.length === 0 ? null : `got ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
}

/** A random item most cycles, rare resets, a bubble one cycle in eight. */
export const texelCoordinatesStimulus = itemStimulus((rng) => coordinateInputs(randomCoordinateItem(rng)));

export const texelCoordinatesGolden = (p: TexelCoordinatesParams): GoldenModel =>
  pipelineGolden({
    latency: texelCoordinatesLatency(p),
    readItem: coordinateFromInputs,
    expected: expectedCoordinates,
    readAnswer: coordinateAnswerFromOutputs,
    compare: compareCoordinates,
    describe: describeCoordinates,
  });

export const texelCoordinatesCosimDesign: CosimDesign = {
  name: 'texel_coordinates',
  description: 'texture coordinate stage: random s, t (edges, centres, NaN, ±inf, huge), sizes 1 … 16384, offsets, filters and wrap modes every cycle (golden: axisSample, wrapTexelIndex)',
  elaborate: () => elaborate(TexelCoordinates, defaultTexelCoordinatesParams).design,
  stimulus: texelCoordinatesStimulus,
  golden: () => texelCoordinatesGolden(defaultTexelCoordinatesParams),
};
