// Counters: an up counter that wraps at a chosen maximum, and an up/down counter that saturates.
import { Bool, UInt, defineModule, input, mux, output } from '../index.ts';
import { clog2 } from './clog2.ts';

/** Counts 0..max while `en` is 1; `wrap` is 1 in the cycle it goes from max back to 0. `clear` wins over `en`. */
export const Counter = defineModule(
  'Counter',
  (p: { max: number }) => ({
    en: input(Bool),
    clear: input(Bool),
    value: output(UInt(clog2(p.max + 1))),
    wrap: output(Bool),
  }),
  (m, io, p) => {
    const value = m.reg(UInt(clog2(p.max + 1)), { reset: 0 });
    const atMax = value.eq(p.max);
    m.when(io.clear, () => value.set(0)).elsewhen(io.en, () => value.set(mux(atMax, 0, value.add(p.max === 0 ? 0 : 1))));
    io.value.set(value);
    io.wrap.set(io.en.and(atMax).and(io.clear.not()));
  },
);

/** Counts up on `up`, down on `down` (both: unchanged), saturating at 0 and max. */
export const UpDownCounter = defineModule(
  'UpDownCounter',
  (p: { max: number }) => ({
    up: input(Bool),
    down: input(Bool),
    value: output(UInt(clog2(p.max + 1))),
  }),
  (m, io, p) => {
    const value = m.reg(UInt(clog2(p.max + 1)), { reset: 0 });
    m.when(io.up.and(io.down.not()).and(value.ne(p.max)), () => value.set(value.add(1))).elsewhen(io.down.and(io.up.not()).and(value.ne(0)), () => value.set(value.sub(1)));
    io.value.set(value);
  },
);
