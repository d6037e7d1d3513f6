// The WebAssembly back end on designs with several clock edges (commit(ev) guarded per edge, commit groups per
// edge) and with declared resets of either polarity: bit for bit like the JavaScript back end at every instant.
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, flattenDesign, fsm, input, output, type Design } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { layoutNetlist } from '../../src/hdl/sim/compiled/layout.ts';
import { generateWasm } from '../../src/hdl/sim/compiled/wasmCodegen.ts';
import { wasmLayout } from '../../src/hdl/sim/compiled/wasmLayout.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`wasmClockEdges.test seed=${seed} (rerun with SEED=${seed})`);

/**
 * Two clocks, four edges: a dual-edge pair on `ca` (rising: async active-high reset, falling: sync
 * active-low), a synchronizer into `cb` (sync active-high), a memory written and read on `cb`'s falling
 * edge, a state machine on `cb`; registers of every group kind (direct, shadowed by a swap).
 */
const TwoClocks = defineModule(
  'two_clocks',
  () => ({
    ca: input(Clock),
    cb: input(Clock),
    ra: input(Bool),
    rb: input(Bool),
    d: input(UInt(40)),
    e: input(UInt(8)),
    qa: output(UInt(40)),
    qb: output(UInt(8)),
    qm: output(UInt(8)),
  }),
  (m, io) => {
    const a = m.clockDomain({ clock: io.ca, reset: io.ra, resetKind: 'async', resetActive: 'high' });
    const af = m.clockDomain({ clock: io.ca, edge: 'falling', reset: io.ra, resetKind: 'sync', resetActive: 'low' });
    const b = m.clockDomain({ clock: io.cb, reset: io.rb, resetKind: 'sync', resetActive: 'high' });
    const bf = m.clockDomain({ clock: io.cb, edge: 'falling' });
    const ra = m.reg(UInt(40), { reset: 5, domain: a });
    const rf = m.reg(UInt(40), { reset: 7, domain: af });
    ra.set(io.d.add(rf));
    rf.set(ra.xor(io.d));
    // A swap: both read each other (a shadowed group).
    const x = m.reg(UInt(8), { reset: 1, domain: a });
    const y = m.reg(UInt(8), { reset: 2, domain: a });
    m.when(io.e.bit(7), () => {
      x.set(y);
      y.set(x.add(io.e));
    });
    const s1 = m.reg(UInt(8), { domain: b, synchronizer: true, reset: 0 });
    const s2 = m.reg(UInt(8), { domain: b, reset: 0 });
    s1.set(ra.trunc(8).xor(x));
    s2.set(s1.add(io.e));
    const mem = m.memory(UInt(8), 8, { domain: bf });
    const f = fsm(m, 'ctl', ['p', 'q', 'r'], 'p', { domain: b });
    f.on({ p: () => m.when(io.e.bit(1), () => f.goto('q')), q: () => f.goto('r'), r: () => f.goto('p') });
    m.withDomain(bf, () => {
      m.when(io.e.bit(0), () => mem.write(io.e.bits(3, 1), s2));
      io.qm.set(mem.read(io.e.bits(6, 4)).add(f.is('q').zext(8)));
    });
    io.qa.set(ra.xor(rf));
    io.qb.set(s2.xor(y));
  },
);

/** Every port and register of `sims` agree (or the first difference). */
function difference(design: Design, sims: readonly Simulator[]): string | null {
  const flat = flattenDesign(design);
  const names = [...sims[0]!.ports.filter((p) => p.direction === 'output').map((p) => p.name), ...flat.regs.map((r) => flat.nets[r.q]!.name)];
  for (const n of names) {
    const v = sims.map((s) => s.peek(n));
    if (v.some((x) => x !== v[0])) return `${n}: ${sims.map((s, i) => `${s.backend} ${v[i]}`).join(', ')}`;
  }
  return null;
}

