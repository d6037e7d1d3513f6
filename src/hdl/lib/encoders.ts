// Encoders and decoders between one-hot vectors and indices.
import { Bool, UInt, defineModule, input, lit, mux, output, type UIntValue } from '../index.ts';
import { clog2 } from './clog2.ts';

/** Index of the lowest set bit of `in`; `valid` is 0 (and `index` 0) when no bit is set. */
export const PriorityEncoder = defineModule(
  'PriorityEncoder',
  (p: { n: number }) => ({ in: input(UInt(p.n)), index: output(UInt(clog2(p.n))), valid: output(Bool) }),
  (m, io, p) => {
    let index: UIntValue = lit(0, clog2(p.n));
    for (let i = p.n - 1; i >= 0; i--) index = mux(io.in.bit(i), lit(i, clog2(p.n)), index);
    io.index.set(index);
    io.valid.set(io.in.orR());
  },
);

/** Index of the set bit of a one-hot `in` (the OR of the indices of all set bits). */
export const OneHotEncoder = defineModule(
  'OneHotEncoder',
  (p: { n: number }) => ({ in: input(UInt(p.n)), index: output(UInt(clog2(p.n))) }),
  (m, io, p) => {
    const w = clog2(p.n);
    let index: UIntValue = lit(0, w);
    for (let i = 1; i < p.n; i++) index = index.or(mux(io.in.bit(i), lit(i, w), lit(0, w)));
    io.index.set(index);
  },
);

/** One-hot vector with bit `index` set while `en` is 1 (an index past n-1 sets nothing). */
export const Decoder = defineModule(
  'Decoder',
  (p: { n: number }) => ({ index: input(UInt(clog2(p.n))), en: input(Bool), out: output(UInt(p.n)) }),
  (m, io, p) => {
    const inRange = 2 ** clog2(p.n) === p.n ? io.en : io.en.and(io.index.lt(p.n));
    io.out.set(mux(inRange, lit(1, p.n).shl(io.index), lit(0, p.n)));
  },
);
