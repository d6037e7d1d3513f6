// The clock-domain crossing check against the library: a direct sample of another domain is refused, the same design through a primitive is accepted.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, input, output } from '../../../src/hdl/index.ts';
import { BitSynchronizer, PulseSynchronizer, ResetSynchronizer, AsyncFifo } from '../../../src/hdl/lib/index.ts';
import { compileSimulator } from '../../../src/hdl/sim/index.ts';
import { hdlErrorOf, markerLine } from '../../hdl/markers.ts';

const thisFile = fileURLToPath(import.meta.url);

type Via = 'direct' | 'BitSynchronizer' | 'AsyncFifo' | 'PulseSynchronizer';

/** A counter clocked by clkA whose value a register clocked by clkB samples: directly or through a primitive. */
const Sampler = defineModule(
  'Sampler',
  (p: { via: Via }) => ({ clkA: input(Clock), clkB: input(Clock), seen: output(UInt(4)) }),
  (m, io, p) => {
    const a = m.clockDomain({ clock: io.clkA });
    const b = m.clockDomain({ clock: io.clkB });
    const counter = m.reg(UInt(4), { domain: a, name: 'counter' }); // @mark:counter
    counter.set(counter.add(1));
    const seen = m.reg(UInt(4), { domain: b, name: 'sampled' }); // @mark:seen
    io.seen.set(seen);
    if (p.via === 'direct') seen.set(counter);
    else if (p.via === 'BitSynchronizer') {
      const sync = m.instance(BitSynchronizer, { width: 4 }, { domain: b });
      sync.io.clk.set(io.clkB);
      sync.io.d.set(counter);
      seen.set(sync.io.q);
    } else if (p.via === 'PulseSynchronizer') {
      const sync = m.instance(PulseSynchronizer, {});
      sync.io.srcClk.set(io.clkA);
      sync.io.dstClk.set(io.clkB);
      sync.io.d.set(counter.eq(0));
      m.withDomain(b, () => m.when(sync.io.q, () => seen.set(seen.add(1))));
    } else {
      const fifo = m.instance(AsyncFifo, { width: 4, depth: 4 });
      fifo.io.wclk.set(io.clkA);
      fifo.io.rclk.set(io.clkB);
      fifo.io.enq.valid.set(true);
      fifo.io.enq.bits.set(counter);
      fifo.io.deq.ready.set(true);
      m.withDomain(b, () => m.when(fifo.io.deq.valid, () => seen.set(fifo.io.deq.bits)));
    }
  },
);

describe('the crossing check with the clock-crossing library', () => {
  test("a register sampling another domain's register directly: ClockDomainCrossing, naming both clocks and both lines", () => {
    const e = hdlErrorOf(() => elaborate(Sampler, { via: 'direct' }));
    expect(e.code).toBe('ClockDomainCrossing');
    const [d] = e.diagnostics;
    expect(d!.message).toContain("register 'sampled' (clock 'clkB') samples 'counter' of clock 'clkA' without a synchronizer");
    expect(d!.message).toContain('BitSynchronizer');
    expect(d!.loc).toMatchObject({ file: thisFile, line: markerLine(thisFile, 'seen') });
    expect(d!.notes?.[0]?.loc).toMatchObject({ file: thisFile, line: markerLine(thisFile, 'counter') });
    expect(e.message).toContain(`${thisFile}:${markerLine(thisFile, 'seen')}:`);
    expect(e.message).toContain(`${thisFile}:${markerLine(thisFile, 'counter')}:`);
  });

  test.each(['BitSynchronizer', 'PulseSynchronizer', 'AsyncFifo'] as const)('the same design through %s is accepted and runs', (via) => {
    const { design } = elaborate(Sampler, { via });
    const sim = compileSimulator(design, { backend: 'js' });
    sim.setClockTiming('clkA', { period: 10, phase: 5 });
    sim.setClockTiming('clkB', { period: 23, phase: 2 });
    sim.advance(2000);
    expect(sim.peek('seen')).not.toBe(0n);
  });

  test("a port of the FIFO's write side read in the read domain is refused: wcount belongs to the write clock", () => {
    const Misuse = defineModule('FifoMisuse', () => ({ wclk: input(Clock), rclk: input(Clock), d: input(UInt(8)), out: output(UInt(3)) }), (m, io) => {
      const fifo = m.instance(AsyncFifo, { width: 8, depth: 4 });
      fifo.io.wclk.set(io.wclk);
      fifo.io.rclk.set(io.rclk);
      fifo.io.enq.valid.set(true);
      fifo.io.enq.bits.set(io.d);
      fifo.io.deq.ready.set(true);
      const level = m.reg(UInt(3), { domain: m.clockDomain({ clock: io.rclk }), name: 'level' }); // @mark:level
      level.set(fifo.io.wcount);
      io.out.set(level);
    });
    const e = hdlErrorOf(() => elaborate(Misuse, undefined));
    expect(e.code).toBe('ClockDomainCrossing');
    expect(e.diagnostics[0]!.message).toMatch(/register 'level' \(clock 'rclk'\) samples '[^']+' of clock 'wclk'/);
    expect(e.diagnostics[0]!.loc).toMatchObject({ file: thisFile, line: markerLine(thisFile, 'level') });
  });

  test("a ResetSynchronizer fed by another domain's register is accepted (its input is an asynchronous reset)", () => {
    const SoftReset = defineModule('SoftReset', () => ({ clkA: input(Clock), clkB: input(Clock), go: input(Bool), count: output(UInt(8)) }), (m, io) => {
      const a = m.clockDomain({ clock: io.clkA });
      const resetReg = m.reg(Bool, { domain: a, name: 'resetReg' });
      resetReg.set(io.go);
      const rs = m.instance(ResetSynchronizer, { inputActive: 'high', outputActive: 'high' }, { domain: a });
      rs.io.clk.set(io.clkB);
      rs.io.resetIn.set(resetReg);
      const b = m.clockDomain({ clock: io.clkB, reset: rs.io.resetOut, resetKind: 'async', resetActive: 'high' });
      const count = m.reg(UInt(8), { reset: 0, domain: b, name: 'count' });
      count.set(count.add(1));
      io.count.set(count);
    });
    expect(() => elaborate(SoftReset, undefined)).not.toThrow();
  });
});
