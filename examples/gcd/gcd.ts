// A GCD unit: takes (a, b) on a request stream, answers gcd(a, b) on a response stream (binary GCD).
import { Bundle, Decoupled, UInt, defineModule, fsm, input, output } from 'rtgpu/hdl';
import { clog2 } from 'rtgpu/hdl/lib';

/** Defaults for the CLI (`rtgpu emit gcd.ts` etc.); `--param width=32` overrides them. */
export const params = { width: 16 };

/**
 * Stein's binary GCD: one step per cycle, only shifts and subtractions, so a result takes at most about
 * 2 × width cycles whatever the operands (Euclid by subtraction would take up to 2^width).
 */
export const Gcd = defineModule(
  'Gcd',
  (p: { width: number }) => ({
    req: input(Decoupled(Bundle({ a: UInt(p.width), b: UInt(p.width) }))),
    resp: output(Decoupled(UInt(p.width))),
  }),
  (m, io, p) => {
    const a = m.reg(UInt(p.width));
    const b = m.reg(UInt(p.width));
    // Factors of two common to both operands, put back when the odd part is known.
    const twos = m.reg(UInt(clog2(p.width)));
    const ctrl = fsm(m, 'ctrl', ['idle', 'busy', 'done'], 'idle');

    io.req.ready.set(ctrl.is('idle'));
    io.resp.valid.set(ctrl.is('done'));
    io.resp.bits.set(a.shl(twos));

    const aEven = a.bit(0).not();
    const bEven = b.bit(0).not();
    ctrl.on({
      idle: () =>
        m.when(io.req.fire, () => {
          a.set(io.req.bits.a);
          b.set(io.req.bits.b);
          twos.set(0);
          ctrl.goto('busy');
        }),
      busy: () => {
        // gcd(a, 0) = a and gcd(0, b) = b: the answer is in a (times 2^twos).
        m.when(b.eq(0), () => ctrl.goto('done'))
          .elsewhen(a.eq(0), () => {
            a.set(b);
            ctrl.goto('done');
          })
          .elsewhen(aEven.and(bEven), () => {
            a.set(a.shr(1));
            b.set(b.shr(1));
            twos.set(twos.add(1));
          })
          .elsewhen(aEven, () => a.set(a.shr(1)))
          .elsewhen(bEven, () => b.set(b.shr(1)))
          // Both odd: the difference is even, so halve it right away.
          .elsewhen(a.ge(b), () => a.set(a.sub(b).shr(1)))
          .otherwise(() => b.set(b.sub(a).shr(1)));
      },
      done: () => m.when(io.resp.fire, () => ctrl.goto('idle')),
    });
  },
);
