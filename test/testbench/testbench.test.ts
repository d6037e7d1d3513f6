// The testbench layer: one reactive testbench runs unchanged on every simulator with identical traces;
// the scheduler's phases, batching, timeouts and errors; stream drivers and the memory model.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { Fifo } from '../../src/hdl/lib/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { Mailbox, StreamMonitor, StreamSink, StreamSource, Testbench, TestbenchTimeoutError, seedFromEnv } from '../../src/hdl/testbench/index.ts';
import { SumReader, memoryWord, runSumReader } from './sumReader.ts';

const seed = seedFromEnv();
console.log(`testbench.test seed=${seed} (rerun with SEED=${seed})`);

const fifo = elaborate(Fifo, { width: 8, depth: 4 }).design;

/** A simulator that passes everything on and records each step's cycle count. */
function countingSteps(sim: Simulator): { sim: Simulator; steps: number[] } {
  const steps: number[] = [];
  const wrapped = Object.create(sim) as Simulator;
  wrapped.step = (n = 1) => {
    steps.push(n);
    sim.step(n);
  };
  Object.defineProperty(wrapped, 'cycle', { get: () => sim.cycle });
  return { sim: wrapped, steps };
}

describe('one reactive testbench on every simulator', () => {
  test('a memory model answering reads 1 to 6 cycles later: identical traces on js, wasm, verilator, icarus and lockstep', async () => {
    const design = elaborate(SumReader, {}).design;
    const traces: Record<string, unknown> = {};
    for (const backend of ['js', 'wasm', 'verilator', 'icarus', 'lockstep'] as const) {
      const sim = await compileSimulator(design, backend === 'lockstep' ? { backend, backends: ['wasm', 'verilator', 'icarus'] } : { backend });
      traces[backend] = await runSumReader(sim, seed);
      sim.close();
    }
    for (const [k, t] of Object.entries(traces)) expect(t, k).toEqual(traces.js);
    const t = traces.js as Awaited<ReturnType<typeof runSumReader>>;
    // The sums are the memory's, computed here without the hardware.
    for (const s of t.sums) {
      let want = 0n;
      for (let a = 0; a < s.count; a++) want += memoryWord(BigInt((s.base + a) & 0xffff));
      expect(s.sum).toBe(want & 0xffffffffn);
    }
    expect(t.requestCycles.length).toBe(5 + 17 + 12 + 1);
    // In order, each answer at least a cycle after its request.
    t.answerCycles.forEach((c, i) => expect(c).toBeGreaterThan(t.requestCycles[i]!));
    for (let i = 1; i < t.answerCycles.length; i++) expect(t.answerCycles[i]).toBeGreaterThan(t.answerCycles[i - 1]!);
  }, 600_000);
});