describe('WebAssembly with several clock edges', () => {
  const design = elaborate(TwoClocks, undefined).design;

  test('runs on wasm (commit takes the edge mask) and agrees with js at every instant of advance, resets poked between edges', () => {
    const rng = createRng(seed);
    const js = compileSimulator(design, { backend: 'js', optimize: false });
    const wasm = compileSimulator(design, { backend: 'wasm' });
    expect(wasm.backend).toBe('wasm');
    expect(wasm.clocks).toEqual(['ca', 'cb']);
    const caPeriod = 2 + rng.int(20);
    const ca = { period: caPeriod, phase: rng.int(caPeriod + 1) };
    const cbPeriod = 1.5 + rng.int(300) / 10;
    const cb = { period: cbPeriod, phase: rng.int(Math.floor(cbPeriod * 10) + 1) / 10 };
    for (const s of [js, wasm]) {
      s.setClockTiming('ca', ca);
      s.setClockTiming('cb', cb);
    }
    let t = 0;
    for (let i = 0; i < 3000; i++) {
      const pokes: [string, bigint][] = [
        ['d', rng.bits(40)],
        ['e', rng.bits(8)],
      ];
      if (rng.int(8) === 0) pokes.push(['ra', BigInt(rng.int(2))]);
      if (rng.int(8) === 0) pokes.push(['rb', BigInt(rng.int(2))]);
      t += rng.int(40) / 10;
      for (const s of [js, wasm]) for (const [n, v] of pokes) s.poke(n, v);
      // Between edges, an asserted asynchronous reset acts at once: every peek sees it.
      const before = difference(design, [js, wasm]);
      if (before) throw new Error(`after the pokes before ${t} ns (clocks ${JSON.stringify({ ca, cb })}, SEED=${seed}): ${before}`);
      for (const s of [js, wasm]) s.advance(t);
      const diff = difference(design, [js, wasm]);
      if (diff) throw new Error(`at ${t} ns (clocks ${JSON.stringify({ ca, cb })}, SEED=${seed}): ${diff}`);
    }
    expect(js.cycle).toBe(wasm.cycle);
    expect(js.cycle).toBeGreaterThan(100);
  });

  test('setClocks: any set of edges in one instant, including both clocks at once', () => {
    const rng = createRng(seed + 1);
    const js = compileSimulator(design, { backend: 'js', optimize: false });
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const level = { ca: 0, cb: 0 };
    for (let i = 0; i < 4000; i++) {
      const change: Record<string, 0 | 1> = {};
      for (const c of ['ca', 'cb'] as const) if (rng.int(2)) change[c] = (level[c] ^= 1) as 0 | 1;
      const d = rng.bits(40);
      const e = rng.bits(8);
      const ra = rng.int(6) === 0 ? BigInt(rng.int(2)) : undefined;
      const rb = rng.int(6) === 0 ? BigInt(rng.int(2)) : undefined;
      for (const s of [js, wasm]) {
        s.poke('d', d);
        s.poke('e', e);
        if (ra !== undefined) s.poke('ra', ra);
        if (rb !== undefined) s.poke('rb', rb);
        s.setClocks(change);
      }
      const diff = difference(design, [js, wasm]);
      if (diff) throw new Error(`instant ${i} (${JSON.stringify(change)}, SEED=${seed + 1}): ${diff}`);
    }
  });

  test('step() on several clocks and powerOn agree too; runVectors is refused', () => {
    const js = compileSimulator(design, { backend: 'js' });
    const wasm = compileSimulator(design, { backend: 'wasm' });
    for (const s of [js, wasm]) {
      s.setClockTiming('cb', { period: 7 });
      s.poke('ra', 1);
      s.poke('rb', 1);
      s.step(2);
      s.poke('ra', 0);
      s.poke('rb', 0);
      s.poke('d', 0x123456789an);
      s.poke('e', 0xff);
      s.step(37);
    }
    expect(difference(design, [js, wasm])).toBeNull();
    expect(wasm.peek('ctl_state')).not.toBe(0n);
    for (const s of [js, wasm]) s.powerOn();
    expect(difference(design, [js, wasm])).toBeNull();
    expect(() => wasm.runVectors(['d'], ['qa'], new Uint32Array(2), 1)).toThrow(/runVectors drives one rising clock edge per cycle/);
  });

  test("the exported commit takes the edge mask only where there are several edges (one edge: the module is as before)", () => {
    const commitArity = (d: Design) => {
      const L = layoutNetlist(flattenDesign(d));
      const W = wasmLayout(L);
      const memory = new WebAssembly.Memory({ initial: W.pages });
      const exports = new WebAssembly.Instance(new WebAssembly.Module(generateWasm(L, W)), { env: { memory } }).exports as { commit: (...a: number[]) => void };
      return exports.commit.length;
    };
    expect(commitArity(design)).toBe(1);
    const One = defineModule('one_edge', () => ({ d: input(UInt(8)), q: output(UInt(8)) }), (m, io) => {
      const r = m.reg(UInt(8), { reset: 3 });
      r.set(io.d);
      io.q.set(r);
    });
    expect(commitArity(elaborate(One, undefined).design)).toBe(0);
  });
});

