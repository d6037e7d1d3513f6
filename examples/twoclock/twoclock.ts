// A producer at one clock and a consumer at an unrelated clock, joined by an AsyncFifo; one raw reset synchronized into each domain.
import { Bool, Clock, UInt, defineModule, input, output } from 'rtgpu/hdl';
import { ResetSynchronizer, asyncFifo } from 'rtgpu/hdl/lib';

export interface TwoClockParams {
  readonly width: number;
  readonly depth: number;
}

export const params: TwoClockParams = { width: 16, depth: 8 };

/**
 * The producer offers 0, 1, 2, … (a `width`-bit counter) whenever `send` is 1 and counts the words the
 * FIFO took (`sent`); the consumer takes a word whenever `take` is 1, checks that it is the next of that
 * sequence, and counts words (`received`) and errors. The
 * periods here (10 and 7.3 ns) are what `rtgpu emit` writes into the timing constraints; the testbench
 * runs the clocks at them.
 */
export const TwoClock = defineModule(
  'TwoClock',
  (p: TwoClockParams) => ({
    prod_clk: input(Clock),
    cons_clk: input(Clock),
    areset: input(Bool),
    send: input(Bool),
    take: input(Bool),
    sent: output(UInt(32)),
    received: output(UInt(32)),
    errors: output(UInt(16)),
  }),
  (m, io, p) => {
    // The raw reset asserts at once in both domains and releases on each domain's own edge.
    const domainOf = (clock: typeof io.prod_clk, name: string, period: number) => {
      const sync = m.instance(ResetSynchronizer, { inputActive: 'high', outputActive: 'high' }, { name: `${name}_reset_sync` });
      sync.io.clk.set(clock);
      sync.io.resetIn.set(io.areset);
      const reset = sync.io.resetOut;
      return { reset, domain: m.clockDomain({ clock, name, reset, resetKind: 'async', resetActive: 'high', period }) };
    };
    const prod = domainOf(io.prod_clk, 'prod', 10);
    const cons = domainOf(io.cons_clk, 'cons', 7.3);

    const fifo = asyncFifo(m, { width: p.width, depth: p.depth, resetKind: 'async', resetActive: 'high' });
    fifo.io.wclk.set(io.prod_clk);
    fifo.io.wreset.set(prod.reset);
    fifo.io.rclk.set(io.cons_clk);
    fifo.io.rreset.set(cons.reset);

    m.withDomain(prod.domain, () => {
      const next = m.reg(UInt(p.width), { reset: 0 });
      const sent = m.reg(UInt(32), { reset: 0 });
      fifo.io.enq.valid.set(io.send);
      fifo.io.enq.bits.set(next);
      m.when(fifo.io.enq.fire, () => {
        next.set(next.add(1));
        sent.set(sent.add(1));
      });
      io.sent.set(sent);
    });
    m.withDomain(cons.domain, () => {
      const expected = m.reg(UInt(p.width), { reset: 0 });
      const received = m.reg(UInt(32), { reset: 0 });
      const errors = m.reg(UInt(16), { reset: 0 });
      fifo.io.deq.ready.set(io.take);
      m.when(fifo.io.deq.fire, () => {
        expected.set(fifo.io.deq.bits.add(1));
        received.set(received.add(1));
        m.when(fifo.io.deq.bits.ne(expected), () => errors.set(errors.add(1)));
      });
      io.received.set(received);
      io.errors.set(errors);
    });
    m.unused(fifo.io.wcount, fifo.io.rcount);
  },
);
