// Reading a 32-bit field at a run-time bit position: a word select (two balanced mux trees) then a 64-to-32-bit barrel shift by the bit offset.
import { cat, hideFromSourceLocations, lit, mux, type UIntValue } from '../../hdl/index.ts';
import { selectByIndex } from '../../hdl/lib/index.ts';

// The selects carry the line of the decoder that reads the field.
hideFromSourceLocations(import.meta.url);

/**
 * Bits [pos + 31 : pos] of `src` (a whole number of 32-bit words; bits past its top read 0). The words
 * at pos / 32 and the one above it are selected by index, then shifted right by pos mod 32: for 1,536
 * bits about 3,300 two-input selects, against 18,400 for a full shifter of the source, and 32-bit
 * wide in simulation (a full-width shifter chain makes Icarus several hundred times slower).
 */
export function read32At(src: UIntValue, pos: UIntValue): UIntValue {
  const count = src.width / 32;
  if (!Number.isInteger(count)) throw new Error(`read32At: the source must be whole 32-bit words, got ${src.width} bits`);
  const words = Array.from({ length: count }, (_, k) => src.bits(32 * k + 31, 32 * k));
  const indexBits = Math.max(1, Math.ceil(Math.log2(count + 1)));
  const word = pos.bits(pos.width - 1, 5).zext(Math.max(indexBits, pos.width - 5));
  const lo = mux(word.lt(count), selectByIndex(word, words), lit(0, 32));
  const hi = mux(word.lt(count - 1), selectByIndex(word.add(1), words), lit(0, 32));
  return cat(hi, lo).shr(pos.bits(4, 0)).trunc(32);
}

/** The low `bits` bits set, for 0 ≤ bits ≤ 32 (a 6-bit amount). */
export function lowMask32(bits: UIntValue): UIntValue {
  return lit(0xffffffff, 32).shr(lit(32, 6).sub(bits.zext(6)));
}
