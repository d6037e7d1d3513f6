// Combinational choices among cores, built from muxes: the first or last requester, and a value by index.
import { lit, mux, type BoolValue, type UIntValue } from '../hdl/index.ts';
import { clog2 } from '../hdl/lib/index.ts';

/** Bits of an index into `n` things (at least 1). */
export const indexBits = (n: number): number => Math.max(1, clog2(n));

export interface Choice {
  readonly any: BoolValue;
  readonly index: UIntValue;
}

const anyOf = (xs: readonly BoolValue[]): BoolValue => xs.reduce<BoolValue>((a, b) => a.or(b), lit(0, 1).asBool());

/** The lowest-numbered requester. */
export function lowestOf(requests: readonly BoolValue[]): Choice {
  const w = indexBits(requests.length);
  let index: UIntValue = lit(0, w);
  for (let i = requests.length - 1; i >= 0; i--) index = mux(requests[i]!, lit(i, w), index);
  return { any: anyOf(requests), index };
}

/** The highest-numbered requester (the seed's fixed descending order). */
export function highestOf(requests: readonly BoolValue[]): Choice {
  const w = indexBits(requests.length);
  let index: UIntValue = lit(0, w);
  requests.forEach((r, i) => (index = mux(r, lit(i, w), index)));
  return { any: anyOf(requests), index };
}

/** values[index] (values[0] for an index past the end). */
export function pick(index: UIntValue, values: readonly UIntValue[]): UIntValue {
  return values.slice(1).reduce<UIntValue>((acc, v, i) => mux(index.eq(i + 1), v, acc), values[0]!);
}

/** `index` as a one-hot vector of n bits, all zero unless `en`. */
export function oneHot(index: UIntValue, n: number, en: BoolValue): UIntValue {
  return mux(en, lit(1, n).shl(index), lit(0, n));
}
