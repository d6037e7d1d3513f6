// The lockstep back end: several engines side by side, every output (and register) compared every cycle;
// the first difference is an error that names the cycle, the signal, each engine's value and the source
// lines, with waveforms of the cycles before it.
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bool, Enum, UInt, defineModule, elaborate, fsm, input, mux, output } from '../../src/hdl/index.ts';
import { LockstepMismatchError, compileSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`lockstep.test seed=${seed} (rerun with SEED=${seed})`);

/** An accumulator with a memory; with `bug`, its total goes wrong once it passes 1000. */
const Acc = defineModule(
  'Acc',
  (_p: { bug: boolean }) => ({ en: input(Bool), x: input(UInt(12)), addr: input(UInt(3)), total: output(UInt(40)), last: output(UInt(12)) }),
  (m, io, p) => {
    const mem = m.memory(UInt(12), 8);
    const total = m.reg(UInt(40), { reset: 0 });
    m.when(io.en, () => {
      total.set(p.bug ? mux(total.gt(1000), total.add(io.x).add(1), total.add(io.x)) : total.add(io.x));
      mem.write(io.addr, io.x);
    });
    io.total.set(total);
    io.last.set(mem.readAsync(io.addr));
  },
);

const good = elaborate(Acc, { bug: false }, { topName: 'Acc' }).design;
const buggy = elaborate(Acc, { bug: true }, { topName: 'Acc' }).design;

