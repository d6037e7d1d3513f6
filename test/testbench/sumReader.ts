// The testbench chapter's worked example (docs/hdl-guide.md): a block that reads `count` words from a
// memory through a request stream, sums the answers, and the reactive testbench that serves its reads.
import { Bool, Decoupled, UInt, defineModule, input, output } from '../../src/hdl/index.ts';
import type { Simulator } from '../../src/hdl/sim/index.ts';
import { ReadResponder, Testbench } from '../../src/hdl/testbench/index.ts';

export const SumReader = defineModule(
  'SumReader',
  () => ({
    start: input(Bool),
    base: input(UInt(16)),
    count: input(UInt(8)),
    req: output(Decoupled(UInt(16))),
    resp: input(Decoupled(UInt(32))),
    busy: output(Bool),
    sum: output(UInt(32)),
  }),
  (m, io) => {
    const busy = m.reg(Bool, { reset: 0 });
    const total = m.reg(UInt(8), { reset: 0 });
    const issued = m.reg(UInt(8), { reset: 0 });
    const received = m.reg(UInt(8), { reset: 0 });
    const addr = m.reg(UInt(16), { reset: 0 });
    const sum = m.reg(UInt(32), { reset: 0 });

    m.when(io.start.and(busy.not()), () => {
      busy.set(io.count.ne(0));
      total.set(io.count);
      issued.set(0);
      received.set(0);
      addr.set(io.base);
      sum.set(0);
    });
    io.req.valid.set(busy.and(issued.lt(total)));
    io.req.bits.set(addr);
    m.when(io.req.fire, () => {
      issued.set(issued.add(1));
      addr.set(addr.add(1));
    });
    io.resp.ready.set(busy);
    m.when(io.resp.fire, () => {
      sum.set(sum.add(io.resp.bits));
      received.set(received.add(1));
      m.when(received.add(1).eq(total), () => busy.set(0));
    });
    io.busy.set(busy);
    io.sum.set(sum);
  },
);

/** The memory the testbench models: word a holds a hash of a. */
export const memoryWord = (a: bigint): bigint => (a * 2654435761n + 12345n) & 0xffffffffn;

export interface SumReaderTrace {
  readonly sums: { base: number; count: number; sum: bigint; cycle: number }[];
  /** The cycle of every request the design made, and of every answer it took. */
  readonly requestCycles: number[];
  readonly answerCycles: number[];
}

/** Reads a few blocks; the memory answers each read 1 to 6 cycles later, with random back-pressure and gaps. */
export async function runSumReader(sim: Simulator, seed: number): Promise<SumReaderTrace> {
  const tb = new Testbench(sim, { seed });
  return tb.run(async () => {
    await tb.reset();
    const memory = new ReadResponder(tb, {
      request: 'req',
      response: 'resp',
      answer: (addr: bigint) => memoryWord(addr),
      latency: { min: 1, max: 6 },
      backpressure: 0.3,
      idle: 0.2,
    });
    const sums: SumReaderTrace['sums'] = [];
    for (const [base, count] of [[0, 5], [100, 17], [65530, 12], [7, 1]] as const) {
      tb.poke('base', base);
      tb.poke('count', count);
      tb.poke('start', 1);
      await tb.tick();
      tb.poke('start', 0);
      await tb.until(() => tb.peek('busy') === 0n, { timeout: 2000, what: `the read of ${count} words at ${base}` });
      sums.push({ base, count, sum: tb.peek('sum'), cycle: tb.cycle });
      await tb.tick(); // until() ends in the settled phase: the next pokes are for the next cycle
    }
    return {
      sums,
      requestCycles: memory.requests.received.map((r) => r.cycle),
      answerCycles: memory.responses.sent.map((r) => r.cycle),
    };
  });
}
