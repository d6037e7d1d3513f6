// Packing aggregates into one UInt and back: how a record travels through a FIFO, a memory or a wide register.
import { hdlError } from '../ir/diagnostics.ts';
import { buildValue, leaves, typeOf, type HValue, type ValueOf } from './aggregates.ts';
import { callerLocation } from './sourceLocation.ts';
import { Flipped, isGround, type FieldSpec, type HType } from './types.ts';
import { Bits, UInt, cat, fromBits } from './values.ts';

/** Bundles with flipped fields carry signals both ways: they are interfaces, not data, and do not pack. */
function checkPackable(type: HType, what: string): void {
  if (isGround(type)) return;
  if (type.kind === 'vec') return checkPackable(type.elem, what);
  for (const [k, f] of Object.entries(type.fields as Record<string, FieldSpec>)) {
    if (f instanceof Flipped) throw hdlError('InvalidArgument', `${what}: field '${k}' is flipped; only data bundles (no flip) pack into bits`, callerLocation());
    checkPackable(f, what);
  }
}

/**
 * The leaves of `value` as one UInt, the first leaf (first field, element 0) in the least significant
 * bits, as the GPU's vec4 words keep lane 0 in bits [31:0].
 */
export function packBits(value: HValue): UInt {
  if (value instanceof Bits) return cat(value);
  checkPackable(typeOf(value), 'packBits');
  return cat(...leaves(value).reverse());
}

/** A value of `type` read from `bits` (packed by packBits): each leaf is a slice, so the value is read-only. */
export function unpackBits<T extends HType>(type: T, bits: Bits): ValueOf<T> {
  checkPackable(type, 'unpackBits');
  if (bits.width !== type.width) throw hdlError('WidthMismatch', `unpackBits: ${bits.width} bits do not hold a value of ${type.width} bits`, callerLocation());
  const word = cat(bits);
  let offset = 0;
  return buildValue(type, (t) => {
    const slice = word.bits(offset + t.width - 1, offset);
    offset += t.width;
    return fromBits(t, slice);
  });
}
