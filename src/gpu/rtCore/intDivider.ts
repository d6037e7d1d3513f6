// Iterative signed 32-bit divider: one quotient bit per cycle, truncating toward zero, x / 0 = -1.
import { Bool, UInt, cat, defineModule, input, lit, mux, output } from '../../hdl/index.ts';

/** Cycles from `start` to `done` (the quotient is valid while `done` is high). */
export const INT_DIVIDER_LATENCY = 33;

export const IntDivider = defineModule(
  'IntDivider',
  () => ({
    start: input(Bool),
    a: input(UInt(32)),
    b: input(UInt(32)),
    done: output(Bool),
    quotient: output(UInt(32)),
  }),
  (m, io) => {
    const step = m.reg(UInt(6), { reset: 0 });
    const busy = step.ne(0);
    const negQ = m.reg(Bool, { reset: 0 });
    const byZero = m.reg(Bool, { reset: 0 });
    const divisor = m.reg(UInt(32), { reset: 0 });
    const rem = m.reg(UInt(32), { reset: 0 });
    const quo = m.reg(UInt(32), { reset: 0 });
    const magnitude = (x: typeof io.a) => mux(x.bit(31), lit(0, 32).sub(x), x);
    // Restoring division on magnitudes: shift the next dividend bit into the remainder, subtract if it fits.
    // The remainder stays below the divisor (at most 2^31), so shifting it left never loses a bit.
    const shifted = cat(rem.bits(30, 0), quo.bit(31));
    const diff = shifted.subw(divisor);
    const fits = diff.bit(32).not();
    m.when(io.start, () => {
      step.set(1);
      negQ.set(io.a.bit(31).xor(io.b.bit(31)));
      byZero.set(io.b.eq(0));
      divisor.set(magnitude(io.b));
      rem.set(0);
      quo.set(magnitude(io.a));
    }).elsewhen(busy.and(step.ne(INT_DIVIDER_LATENCY)), () => {
      step.set(step.add(1));
      rem.set(mux(fits, diff.bits(31, 0), shifted));
      quo.set(cat(quo.bits(30, 0), fits));
    }).elsewhen(step.eq(INT_DIVIDER_LATENCY), () => step.set(0));
    io.done.set(step.eq(INT_DIVIDER_LATENCY));
    io.quotient.set(mux(byZero, lit(0xffffffff, 32), mux(negQ, lit(0, 32).sub(quo), quo)));
  },
);