describe('declared resets on WebAssembly', () => {
  for (const kind of ['sync', 'async'] as const) {
    for (const active of ['high', 'low'] as const) {
      test(`${kind} reset, active ${active}: the reset value exactly when asserted, as on js`, () => {
        const D = defineModule(`r_${kind}_${active}`, () => ({ clk: input(Clock), reset: input(Bool), d: input(UInt(70)), q: output(UInt(70)) }), (m, io) => {
          m.useDomain(m.clockDomain({ clock: io.clk, reset: io.reset, resetKind: kind, resetActive: active }));
          const r = m.reg(UInt(70), { reset: 0x2_0000_0000_0000_0001n });
          const c = m.reg(UInt(8), { reset: 9 });
          r.set(io.d);
          c.set(c.add(1));
          io.q.set(r.xor(c.zext(70)));
        });
        const design = elaborate(D, undefined).design;
        const js = compileSimulator(design, { backend: 'js', optimize: false });
        const wasm = compileSimulator(design, { backend: 'wasm' });
        expect(wasm.backend).toBe('wasm');
        const assert = active === 'high' ? 1 : 0;
        const rng = createRng(seed + 2);
        for (const s of [js, wasm]) {
          s.poke('reset', 1 - assert);
          s.poke('d', 0x55n);
          s.step(3);
        }
        for (const s of [js, wasm]) expect(s.peek('r')).toBe(0x55n);
        // Asserted between edges: an asynchronous reset acts at once, a synchronous one at the next edge.
        for (const s of [js, wasm]) {
          s.advance(s.time + 2);
          s.poke('reset', assert);
          expect(s.peek('r')).toBe(kind === 'async' ? 0x2_0000_0000_0000_0001n : 0x55n);
          s.step();
          expect(s.peek('r')).toBe(0x2_0000_0000_0000_0001n);
          expect(s.peek('c')).toBe(9n);
          s.poke('reset', 1 - assert);
          s.step();
          expect(s.peek('r')).toBe(0x55n);
          expect(s.peek('c')).toBe(10n);
        }
        for (let i = 0; i < 2000; i++) {
          const d = rng.bits(70);
          const reset = rng.int(5) === 0 ? assert : 1 - assert;
          const dt = 0.5 + rng.int(30) / 2;
          for (const s of [js, wasm]) {
            s.poke('d', d);
            s.poke('reset', reset);
            s.advance(s.time + dt);
          }
          for (const n of ['q', 'r', 'c']) expect(wasm.peek(n), `${n} at ${js.time} ns (SEED=${seed + 2})`).toBe(js.peek(n));
        }
      });
    }
  }
});

