// txd's packed operand words: the texture handle (RVa.z) and the LOD clamp and texel offsets (RVa.w), after seed 003.

/**
 * The handle, seed 003's bindless word `samplerPtr[31:20] | headerPtr[19:0]`. The pointers are pool
 * indices: header h is the 4 words at texture memory word 4·h, sampler s the 2 words at word 2·s, so
 * each is one aligned 128-bit or 64-bit read for the hardware.
 */
export const TXD_HANDLE = {
  header: { lo: 0, width: 20, words: 4 },
  sampler: { lo: 20, width: 12, words: 2 },
} as const;

/**
 * The control word, seed 003's `.LC`/`.AOFFI` register `LodClamp[31:20] | toff[19:12] | array[11:0]`:
 * LOD clamp u4.8, toff = (v << 4) | u with u and v two's complement −8 … +7. Bits 11:0 (the seed's
 * array index) are ignored: there are no array textures, and the seed lets an array index go with a
 * non-array texture.
 */
export const TXD_CONTROL = {
  lodClamp: { lo: 20, width: 12 },
  offset: { lo: 12, width: 8 },
} as const;

/** Texel offsets per axis, as seed 003's 4-bit fields. */
export const TXD_OFFSET_MIN = -8;
export const TXD_OFFSET_MAX = 7;
/** The largest LOD clamp (u4.8 raw: 16 − 1/256). */
export const TXD_LOD_CLAMP_MAX = 0xfff;

const bits = (word: number, f: { lo: number; width: number }): number => (word >>> f.lo) & ((1 << f.width) - 1);

function checkRange(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`${name} must be an integer ${min} … ${max}, got ${v}`);
}

/** The handle naming header pool entry `headerIndex` and sampler pool entry `samplerIndex`. */
export function encodeTxdHandle(headerIndex: number, samplerIndex: number): number {
  checkRange('header index', headerIndex, 0, (1 << TXD_HANDLE.header.width) - 1);
  checkRange('sampler index', samplerIndex, 0, (1 << TXD_HANDLE.sampler.width) - 1);
  return ((samplerIndex << TXD_HANDLE.sampler.lo) | (headerIndex << TXD_HANDLE.header.lo)) >>> 0;
}

/** Texture memory word addresses of the header and sampler a handle names. */
export function txdHandleAddresses(handle: number): { readonly header: number; readonly sampler: number } {
  return {
    header: bits(handle, TXD_HANDLE.header) * TXD_HANDLE.header.words,
    sampler: bits(handle, TXD_HANDLE.sampler) * TXD_HANDLE.sampler.words,
  };
}

/** The control word for a LOD clamp (u4.8 raw, 0 … 4095) and texel offsets du, dv (−8 … +7). */
export function encodeTxdControl(lodClamp: number, du: number, dv: number): number {
  checkRange('LOD clamp', lodClamp, 0, TXD_LOD_CLAMP_MAX);
  checkRange('texel offset u', du, TXD_OFFSET_MIN, TXD_OFFSET_MAX);
  checkRange('texel offset v', dv, TXD_OFFSET_MIN, TXD_OFFSET_MAX);
  const offset = ((dv & 0xf) << 4) | (du & 0xf);
  return ((lodClamp << TXD_CONTROL.lodClamp.lo) | (offset << TXD_CONTROL.offset.lo)) >>> 0;
}

/** The LOD clamp (u4.8 raw) and the offset byte (u in 3:0, v in 7:4, as sampleTxd takes it) of a control word. */
export function decodeTxdControl(word: number): { readonly lodClamp: number; readonly offset: number } {
  return { lodClamp: bits(word, TXD_CONTROL.lodClamp), offset: bits(word, TXD_CONTROL.offset) };
}
