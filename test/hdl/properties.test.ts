// Properties in the eDSL: m.assert/assume/cover and the temporal values (past, rose, fell, stable, changed,
// implications) against a model of their meaning on the TS simulator (js and wasm), Verilator and Icarus;
// the checks' enables (`when`, `enable`, the domain's reset); the errors for misuse; lint-clean SV.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, emitSystemVerilog, flattenDesign, input, output } from '../../src/hdl/index.ts';
import { expectLintClean } from './lintClean.ts';
import { PropertyFailedError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { hdlErrorOf, markerLine } from './markers.ts';

const thisFile = fileURLToPath(import.meta.url);
const seed = seedFromEnv();
console.log(`properties.test seed=${seed} (rerun with SEED=${seed})`);

/** Every temporal value as an output, so that each engine shows it. */
const Temporal = defineModule(
  'PropTemporal',
  () => ({
    a: input(UInt(4)),
    p: input(Bool),
    q: input(Bool),
    past1: output(UInt(4)),
    past3: output(UInt(4)),
    rose: output(Bool),
    fell: output(Bool),
    stable: output(Bool),
    changed: output(Bool),
    implies: output(Bool),
    next: output(Bool),
    within2: output(Bool),
  }),
  (m, io) => {
    io.past1.set(m.past(io.a));
    io.past3.set(m.past(io.a, 3));
    io.rose.set(m.rose(io.p));
    io.fell.set(m.fell(io.p));
    io.stable.set(m.stable(io.a));
    io.changed.set(m.changed(io.a));
    io.implies.set(m.implies(io.p, io.q));
    // Inside a `when`: the past is still remembered at every edge.
    m.when(io.q, () => io.next.set(m.impliesNext(io.p, io.q))).otherwise(() => io.next.set(m.impliesNext(io.p, io.q)));
    io.within2.set(m.impliesWithin(io.p, io.q, 2));
  },
);

type Row = { a: number; p: number; q: number };

/** The temporal values at cycle t of a history of inputs (values before cycle 0 are 0, as registers power on). */
function model(h: readonly Row[], t: number) {
  const at = (k: number): Row => (k >= 0 ? h[k]! : { a: 0, p: 0, q: 0 });
  const now = at(t);
  const prev = at(t - 1);
  return {
    past1: prev.a,
    past3: at(t - 3).a,
    rose: now.p & (prev.p ^ 1),
    fell: (now.p ^ 1) & prev.p,
    stable: now.a === prev.a ? 1 : 0,
    changed: now.a === prev.a ? 0 : 1,
    implies: (now.p ^ 1) | now.q,
    next: (prev.p ^ 1) | now.q,
    within2: (at(t - 2).p ^ 1) | at(t - 2).q | at(t - 1).q | now.q,
  };
}

describe('temporal values', () => {
  const design = elaborate(Temporal, undefined).design;
  for (const backend of ['js', 'wasm', 'verilator', 'icarus'] as const) {
    test(`${backend}: past, rose, fell, stable, changed and the implications follow their model over 200 random cycles (SEED=${seed})`, async () => {
      const sim: Simulator = await compileSimulator(design, { backend });
      const rng = createRng(seed);
      const h: Row[] = [];
      try {
        for (let t = 0; t < 200; t++) {
          // Runs of equal values, so that stable, rose and fell are exercised.
          const last = h[t - 1];
          const row = last && rng.int(3) === 0 ? last : { a: rng.int(4), p: rng.int(2), q: rng.int(3) === 0 ? 1 : 0 };
          h.push(row);
          for (const [k, v] of Object.entries(row)) sim.poke(k, v);
          for (const [k, v] of Object.entries(model(h, t))) expect(Number(sim.peek(k)), `${k} at cycle ${t}`).toBe(v);
          sim.step();
        }
      } finally {
        sim.close();
      }
    });
  }

  test('the SV is lint-clean on Verilator, Icarus and Yosys; the past registers are named after what they remember', async () => {
    const text = await expectLintClean(design);
    expect(text).toMatch(/logic \[3:0\] a_past3;/);
    expect(text).toMatch(/a_past1 <= a;/);
  });
});

/** A counter whose assertion fails when it reaches 12, checked only when enabled; covers on 9 and on an impossible value. */
const Checked = defineModule('PropChecked', () => ({ en: input(Bool), check: input(Bool), count: output(UInt(4)) }), (m, io) => {
  const c = m.reg(UInt(4), { reset: 0 });
  m.when(io.en, () => c.set(c.add(1)));
  io.count.set(c);
  m.when(io.check, () => m.assert(c.ne(12), 'never twelve')); // @mark:never12
  m.assert(c.le(14), 'below fifteen', { name: 'below15', enable: io.check });
  m.assume(io.en.or(io.check), 'something happens');
  m.cover(c.eq(9), 'nine');
  m.cover(c.eq(3).and(c.eq(4)), 'impossible');
});

describe('assertions in simulation', () => {
  const design = elaborate(Checked, undefined).design;
  for (const backend of ['js', 'wasm'] as const) {
    test(`${backend}: stops at the first edge where an enabled assertion fails, naming its line, message, cycle and values`, () => {
      const sim = compileSimulator(design, { backend });
      sim.reset();
      sim.poke('en', 1);
      sim.poke('check', 1);
      sim.step(12); // c: 0 -> 12 over the edges ending cycles 1..12
      expect(sim.peek('count')).toBe(12n);
      const e = (() => {
        try {
          sim.step();
        } catch (err) {
          return err;
        }
        throw new Error('no failure');
      })() as PropertyFailedError;
      expect(e).toBeInstanceOf(PropertyFailedError);
      expect(e.where).toBe(`properties.test.ts:${markerLine(thisFile, 'never12')}`);
      expect(e.property).toBe(`PropChecked.assert_${markerLine(thisFile, 'never12')}`);
      expect(e.kind).toBe('assert');
      expect(e.cycle).toBe(13);
      expect(e.values).toEqual({ c: 12n });
      expect(e.message).toMatch(/assertion PropChecked\.assert_\d+ failed: never twelve, at the clock edge ending cycle 13\n {2}c = 12 \(0xc\)/);
      sim.close();
    });

    test(`${backend}: a disabled assertion (outside its when, enable low, reset asserted) does not fire; covers count the edges they hold at`, () => {
      const sim = compileSimulator(design, { backend });
      // In reset: c stays 0, nothing is checked (en and check low would break the assumption).
      sim.poke('rst_n', 0);
      sim.step(5);
      sim.poke('rst_n', 1);
      sim.poke('en', 1);
      sim.step(12);
      expect(sim.peek('count')).toBe(12n);
      // Not checked: past 12 and 14 with check low, back to 0 (the counter wraps).
      sim.step(10);
      expect(sim.peek('count')).toBe(6n);
      expect(sim.coverCounts()).toEqual({ nine: 1, impossible: 0 });
      sim.step(16);
      expect(sim.coverCounts()).toEqual({ nine: 2, impossible: 0 });
      sim.powerOn();
      expect(sim.coverCounts()).toEqual({ nine: 0, impossible: 0 });
      sim.close();
    });

    test(`${backend}: runVectors (the fused loop on wasm) stops at the same edge, in the state before it, and counts covers`, () => {
      const sim = compileSimulator(design, { backend });
      sim.reset();
      // en and check high: 12 edges to reach 12, the 13th fails (cycle 1 + 12).
      const rows = new Uint32Array(2 * 40).fill(1);
      expect(() => sim.runVectors(['en', 'check'], ['count'], rows, 40)).toThrow(/assertion PropChecked\.assert_\d+ failed: never twelve, at the clock edge ending cycle 13\n {2}c = 12 /);
      expect(sim.peek('count')).toBe(12n);
      expect(sim.coverCounts()).toEqual({ nine: 1, impossible: 0 });
      sim.close();
    });

    test(`${backend}: a testbench that breaks an assumption is stopped by it`, () => {
      const sim = compileSimulator(design, { backend });
      sim.reset();
      expect(() => sim.step()).toThrow(/assumption PropChecked\.assume_\d+ failed: something happens, at the clock edge ending cycle 1/);
      sim.close();
    });
  }

  test('the SV carries the properties for simulators and for the formal flow, lint-clean', async () => {
    const text = await expectLintClean(design);
    expect(text).toContain('$error("properties.test.ts:');
    expect(text).toMatch(/`ifdef FORMAL[\s\S]*assert \(c != 4'd12\);[\s\S]*assume \(en \| check\);[\s\S]*cover \([^)]*\);/);
  });
});

describe('properties in the netlist', () => {
  test('a child instantiated twice has its properties under each instance path; each domain clocks its own', () => {
    const Leaf = defineModule('PropLeaf', () => ({ clk: input(Clock), x: input(UInt(2)) }), (m, io) => {
      m.assert(io.x.ne(3), 'not three', { name: 'notThree' });
    });
    const Top = defineModule('PropTop', () => ({ fast: input(Clock), slow: input(Clock), x: input(UInt(2)) }), (m, io) => {
      for (const [name, clock] of [['u0', io.fast], ['u1', io.slow]] as const) {
        const leaf = m.instance(Leaf, undefined, { name });
        leaf.io.clk.set(clock);
        leaf.io.x.set(io.x);
      }
    });
    const flat = flattenDesign(elaborate(Top, undefined).design);
    expect(flat.properties!.map((p) => [p.name, p.clock?.clock])).toEqual([
      ['u0.notThree', 'fast'],
      ['u1.notThree', 'slow'],
    ]);
  });

  test('a property alone makes a module clocked (it gets the implicit clk)', () => {
    const OnlyProperty = defineModule('PropOnly', () => ({ a: input(Bool) }), (m, io) => m.assert(io.a));
    const ir = elaborate(OnlyProperty, undefined).design.modules[0]!;
    expect(ir.clocked).toBe(true);
    expect(emitSystemVerilog(elaborate(OnlyProperty, undefined).design).files[0]!.text).toContain('input  logic clk,');
  });

  test('misuse is an error naming the line', () => {
    const cases: [string, (m: Parameters<Parameters<typeof defineModule>[2]>[0], io: { a: never; b: never }) => void, RegExp][] = [
      ['a JavaScript number', (m) => m.assert(5 as never), /m\.assert\(\) takes a 1-bit hardware condition, got the JavaScript number 5/],
      ['a wide condition', (m, io) => m.assert(io.a), /a condition must be 1 bit, got 4 bits/],
      ['an unknown option', (m, io) => m.assert(io.b, 'x', { when: io.b } as never), /unknown option 'when'/],
      ['a multi-bit rose', (m, io) => m.rose(io.a), /m\.rose\(\) takes a 1-bit value, got 4 bits/],
      ['past of 0 cycles', (m, io) => m.past(io.a, 0), /n must be an integer of at least 1, got 0/],
      ['a bad cover name', (m, io) => m.cover(io.b, 'not a name'), /the name must be an identifier/],
      ['two properties of one name', (m, io) => (m.assert(io.b, 'x', { name: 'p' }), m.assert(io.b, 'y', { name: 'p' })), /two properties of module PropMisuse\d are both named 'p'/],
    ];
    cases.forEach(([what, body, message], k) => {
      const M = defineModule(`PropMisuse${k}`, () => ({ a: input(UInt(4)), b: input(Bool) }), (m, io) => body(m, io as never));
      expect(hdlErrorOf(() => elaborate(M, undefined)).message, what).toMatch(message);
    });
  });
});
