// Recordings of designs clocked otherwise than by one rising edge per cycle (several clocks, a falling
// edge): RecordingSimulator records them instant by instant, replayRecording replays them on every
// simulator (gate level included) with every output compared, and portable testbenches drive the clocks
// at the recorded instants and PASS on Icarus and Verilator alone. Also a single-clock design with an
// active-high asynchronous reset, which the standalone harnesses cannot replay (replayed live).
import { describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Bool, Clock, UInt, defineModule, elaborate, input, output, type Design } from '../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { RecordingSimulator, replayRecording } from '../../src/hdl/cosim/index.ts';
import { portableTestbench, testbenchCommands } from '../../src/hdl/cosim/portableTestbench.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { toolVersion } from '../../src/hdl/tools/toolchain.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`multiClockReplay.test seed=${seed} (rerun with SEED=${seed})`);

/** Two clocks, a counter each; the slow one samples the fast one's low bit through a synchronizer; an asynchronous active-high reset on the fast side. */
const TwoClocks = defineModule('RpTwoClocks', (_p: { resetValue: number }) => ({ clk_a: input(Clock), clk_b: input(Clock), areset: input(Bool), en: input(Bool), a: output(UInt(8)), b: output(UInt(8)) }), (m, io, p) => {
  const fast = m.clockDomain({ clock: io.clk_a, reset: io.areset, resetKind: 'async', resetActive: 'high', name: 'fast' });
  const slow = m.clockDomain({ clock: io.clk_b, name: 'slow' });
  const ca = m.reg(UInt(8), { domain: fast, reset: p.resetValue });
  m.withDomain(fast, () => m.when(io.en, () => ca.set(ca.add(1))));
  const s1 = m.reg(Bool, { domain: slow, synchronizer: true });
  const s2 = m.reg(Bool, { domain: slow });
  const cb = m.reg(UInt(8), { domain: slow });
  s1.set(ca.bit(0));
  s2.set(s1);
  cb.set(cb.add(s2.zext(8)));
  io.a.set(ca);
  io.b.set(cb);
});

/** A dual-edge flip-flop with an asynchronous active-low reset on both edges' registers. */
const DualEdge = defineModule('RpDualEdge', (_p: { resetValue: number }) => ({ clock: input(Clock), aresetn: input(Bool), d: input(UInt(4)), q: output(UInt(4)) }), (m, io, p) => {
  const rise = m.clockDomain({ clock: io.clock, reset: io.aresetn, resetKind: 'async', resetActive: 'low' });
  const fall = m.clockDomain({ clock: io.clock, edge: 'falling', reset: io.aresetn, resetKind: 'async', resetActive: 'low' });
  const r = m.reg(UInt(4), { domain: rise, reset: p.resetValue });
  const f = m.reg(UInt(4), { domain: fall, reset: 5 });
  r.set(io.d.xor(f));
  f.set(io.d.xor(r));
  io.q.set(r.xor(f));
});

/** A random run through every clock call; an asynchronous reset pulsed between edges (asserted and released before the next). */
function drive(sim: Simulator, rng: Rng, reset: { name: string; activeHigh: boolean }, data: string, width: number): void {
  const on = reset.activeHigh ? 1 : 0;
  sim.poke(reset.name, on);
  sim.step(2);
  sim.poke(reset.name, 1 - on);
  for (let i = 0; i < 150; i++) {
    sim.poke(data, rng.int(2 ** width));
    if (rng.int(10) === 0) {
      sim.poke(reset.name, on);
      sim.peek(sim.ports.find((p) => p.direction === 'output')!.name);
      sim.poke(reset.name, 1 - on);
    }
    const r = rng.int(3);
    if (r === 0) sim.step(1 + rng.int(3));
    else if (r === 1) sim.advance(sim.time + rng.int(20_000) / 1000);
    else {
      const c = sim.clocks[rng.int(sim.clocks.length)]!;
      sim.setClocks({ [c]: 1 });
      sim.setClocks({ [c]: 0 });
    }
  }
}

/** One rising-edge clock and an asynchronous active-high reset: recorded as cycles, replayed live (the standalone harnesses power 1-bit inputs on high). */
const AsyncHigh = defineModule('RpAsyncHigh', (_p: { resetValue: number }) => ({ clk: input(Clock), areset: input(Bool), d: input(UInt(8)), q: output(UInt(8)) }), (m, io, p) => {
  m.useDomain(m.clockDomain({ clock: io.clk, reset: io.areset, resetKind: 'async', resetActive: 'high' }));
  const r = m.reg(UInt(8), { reset: p.resetValue });
  r.set(r.add(io.d));
  io.q.set(r);
});

const twoClocks = (resetValue: number) => elaborate(TwoClocks, { resetValue }, { topName: 'RpTwoClocks' }).design;
const dualEdge = (resetValue: number) => elaborate(DualEdge, { resetValue }, { topName: 'RpDualEdge' }).design;

