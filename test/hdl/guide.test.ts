// The examples of docs/hdl-guide.md, run: counter, when/switch, state machine, memory, hierarchy (its listings: test/architecture/docCodeBlocks.test.ts).
import { expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, fsm, input, mux, output } from '../../src/hdl/index.ts';
import { Fifo } from '../../src/hdl/lib/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { Testbench } from '../../src/hdl/testbench/index.ts';

test('counter', () => {
  const Counter = defineModule(
    'Counter',
    (p: { width: number }) => ({ en: input(Bool), count: output(UInt(p.width)) }),
    (m, io, p) => {
      const count = m.reg(UInt(p.width), { reset: 0 });
      m.when(io.en, () => {
        count.set(count.add(1));
      });
      io.count.set(count);
    },
  );
  const sim = compileSimulator(elaborate(Counter, { width: 8 }).design);
  sim.reset();
  sim.poke('en', 1);
  sim.step(300);
  expect(sim.peek('count')).toBe(300n % 256n);
});

test('simulating: step, runUntil, powerOn', () => {
  const Counter = defineModule('Counter', (p: { width: number }) => ({ en: input(Bool), count: output(UInt(p.width)) }), (m, io, p) => {
    const count = m.reg(UInt(p.width), { reset: 0 });
    m.when(io.en, () => count.set(count.add(1)));
    io.count.set(count);
  });
  const sim = compileSimulator(elaborate(Counter, { width: 8 }).design);
  sim.reset();
  sim.poke('en', 1);
  sim.step(10);
  expect(sim.peek('count')).toBe(10n);
  expect(sim.runUntil((s) => s.peek('count') === 200n, 1000)).toBe(190);
  expect(() => sim.runUntil((s) => s.peek('count') === 300n, 100)).toThrow('runUntil: condition not met within 100 cycles');
  sim.powerOn();
  expect([sim.peek('count'), sim.peek('en')]).toEqual([0n, 0n]);
});

test('when/elsewhen/otherwise and switch', () => {
  const Alu = defineModule('Alu', () => ({ op: input(UInt(2)), a: input(UInt(8)), b: input(UInt(8)), start: input(Bool), step: input(Bool), y: output(UInt(8)), r: output(UInt(8)) }), (m, io) => {
    const y = m.wire(UInt(8));
    m.switch(io.op)
      .is(0, () => y.set(io.a.add(io.b)))
      .is([1, 2], () => y.set(io.a.sub(io.b)))
      .default(() => y.set(0));
    io.y.set(y);
    const r = m.reg(UInt(8), { reset: 0 });
    m.when(io.start, () => r.set(0))
      .elsewhen(io.step, () => r.set(r.add(1)))
      .otherwise(() => r.set(r));
    io.r.set(r);
  });
  const sim = compileSimulator(elaborate(Alu, undefined).design);
  sim.poke('a', 10);
  sim.poke('b', 3);
  const ys = [0, 1, 2, 3].map((op) => (sim.poke('op', op), sim.peek('y')));
  expect(ys).toEqual([13n, 7n, 7n, 0n]);
  sim.reset();
  sim.poke('step', 1);
  sim.step(5);
  sim.poke('start', 1);
  expect(sim.peek('r')).toBe(5n);
  sim.step();
  expect(sim.peek('r')).toBe(0n);
});

test('state machine', () => {
  const Ctrl = defineModule('Ctrl', () => ({ start: input(Bool), full: input(Bool), empty: input(Bool), busy: output(Bool) }), (m, io) => {
    const ctrl = fsm(m, 'ctrl', ['idle', 'fill', 'drain'], 'idle');
    ctrl.on({
      idle: () => m.when(io.start, () => ctrl.goto('fill')),
      fill: () => m.when(io.full, () => ctrl.goto('drain')),
      drain: () => m.when(io.empty, () => ctrl.goto('idle')),
    });
    io.busy.set(ctrl.is('idle').not());
  });
  const sim = compileSimulator(elaborate(Ctrl, undefined).design);
  sim.reset();
  const trace: bigint[] = [];
  for (const [start, full, empty] of [[1, 0, 0], [0, 0, 0], [0, 1, 0], [0, 0, 0], [0, 0, 1], [0, 0, 0]]) {
    sim.poke('start', start!);
    sim.poke('full', full!);
    sim.poke('empty', empty!);
    sim.step();
    trace.push(sim.peek('ctrl_state'));
  }
  expect(trace).toEqual([1n, 1n, 2n, 2n, 0n, 0n]);
});

