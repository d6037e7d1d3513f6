// lerp32 in float units, and the 8-bit weights as binary32: shared by the bilinear and the level blend.
import { lit, mux, type UIntValue } from '../../hdl/index.ts';
import { TimedFloat, type Timed } from './timedFloat.ts';

/** x + w·(y − x) as fadd(x, fmul(w, fsub(y, x))), the golden lerp32's order. */
export const lerpTimed = (f: TimedFloat, x: Timed, y: Timed, w: Timed, name: string): Timed => f.add(x, f.mul(w, f.sub(y, x, `${name}_sub`), `${name}_mul`), `${name}_add`);

/** Exponent step of 2^−8: itof(w) · 2^−8 is exact, so it is itof(w) with the exponent lowered by 8 (w ≥ 1). */
const EXPONENT_MINUS_8 = 8 << 23;

/** weight / 256 as binary32 (itof(weight) · 2^−8, exact), for an 8-bit weight entering at cycle `at`. */
export function weightToFloat(f: TimedFloat, weight: Timed, name: string): Timed {
  const asFloat = f.itof({ v: weight.v.zext(32), at: weight.at }, `${name}_itof`);
  return f.comb(name, [weight, asFloat], (w, x) => mux((w as UIntValue).eq(0), lit(0, 32), (x as UIntValue).sub(EXPONENT_MINUS_8)));
}
