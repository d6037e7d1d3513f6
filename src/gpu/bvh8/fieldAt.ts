// Reading a field at a run-time bit position: a right barrel shift that keeps, at each level, only the bits later levels and the field still need.
import { hideFromSourceLocations, lit, mux, type UIntValue } from '../../hdl/index.ts';

// The shifter carries the line of the decoder that reads the field.
hideFromSourceLocations(import.meta.url);

/**
 * Bits [pos + width − 1 : pos] of `src` (bits past its top read 0). The levels run from the amount's
 * top bit down, and after the level of 2^j only width + 2^j − 1 bits remain: a 32-bit read from 1,536
 * bits costs about 3,900 two-input selects, not the 18,400 of a full shifter.
 */
export function fieldAt(src: UIntValue, pos: UIntValue, width: number): UIntValue {
  let v = src.width < width ? src.zext(width) : src;
  for (let j = pos.width - 1; j >= 0; j--) {
    const step = 2 ** j;
    const shifted = step >= v.width ? lit(0, v.width) : v.shr(step);
    const keep = Math.min(v.width, width + step - 1);
    v = mux(pos.bit(j), shifted, v).trunc(Math.max(keep, width));
  }
  return v.trunc(width);
}

/** The low `bits` bits set, for 0 ≤ bits ≤ 32 (a 6-bit amount). */
export function lowMask32(bits: UIntValue): UIntValue {
  return lit(0xffffffff, 32).shr(lit(32, 6).sub(bits.zext(6)));
}
