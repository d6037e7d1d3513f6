// Combinational choices among cores, built from muxes: the first or last requester, and a value by index.
import { UInt, hideFromSourceLocations, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../hdl/index.ts';
import { clog2 } from '../hdl/lib/index.ts';

// What these build is the caller's choice: its SV comments and names come from the caller's line.
hideFromSourceLocations(import.meta.url);

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

/**
 * The first requester after the one chosen last (round robin), so none starves. `taken` says when the
 * choice is used: only then does the rotation move on.
 */
export function roundRobinOf(m: ModuleBuilder, requests: readonly BoolValue[], taken: BoolValue, name: string): Choice {
  const n = requests.length;
  const w = indexBits(n);
  const last = m.reg(UInt(w), { reset: n - 1, name: `${name}_last` });
  const firstAfter = (l: number): UIntValue => {
    let index: UIntValue = lit(l, w);
    for (let k = n; k >= 1; k--) index = mux(requests[(l + k) % n]!, lit((l + k) % n, w), index);
    return index;
  };
  const index = requests.slice(0, n - 1).reduce<UIntValue>((acc, _, l) => mux(last.eq(l), firstAfter(l), acc), firstAfter(n - 1));
  const any = anyOf(requests);
  m.when(taken.and(any), () => last.set(index));
  return { any, index };
}
