// Testbench of the two-clock example: random sending and taking on each side's own clock, at periods whose ratio is not an integer; every word arrives, in order.
import { elaborate } from 'rtgpu/hdl';
import type { Testbench } from 'rtgpu/hdl/testbench';
import { TwoClock, params } from './twoclock.ts';

export const design = elaborate(TwoClock, params).design;

export const maxCycles = 20_000;

/** Cycles of the producer's clock during which both sides run at random. */
const TRAFFIC_CYCLES = 2_000;

export default async function (tb: Testbench): Promise<void> {
  // 10 ns and 7.3 ns, the consumer's first edge 1.7 ns in: the edges line up differently every cycle.
  tb.clock('prod_clk', { period: 10 });
  tb.clock('cons_clk', { period: 7.3, phase: 1.7 });
  tb.poke('send', 0);
  tb.poke('take', 0);
  // The raw reset between edges: asserted at once in both domains, released on each one's own edge.
  tb.poke('areset', 1);
  await tb.tick(3);
  tb.poke('areset', 0);
  await tb.tick(3);

  let stopped = false;
  const producer = tb.fork('producer', async () => {
    while (!stopped) {
      tb.poke('send', tb.rng.int(10) < 7 ? 1 : 0);
      await tb.tick(1, 'prod_clk');
    }
    tb.poke('send', 0);
  });
  const consumer = tb.fork('consumer', async () => {
    while (!stopped) {
      tb.poke('take', tb.rng.int(10) < 6 ? 1 : 0);
      await tb.tick(1, 'cons_clk');
    }
  });
  await tb.tick(TRAFFIC_CYCLES);
  stopped = true;
  await tb.join(producer, consumer);

  // Drain: the consumer takes every word still in the FIFO.
  tb.poke('take', 1);
  const sent = Number(tb.peek('sent'));
  await tb.until(() => Number(tb.peek('received')) === sent, { timeout: 100, what: `all ${sent} words received` });
  const errors = Number(tb.peek('errors'));
  if (errors !== 0) throw new Error(`${errors} words arrived out of order (of ${sent})`);
  if (sent < TRAFFIC_CYCLES / 2) throw new Error(`only ${sent} words sent in ${TRAFFIC_CYCLES} cycles: the FIFO stalled`);
}
