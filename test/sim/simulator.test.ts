// The simulator's testbench API: poke/peek rules, reset, run limits, memories, batch vectors and VCD output.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { tempDir } from '../tempDir.ts';
import { join } from 'node:path';
import { Bool, UInt, cat, defineModule, elaborate, fsm, input, mux, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { wasmLimits } from '../../src/hdl/sim/compiled/wasmEncoding.ts';
import { generateWasm } from '../../src/hdl/sim/compiled/wasmCodegen.ts';
import { wasmLayout } from '../../src/hdl/sim/compiled/wasmLayout.ts';
import { layoutNetlist } from '../../src/hdl/sim/compiled/layout.ts';
import { flattenDesign } from '../../src/hdl/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const Leaf = defineModule('Leaf', () => ({ i: input(UInt(8)), o: output(UInt(8)) }), (m, io) => {
  const acc = m.reg(UInt(8), { reset: 0 });
  acc.set(acc.add(io.i));
  io.o.set(acc);
});

const Top = defineModule('Top', () => ({ go: input(Bool), x: input(UInt(8)), y: output(UInt(8)), busy: output(Bool), wide: input(UInt(70)), wout: output(UInt(70)), q: output(UInt(16)), addr: input(UInt(3)) }), (m, io) => {
  const leaf = m.instance(Leaf, undefined);
  leaf.io.i.set(io.x);
  io.y.set(leaf.io.o);
  const ctrl = fsm(m, 'ctrl', ['idle', 'run'], 'idle');
  ctrl.on({ idle: () => m.when(io.go, () => ctrl.goto('run')), run: () => m.when(io.go.not(), () => ctrl.goto('idle')) });
  io.busy.set(ctrl.is('run'));
  io.wout.set(io.wide.add(1));
  const rom = m.memory(UInt(16), 8, { init: [10, 20, 30] });
  io.q.set(rom.read(io.addr));
});

const design = elaborate(Top, undefined).design;

describe('testbench API', () => {
  test('poke, peek (hierarchical too), step and reset', () => {
    const sim = compileSimulator(design);
    sim.reset(2);
    sim.poke('x', 5);
    expect(sim.peek('y')).toBe(0n);
    sim.step();
    expect(sim.peek('y')).toBe(5n);
    expect(sim.peek('leaf.acc')).toBe(5n);
    sim.step(3);
    expect(sim.peek('y')).toBe(20n);
    expect(sim.cycle).toBe(6);
    sim.reset();
    expect(sim.peek('y')).toBe(0n);
  });

  test('wide ports take bigints', () => {
    const sim = compileSimulator(design);
    sim.poke('wide', (1n << 70n) - 1n);
    expect(sim.peek('wout')).toBe(0n);
    sim.poke('wide', 0xffffffffn);
    expect(sim.peek('wout')).toBe(0x100000000n);
  });

  test('clear errors for unknown names and values that do not fit', () => {
    const sim = compileSimulator(design);
    expect(() => sim.poke('nope', 1)).toThrow(/'nope' is not an input port of Top; inputs: rst_n, go, x, wide, addr/);
    expect(() => sim.poke('x', 256)).toThrow(/value 256 does not fit input 'x' \(8 bits, unsigned\)/);
    expect(() => sim.poke('x', -1)).toThrow(/does not fit/);
    // A misspelt name gets the nearest ones and the signals there are, as poke lists the inputs.
    expect(() => sim.peek('lef.acc')).toThrow(/^no signal 'lef.acc' in Top \(did you mean 'leaf\.acc'\?\); signals: rst_n, go, x, y, busy, wide, wout, q, addr, ctrl_state, leaf\.acc, /);
    expect(() => sim.peek('bussy')).toThrow(/\(did you mean 'busy'\?\)/);
    expect(() => sim.loadMemory('ram', [1])).toThrow(/no memory 'ram'; memories: rom/);
  });

  test('runUntil stops at the condition and never hangs', () => {
    const sim = compileSimulator(design);
    sim.reset();
    sim.poke('x', 1);
    expect(sim.runUntil((s) => s.peek('y') === 10n, 100)).toBe(10);
    expect(() => sim.runUntil(() => false, 50)).toThrow(/not met within 50 cycles/);
  });

  test('memories: initial contents, synchronous read, load and dump', () => {
    const sim = compileSimulator(design);
    sim.poke('addr', 1);
    expect(sim.peek('q')).toBe(0n); // synchronous: nothing read before the first edge
    sim.step();
    expect(sim.peek('q')).toBe(20n);
    sim.loadMemory('rom', [7, 8], 5);
    expect(sim.dumpMemory('rom')).toEqual([10n, 20n, 30n, 0n, 0n, 7n, 8n, 0n]);
    sim.poke('addr', 6);
    sim.step();
    expect(sim.peek('q')).toBe(8n);
  });

  test('batch vectors give the same outputs as stepping one cycle at a time', () => {
    const seed = seedFromEnv();
    const rng = createRng(seed);
    const cycles = 500;
    const ins = ['go', 'x', 'addr'];
    const stim = new Uint32Array(cycles * 3);
    for (let i = 0; i < stim.length; i += 3) [stim[i], stim[i + 1], stim[i + 2]] = [rng.int(2), rng.int(256), rng.int(8)];
    const batch = compileSimulator(design).runVectors(ins, ['y', 'busy', 'q'], stim, cycles);
    const one = compileSimulator(design);
    for (let c = 0; c < cycles; c++) {
      ins.forEach((name, k) => one.poke(name, stim[c * 3 + k]!));
      expect([one.peek('y'), one.peek('busy'), one.peek('q')], `cycle ${c} (SEED=${seed})`).toEqual([BigInt(batch[c * 3]!), BigInt(batch[c * 3 + 1]!), BigInt(batch[c * 3 + 2]!)]);
      one.step();
    }
  });

  test('the generated JavaScript is readable: one statement per net, named', () => {
    const src = compileSimulator(design).generatedSource;
    expect(src).toContain('function comb0()');
    expect(src).toContain('function commit(ev)');
    expect(src).toMatch(/\/\/ leaf\.acc_add/);
  });
});

