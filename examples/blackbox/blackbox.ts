// A dot-product unit built around a hand-written Verilog multiply-accumulate (a black box): sums a * b over each packet.
import { Bool, Bundle, Decoupled, UInt, defineModule, input, output } from 'rtgpu/hdl';
import { Mac, type MacParams } from './mac.ts';

/** Defaults for the CLI: 8-bit operands, a 24-bit sum (packets of up to 256 products cannot overflow it). */
export const params: MacParams = { width: 8, accWidth: 24 };

/**
 * Takes (a, b, last) beats; after the beat with `last`, offers the sum of the packet's products on `sum`.
 * The next packet's first beat may enter in the cycle the sum leaves: it restarts the accumulator.
 */
export const DotProduct = defineModule(
  'DotProduct',
  (p: MacParams) => ({
    terms: input(Decoupled(Bundle({ a: UInt(p.width), b: UInt(p.width), last: Bool }))),
    sum: output(Decoupled(UInt(p.accWidth))),
  }),
  (m, io, p) => {
    const mac = m.instance(Mac, p);
    const firstBeat = m.reg(Bool, { reset: 1 }); // the next beat starts a packet
    const sumValid = m.reg(Bool, { reset: 0 });

    // The accumulator must hold a finished sum until it is taken.
    io.terms.ready.set(sumValid.not().or(io.sum.ready));
    mac.io.en.set(io.terms.fire);
    mac.io.clear.set(io.terms.fire.and(firstBeat));
    mac.io.a.set(io.terms.bits.a);
    mac.io.b.set(io.terms.bits.b);

    io.sum.valid.set(sumValid);
    io.sum.bits.set(mac.io.acc);

    m.when(io.sum.fire, () => sumValid.set(false));
    m.when(io.terms.fire, () => {
      firstBeat.set(io.terms.bits.last);
      m.when(io.terms.bits.last, () => sumValid.set(true));
    });
  },
);