describe('lockstep', () => {
  test('js, wasm, verilator and icarus agree on every output and register, every cycle, under random stimulus', async () => {
    const sim = await compileSimulator(good, { backend: 'lockstep', backends: ['js', 'wasm', 'verilator', 'icarus'], compareRegisters: true });
    const rng = createRng(seed);
    sim.reset();
    for (let c = 0; c < 1500; c++) {
      sim.poke('en', rng.int(2));
      sim.poke('x', rng.int(4096));
      sim.poke('addr', rng.int(8));
      if (c % 100 === 99) {
        const rows = Uint32Array.from({ length: 3 * 64 }, () => rng.u32());
        sim.runVectors(['en', 'x', 'addr'], ['total'], rows, 64);
      } else sim.step(rng.int(3));
    }
    expect(sim.cycle).toBeGreaterThan(1500);
    expect(sim.dumpMemory('mem').length).toBe(8);
    sim.close();
  }, 600_000);

  test('the first difference stops the run: cycle, signal, each value, TS and SV lines, and waveforms of the cycles before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-lockstep-'));
    try {
      const reference = compileSimulator(good, { backend: 'js' });
      const wrong = await compileSimulator(buggy, { backend: 'verilator' });
      const sim = await compileSimulator(good, { backend: 'lockstep', backends: [reference, wrong], mismatchDir: dir, historyCycles: 8 });
      sim.reset();
      sim.poke('en', 1);
      sim.poke('x', 100);
      // total passes 1000 after 11 enabled cycles; the buggy design adds one extra from the next edge on.
      const err = (() => {
        try {
          sim.step(40);
        } catch (e) {
          return e;
        }
      })() as LockstepMismatchError;
      expect(err).toBeInstanceOf(LockstepMismatchError);
      expect(err.cycle).toBe(13);
      expect(err.signal).toBe('Acc.total');
      expect(err.values).toEqual({ js: 1200n, verilator: 1201n });
      expect(err.tsLocation).toMatch(/lockstep\.test\.ts:\d+$/);
      expect(err.svLocation).toMatch(/^Acc\.sv:\d+$/);
      expect(err.message).toContain("lockstep mismatch at cycle 13 on Acc.total (40 bits):\n  js         40'h00000004b0\n  verilator  40'h00000004b1");
      expect(err.waveforms).toEqual([join(dir, 'Acc.js.vcd'), join(dir, 'Acc.verilator.vcd')]);
      for (const f of err.waveforms) {
        const vcd = readFileSync(f, 'utf8');
        expect(vcd).toMatch(/\$var wire 40 \S+ total \[39:0\] \$end/);
        expect(vcd).toContain('#130\n'); // the mismatching cycle is the last one shown
        expect(vcd).toContain('#60\n'); // 8 cycles of history: cycles 6 to 13
        expect(vcd).not.toContain('#50\n');
      }
      expect(readFileSync(err.waveforms[0]!, 'utf8')).toContain(`b${(1200).toString(2)} `);
      expect(readFileSync(err.waveforms[1]!, 'utf8')).toContain(`b${(1201).toString(2)} `);
      sim.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  test('peek compares the engines too', async () => {
    const sim = await compileSimulator(good, { backend: 'lockstep', backends: [compileSimulator(good), compileSimulator(buggy, { backend: 'js' })], mismatchDir: tmpdir() });
    sim.reset();
    sim.poke('en', 1);
    sim.poke('x', 1001);
    sim.step();
    // After one edge both hold 1001; after the second the buggy one has added its extra one.
    expect(sim.peek('total')).toBe(1001n);
    sim.poke('en', 0);
    expect(() => sim.step()).not.toThrow();
    sim.poke('en', 1);
    sim.poke('x', 0);
    expect(() => {
      sim.step(2);
      sim.peek('total');
    }).toThrow(/lockstep mismatch at cycle \d+ on Acc\.total/);
    sim.close();
  }, 600_000);

  test('one waveform per engine with traceVcd', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-lockstep-'));
    try {
      const sim = await compileSimulator(good, { backend: 'lockstep', backends: ['js', 'icarus'] });
      sim.traceVcd(join(dir, 'acc.vcd'));
      sim.reset();
      sim.poke('en', 1);
      sim.poke('x', 3);
      sim.step(10);
      sim.close();
      expect(existsSync(join(dir, 'acc.js.vcd'))).toBe(true);
      expect(readFileSync(join(dir, 'acc.icarus.vcd'), 'utf8')).toMatch(/\$var .* total /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  test('members must simulate the same design, and there must be two', async () => {
    const other = elaborate(Acc, { bug: false }).design; // top named Acc_bug0
    await expect(compileSimulator(good, { backend: 'lockstep', backends: [compileSimulator(good), compileSimulator(other)] })).rejects.toThrow('a lockstep member simulates Acc_bug0, not Acc');
    await expect(compileSimulator(good, { backend: 'lockstep', backends: ['js'] })).rejects.toThrow('lockstep needs at least two back ends to compare, got 1');
  });

  test('a mismatching enum signal is reported with its member names', async () => {
    const Phase = Enum('phase', ['idle', 'run', 'done']);
    const Seq = defineModule('Seq', (_p: { bug: boolean }) => ({ go: input(Bool), phase: output(Phase) }), (m, io, p) => {
      const f = fsm(m, 'phase', ['idle', 'run', 'done'], 'idle');
      f.on({ idle: () => m.when(io.go, () => f.goto('run')), run: () => f.goto(p.bug ? 'idle' : 'done'), done: () => f.goto('idle') });
      io.phase.set(f.state);
    });
    const seq = (bug: boolean) => elaborate(Seq, { bug }, { topName: 'Seq' }).design;
    const sim = await compileSimulator(seq(false), {
      backend: 'lockstep',
      backends: [compileSimulator(seq(false), { backend: 'js' }), compileSimulator(seq(true), { backend: 'js' })],
      mismatchDir: tmpdir(),
    });
    sim.reset();
    sim.poke('go', 1);
    let err: unknown;
    try {
      sim.step(4);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LockstepMismatchError);
    expect((err as Error).message).toMatch(/on Seq\.phase \(2 bits\):\n.*2'h2 \(phase\.done\)\n.*2'h0 \(phase\.idle\)/);
    sim.close();
  }, 120_000);
});