// The gate-level run without power-on values (icarus-gate-reset) suits a design whose registers all have a reset.
const cases: [string, Design, Design, (sim: Simulator, rng: Rng) => void, boolean][] = [
  [
    'two clocks (10 ns and 7.3 ns), an asynchronous reset',
    twoClocks(0x5a),
    twoClocks(0x5b),
    (sim, rng) => {
      sim.setClockTiming('clk_b', { period: 7.3, phase: 1.1 });
      drive(sim, rng, { name: 'areset', activeHigh: true }, 'en', 1);
    },
    false,
  ],
  ['one clock, both edges, an asynchronous reset', dualEdge(3), dualEdge(2), (sim, rng) => drive(sim, rng, { name: 'aresetn', activeHigh: false }, 'd', 4), true],
  [
    'one rising edge, an asynchronous active-high reset (recorded as cycles)',
    elaborate(AsyncHigh, { resetValue: 0x33 }, { topName: 'RpAsyncHigh' }).design,
    elaborate(AsyncHigh, { resetValue: 0x34 }, { topName: 'RpAsyncHigh' }).design,
    (sim, rng) => drive(sim, rng, { name: 'areset', activeHigh: true }, 'd', 8),
    true,
  ],
];

describe.each(cases)('%s', (_name, design, other, run, allReset) => {
  test('the replay agrees on ts, verilator, icarus and icarus-gate (and icarus-gate-reset where every register has a reset)', async () => {
    const sim = new RecordingSimulator(compileSimulator(design, { backend: 'js' }), design);
    run(sim, createRng(seed));
    const rec = sim.recording();
    sim.close();
    const clocks = design.modules.at(-1)!.clocks!.map((c) => c.name);
    // Every instant of the run, plus a row for each reset pulse between edges (a design on one rising edge: a row per cycle).
    if (design.top === 'RpAsyncHigh') expect(rec.instants).toBeUndefined();
    else expect(rec.instants?.clocks).toEqual(clocks);
    expect(rec.cycles).toBeGreaterThan(design.top === 'RpAsyncHigh' ? 150 : 300);
    const report = await replayRecording(design, rec, ['ts', 'verilator', 'icarus', 'icarus-gate', ...(allReset ? (['icarus-gate-reset'] as const) : [])]);
    expect(report.mismatch).toBeNull();
  }, 600_000);

  test('a replay on a simulator of another design (another reset value) reports the first difference, naming its row and port', async () => {
    const sim = new RecordingSimulator(compileSimulator(design, { backend: 'js' }), design);
    run(sim, createRng(seed));
    const rec = sim.recording();
    sim.close();
    const report = await replayRecording(design, rec, ['ts', 'verilator'], () => {}, compileSimulator(other, { backend: 'js' }));
    expect(report.mismatch).not.toBeNull();
    expect(report.mismatch!.port).toMatch(/^Rp\w+\.(a|q)$/);
    expect(report.mismatch!.values.ts).not.toBe(report.mismatch!.values.verilator);
  }, 600_000);

  test('a portable testbench is lint-clean and PASSes on Icarus and Verilator alone; a changed expected output FAILs', async () => {
    const sim = new RecordingSimulator(compileSimulator(design, { backend: 'js' }), design);
    run(sim, createRng(seed));
    const rec = sim.recording();
    sim.close();
    const emitted = emitSystemVerilog(design);
    const tb = portableTestbench(design, rec, { emitted, description: `multiClockReplay.test, seed ${seed}` });
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-multiclock-tb-'));
    try {
      for (const f of [...emitted.files, ...tb.files]) writeFileSync(join(dir, f.path), f.text);
      const sources = emitted.fileList.join(' ');
      await toolVersion('verilator');
      const lint = await execa('verilator', ['--lint-only', '-Wall', '--timing', '--top-module', tb.name, ...emitted.fileList, `${tb.name}.sv`], { cwd: dir, reject: false, all: true });
      expect(lint.all).toBe('');
      for (const c of testbenchCommands(tb.name, sources, `${tb.name}.sv`).filter((c) => /Icarus|Verilator/.test(c.simulator))) {
        const r = await execa('sh', ['-c', c.command], { cwd: dir, reject: false, all: true });
        expect(r.all).toMatch(new RegExp(`^PASS: ${design.top}: ${rec.cycles} cycles, every output matched$`, 'm'));
        expect(r.exitCode, r.all).toBe(0);
      }
      // One expected output changed: FAIL, naming the line.
      const vec = tb.files[1]!.text.split('\n');
      const first = vec.findIndex((l) => !l.startsWith('//')) + 40;
      const last = vec[first]!;
      vec[first] = last.slice(0, -1) + (parseInt(last.at(-1)!, 16) ^ 1).toString(16);
      writeFileSync(join(dir, 'bad.vec'), vec.join('\n'));
      const icarus = testbenchCommands(tb.name, sources, `${tb.name}.sv`).find((c) => c.simulator.startsWith('Icarus'))!.command;
      const fail = await execa('sh', ['-c', `${icarus} +vec=bad.vec`], { cwd: dir, reject: false, all: true });
      expect(fail.exitCode).not.toBe(0);
      expect(fail.all).toMatch(/^mismatch at cycle 40 on q?\w+: expected/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