describe('scheduler', () => {
  test('processes that sleep long let the simulator step many cycles in one call', async () => {
    const { sim, steps } = countingSteps(compileSimulator(fifo));
    const tb = new Testbench(sim);
    await tb.run(async () => {
      tb.fork('slow', async () => {
        await tb.tick(1000);
      });
      await tb.tick(300);
      await tb.tick(700);
      await tb.tick(5);
    });
    expect(steps).toEqual([300, 700, 5]);
    expect(sim.cycle).toBe(1005);
  });

  test('fork and join return results; the settled phase sees every poke of the cycle and refuses new ones', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    const seen: bigint[] = [];
    const out = await tb.run(async () => {
      await tb.reset();
      const reader = tb.fork('reader', async () => {
        await tb.settled();
        seen.push(tb.peek('enq_ready'), tb.peek('count'));
        try {
          tb.poke('enq_valid', 0);
        } catch (e) {
          return (e as Error).message;
        }
        return 'no error';
      });
      const writer = tb.fork('writer', async () => {
        tb.poke('enq_valid', 1);
        tb.poke('enq_bits', 7);
        await tb.tick(2);
        return tb.peek('count');
      });
      return tb.join(reader, writer);
    });
    expect(out).toEqual([`poke('enq_valid') in the settled phase of cycle 1 (after settled() or until()): this cycle's inputs are final; await tb.tick() and drive the next cycle`, 2n]);
    expect(seen).toEqual([1n, 0n]);
  });

  test('until() fails after its timeout; a run past maxCycles names what each process waits for', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    const e1 = await tb.run(() => tb.until(() => tb.peek('full') === 1n, { timeout: 20, what: 'a full FIFO' })).catch((e: Error) => e);
    expect(e1).toBeInstanceOf(TestbenchTimeoutError);
    expect((e1 as Error).message).toBe('a full FIFO did not hold within 20 cycles (cycles 0 to 20)');
    const tb2 = new Testbench(compileSimulator(fifo));
    const e2 = await tb2
      .run(
        async () => {
          tb2.fork('watcher', async () => {
            for (;;) await tb2.tick(7);
          });
          await tb2.tick(100);
        },
        { maxCycles: 50 },
      )
      .catch((e: Error) => e);
    expect(e2).toBeInstanceOf(TestbenchTimeoutError);
    expect((e2 as Error).message).toMatch(/^the testbench did not finish within 50 cycles \(now at cycle 50\): 'main' waits for tick until cycle 100 \(since cycle 0\) at test\/testbench\/testbench\.test\.ts:\d+:\d+; 'watcher' waits for tick until cycle 56 \(since cycle 49\) at test\/testbench\/testbench\.test\.ts:\d+:\d+$/);
  });

  test('a run out of cycles names the until() a process waits in, since when, and its line', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    const line = Number(new Error().stack!.split('\n')[1]!.match(/:(\d+):\d+\)?$/)![1]) + 1;
    const e = await tb.run(async () => (await tb.tick(3), await tb.until(() => false)), { maxCycles: 1000 }).catch((x: Error) => x);
    expect(e).toBeInstanceOf(TestbenchTimeoutError);
    expect((e as Error).message).toMatch(new RegExp(`^the testbench did not finish within 1000 cycles \\(now at cycle 1000\\): 'main' waits for until\\(\\) \\(not true since cycle 3\\) at test/testbench/testbench\\.test\\.ts:${line}:\\d+$`));
  });

  test('a clock that stands still in wall time fails the run: a process awaiting something else, or spinning on peek', async () => {
    const tb = new Testbench(compileSimulator(fifo), { stallSeconds: 0.3 });
    const awaiting = await tb.run(async () => (await tb.tick(2), await new Promise(() => {}))).catch((x: Error) => x);
    expect(awaiting).toBeInstanceOf(TestbenchTimeoutError);
    expect((awaiting as Error).message).toMatch(/^the clock stood still for \d+ s of wall time at cycle 2 \(a process awaits something that is not the testbench's, or loops without await tb\.tick\(\)\); 'main' is running.*stallSeconds/);
    const tb2 = new Testbench(compileSimulator(fifo), { stallSeconds: 0.3 });
    const spinning = await tb2
      .run(async () => {
        await tb2.tick(5);
        while (tb2.peek('full') === 0n);
      })
      .catch((x: Error) => x);
    expect(spinning).toBeInstanceOf(TestbenchTimeoutError);
    expect((spinning as Error).message).toMatch(/^the clock stood still for \d+ s of wall time at cycle 5 /);
    expect(() => new Testbench(compileSimulator(fifo), { stallSeconds: -1 })).toThrow('stallSeconds must be 0 (no limit) or more, got -1');
  });

  test('an error in any process fails the run; a deadlock is reported, not a hang', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    await expect(
      tb.run(async () => {
        tb.fork('checker', async () => {
          await tb.tick(3);
          throw new Error('checker saw something wrong');
        });
        await tb.tick(10);
      }),
    ).rejects.toThrow('checker saw something wrong');
    const tb2 = new Testbench(compileSimulator(fifo));
    const box = new Mailbox<number>(tb2, 'answers');
    await expect(tb2.run(() => box.get())).rejects.toThrow(/^testbench deadlock at cycle 0: no process waits for the clock \('main' waits for answers\.get\(\) \(since cycle 0\) at test\/testbench\/testbench\.test\.ts:\d+:\d+\)$/);
    expect(() => tb2.tick()).toThrow('tick outside a testbench process: run the code inside tb.run(async () => …) or tb.fork(…)');
  });

  test('a wait not awaited before the next one is an error, not a scheduler that runs phases early', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    await expect(
      tb.run(async () => {
        void tb.tick(3);
        await tb.tick();
      }),
    ).rejects.toThrow("'main' waits for tick until cycle 1 while it still waits for tick until cycle 3: await each wait, or tb.fork() what should run alongside");
  });

  test('withTimeout: a body that ends in time gives its result; one that does not fails the run', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    expect(await tb.run(() => tb.withTimeout(10, 'a short wait', async () => (await tb.tick(4), 'done')))).toBe('done');
    const tb2 = new Testbench(compileSimulator(fifo));
    const err = await tb2.run(() => tb2.withTimeout(10, 'a long wait', () => tb2.tick(50))).catch((e: Error) => e);
    expect(err).toBeInstanceOf(TestbenchTimeoutError);
    expect((err as Error).message).toBe('a long wait did not finish within 10 cycles (cycles 0 to 10)');
  });

  test('a mailbox carries values between processes in simulated time', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    const box = new Mailbox<number>(tb);
    const got = await tb.run(async () => {
      tb.fork('producer', async () => {
        for (let i = 0; i < 5; i++) {
          await tb.tick(i + 1);
          box.put(tb.cycle);
        }
      });
      const out: number[] = [];
      for (let i = 0; i < 5; i++) out.push(await box.get());
      return out;
    });
    expect(got).toEqual([1, 3, 6, 10, 15]);
  });
});

