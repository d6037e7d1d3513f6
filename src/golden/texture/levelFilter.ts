// Sampling one mip level: texel coordinates from s, t in binary32, offsets, wrap, nearest or bilinear weights.
import { fadd, fmax, fmin, fmul, fsub, itof, toNumber } from '../float32.ts';
import type { TextureFormatName, WrapModeName } from './textureHeader.ts';
import { texelChannels } from './texel.ts';
import { wrapTexelIndex } from './wrap.ts';

export type Rgba = [number, number, number, number];

const HALF = 0x3f000000;
const TWO_POW_22 = 0x4a800000;
const NEG_TWO_POW_22 = 0xca800000;
const TWO_POW_8 = 0x43800000;
const TWO_POW_MINUS_8 = 0x3b800000;

/** x + w·(y − x) as fadd(x, fmul(w, fsub(y, x))). For 0 ≤ w ≤ 255/256 the result lies between x and y (inclusive). */
export const lerp32 = (x: number, y: number, w: number): number => fadd(x, fmul(w, fsub(y, x)));

/** Along one axis: the integer index of the first texel and the 8-bit weight of the next (0 for nearest). */
export interface AxisSample {
  readonly index: number;
  /** binary32 bits, a multiple of 1/256 in [0, 255/256]. */
  readonly weight: number;
}

/**
 * coord (not NaN) on an axis of `size` texels, to 8 fraction bits of fixed point:
 * u = fmul(coord, itof(size)); bilinear: u = fsub(u, 0.5); u = fmin(fmax(u, −2^22), 2^22) (±inf lands
 * there too); q = floor(fmul(u, 256)), an exact int32 in [−2^30, 2^30]; index = q >> 8 (arithmetic);
 * weight = itof(q & 255) · 2^−8 (bilinear), 0 (nearest).
 */
export function axisSample(coord: number, size: number, bilinear: boolean): AxisSample {
  let u = fmul(coord, itof(size));
  if (bilinear) u = fsub(u, HALF);
  u = fmin(fmax(u, NEG_TWO_POW_22), TWO_POW_22);
  const q = Math.floor(toNumber(fmul(u, TWO_POW_8)));
  return { index: q >> 8, weight: bilinear ? fmul(itof(q & 255), TWO_POW_MINUS_8) : 0 };
}

/** Where one level lives and how it wraps. */
export interface LevelView {
  readonly memory: ArrayLike<number>;
  /** Word address of the level's texel (0, 0). */
  readonly address: number;
  readonly width: number;
  readonly height: number;
  readonly format: TextureFormatName;
  readonly wrapS: WrapModeName;
  readonly wrapT: WrapModeName;
  /** Called with each texel word address read, in order (for texel-cache studies). */
  readonly onFetch?: (address: number) => void;
}

function fetch(level: LevelView, i: number, j: number): Rgba {
  const x = wrapTexelIndex(i, level.width, level.wrapS);
  const y = wrapTexelIndex(j, level.height, level.wrapT);
  const address = level.address + y * level.width + x;
  level.onFetch?.(address);
  return texelChannels(level.memory[address]!, level.format);
}

/**
 * One level at (s, t) with texel offsets (du, dv) added to the integer indices before wrapping.
 * Nearest: the texel at (floor(s·W) + du, floor(t·H) + dv). Bilinear: texels T00 = (i, j), T10 = (i + 1, j),
 * T01 = (i, j + 1), T11 = (i + 1, j + 1) around (s·W − 0.5, t·H − 0.5), per channel
 * lerp32(lerp32(T00, T10, a), lerp32(T01, T11, a), b) with the 8-bit weights a (along s) and b (along t).
 */
export function sampleLevel(level: LevelView, s: number, t: number, du: number, dv: number, bilinear: boolean): Rgba {
  const as = axisSample(s, level.width, bilinear);
  const at = axisSample(t, level.height, bilinear);
  const i = as.index + du;
  const j = at.index + dv;
  if (!bilinear) return fetch(level, i, j);
  const t00 = fetch(level, i, j);
  const t10 = fetch(level, i + 1, j);
  const t01 = fetch(level, i, j + 1);
  const t11 = fetch(level, i + 1, j + 1);
  return t00.map((c, k) => lerp32(lerp32(c, t10[k]!, as.weight), lerp32(t01[k]!, t11[k]!, as.weight), at.weight)) as Rgba;
}
