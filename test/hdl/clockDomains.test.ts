// Declared clocks and resets: fixed port lists, every reset kind and polarity, several domains, the crossing check, emitted SV.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, Clock, Enum, UInt, cat, defineBlackBox, defineModule, type BoolValue, elaborate, fsm, input, output, type Design } from '../../src/hdl/index.ts';
import { expectLintClean } from './lintClean.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { hdlErrorOf, markerLine } from './markers.ts';

const thisFile = fileURLToPath(import.meta.url);

type ResetCase = { readonly port: string; readonly kind: 'sync' | 'async'; readonly active: 'high' | 'low' };
const resetCases: readonly ResetCase[] = [
  { port: 'reset', kind: 'sync', active: 'high' },
  { port: 'areset', kind: 'async', active: 'high' },
  { port: 'resetn', kind: 'sync', active: 'low' },
  { port: 'aresetn', kind: 'async', active: 'low' },
];

/** A fixed port list `clock, <reset>, d, q`: a counter plus a bundle and an FSM state, all reset by the declared reset. */
function fixedPortCounter(c: ResetCase, edge: 'rising' | 'falling') {
  return defineModule(
    `counter_${c.port}_${edge}`,
    () => ({ clock: input(Clock), [c.port]: input(Bool), d: input(UInt(4)), q: output(UInt(4)), pair: output(UInt(8)), busy: output(Bool) }),
    (m, io) => {
      const ports = io as unknown as Record<string, BoolValue>;
      m.useDomain(m.clockDomain({ clock: io.clock, edge, reset: ports[c.port]!, resetKind: c.kind, resetActive: c.active }));
      const count = m.reg(UInt(4), { reset: 5 });
      count.set(count.add(io.d));
      io.q.set(count);
      const pair = m.reg(Bundle({ a: UInt(4), b: UInt(4) }), { reset: { a: 3, b: 9 } });
      pair.a.set(pair.b);
      pair.b.set(io.d);
      io.pair.set(cat(pair.a, pair.b));
      const ctl = fsm(m, 'ctl', ['idle', 'run', 'done'], 'run');
      ctl.on({ idle: () => ctl.goto('run'), run: () => ctl.goto('done'), done: () => ctl.goto('idle') });
      io.busy.set(ctl.is('run'));
    },
  );
}