describe('stream drivers', () => {
  async function fifoRun(sim: Simulator, s: number) {
    const tb = new Testbench(sim, { seed: s });
    return tb.run(async () => {
      await tb.reset();
      const source = new StreamSource(tb, 'enq', { idle: 0.3 });
      const sink = new StreamSink(tb, 'deq', { backpressure: 0.5 });
      const monitor = new StreamMonitor(tb, { valid: 'deq_valid', ready: 'deq_ready', bits: 'deq_bits' });
      const values = Array.from({ length: 60 }, (_, i) => BigInt((i * 37 + 11) & 0xff));
      source.enqueue(...values);
      const got = await sink.receiveMany(values.length);
      await source.flush();
      await tb.tick();
      return { values, got, sent: source.sent.map((x) => x.cycle), received: sink.received.map((x) => x.cycle), monitored: monitor.items };
    });
  }

  test('a second driver of a stream is an error naming the first; stopped drivers free the ports and lower valid and ready', async () => {
    const tb = new Testbench(compileSimulator(fifo));
    await tb.run(async () => {
      await tb.reset();
      const source = new StreamSource(tb, 'enq');
      const sink = new StreamSink(tb, 'deq');
      expect(() => new StreamSource(tb, 'enq')).toThrow("'enq_valid' is already driven by the stream source 'enq'; a second driver would fight it every cycle: stop() the first, or drive the stream from one");
      expect(() => new StreamSink(tb, 'deq')).toThrow("'deq_ready' is already driven by the stream sink 'deq'");
      expect(await source.send(5n)).toBeGreaterThan(0);
      expect(await sink.receive()).toBe(5n);
      // A value the design never takes: the source is stopped while offering it.
      sink.stop();
      await tb.tick(2);
      expect(tb.peek('deq_ready')).toBe(0n);
      source.enqueue(1n, 2n, 3n, 4n, 5n);
      const sender = tb.fork('sender', () => source.send(6n).catch((e: Error) => e.message));
      await tb.tick(10);
      expect(tb.peek('enq_valid')).toBe(1n);
      source.stop();
      const [message] = await tb.join(sender);
      expect(message).toBe('enq source was stopped before the design took the value sent');
      await tb.tick();
      expect(tb.peek('enq_valid')).toBe(0n);
      expect(() => source.enqueue(7n)).toThrow('enq source.enqueue() after stop()');
      // The ports are free: new drivers take the stream over and drain the FIFO.
      const sink2 = new StreamSink(tb, 'deq');
      expect(await sink2.receiveMany(4)).toEqual([1n, 2n, 3n, 4n]);
      const source2 = new StreamSource(tb, 'enq');
      expect(await source2.send(9n)).toBeGreaterThan(0);
      expect(await sink2.receive()).toBe(9n);
    });
  });

  test('a source and a sink with random gaps and back-pressure move every value once, in order', async () => {
    const r = await fifoRun(compileSimulator(fifo), seed);
    expect(r.got).toEqual(r.values);
    // A passive monitor on the sink's side saw exactly what the sink took, in the same cycles.
    expect(r.monitored.map((x) => x.value)).toEqual(r.values);
    expect(r.monitored.map((x) => x.cycle)).toEqual(r.received);
    for (let i = 1; i < r.received.length; i++) expect(r.received[i]).toBeGreaterThan(r.received[i - 1]!);
    // Each value leaves after it entered.
    r.received.forEach((c, i) => expect(c).toBeGreaterThan(r.sent[i]!));
    const other = await fifoRun(compileSimulator(fifo), seed + 1);
    expect(other.received).not.toEqual(r.received); // the seed decides the timing
    const again = await fifoRun(compileSimulator(fifo), seed);
    expect(again).toEqual(r); // and reproduces it
  });

  test('the same stream run on Verilator and Icarus has the same timing', async () => {
    const want = await fifoRun(compileSimulator(fifo), seed);
    for (const backend of ['verilator', 'icarus'] as const) {
      const sim = await compileSimulator(fifo, { backend });
      expect(await fifoRun(sim, seed), backend).toEqual(want);
      sim.close();
    }
  }, 600_000);

  test('port names and directions are checked with clear errors', () => {
    const tb = new Testbench(compileSimulator(fifo));
    expect(() => new StreamSource(tb, 'in')).toThrow("Fifo_depth4_width8 has no port 'in_valid' for the stream 'in' (Decoupled names in_valid, in_ready, in_bits[_*]; or pass the ports)");
    expect(() => new StreamSource(tb, 'deq')).toThrow("'deq_valid' is an output of Fifo_depth4_width8; the stream 'deq' (Decoupled names deq_valid, deq_ready, deq_bits[_*]; or pass the ports) needs it as an input (the testbench drives valid)");
    expect(() => new StreamSink(tb, 'deq', { backpressure: 1 })).toThrow('backpressure must be a probability in [0, 1), got 1');
  });
});