describe('VCD', () => {
  test('hierarchy, value changes and FSM state names', () => {
    const dir = tempDir('vcd');
    const file = join(dir, 'top.vcd');
    const sim = compileSimulator(design);
    sim.traceVcd(file);
    sim.poke('rst_n', 1);
    sim.poke('go', 1);
    sim.poke('x', 3);
    sim.step(2);
    sim.poke('go', 0);
    sim.step(2);
    sim.close();
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    expect(lines).toContain('$scope module Top $end');
    expect(lines).toContain('$scope module leaf $end');
    const acc = lines.find((l) => / acc \[7:0\] \$end$/.test(l))!;
    expect(acc).toMatch(/^\$var wire 8 \S+ acc \[7:0\] \$end$/);
    const state = lines.find((l) => l.includes(' ctrl_state_state '))!;
    expect(state).toMatch(/^\$var string 1 (\S+) ctrl_state_state \$end$/);
    const id = state.split(' ')[3]!;
    // idle at cycle 0, run after the first edge, idle again after go falls.
    expect(lines.filter((l) => l.endsWith(` ${id}`) && l.startsWith('s'))).toEqual([`sidle ${id}`, `srun ${id}`, `sidle ${id}`]);
    expect(lines).toContain('#0');
    expect(lines).toContain('#35');
    expect(text.indexOf('$enddefinitions $end')).toBeGreaterThan(0);
  });
});

