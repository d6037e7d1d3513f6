// The WebAssembly clock edge writes registers in place, each before the registers it reads, and keeps the
// shadow copy only for registers that read each other in a cycle: both must match the JavaScript back end
// (which always goes through the shadow) on delay lines, swaps, rotations and cycles across instances.
import { describe, expect, test } from 'vitest';
import { Bool, UInt, cat, defineModule, elaborate, input, mux, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { layoutNetlist } from '../../src/hdl/sim/compiled/layout.ts';
import { wasmLayout } from '../../src/hdl/sim/compiled/wasmLayout.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

/** A register that takes another's value (so it reads state): one half of a cycle across instances. */
const Follower = defineModule('Follower', () => ({ x: input(UInt(8)), q: output(UInt(8)) }), (m, io) => {
  const r = m.reg(UInt(8), { reset: 3 });
  r.set(io.x);
  io.q.set(r);
});

const Top = defineModule(
  'Top',
  () => ({ d: input(UInt(8)), load: input(Bool), out: output(UInt(80)) }),
  (m, io) => {
    // A delay line: each stage reads the one before.
    let v = io.d;
    const line = [];
    for (let i = 0; i < 5; i++) {
      const r = m.reg(UInt(8), { reset: 0, name: `line${i}` });
      r.set(v);
      line.push(r);
      v = r;
    }
    // A swap through a mux (b reads a directly, a reads b through logic: no cycle at the edge), a
    // plain swap and a rotation of three (cycles of registers reading each other).
    const a = m.reg(UInt(8), { reset: 1, name: 'swap_a' });
    const b = m.reg(UInt(8), { reset: 2, name: 'swap_b' });
    a.set(mux(io.load, io.d, b));
    b.set(a);
    const c = m.reg(UInt(8), { reset: 8, name: 'pair_c' });
    const e = m.reg(UInt(8), { reset: 9, name: 'pair_e' });
    c.set(e);
    e.set(c);
    const r0 = m.reg(UInt(8), { reset: 5, name: 'rot0' });
    const r1 = m.reg(UInt(8), { reset: 6, name: 'rot1' });
    const r2 = m.reg(UInt(8), { reset: 7, name: 'rot2' });
    r0.set(r2);
    r1.set(r0);
    r2.set(r1);
    // Two instances whose registers read each other through the ports.
    const f = m.instance(Follower, {}, { name: 'f' });
    const g = m.instance(Follower, {}, { name: 'g' });
    f.io.x.set(g.io.q);
    g.io.x.set(mux(io.load, io.d, f.io.q));
    io.out.set(cat(line[4]!, b, r2, r1, r0, f.io.q, g.io.q, a, c, e));
  },
);

describe('commit order', () => {
  const design = elaborate(Top, {}).design;

  test('delay lines are written in place; registers in read cycles keep the shadow', () => {
    const L = layoutNetlist(flattenDesign(design));
    const groups = wasmLayout(L).commitGroups;
    const shadowedNames = groups.filter((g) => g.shadowed).flatMap((g) => g.regs.map((r) => L.flat.nets[r.q]!.name));
    for (const n of ['pair_c', 'pair_e', 'rot0', 'rot1', 'rot2']) expect(shadowedNames).toContain(n);
    for (const n of ['line0', 'line1', 'line2', 'line3', 'line4', 'swap_a', 'swap_b', 'f.r', 'g.r']) expect(shadowedNames).not.toContain(n);
    // Written in place: each register before the one it reads.
    const direct = groups.filter((g) => !g.shadowed).flatMap((g) => g.regs.map((r) => L.flat.nets[r.q]!.name));
    for (let i = 1; i < 5; i++) expect(direct.indexOf(`line${i}`)).toBeLessThan(direct.indexOf(`line${i - 1}`));
    expect(direct.indexOf('swap_b')).toBeLessThan(direct.indexOf('swap_a'));
    expect(direct.indexOf('f.r')).toBeLessThan(direct.indexOf('g.r'));
  });

  test('the WebAssembly clock edge agrees with the JavaScript one, step by step and through runVectors', () => {
    const js = compileSimulator(design, { backend: 'js' });
    const wasm = compileSimulator(design, { backend: 'wasm' });
    const rng = createRng(seedFromEnv());
    const rows: number[] = [];
    for (const s of [js, wasm]) s.reset(2);
    for (let c = 0; c < 400; c++) {
      const d = rng.int(256);
      const load = rng.int(4) === 0 ? 1 : 0;
      rows.push(d, load, 1);
      for (const s of [js, wasm]) {
        s.poke('d', d);
        s.poke('load', load);
        s.poke('rst_n', 1);
      }
      expect(wasm.peek('out')).toBe(js.peek('out'));
      js.step();
      wasm.step();
    }
    const stim = Uint32Array.from(rows);
    const outs = [js, wasm].map((s) => {
      s.powerOn();
      return s.runVectors(['d', 'load', 'rst_n'], ['out'], stim, 400);
    });
    expect(outs[1]).toEqual(outs[0]);
  });
});
