// A stream stage around vendor IP (examples/vendorip): doubles each value, buffered by the vendor's FIFO; its port list is fixed by someone else.
import { Bool, Decoupled, UInt, defineModule, input, output } from 'rtgpu/hdl';
import { SkidFifo } from './skidFifo.ts';

export const params = { width: 8 };

/**
 * `in` -> the vendor FIFO -> `out` (each value doubled, wrapping). The port list was given to us:
 * `debug_en` must exist though nothing here needs it, and the FIFO's `overflow` is ignored.
 */
export const Doubler = defineModule(
  'Doubler',
  (p: { width: number }) => ({ in: input(Decoupled(UInt(p.width))), out: output(Decoupled(UInt(p.width))), debug_en: input(Bool) }),
  (m, io, p) => {
    const fifo = m.instance(SkidFifo, { width: p.width });
    fifo.io.s_data.set(io.in.bits);
    fifo.io.s_valid.set(io.in.valid);
    io.in.ready.set(fifo.io.s_ready);
    io.out.valid.set(fifo.io.m_valid);
    io.out.bits.set(fifo.io.m_data.shl(1));
    fifo.io.m_ready.set(io.out.ready);
    // Fixed by the port list, not needed: marked, so neither the eDSL nor lint complains.
    m.unused(io.debug_en, fifo.io.overflow);
  },
);