describe('WebAssembly peepholes', () => {
  test('rotations written as a concatenation of two slices', async () => {
    const { cat } = await import('../../src/hdl/index.ts');
    const Rot = defineModule('Rot', () => ({ x: input(UInt(32)), y: output(UInt(32)), z: output(UInt(32)), n: output(UInt(16)) }), (m, io) => {
      io.y.set(cat(io.x.bits(4, 0), io.x.bits(31, 5)));
      io.z.set(cat(io.x.bits(30, 0), io.x.bits(31, 31)));
      io.n.set(cat(io.x.bits(3, 0), io.x.bits(15, 4))); // 16 bits: not a 32-bit rotation
    });
    const d = elaborate(Rot, undefined).design;
    const wasm = compileSimulator(d, { backend: 'wasm' });
    const rng = createRng(seedFromEnv());
    for (let i = 0; i < 200; i++) {
      const x = BigInt(rng.u32());
      wasm.poke('x', x);
      expect(wasm.peek('y')).toBe(((x << 27n) | (x >> 5n)) & 0xffffffffn);
      expect(wasm.peek('z')).toBe(((x << 1n) | (x >> 31n)) & 0xffffffffn);
      expect(wasm.peek('n')).toBe((((x & 0xfn) << 12n) | ((x >> 4n) & 0xfffn)));
    }
  });
});

describe('WebAssembly fused run loop', () => {
  // State the loop loads once per cycle and reuses: a register read first inside a memory write's
  // conditional block, then again by its own enable; an async reset; read-before-write of a sync port.
  const Edge = defineModule(
    'Edge',
    () => ({ we: input(Bool), en: input(Bool), a: input(UInt(3)), d: input(UInt(32)), m: input(UInt(4)), q: output(UInt(32)), c: output(UInt(8)), wq: output(UInt(70)), wa: output(UInt(70)), ws: output(UInt(70)) }),
    (m, io) => {
      const held = m.reg(UInt(32), { reset: 0, enable: io.en });
      held.set(io.d);
      const mem = m.memory(UInt(32), 8);
      m.when(io.we, () => mem.write(io.a, held, { mask: io.m }));
      io.q.set(mem.read(io.a));
      const c = m.reg(UInt(8), { reset: 0, async: true });
      c.set(c.add(1));
      io.c.set(c);
      // Nets and a memory wider than 32 bits: word-by-word code on the WebAssembly back end.
      const wide = m.memory(UInt(70), 8);
      const word = cat(io.m.zext(6), io.d, held);
      m.when(io.en, () => wide.write(io.a, word));
      io.wq.set(wide.read(io.a.xor(1)));
      io.wa.set(wide.readAsync(io.a));
      const acc = m.reg(UInt(70), { reset: 0 });
      acc.set(acc.add(word).sub(wide.readAsync(io.a.xor(2))));
      io.ws.set(mux(io.we, acc, word.mul(acc)));
    },
  );

  test('agrees with the JavaScript back end and with stepping', () => {
    const seed = seedFromEnv();
    const d = elaborate(Edge, undefined).design;
    const rng = createRng(seed);
    const ins = ['rst_n', 'we', 'en', 'a', 'd', 'm'];
    const outs = ['q', 'c', 'wq', 'wa', 'ws'];
    const cycles = 20_000;
    const stim = new Uint32Array(cycles * ins.length);
    for (let c = 0; c < cycles; c++) {
      const row = [c < 2 || rng.int(50) === 0 ? 0 : 1, rng.int(2), rng.int(2), rng.int(8), rng.u32(), rng.int(16)];
      stim.set(row, c * ins.length);
    }
    const wasm = compileSimulator(d, { backend: 'wasm' });
    const js = compileSimulator(d, { backend: 'js' });
    const stepped = compileSimulator(d, { backend: 'wasm' });
    const got = wasm.runVectors(ins, outs, stim, cycles);
    expect(wasm.backend).toBe('wasm');
    expect(Array.from(got), `SEED=${seed}`).toEqual(Array.from(js.runVectors(ins, outs, stim, cycles)));
    expect(stepped.backend).toBe('wasm');
    // Output rows hold each port's words (three for the 70-bit ones).
    const widths = [32, 8, 70, 70, 70];
    const rowWords = widths.reduce((n, w) => n + Math.ceil(w / 32), 0);
    for (let c = 0; c < 300; c++) {
      ins.forEach((n, k) => stepped.poke(n, BigInt(stim[c * ins.length + k]!)));
      let at = c * rowWords;
      outs.forEach((n, k) => {
        let want = 0n;
        for (let i = Math.ceil(widths[k]! / 32) - 1; i >= 0; i--) want = (want << 32n) | BigInt(got[at + i]!);
        at += Math.ceil(widths[k]! / 32);
        expect(stepped.peek(n), `cycle ${c} ${n} SEED=${seed}`).toBe(want);
      });
      stepped.step();
    }
  });

  test('a design too large for one WebAssembly function runs split into parts, bit for bit the same', () => {
    const seed = seedFromEnv();
    const d = elaborate(Edge, undefined).design;
    const rng = createRng(seed);
    const ins = ['rst_n', 'we', 'en', 'a', 'd', 'm'];
    const outs = ['q', 'c', 'wq', 'wa', 'ws'];
    const cycles = 5_000;
    const stim = new Uint32Array(cycles * ins.length);
    for (let c = 0; c < cycles; c++) stim.set([c < 2 ? 0 : 1, rng.int(2), rng.int(2), rng.int(8), rng.u32(), rng.int(16)], c * ins.length);
    const whole = compileSimulator(d, { backend: 'wasm' }).runVectors(ins, outs, stim, cycles);
    const saved = wasmLimits.functionBytes;
    // Small enough to split the comb; commit (never split, and counting its groups for the run loop's plan) still fits.
    wasmLimits.functionBytes = 700;
    try {
      const L = layoutNetlist(flattenDesign(d));
      const exported = WebAssembly.Module.exports(new WebAssembly.Module(generateWasm(L, wasmLayout(L)))).length;
      expect(exported, 'comb split into parts').toBeGreaterThan(3);
      const split = compileSimulator(d, { backend: 'wasm' });
      expect(split.backend).toBe('wasm');
      expect(Array.from(split.runVectors(ins, outs, stim, cycles)), `SEED=${seed}`).toEqual(Array.from(whole));
      // The comb/combAll/commit path (step, peek of internal nets) is split the same way.
      const stepped = compileSimulator(d, { backend: 'wasm' });
      const ref = compileSimulator(d, { backend: 'js' });
      for (let c = 0; c < 200; c++) {
        ins.forEach((n, k) => [stepped, ref].forEach((sim) => sim.poke(n, BigInt(stim[c * ins.length + k]!))));
        for (const n of ref.nets.map((x) => x.name)) expect(stepped.peek(n), `cycle ${c} ${n} SEED=${seed}`).toBe(ref.peek(n));
        stepped.step();
        ref.step();
      }
    } finally {
      wasmLimits.functionBytes = saved;
    }
  });
});

