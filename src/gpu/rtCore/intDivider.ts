// Iterative signed 32-bit divider: one quotient bit per cycle, truncating toward zero, x / 0 = -1.
import { Bool, UInt, cat, defineModule, fsm, input, lit, mux, output } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';

const QUOTIENT_BITS = 32;

/** Cycles from `start` to `done` (the quotient is valid while `done` is high): one per quotient bit, then done. */
export const INT_DIVIDER_LATENCY = QUOTIENT_BITS + 1;

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
    // Idle; dividing, one quotient bit per cycle; done (the quotient valid for one cycle).
    const divider = fsm(m, 'divider', ['idle', 'dividing', 'done'], 'idle');
    /** Quotient bits found so far while dividing. */
    const bitsDone = m.reg(UInt(clog2(QUOTIENT_BITS)), { reset: 0 });
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
      divider.goto('dividing');
      bitsDone.set(0);
      negQ.set(io.a.bit(31).xor(io.b.bit(31)));
      byZero.set(io.b.eq(0));
      divisor.set(magnitude(io.b));
      rem.set(0);
      quo.set(magnitude(io.a));
    }).otherwise(() =>
      divider.on({
        dividing: () => {
          bitsDone.set(bitsDone.add(1));
          rem.set(mux(fits, diff.bits(31, 0), shifted));
          quo.set(cat(quo.bits(30, 0), fits));
          m.when(bitsDone.eq(QUOTIENT_BITS - 1), () => divider.goto('done'));
        },
        done: () => divider.goto('idle'),
      }),
    );
    io.done.set(divider.is('done'));
    io.quotient.set(mux(byZero, lit(0xffffffff, 32), mux(negQ, lit(0, 32).sub(quo), quo)));
  },
);
