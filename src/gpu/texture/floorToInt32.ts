// floor of a binary32 as an int32 (|x| < 2^31): the unit's truncation toward zero, minus one for a negative value with a fraction.
import { lit, mux, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import type { Timed, TimedFloat } from './timedFloat.ts';

/** Whether the binary32 x has nonzero bits below the binary point (±0 has none). */
export function hasFraction(x: UIntValue): BoolValue {
  const exponent = x.bits(30, 23);
  const mantissa = x.bits(22, 0);
  // For 127 ≤ e < 150 the low 150 − e mantissa bits are the fraction: shifted left by e − 127 they are the rest.
  const partial = mantissa.shl(exponent.sub(127).trunc(5)).ne(0);
  return mux(exponent.lt(127), x.bits(30, 0).ne(0), exponent.lt(150).and(partial));
}

/** floor(x) for a binary32 x with |x| < 2^31 (no NaN): ftoi's truncation, minus one when x < 0 has a fraction. */
export function floorToInt32(f: TimedFloat, x: Timed, name: string): Timed {
  const truncated = f.ftoi(x, `${name}_ftoi`);
  const down = { v: x.v.bit(31).and(hasFraction(x.v)), at: x.at };
  return f.comb(name, [truncated, down], (t, d) => mux(d as BoolValue, (t as UIntValue).sub(1), t as UIntValue));
}