test('memory and hierarchy', () => {
  const Top = defineModule('Top', () => ({ we: input(Bool), addr: input(UInt(4)), data: input(UInt(32)), byteEn: input(UInt(4)), q: output(UInt(32)), level: output(UInt(5)) }), (m, io) => {
    const mem = m.memory(UInt(32), 16, { init: [1, 2, 3] });
    m.when(io.we, () => mem.write(io.addr, io.data, { mask: io.byteEn }));
    io.q.set(mem.read(io.addr));
    const fifo = m.instance(Fifo, { width: 8, depth: 16 });
    fifo.io.enq.valid.set(io.we);
    fifo.io.enq.bits.set(io.data.trunc(8));
    fifo.io.deq.ready.set(false);
    io.level.set(fifo.io.count);
  });
  const sim = compileSimulator(elaborate(Top, undefined).design);
  sim.reset();
  sim.poke('addr', 2);
  sim.step();
  expect(sim.peek('q')).toBe(3n);
  sim.poke('we', 1);
  sim.poke('data', 0xaabbccdd);
  sim.poke('byteEn', 0b0101);
  sim.step();
  sim.poke('we', 0);
  sim.step();
  expect(sim.peek('q')).toBe(0x00bb00ddn | (3n & 0xff00ff00n));
  expect(sim.peek('level')).toBe(1n);
});

test('README and guide: one testbench on every engine', async () => {
  const Counter = defineModule('Counter', (p: { width: number }) => ({ en: input(Bool), count: output(UInt(p.width)) }), (m, io, p) => {
    const count = m.reg(UInt(p.width), { reset: 0 });
    m.when(io.en, () => count.set(count.add(1)));
    io.count.set(count);
  });
  const design = elaborate(Counter, { width: 8 }).design;
  const cycles: number[] = [];
  for (const backend of ['wasm', 'verilator', 'icarus', 'lockstep'] as const) {
    const sim = await compileSimulator(design, { backend });
    const tb = new Testbench(sim);
    await tb.run(async () => {
      await tb.reset();
      tb.poke('en', 1);
      await tb.until(() => tb.peek('count') === 100n, { timeout: 1000 });
    });
    cycles.push(sim.cycle);
    sim.close();
  }
  expect(cycles).toEqual([101, 101, 101, 101]);
}, 300_000);

test('properties: the WrapCounter of "Properties, coverage and proofs" holds under its assumption and covers its wrap', () => {
  const WrapCounter = defineModule('WrapCounter', (p: { limit: number }) => ({ en: input(Bool), clear: input(Bool), count: output(UInt(8)), wrapped: output(Bool) }), (m, io, p) => {
    const count = m.reg(UInt(8), { reset: 0 });
    const atLimit = count.eq(p.limit - 1);
    m.when(io.clear, () => count.set(0)).elsewhen(io.en, () => count.set(mux(atLimit, 0, count.add(1))));
    io.count.set(count);
    io.wrapped.set(atLimit.and(io.en));
    m.assert(count.lt(p.limit), 'the count stays below the limit');
    m.assert(m.impliesNext(io.en.and(io.clear.not()).and(atLimit.not()), count.ne(0)), 'counting up never lands on 0');
    m.assert(m.impliesNext(io.clear, count.eq(0)), 'clear empties the counter');
    m.assume(io.en.and(io.clear).not(), 'the environment never enables and clears at once');
    m.cover(atLimit.and(io.en), 'wraps');
  });
  const sim = compileSimulator(elaborate(WrapCounter, { limit: 10 }).design);
  sim.reset();
  for (let c = 0; c < 500; c++) {
    const clear = c % 37 === 0 ? 1 : 0;
    sim.poke('clear', clear);
    sim.poke('en', clear ? 0 : c % 3 === 0 ? 0 : 1);
    sim.step();
  }
  expect(sim.coverCounts().wraps).toBeGreaterThan(10);
  sim.poke('en', 1);
  sim.poke('clear', 1);
  expect(() => sim.step()).toThrow(/assumption WrapCounter\w*\.assume_\d+ failed: the environment never enables and clears at once/);
});