describe('asynchronous resets that are not inputs', () => {
  const Child = defineModule('async_child', () => ({ d: input(UInt(8)), q: output(UInt(8)) }), (m, io) => {
    const r = m.reg(UInt(8), { reset: 0x7c, async: true });
    r.set(io.d);
    io.q.set(r);
  });
  /** A child on the implicit clock (its rst_n is the inverted active-high reset), and a reset computed from two inputs. */
  const Resets = defineModule('async_sources', () => ({ clk: input(Clock), areset: input(Bool), a: input(Bool), b: input(Bool), d: input(UInt(70)), q: output(UInt(70)), p: output(UInt(8)), c: output(UInt(8)) }), (m, io) => {
    const top = m.clockDomain({ clock: io.clk, reset: io.areset, resetKind: 'async', resetActive: 'high' });
    const logic = m.clockDomain({ clock: io.clk, reset: io.a.or(io.b), resetKind: 'async', resetActive: 'high', name: 'logic' });
    const child = m.instance(Child, undefined, { domain: top });
    child.io.d.set(io.d.trunc(8));
    io.c.set(child.io.q);
    const r = m.reg(UInt(70), { reset: 0x3_0000_0000_0000_007cn, domain: logic });
    const s = m.reg(UInt(8), { reset: 9, domain: logic });
    r.set(io.d);
    s.set(r.trunc(8).add(1));
    io.q.set(r);
    // Reads the register the reset sets: it must see the reset value in the same comb.
    io.p.set(s.add(r.trunc(8)));
  });
  const design = elaborate(Resets, undefined).design;

  for (const backend of ['js', 'wasm'] as const) {
    test(`${backend}: asserted between edges, each acts at once and its readers see it; released, the registers load again`, () => {
      const sim = compileSimulator(design, { backend });
      expect(sim.backend).toBe(backend);
      sim.poke('d', 5);
      sim.step(2);
      expect([sim.peek('c'), sim.peek('q'), sim.peek('p')]).toEqual([5n, 5n, 11n]);
      sim.poke('areset', 1);
      expect(sim.peek('c')).toBe(0x7cn);
      sim.poke('b', 1);
      expect([sim.peek('q'), sim.peek('p')]).toEqual([0x3_0000_0000_0000_007cn, 9n + 0x7cn]);
      sim.poke('areset', 0);
      sim.poke('b', 0);
      sim.step();
      expect([sim.peek('c'), sim.peek('q'), sim.peek('p')]).toEqual([5n, 5n, 0x7dn + 5n]);
    });
  }

  test('runVectors (the fused wasm loop without in-place registers) agrees with step by step, resets asserted in some cycles', () => {
    const rng = createRng(seed + 3);
    const cycles = 500;
    const rows = Array.from({ length: cycles }, () => [BigInt(rng.int(6) === 0), BigInt(rng.int(8) === 0), BigInt(rng.int(8) === 0), rng.bits(70)]);
    const stimulus = new Uint32Array(rows.flatMap(([x, a, b, d]) => [Number(x), Number(a), Number(b), Number(d! & 0xffffffffn), Number((d! >> 32n) & 0xffffffffn), Number(d! >> 64n)]));
    for (const backend of ['js', 'wasm'] as const) {
      const vec = compileSimulator(design, { backend }).runVectors(['areset', 'a', 'b', 'd'], ['q', 'p', 'c'], stimulus, cycles);
      const one = compileSimulator(design, { backend: 'js', optimize: false });
      rows.forEach(([x, a, b, d], c) => {
        one.poke('areset', x!);
        one.poke('a', a!);
        one.poke('b', b!);
        one.poke('d', d!);
        const got = [BigInt(vec[c * 5]!) | (BigInt(vec[c * 5 + 1]!) << 32n) | (BigInt(vec[c * 5 + 2]!) << 64n), BigInt(vec[c * 5 + 3]!), BigInt(vec[c * 5 + 4]!)];
        expect(got, `${backend}, cycle ${c} (SEED=${seed + 3})`).toEqual([one.peek('q'), one.peek('p'), one.peek('c')]);
        one.step();
      });
    }
  });
});