describe('declared clocks and resets', () => {
  for (const c of resetCases) {
    for (const edge of ['rising', 'falling'] as const) {
      test(`clock + ${c.port} (${c.kind}, active ${c.active}, ${edge} edge): lint-clean SV and reset at random times between edges`, async () => {
        const d = elaborate(fixedPortCounter(c, edge), {}).design;
        const text = await expectLintClean(d);
        const event = `${edge === 'rising' ? 'posedge' : 'negedge'} clock`;
        const resetEvent = c.kind === 'async' ? ` or ${c.active === 'high' ? 'posedge' : 'negedge'} ${c.port}` : '';
        expect(text).toContain(`always_ff @(${event}${resetEvent}) begin`);
        expect(text).toContain(`if (${c.active === 'high' ? c.port : `!${c.port}`}) begin`);
        expect(text).toMatch(new RegExp(`module counter_${c.port}_${edge} \\(\\n  input  logic clock,\\n  input  logic ${c.port},`));
        expect(text).not.toMatch(/\bclk\b|\brst_n\b/);

        const seed = seedFromEnv();
        const rng = createRng(seed);
        const sim = compileSimulator(d, { backend: 'js' });
        const asserted = c.active === 'high' ? 1 : 0;
        // The model: what each register holds.
        let count = 0;
        let a = 0;
        let b = 0;
        let state = 0;
        const resetModel = () => ((count = 5), (a = 3), (b = 9), (state = 1));
        let inReset = false;
        // Inputs power on at 0: an active-low asynchronous reset holds its registers from the start.
        if (c.kind === 'async' && c.active === 'low') resetModel();
        sim.poke(c.port, 1 - asserted);
        const edgeLevel = edge === 'rising' ? 1 : 0;
        sim.setClocks({ clock: 1 - edgeLevel as 0 | 1 });
        for (let i = 0; i < 400; i++) {
          const dIn = rng.int(16);
          sim.poke('d', dIn);
          // Between edges: assert or release the reset; an asynchronous one acts at once.
          if (rng.int(8) === 0) {
            inReset = !inReset;
            sim.poke(c.port, inReset ? asserted : 1 - asserted);
            if (inReset && c.kind === 'async') resetModel();
          }
          expect(sim.peek('q'), `seed ${seed} step ${i}`).toBe(BigInt(count));
          sim.setClocks({ clock: edgeLevel as 0 | 1 });
          if (inReset) resetModel();
          else {
            count = (count + dIn) & 15;
            a = b;
            b = dIn;
            state = (state + 1) % 3;
          }
          expect(sim.peek('q'), `seed ${seed} step ${i}`).toBe(BigInt(count));
          expect(sim.peek('pair'), `seed ${seed} step ${i}`).toBe(BigInt((a << 4) | b));
          expect(sim.peek('busy'), `seed ${seed} step ${i}`).toBe(state === 1 ? 1n : 0n);
          sim.setClocks({ clock: (1 - edgeLevel) as 0 | 1 });
        }
      });
    }
  }

  test('sim.reset() asserts a declared reset at its own polarity', () => {
    const d = elaborate(fixedPortCounter(resetCases[0]!, 'rising'), {}).design;
    const sim = compileSimulator(d, { backend: 'js' });
    sim.poke('d', 1);
    sim.step(3);
    expect(sim.peek('q')).toBe(3n);
    sim.reset(2);
    expect(sim.peek('reset')).toBe(0n);
    expect(sim.peek('q')).toBe(5n);
  });

  test('a dual-edge flip-flop from a rising and a falling domain on one clock', async () => {
    const DualEdge = defineModule('dualedge', () => ({ clk: input(Clock), d: input(UInt(3)), q: output(UInt(3)) }), (m, io) => {
      const rise = m.clockDomain({ clock: io.clk });
      const fall = m.clockDomain({ clock: io.clk, edge: 'falling' });
      const p = m.reg(UInt(3), { domain: rise });
      const n = m.reg(UInt(3), { domain: fall });
      p.set(io.d.xor(n));
      n.set(io.d.xor(p));
      io.q.set(p.xor(n));
    });
    const d = elaborate(DualEdge, {}).design;
    const text = await expectLintClean(d);
    expect(text).toContain('always_ff @(posedge clk) begin');
    expect(text).toContain('always_ff @(negedge clk) begin');
    const sim = compileSimulator(d, { backend: 'js' });
    const rng = createRng(seedFromEnv());
    for (let i = 0; i < 200; i++) {
      const v = rng.int(8);
      sim.poke('d', v);
      sim.setClocks({ clk: (i % 2 === 0 ? 1 : 0) as 0 | 1 });
      expect(sim.peek('q')).toBe(BigInt(v));
    }
    // step() is a whole cycle: the rising edge, then the falling one.
    sim.poke('d', 5);
    sim.step();
    expect(sim.peek('q')).toBe(5n);
  });

  test('reset values of enums and FSM states in a declared asynchronous domain', async () => {
    const Color = Enum('Color', ['red', 'green', 'blue']);
    const M = defineModule('colors', () => ({ clk: input(Clock), arst: input(Bool), go: input(Bool), c: output(Color), s: output(Bool) }), (m, io) => {
      m.useDomain(m.clockDomain({ clock: io.clk, reset: io.arst, resetKind: 'async', resetActive: 'high' }));
      const c = m.reg(Color, { reset: 'blue' });
      m.when(io.go, () => c.set('red'));
      io.c.set(c);
      const f = fsm(m, 'walk', ['a', 'b'], 'b');
      m.when(io.go, () => f.goto('a'));
      io.s.set(f.is('b'));
    });
    const d = elaborate(M, {}).design;
    const text = await expectLintClean(d);
    expect(text).toContain('always_ff @(posedge clk or posedge arst) begin');
    const sim = compileSimulator(d, { backend: 'js' });
    sim.poke('go', 1);
    sim.step();
    expect(sim.peek('c')).toBe(0n);
    expect(sim.peek('s')).toBe(0n);
    sim.poke('arst', 1);
    expect(sim.peek('c')).toBe(2n);
    expect(sim.peek('s')).toBe(1n);
  });

  test('a module on the implicit clock inside a declared active-high domain: its clk and rst_n are driven from the domain', async () => {
    const Inner = defineModule('inner', () => ({ x: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      io.y.set(m.regNext(io.x, { reset: 7 }));
    });
    const Outer = defineModule('outer', () => ({ clock: input(Clock), reset: input(Bool), x: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      m.useDomain(m.clockDomain({ clock: io.clock, reset: io.reset, resetKind: 'sync', resetActive: 'high' }));
      const u = m.instance(Inner, {});
      u.io.x.set(io.x);
      io.y.set(u.io.y);
    });
    const d = elaborate(Outer, {}).design;
    const text = await expectLintClean(d);
    expect(text).toContain('.clk(clock)');
    expect(text).toMatch(/\.rst_n\(reset_n\)|\.rst_n\(!reset\)|\.rst_n\(~reset\)/);
    const sim = compileSimulator(d, { backend: 'js' });
    sim.poke('x', 3);
    sim.step();
    expect(sim.peek('y')).toBe(3n);
    sim.reset();
    expect(sim.peek('y')).toBe(7n);
  });

  test("a child's clock inputs are driven from the parent's clocks (explicitly, or by the domain in effect)", async () => {
    const Child = defineModule('child2', () => ({ a: input(Clock), b: input(Clock), x: input(UInt(2)), ya: output(UInt(2)), yb: output(UInt(2)) }), (m, io) => {
      const da = m.clockDomain({ clock: io.a });
      const db = m.clockDomain({ clock: io.b });
      const ra = m.reg(UInt(2), { domain: da });
      const rb = m.reg(UInt(2), { domain: db, synchronizer: true });
      ra.set(io.x);
      rb.set(io.x);
      io.ya.set(ra);
      io.yb.set(m.crossDomain(rb, 'test: read back only by the testbench'));
    });
    const Parent = defineModule('parent2', () => ({ fast: input(Clock), slow: input(Clock), x: input(UInt(2)), ya: output(UInt(2)), yb: output(UInt(2)) }), (m, io) => {
      const u = m.instance(Child, {}, { domain: m.clockDomain({ clock: io.slow }) });
      u.io.a.set(io.fast);
      u.io.x.set(io.x);
      io.ya.set(u.io.ya);
      io.yb.set(u.io.yb);
    });
    const d = elaborate(Parent, {}).design;
    const text = await expectLintClean(d);
    expect(text).toContain('.a(fast)');
    expect(text).toContain('.b(slow)');
    expect(text).toContain('(* ASYNC_REG = "TRUE" *) logic [1:0] rb;');
    const sim = compileSimulator(d, { backend: 'js' });
    expect(sim.clocks).toEqual(['fast', 'slow']);
    sim.poke('x', 2);
    sim.setClocks({ fast: 1 });
    expect([sim.peek('ya'), sim.peek('yb')]).toEqual([2n, 0n]);
    sim.setClocks({ slow: 1, fast: 0 });
    expect([sim.peek('ya'), sim.peek('yb')]).toEqual([2n, 2n]);
  });

  test('simulated time: periods that are not multiples, simultaneous edges as one instant', () => {
    const Two = defineModule('twocounters', () => ({ a: input(Clock), b: input(Clock), na: output(UInt(16)), nb: output(UInt(16)) }), (m, io) => {
      const ca = m.reg(UInt(16), { domain: m.clockDomain({ clock: io.a }) });
      const cb = m.reg(UInt(16), { domain: m.clockDomain({ clock: io.b }) });
      ca.set(ca.add(1));
      cb.set(cb.add(1));
      io.na.set(ca);
      io.nb.set(cb);
    });
    const sim = compileSimulator(elaborate(Two, {}).design, { backend: 'js' });
    sim.setClockTiming('a', { period: 10 });
    sim.setClockTiming('b', { period: 7.3, phase: 1 });
    sim.advance(1000);
    // a rises at 5, 15, …, 995: 100 edges; b at 1, 8.3, …: floor((1000 - 1) / 7.3) + 1 = 137.
    expect(sim.peek('na')).toBe(100n);
    expect(sim.peek('nb')).toBe(137n);
    expect(sim.time).toBe(1000);
    sim.step(10);
    expect(sim.peek('na')).toBe(110n);
    expect(sim.cycle).toBe(110);
    expect(() => sim.setClockTiming('a', { period: 5 })).toThrow(/before time moves/);
    expect(() => sim.runVectors([], ['na'], new Uint32Array(0), 1)).toThrow(/runVectors drives one rising clock edge/);
  });
});

describe('clock-domain misuse is a located error', () => {
  test('a register with a reset value in a domain without reset', () => {
    const M = defineModule('noreset', () => ({ clk: input(Clock), q: output(UInt(2)) }), (m, io) => {
      const r = m.reg(UInt(2), { reset: 0 }); // @mark:noreset
      r.set(r);
      io.q.set(r);
    });
    const e = hdlErrorOf(() => elaborate(M, {}));
    expect(e.code).toBe('ClockDomain');
    expect(e.message).toMatch(/has no reset/);
    expect(e.diagnostics[0]!.loc.line).toBe(markerLine(thisFile, 'noreset'));
  });

  test('two clocks and no domain chosen', () => {
    const M = defineModule('twoclocks', () => ({ a: input(Clock), b: input(Clock), q: output(UInt(2)) }), (m, io) => {
      const r = m.reg(UInt(2));
      r.set(r);
      io.q.set(r);
    });
    expect(() => elaborate(M, {})).toThrow(/has clocks 'a', 'b': say which domain/);
  });

  test('async: contradicting the domain, missing resetKind, a clock output, a domain of another module, a reserved name', () => {
    const Contradict = defineModule('contradict', () => ({ clk: input(Clock), rst: input(Bool), q: output(UInt(2)) }), (m, io) => {
      m.useDomain(m.clockDomain({ clock: io.clk, reset: io.rst, resetKind: 'sync', resetActive: 'high' }));
      const r = m.reg(UInt(2), { reset: 0, async: true });
      r.set(r);
      io.q.set(r);
    });
    expect(() => elaborate(Contradict, {})).toThrow(/async: true contradicts clock domain 'clk'/);
    const NoKind = defineModule('nokind', () => ({ clk: input(Clock), rst: input(Bool) }), (m, io) => {
      m.clockDomain({ clock: io.clk, reset: io.rst, resetActive: 'high' } as never);
    });
    expect(() => elaborate(NoKind, {})).toThrow(/resetKind: 'sync' or 'async'/);
    expect(() => output(Clock)).toThrow(/cannot output a clock/);
    const Reserved = defineModule('reserved', () => ({ clk: input(Bool) }), () => {});
    expect(() => elaborate(Reserved, {})).toThrow(/reserved for the implicit clock.*input\(Clock\)/);
    const DataClock = defineModule('dataclock', () => ({ clk: input(Clock), x: input(Bool) }), (m, io) => {
      m.clockDomain({ clock: io.x as never });
    });
    expect(() => elaborate(DataClock, {})).toThrow(/must be a Clock input port/);
  });

  test('a clock used as data: an eDSL operand or a JavaScript operator is a ClockDomain error at the line', () => {
    const M = defineModule('clockdata', () => ({ clk: input(Clock), x: input(Bool), y: output(Bool) }), (m, io) => {
      io.y.set(io.x.and(io.clk as never)); // @mark:clockdata
    });
    const e = hdlErrorOf(() => elaborate(M, {}));
    expect(e.code).toBe('ClockDomain');
    expect(e.message).toMatch(/the clock 'clk' is not data/);
    expect(e.diagnostics[0]!.loc.line).toBe(markerLine(thisFile, 'clockdata'));
    const J = defineModule('clockjs', () => ({ clk: input(Clock) }), (_m, io) => {
      void `${io.clk as never}`;
    });
    expect(() => elaborate(J, {})).toThrow(/the clock 'clk' is not data/);
  });
});

describe('the clock-domain crossing check', () => {
  const Crossing = (how: 'direct' | 'synchronizer' | 'falsePath' | 'sameClock') =>
    defineModule(`crossing_${how}`, () => ({ a: input(Clock), b: input(Clock), x: input(Bool), y: output(Bool) }), (m, io) => {
      const da = m.clockDomain({ clock: io.a });
      const db = m.clockDomain({ clock: how === 'sameClock' ? io.a : io.b, edge: how === 'sameClock' ? 'falling' : 'rising' });
      const src = m.reg(Bool, { domain: da }); // @mark:source
      src.set(io.x);
      const seen = how === 'falsePath' ? m.crossDomain(src, 'test') : src;
      const dst = m.reg(Bool, { domain: db, synchronizer: how === 'synchronizer' }); // @mark:sink
      dst.set(seen.not());
      const dst2 = m.reg(Bool, { domain: db });
      dst2.set(dst);
      io.y.set(dst2);
      if (how === 'sameClock') m.unused(io.b);
    });

  test('a register sampling another clock directly: both domains and both lines', () => {
    const e = hdlErrorOf(() => elaborate(Crossing('direct'), {}));
    expect(e.code).toBe('ClockDomainCrossing');
    const d = e.diagnostics[0]!;
    expect(d.message).toMatch(/register 'dst' \(clock 'b'\) samples 'src' of clock 'a' without a synchronizer/);
    expect(d.loc.line).toBe(markerLine(thisFile, 'sink'));
    expect(d.notes?.[0]?.loc?.line).toBe(markerLine(thisFile, 'source'));
  });

  test('through a synchronizer flop, a declared false path, or between the edges of one clock: accepted', async () => {
    for (const how of ['synchronizer', 'falsePath', 'sameClock'] as const) expect(() => elaborate(Crossing(how), {})).not.toThrow();
    await expectLintClean(elaborate(Crossing('synchronizer'), {}).design);
  });

  test('through a memory written in one domain and read combinationally in another', () => {
    const M = defineModule('memcross', () => ({ a: input(Clock), b: input(Clock), x: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      const mem = m.memory(UInt(4), 4, { domain: m.clockDomain({ clock: io.a }) });
      mem.write(0, io.x);
      const r = m.reg(UInt(4), { domain: m.clockDomain({ clock: io.b }) });
      r.set(mem.readAsync(0));
      io.y.set(r);
    });
    expect(() => elaborate(M, {})).toThrow(/samples 'mem' of clock 'a'/);
  });
});

describe('black boxes with several clocks', () => {
  const ports = () => ({ wr_clk: input(Clock), rd_clk: input(Clock), din: input(UInt(4)), a: output(UInt(4)), b: output(UInt(4)) });
  const Model = defineModule('two_clock_regs_model', ports, (m, io) => {
    const a = m.reg(UInt(4), { domain: m.clockDomain({ clock: io.wr_clk }) });
    const b = m.reg(UInt(4), { domain: m.clockDomain({ clock: io.rd_clk }) });
    a.set(io.din);
    b.set(io.din);
    io.a.set(a);
    io.b.set(b);
  });
  const Regs = defineBlackBox('two_clock_regs', ports, { sources: [fileURLToPath(new URL('./fixtures/two_clock_regs.v', import.meta.url))], model: Model });
  const Top = defineModule('two_clock_top', () => ({ w: input(Clock), r: input(Clock), din: input(UInt(4)), a: output(UInt(4)), b: output(UInt(4)) }), (m, io) => {
    const u = m.instance(Regs, {});
    u.io.wr_clk.set(io.w);
    u.io.rd_clk.set(io.r);
    u.io.din.set(io.din);
    io.a.set(u.io.a);
    io.b.set(u.io.b);
  });

  test("each Clock port of the black box is connected to the parent's clock, lint-clean; the TS simulator runs its model", async () => {
    const d = elaborate(Top, {}).design;
    const text = await expectLintClean(d);
    expect(text).toContain('.wr_clk(w)');
    expect(text).toContain('.rd_clk(r)');
    const sim = compileSimulator(d, { backend: 'js' });
    sim.poke('din', 9);
    sim.setClocks({ w: 1 });
    expect([sim.peek('a'), sim.peek('b')]).toEqual([9n, 0n]);
    sim.poke('din', 4);
    sim.setClocks({ r: 1 });
    expect([sim.peek('a'), sim.peek('b')]).toEqual([9n, 4n]);
  });
});

describe('a clock input that clocks nothing', () => {
  const Comb = (mark: boolean) =>
    defineModule(`comb_clk_${mark}`, () => ({ clk: input(Clock), a: input(UInt(4)), b: output(UInt(4)) }), (m, io) => {
      if (mark) m.unused(io.clk);
      io.b.set(io.a.not());
    });

  test('warns UnusedInput unless marked m.unused; the SV is lint-clean either way', async () => {
    const plain = elaborate(Comb(false), {});
    expect(plain.warnings.map((w) => w.code)).toEqual(['UnusedInput']);
    expect(plain.warnings[0]!.message).toMatch(/clock input 'clk' of module comb_clk_false clocks nothing/);
    const marked = elaborate(Comb(true), {});
    expect(marked.warnings).toEqual([]);
    const text = await expectLintClean(marked.design);
    expect(text).toContain("wire _unused_ok = &{1'b0, clk, 1'b0};");
  });
});

describe('a domain reset computed by logic', () => {
  test('is a named net in the SV (an asynchronous one stands in the event control), lint-clean, on every kind', async () => {
    for (const kind of ['sync', 'async'] as const) {
      const M = defineModule(`reset_logic_${kind}`, () => ({ c0: input(Clock), c1: input(Clock), a: input(Bool), b: input(Bool), d: input(UInt(8)), q: output(UInt(8)), p: output(UInt(8)) }), (m, io) => {
        const r = m.reg(UInt(8), { reset: 0x7c, domain: m.clockDomain({ clock: io.c1, reset: io.a.and(io.b), resetKind: kind, resetActive: 'low' }) });
        const s = m.reg(UInt(8), { domain: m.clockDomain({ clock: io.c0 }) });
        r.set(io.d);
        s.set(io.d);
        io.q.set(r);
        io.p.set(s);
      });
      const text = await expectLintClean(elaborate(M, {}).design);
      expect(text).toMatch(kind === 'async' ? /always_ff @\(posedge c1 or negedge \w+\)/ : /always_ff @\(posedge c1\)/);
    }
  });
});
