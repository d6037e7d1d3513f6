// Gray code: consecutive values differ in exactly one bit, so a counter can cross clock domains bit by bit.
import { hideFromSourceLocations, type UIntValue } from '../../index.ts';

// The XORs carry the caller's line.
hideFromSourceLocations(import.meta.url);

/** The Gray code of binary `b` (same width). */
export function toGray(b: UIntValue): UIntValue {
  return b.xor(b.shr(1));
}

/** The binary value of Gray code `g` (same width): each bit is the XOR of the bits above it, as a log-depth prefix. */
export function fromGray(g: UIntValue): UIntValue {
  let b = g;
  for (let s = 1; s < g.width; s *= 2) b = b.xor(b.shr(s));
  return b;
}
