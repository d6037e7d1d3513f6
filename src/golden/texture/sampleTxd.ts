// The golden TXD: a texture fetch with explicit derivatives (seed 003) on packed header and sampler words.
import { isNaN32 } from '../float32.ts';
import { computeLod, lodToFloat, type LodSteps } from './lod.ts';
import { lerp32, sampleLevel, type LevelView, type Rgba } from './levelFilter.ts';
import { mipChainWords, mipLevelOffset, mipLevelSize } from './mipChain.ts';
import { decodeTextureHeader } from './textureHeader.ts';
import { decodeTextureSampler } from './textureSampler.ts';

/** Status bits of a TXD; any of them set means the four results are +0 (in the written lanes). */
export const TxdStatus = {
  ok: 0,
  /** The header words do not decode (docs/texture.md lists the cases). */
  invalidHeader: 1,
  /** The sampler words do not decode. */
  invalidSampler: 2,
  /** The header's mip chain does not fit in texture memory. */
  outOfMemory: 4,
} as const;

export interface TxdOptions {
  /** The destination's previous lanes, kept where writeMask is 0 (binary32 bits); default four +0. */
  readonly dest?: readonly number[];
  /** seed 003's .LC LOD clamp, u4.8 raw (0 … 4095): λ ≥ lodClamp / 256. Default 0. */
  readonly lodClamp?: number;
  /** Called with each texel word address read, in order. */
  readonly onFetch?: (address: number) => void;
}

export interface TxdResult {
  /** R, G, B, A as binary32 bits; lanes outside the write mask are options.dest's. */
  readonly rgba: Rgba;
  /** TxdStatus bits. */
  readonly status: number;
  /** The LOD steps (undefined when the header or sampler is invalid). */
  readonly lod?: LodSteps;
}

/** Signed 4-bit field. */
const nibble = (v: number): number => ((v & 0xf) ^ 8) - 8;

function checkOperands(offset: number, writeMask: number, lodClamp: number): void {
  const bad = (name: string, v: number, max: number) => !Number.isInteger(v) || v < 0 || v > max ? `${name} must be an integer 0 … ${max}, got ${v}` : undefined;
  const problem = bad('offset', offset, 0xff) ?? bad('writeMask', writeMask, 0xf) ?? bad('lodClamp', lodClamp, 0xfff);
  if (problem) throw new RangeError(`sampleTxd: ${problem}`);
}

/**
 * Samples a 2D texture at (s, t) with explicit derivatives (every float operand a binary32 bit pattern).
 * `header` and `sampler` are the packed words (encodeTextureHeader, encodeTextureSampler); `memory` is
 * texture memory, one 32-bit word per element. `offset` is seed 003's .AOFFI byte: u in bits 3:0 and v in
 * bits 7:4, each −8 … +7, added to the integer texel indices of every level before wrapping. Lane k of
 * the result is written when bit k of `writeMask` is set (R = bit 0 … A = bit 3). NaN coordinates read as +0.
 * The arithmetic is docs/texture.md's, in binary32 with round to nearest even.
 */
export function sampleTxd(
  memory: ArrayLike<number>,
  header: ArrayLike<number>,
  sampler: ArrayLike<number>,
  s: number,
  t: number,
  dsdx: number,
  dsdy: number,
  dtdx: number,
  dtdy: number,
  offset: number,
  writeMask: number,
  options: TxdOptions = {},
): TxdResult {
  const lodClamp = options.lodClamp ?? 0;
  checkOperands(offset, writeMask, lodClamp);
  const dest = options.dest ?? [0, 0, 0, 0];
  const masked = (value: Rgba): Rgba => value.map((v, k) => ((writeMask >>> k) & 1 ? v : dest[k]! >>> 0)) as Rgba;

  const h = decodeTextureHeader(header);
  const smp = decodeTextureSampler(sampler);
  let status: number = TxdStatus.ok;
  if (!h.ok) status |= TxdStatus.invalidHeader;
  if (!smp.ok) status |= TxdStatus.invalidSampler;
  if (h.ok && h.header.base + mipChainWords(h.header.width, h.header.height, h.header.mipCount) > memory.length) status |= TxdStatus.outOfMemory;
  if (!h.ok || !smp.ok || status !== TxdStatus.ok) return { rgba: masked([0, 0, 0, 0]), status };
  const hd = h.header;
  const sm = smp.sampler;

  const lod = computeLod({ ...hd, ...sm, lodClampRaw: lodClamp }, dsdx, dsdy, dtdx, dtdy);
  const sc = isNaN32(s) ? 0 : s >>> 0;
  const tc = isNaN32(t) ? 0 : t >>> 0;
  const du = nibble(offset);
  const dv = nibble(offset >>> 4);
  const level = (l: number): Rgba => {
    const size = mipLevelSize(hd.width, hd.height, l);
    const view: LevelView = {
      memory,
      address: hd.base + mipLevelOffset(hd.width, hd.height, l),
      ...size,
      format: hd.format,
      wrapS: hd.wrapS,
      wrapT: hd.wrapT,
      ...(options.onFetch ? { onFetch: options.onFetch } : {}),
    };
    return sampleLevel(view, sc, tc, du, dv, sm.filter !== 'nearest');
  };

  let rgba: Rgba;
  if (sm.filter === 'trilinear') {
    // Levels d and d + 1 blended by the LOD's 8 fraction bits; a zero fraction reads level d alone.
    const d = lod.lod >> 8;
    const fraction = lod.lod & 0xff;
    const fine = level(d);
    if (fraction === 0) rgba = fine;
    else {
      const coarse = level(d + 1);
      const w = lodToFloat(fraction);
      rgba = fine.map((c, k) => lerp32(c, coarse[k]!, w)) as Rgba;
    }
  } else {
    // The nearest level: round half down, as OpenGL's ceil(λ + 0.5) − 1.
    rgba = level((lod.lod + 127) >> 8);
  }
  return { rgba: masked(rgba), status, lod };
}
