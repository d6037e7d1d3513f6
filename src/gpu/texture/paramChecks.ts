// Shared by the texture unit's blocks: a parameter that must be a whole number in a range, and reading packed fields back from a queue word.
import type { UIntValue } from '../../hdl/index.ts';

/** Throws a clear error naming the block and the parameter unless v is an integer lo … hi. */
export function checkWhole(block: string, name: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${block}: ${name} must be an integer ${lo} … ${hi}, got ${v}`);
}

/** Reads consecutive fields of `word` from bit 0 up: each call takes the next `width` bits. */
export function fieldReader(word: UIntValue): (width: number) => UIntValue {
  let at = 0;
  return (width) => {
    const v = word.bits(at + width - 1, at);
    at += width;
    return v;
  };
}
