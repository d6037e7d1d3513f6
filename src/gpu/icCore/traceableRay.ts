// Which rays the intersection cores trace: a finite origin and direction, the direction not zero (as the golden rayIsValid).
import { hideFromSourceLocations, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { split3 } from './vec3.ts';

// The checks carry the line of the core that takes the ray.
hideFromSourceLocations(import.meta.url);

const finite = (x: UIntValue): BoolValue => x.bits(30, 23).ne(0xff); // exponent not all ones: neither inf nor NaN
const isZero = (x: UIntValue): BoolValue => x.trunc(31).eq(0); // +0 or -0: nothing but the sign

/** The ray (two 96-bit x/y/z words) can be traced; any other finishes as a miss at once. */
export function isTraceableRay(origin: UIntValue, direction: UIntValue): BoolValue {
  const finiteRay = [...split3(origin), ...split3(direction)].map(finite).reduce((a, b) => a.and(b));
  return finiteRay.and(split3(direction).map(isZero).reduce((a, b) => a.and(b)).not());
}
