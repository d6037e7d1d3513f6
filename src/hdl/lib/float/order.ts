// Orderings of raw binary32 values built in the calling module: the IEEE comparison (FCmp) and the total order with -0 < +0 (FMin, FMax).
import { hideFromSourceLocations, mux, type BoolValue, type UIntValue } from '../../index.ts';
import { unpack } from './common.ts';

// What these build carries the line of the unit or datapath that compares, not this file's.
hideFromSourceLocations(import.meta.url);

/** a before b in the total order of non-NaN values where -0 < +0 (sign-magnitude integer order). */
export function totalOrderLess(x: UIntValue, y: UIntValue): BoolValue {
  const signA = x.bit(31);
  const signB = y.bit(31);
  const magA = x.bits(30, 0);
  const magB = y.bits(30, 0);
  const sameSignLess = mux(signA, magB.lt(magA), magA.lt(magB));
  return mux(signA.xor(signB), signA, sameSignLess);
}

/** a < b, a == b and unordered for two raw binary32 values (IEEE comparison: -0 == +0, NaN unordered). */
export function compareFloats(x: UIntValue, y: UIntValue): { lt: BoolValue; eq: BoolValue; gt: BoolValue; unordered: BoolValue } {
  const a = unpack(x, 'a');
  const b = unpack(y, 'b');
  const unordered = a.isNaN.or(b.isNaN);
  const magA = x.bits(30, 0);
  const magB = y.bits(30, 0);
  const bothZero = magA.or(magB).eq(0);
  const magLess = magA.lt(magB);
  const magGreater = magB.lt(magA);
  const signsDiffer = a.sign.xor(b.sign);
  // Same signs: order of magnitudes (reversed for negatives); different signs: the negative one is less.
  const orderedLess = mux(signsDiffer, a.sign, mux(a.sign, magGreater, magLess));
  const orderedEqual = bothZero.or(x.eq(y));
  const ordered = unordered.not();
  const eq = ordered.and(orderedEqual);
  const lt = ordered.and(orderedEqual.not()).and(orderedLess);
  const gt = ordered.and(orderedEqual.not()).and(orderedLess.not());
  return { lt, eq, gt, unordered };
}
