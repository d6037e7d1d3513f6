// Asynchronous resets from logic asserted at power-on: a reset synchronizer's output, a flop, a reset computed
// from a flop and an input, and a child on the implicit clock under one of them. The TS simulator holds their
// registers in reset from power-on (a reset is a level); Verilator sees no event at time 0 and Icarus only
// some, so the external engines' SV starts these registers at their reset values (resetAtPowerOn). Every
// engine shows the reset values before the first clock edge and agrees in lockstep afterwards.
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, emitSystemVerilog, input, output } from '../../src/hdl/index.ts';
import { ResetSynchronizer } from '../../src/hdl/lib/index.ts';
import { compileSimulator, resetAtPowerOn, type Simulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`asyncResetPowerOn.test seed=${seed} (rerun with SEED=${seed})`);

const Leaf = defineModule('PoLeaf', () => ({ x: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
  const r = m.reg(UInt(8), { reset: 0x5a, async: true });
  r.set(r.add(io.x));
  io.y.set(r);
});

/** Each register with a reset powers on at 0 (or the reset check's value), not at its reset value. */
const PowerOnResets = defineModule(
  'PoTop',
  () => ({ clk: input(Clock), arst_n: input(Bool), en: input(Bool), x: input(UInt(8)), q_sync: output(UInt(8)), q_flop: output(UInt(8)), q_logic: output(UInt(8)), q_leaf: output(UInt(8)) }),
  (m, io) => {
    // Released at power-on by nothing: its flops power on at 0, the asserted level of an active-low output.
    const rs = m.instance(ResetSynchronizer, { inputActive: 'low', outputActive: 'low' }, { name: 'rs' });
    rs.io.clk.set(io.clk);
    rs.io.resetIn.set(io.arst_n);
    const core = m.clockDomain({ clock: io.clk, reset: rs.io.resetOut, resetKind: 'async', resetActive: 'low', name: 'core' });
    const a = m.reg(UInt(8), { reset: 0x21, domain: core, name: 'a' });
    a.set(a.add(io.x));
    io.q_sync.set(a);

    const hold = m.reg(Bool, { domain: m.clockDomain({ clock: io.clk, name: 'plain' }), name: 'hold' });
    hold.set(io.en);
    const held = m.clockDomain({ clock: io.clk, reset: hold, resetKind: 'async', resetActive: 'low', name: 'held' });
    const b = m.reg(UInt(8), { reset: 0x42, domain: held, name: 'b' });
    b.set(b.add(io.x).add(1));
    io.q_flop.set(b);

    // Computed from a flop and an input: known only after the comb's steps.
    const logic = m.clockDomain({ clock: io.clk, reset: io.en.or(hold).not(), resetKind: 'async', resetActive: 'high', name: 'logic' });
    const c = m.reg(UInt(8), { reset: 0x63, domain: logic, name: 'c' });
    c.set(c.xor(io.x));
    io.q_logic.set(c);

    m.withDomain(held, () => {
      const leaf = m.instance(Leaf, undefined, { name: 'leaf' });
      leaf.io.x.set(io.x);
      io.q_leaf.set(leaf.io.y);
    });
  },
);

const design = elaborate(PowerOnResets, undefined).design;
const RESET_VALUES = { q_sync: 0x21n, q_flop: 0x42n, q_logic: 0x63n, q_leaf: 0x5an };
const backends = ['js', 'wasm', 'verilator', 'icarus'] as const;

describe('asynchronous resets from logic at power-on', () => {
  test('resetAtPowerOn lists the registers held in reset at power-on, per module, at their reset values', () => {
    const values = resetAtPowerOn(design)!;
    expect(Object.fromEntries([...values].map(([mod, regs]) => [mod, Object.fromEntries(regs)]))).toEqual({ PoTop: { a: 0x21n, b: 0x42n, c: 0x63n }, PoLeaf: { r: 0x5an } });
    // Their initial blocks say so; the handoff without the option keeps init.
    const sv = (opts: Parameters<typeof emitSystemVerilog>[1]) => emitSystemVerilog(design, opts).files.find((f) => f.path === 'PoTop.sv')!.text;
    expect(sv({ powerOnValues: values })).toMatch(/^\s+b = 8'd66;$/m);
    expect(sv({})).toMatch(/^\s+b = 8'd0;$/m);
  });

  test('a design whose asynchronous resets are all top inputs needs none (the SV is unchanged)', () => {
    const InputReset = defineModule('PoInput', () => ({ clk: input(Clock), areset: input(Bool), x: input(UInt(4)), y: output(UInt(4)) }), (m, io) => {
      m.useDomain(m.clockDomain({ clock: io.clk, reset: io.areset, resetKind: 'async', resetActive: 'high' }));
      const r = m.reg(UInt(4), { reset: 3 });
      r.set(io.x);
      io.y.set(r);
    });
    expect(resetAtPowerOn(elaborate(InputReset, undefined).design)).toBeUndefined();
    expect(resetAtPowerOn(elaborate(Leaf, undefined).design)).toBeUndefined();
  });

  test('two instances of a module, one held in reset at power-on and one not: the module keeps its init', () => {
    const Two = defineModule('PoTwo', () => ({ clk: input(Clock), x: input(UInt(8)), y0: output(UInt(8)), y1: output(UInt(8)) }), (m, io) => {
      const plain = m.clockDomain({ clock: io.clk, name: 'plain' });
      const low = m.reg(Bool, { domain: plain, name: 'low' });
      const high = m.reg(Bool, { domain: plain, init: 1, name: 'high' });
      low.set(1);
      high.set(1);
      [low, high].forEach((rst, i) =>
        m.withDomain(m.clockDomain({ clock: io.clk, reset: rst, resetKind: 'async', resetActive: 'low', name: `d${i}` }), () => {
          const leaf = m.instance(Leaf, undefined, { name: `leaf${i}` });
          leaf.io.x.set(io.x);
          (i === 0 ? io.y0 : io.y1).set(leaf.io.y);
        }),
      );
    });
    expect(resetAtPowerOn(elaborate(Two, undefined).design)).toEqual(new Map());
  });

  for (const backend of backends) {
    test(`${backend}: the registers are in reset before the first clock edge, and leave it when released`, async () => {
      const sim: Simulator = await compileSimulator(design, { backend });
      try {
        for (const [port, v] of Object.entries(RESET_VALUES)) expect(sim.peek(port), `${port} at power-on`).toBe(v);
        // Released: the synchronizer two edges after arst_n, the flop's reset at the edge that samples en.
        sim.poke('arst_n', 1);
        sim.poke('en', 1);
        sim.poke('x', 2);
        sim.step();
        expect(sim.peek('q_logic')).toBe(0x63n ^ 2n);
        expect(sim.peek('q_flop')).toBe(0x42n);
        sim.step();
        expect(sim.peek('q_flop')).toBe(0x45n);
        expect(sim.peek('q_leaf')).toBe(0x5cn);
      } finally {
        sim.close();
      }
    });
  }

  test(`lockstep (wasm, Verilator, Icarus) from power-on with the reset check and resets asserted and released at random (SEED=${seed})`, async () => {
    const rng = createRng(seed);
    const resetCheckSeed = seed % 1000;
    const sim = await compileSimulator(design, { backend: 'lockstep', backends: ['wasm', 'verilator', 'icarus'], compareRegisters: true, resetCheckSeed });
    const js = compileSimulator(design, { backend: 'js', resetCheckSeed });
    try {
      for (let cycle = 0; cycle < 300; cycle++) {
        const inputs = { arst_n: rng.int(4) === 0 ? 0 : 1, en: rng.int(3) === 0 ? 0 : 1, x: rng.int(256) };
        for (const s of [sim, js]) for (const [port, v] of Object.entries(inputs)) s.poke(port, v);
        // Settled values compared between edges too (the flop's and the computed reset act at once).
        for (const p of Object.keys(RESET_VALUES)) expect(sim.peek(p), `${p} at cycle ${cycle}`).toBe(js.peek(p));
        sim.step();
        js.step();
      }
    } finally {
      sim.close();
      js.close();
    }
  });
});
