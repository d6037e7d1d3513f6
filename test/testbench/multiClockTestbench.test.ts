// Testbench processes on a design with several clocks: each waits for edges of its own clock, in time order, and a declared reset is driven at its polarity.
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { Testbench } from '../../src/hdl/testbench/index.ts';

const Two = defineModule('tb_two_clocks', () => ({ a: input(Clock), b: input(Clock), rst: input(Bool), na: output(UInt(16)), nb: output(UInt(16)) }), (m, io) => {
  const ca = m.reg(UInt(16), { reset: 0, domain: m.clockDomain({ clock: io.a, reset: io.rst, resetKind: 'sync', resetActive: 'high' }) });
  const cb = m.reg(UInt(16), { domain: m.clockDomain({ clock: io.b }) });
  ca.set(ca.add(1));
  cb.set(cb.add(1));
  io.na.set(ca);
  io.nb.set(cb);
});

describe('a testbench over several clocks', () => {
  test('tick(n, clock) wakes at that clock’s edges, in time order; edges() counts them; the reset is active high', async () => {
    const sim = compileSimulator(elaborate(Two, {}).design, { backend: 'js' });
    const tb = new Testbench(sim, { resetName: 'rst', resetActive: 'high' });
    tb.clock('a', { period: 10 });
    tb.clock('b', { period: 7.3, phase: 1 });
    const seen: string[] = [];
    await tb.run(async () => {
      await tb.reset(2);
      expect(sim.peek('rst')).toBe(0n);
      const na = Number(sim.peek('na'));
      expect(na).toBe(0);
      const b = tb.fork('b side', async () => {
        for (let i = 0; i < 4; i++) {
          await tb.tick(1, 'b');
          seen.push(`b@${tb.time}`);
        }
      });
      for (let i = 0; i < 3; i++) {
        await tb.tick();
        seen.push(`a@${tb.time}`);
      }
      await tb.join(b);
    });
    // a rises at 5, 15, 25, …; b at 1, 8.3, 15.6, …: the reset took a's edges at 5 and 15.
    expect(seen).toEqual(['b@15.6', 'b@22.9', 'a@25', 'b@30.2', 'a@35', 'b@37.5', 'a@45']);
    expect(tb.edges('a')).toBe(5);
    expect(tb.edges('b')).toBe(7); // 44.8 came before a's edge at 45
    expect(sim.peek('na')).toBe(3n);
    expect(() => tb.edges('c')).toThrow(/no clock 'c'; the clocks are a, b/);
  });

  test('a testbench made after the simulator ran catches up with the instants it ran', async () => {
    const sim = compileSimulator(elaborate(Two, {}).design, { backend: 'js' });
    sim.setClockTiming('b', { period: 7.3 });
    const tb = new Testbench(sim);
    sim.advance(3);
    await tb.run(async () => {
      await tb.tick(1, 'b');
      expect(sim.time).toBe(3.65);
      expect(sim.peek('nb')).toBe(1n);
      await tb.tick(2);
      expect(sim.time).toBe(15);
      expect(sim.peek('na')).toBe(2n);
    });
  });
});
