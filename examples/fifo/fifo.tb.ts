// Testbench of the FIFO: a random producer and consumer, a scoreboard for order and content, and a checker of count/full/empty every cycle.
import { elaborate } from 'rtgpu/hdl';
import { Mailbox, type Testbench } from 'rtgpu/hdl/testbench';
import { BramFifo, params } from './fifo.ts';

export const design = elaborate(BramFifo, params).design;

/** A hung design fails here instead of running to the CLI's default of a million cycles. */
export const maxCycles = 10_000;

/** How often the producer offers a new word and the consumer is ready, per cycle; changed by phase. */
interface Rates {
  produce: number;
  consume: number;
}

export default async function (tb: Testbench): Promise<void> {
  const { width, depth } = params;
  const rates: Rates = { produce: 0, consume: 0 };
  const sent: bigint[] = []; // every word the FIFO accepted, in order: the reference model
  const received = new Mailbox<{ value: bigint; cycle: number }>(tb, 'received');
  let pending: bigint | undefined; // the word the producer offers until the FIFO takes it
  let checked = 0;

  await tb.reset();

  // Producer: offers random words at random times, holding valid and data until the FIFO takes them.
  tb.fork('producer', async () => {
    for (;;) {
      if (pending === undefined && tb.rng() < rates.produce) pending = tb.rng.bits(width);
      tb.poke('enq_valid', pending === undefined ? 0 : 1);
      if (pending !== undefined) tb.poke('enq_bits', pending);
      await tb.settled();
      if (pending !== undefined && tb.peek('enq_ready') === 1n) {
        sent.push(pending);
        pending = undefined;
      }
      await tb.tick();
    }
  });

  // Consumer: ready at random; what it takes goes to the scoreboard.
  tb.fork('consumer', async () => {
    for (;;) {
      const ready = tb.rng() < rates.consume;
      tb.poke('deq_ready', ready ? 1 : 0);
      await tb.settled();
      if (ready && tb.peek('deq_valid') === 1n) received.put({ value: tb.peek('deq_bits'), cycle: tb.cycle });
      await tb.tick();
    }
  });

  // Scoreboard: every word out must be the oldest word in, unchanged.
  tb.fork('scoreboard', async () => {
    for (;;) {
      const { value, cycle } = await received.get();
      const want = sent[checked];
      if (want === undefined) throw new Error(`cycle ${cycle}: the FIFO gave ${value}, but every word that went in came out already`);
      if (value !== want) throw new Error(`cycle ${cycle}: word ${checked} out of the FIFO is ${value}, expected ${want}`);
      checked++;
    }
  });

  // Status checker: count follows the handshakes; full, empty and ready agree with it; a stored word is offered soon.
  tb.fork('status', async () => {
    let inFifo = 0;
    let hiddenCycles = 0;
    for (;;) {
      await tb.settled();
      const count = Number(tb.peek('count'));
      const full = tb.peek('full') === 1n;
      const empty = tb.peek('empty') === 1n;
      const enqReady = tb.peek('enq_ready') === 1n;
      const deqValid = tb.peek('deq_valid') === 1n;
      const at = `cycle ${tb.cycle}`;
      if (count !== inFifo) throw new Error(`${at}: count is ${count}, but ${inFifo} words are in the FIFO`);
      if (full !== (count === depth)) throw new Error(`${at}: full is ${full} with ${count} of ${depth} words`);
      if (empty !== (count === 0)) throw new Error(`${at}: empty is ${empty} with ${count} words`);
      if (enqReady === full) throw new Error(`${at}: enq_ready is ${enqReady} while full is ${full}`);
      if (deqValid && empty) throw new Error(`${at}: deq_valid is high on an empty FIFO`);
      // A word that arrives in an empty FIFO needs one cycle to reach the output stage, never more.
      hiddenCycles = count > 0 && !deqValid ? hiddenCycles + 1 : 0;
      if (hiddenCycles > 1) throw new Error(`${at}: ${count} words stored but deq_valid low for ${hiddenCycles} cycles`);
      if (tb.peek('enq_valid') === 1n && enqReady) inFifo++;
      if (deqValid && tb.peek('deq_ready') === 1n) inFifo--;
      await tb.tick();
    }
  });

  const setRates = (produce: number, consume: number) => Object.assign(rates, { produce, consume });

  setRates(0.5, 0.5); // balanced random traffic
  await tb.tick(500);
  setRates(0.8, 0.3); // mostly full: the producer waits on enq_ready
  await tb.tick(300);
  setRates(0.3, 0.8); // mostly empty: the consumer waits on deq_valid
  await tb.tick(300);

  // Full throughput: with both sides always willing, one word per cycle passes (depth / 3 per cycle below depth 3).
  const before = checked;
  const expected = Math.floor(200 * Math.min(1, depth / 3)) - 5;
  setRates(1, 1);
  await tb.tick(200);
  const passed = checked - before;
  if (passed < expected) throw new Error(`with producer and consumer always ready, ${passed} words passed in 200 cycles`);

  // Fill: with the consumer stopped, exactly `depth` words go in, then enq_ready stays low.
  setRates(1, 0);
  await tb.until(() => tb.peek('full') === 1n, { timeout: 4 * depth + 10, what: 'the FIFO filling up' });
  await tb.tick(20);
  if (sent.length - checked !== depth) throw new Error(`a full FIFO holds ${sent.length - checked} words, expected ${depth}`);

  // Drain: with the producer stopped, every word comes out and the FIFO reports empty.
  setRates(0, 0.6);
  await tb.until(() => pending === undefined && tb.peek('empty') === 1n, { timeout: 20 * depth + 10, what: 'the FIFO draining' });
  await tb.tick(20);
  if (checked !== sent.length) throw new Error(`${sent.length} words went in, ${checked} came out`);
  if (tb.peek('deq_valid') !== 0n) throw new Error('deq_valid is high after the FIFO drained');
}