describe('back end choice', () => {
  test('WebAssembly runs what used to fall back to JavaScript: wide compares, a wide memory with a write mask', async () => {
    const { SInt } = await import('../../src/hdl/index.ts');
    const Cmp = defineModule('WideCompare', () => ({ a: input(SInt(40)), b: input(SInt(40)), lt: output(Bool) }), (m, io) => io.lt.set(io.a.lt(io.b)));
    expect(compileSimulator(elaborate(Cmp, undefined).design, { backend: 'wasm' }).backend).toBe('wasm');
    // 72-bit words, 8-bit lanes: lanes 0-3 in word 0, 4-7 in word 1, lane 8 alone in word 2.
    const Masked = defineModule('MaskedWide', () => ({ addr: input(UInt(2)), data: input(UInt(72)), mask: input(UInt(9)), q: output(UInt(72)) }), (m, io) => {
      const mem = m.memory(UInt(72), 4, { init: [0x123456789abcdef012n] });
      mem.write(io.addr, io.data, { mask: io.mask });
      io.q.set(mem.readAsync(io.addr));
    });
    const d = elaborate(Masked, undefined).design;
    const sims = [compileSimulator(d, { backend: 'wasm' }), compileSimulator(d, { backend: 'js' })];
    expect(sims.map((s) => s.backend)).toEqual(['wasm', 'js']);
    for (const s of sims) {
      s.poke('data', 0xffeeddccbbaa998877n);
      s.poke('mask', 0b100010001);
      s.step();
    }
    expect(sims[0]!.peek('q')).toBe(0xff345678bbbcdef077n);
    expect(sims[1]!.peek('q')).toBe(sims[0]!.peek('q'));
  });
});
