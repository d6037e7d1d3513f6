// Failed properties on every engine: the TS simulator (js, wasm), live Verilator, live Icarus and lockstep
// raise the same PropertyFailedError (property, kind, TypeScript line, cycle, values, time) at the same edge,
// whether the edge is a rising one, a falling one or another clock's; an assertion in a module instantiated
// twice names the instance that failed; an assumption the testbench breaks fails like an assertion; the
// external engines stop there until powerOn; lockstep reports an agreed failure once and a disagreement as a
// mismatch; properties that hold never fire over many random cycles.
import { describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Bool, Clock, UInt, defineModule, elaborate, emitSystemVerilog, input, output, type Design } from '../../src/hdl/index.ts';
import { LockstepMismatchError, PropertyFailedError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';
import { harnessDesign } from '../../src/hdl/cosim/runCosim.ts';
import { externalSimulator } from '../../src/hdl/cosim/backends.ts';
import { RecordingSimulator } from '../../src/hdl/cosim/recordingSimulator.ts';
import { portableTestbench, testbenchCommands } from '../../src/hdl/cosim/portableTestbench.ts';
import { icarusCompile, verilatorLint, yosysSynth } from '../../src/hdl/cosim/rtlChecks.ts';
import { inRtlDir } from '../../src/hdl/synth/rtlSource.ts';
import { runYosys } from '../../src/hdl/tools/yosys.ts';
import { toolVersion } from '../../src/hdl/tools/toolchain.ts';

const seed = seedFromEnv();
console.log(`propertiesEngines.test seed=${seed} (rerun with SEED=${seed})`);

const engines = ['js', 'wasm', 'verilator', 'icarus', 'lockstep'] as const;
type EngineName = (typeof engines)[number];

const open = async (design: Design, engine: EngineName): Promise<Simulator> => compileSimulator(design, engine === 'lockstep' ? { backend: 'lockstep' } : { backend: engine });

/** The error `script` raises on `sim` (it must raise one). */
function failureOf(sim: Simulator, script: (sim: Simulator) => void): PropertyFailedError {
  try {
    script(sim);
  } catch (e) {
    if (e instanceof PropertyFailedError) return e;
    throw e;
  }
  throw new Error(`${sim.backend}: no property failed (now at cycle ${sim.cycle})`);
}

/** What every engine must agree on. */
const fields = (e: PropertyFailedError) => ({ property: e.property, kind: e.kind, where: e.where, cycle: e.cycle, values: e.values, userMessage: e.userMessage, timeNs: e.timeNs });

/** Runs `script` on every engine; each raises the same failure, which is returned (the TS simulator's). */
async function sameFailureEverywhere(design: Design, script: (sim: Simulator) => void, after?: (sim: Simulator, e: PropertyFailedError) => void): Promise<PropertyFailedError> {
  const seen: Partial<Record<EngineName, PropertyFailedError>> = {};
  for (const engine of engines) {
    const sim = await open(design, engine);
    try {
      const e = failureOf(sim, script);
      seen[engine] = e;
      expect(sim.cycle, `${engine}: the cycle count stays at the failing edge`).toBe(e.cycle);
      after?.(sim, e);
    } finally {
      sim.close();
    }
  }
  const reference = fields(seen.js!);
  for (const engine of engines) expect(fields(seen[engine]!), engine).toEqual(reference);
  expect(seen.lockstep!.engines).toEqual([expect.stringMatching(/^(js|wasm)$/), 'verilator', 'icarus']);
  expect(seen.lockstep!.message).toContain(` on ${seen.lockstep!.engines!.join(', ')}`);
  return seen.js!;
}

/**
 * PeTop: two instances of PeSub, a register of `x` that must stay below `bound` (200; the lockstep test
 * builds the same design with another bound); an assumption on `a`; two assertions on `b` that fail together.
 */
function peTopDesign(bound: number): Design {
  const PeSub = defineModule('PeSub', () => ({ x: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
    const r = m.reg(UInt(8), { reset: 0, name: 'r' });
    r.set(io.x);
    io.y.set(r);
    m.assert(r.lt(bound), `r stays below ${bound}`, { name: 'bounded' });
  });
  const PeTop = defineModule('PeTop', () => ({ a: input(UInt(8)), b: input(UInt(8)), ya: output(UInt(8)), yb: output(UInt(8)) }), (m, io) => {
    const ua = m.instance(PeSub, undefined, { name: 'u_a' });
    const ub = m.instance(PeSub, undefined, { name: 'u_b' });
    ua.io.x.set(io.a);
    ub.io.x.set(io.b);
    io.ya.set(ua.io.y);
    io.yb.set(ub.io.y);
    m.assume(io.a.ne(255), 'a is never 255', { name: 'a_not_255' });
    m.assert(io.b.ne(99), 'b is not 99', { name: 'first' });
    m.assert(io.b.ne(99).or(io.a.ne(0)), 'b is not 99 while a is 0', { name: 'second' });
  });
  return elaborate(PeTop, undefined).design;
}
const peTop = peTopDesign(200);

/** `cycles` random cycles that keep every property of PeTop (a, b below 99). */
function calm(sim: Simulator, rng: Rng, cycles: number): void {
  for (let i = 0; i < cycles; i++) {
    sim.poke('a', rng.int(99));
    sim.poke('b', rng.int(99));
    sim.step();
  }
}

describe('a design with a submodule instantiated twice, an assumption and two assertions that fail together', () => {
  test('the failing instance is named, one cycle after its register took the value', async () => {
    const e = await sameFailureEverywhere(peTop, (sim) => {
      sim.reset(2);
      calm(sim, createRng(seed), 7);
      sim.poke('b', 201);
      sim.step();
      sim.poke('b', 3);
      sim.step(5);
    });
    expect(e.property).toBe('PeTop.u_b.bounded');
    expect(e.kind).toBe('assert');
    expect(e.where).toMatch(/^propertiesEngines\.test\.ts:\d+$/);
    expect(e.cycle).toBe(2 + 7 + 1);
    expect(e.values).toEqual({ 'u_b.r': 201n });
    expect(e.userMessage).toBe('r stays below 200');
  }, 600_000);

  test('an assumption the testbench breaks fails at that edge; several failing at once: the first declared', async () => {
    const assumed = await sameFailureEverywhere(peTop, (sim) => {
      sim.reset();
      calm(sim, createRng(seed + 1), 4);
      sim.poke('a', 255);
      sim.step(3);
    });
    expect(assumed).toMatchObject({ property: 'PeTop.a_not_255', kind: 'assume', cycle: 5, values: { a: 255n } });
    expect(assumed.message).toMatch(/^propertiesEngines\.test\.ts:\d+: assumption PeTop\.a_not_255 failed: a is never 255, at the clock edge ending cycle 5/);
    const both = await sameFailureEverywhere(peTop, (sim) => {
      sim.reset();
      sim.poke('a', 0);
      sim.poke('b', 99);
      sim.step();
    });
    expect(both).toMatchObject({ property: 'PeTop.first', cycle: 1, values: { b: 99n } });
  }, 600_000);

  test('in a vector run: the cycle of the failing row; the external engines stop there until powerOn', async () => {
    const rows = 40;
    const stimulus = new Uint32Array(2 * rows);
    const rng = createRng(seed + 2);
    for (let i = 0; i < rows; i++) [stimulus[2 * i], stimulus[2 * i + 1]] = [rng.int(99), i === 23 ? 250 : rng.int(99)];
    const e = await sameFailureEverywhere(
      peTop,
      (sim) => {
        sim.reset();
        sim.runVectors(['a', 'b'], ['ya', 'yb'], stimulus, rows);
      },
      (sim) => {
        if (sim.backend === 'js' || sim.backend === 'wasm') return;
        expect(() => sim.step()).toThrow(/stopped at cycle 25: PeTop\.u_b\.bounded failed; powerOn\(\) starts it again/);
        sim.powerOn();
        sim.reset();
        calm(sim, createRng(seed), 20);
        expect(sim.cycle).toBe(21);
      },
    );
    expect(e).toMatchObject({ property: 'PeTop.u_b.bounded', cycle: 1 + 23 + 1, values: { 'u_b.r': 250n } });
  }, 600_000);
});

/** A submodule whose checks read its input port and a memory: the values are named as in the submodule. */
const PeLookup = defineModule('PeLookup', () => ({ x: input(UInt(8)), ok: input(Bool), y: output(UInt(8)) }), (m, io) => {
  const table = m.memory(UInt(8), 4, { init: [10, 20, 30, 40] });
  const entry = m.wire(UInt(8), { name: 'entry' });
  entry.set(table.readAsync(io.x.bits(1, 0)));
  io.y.set(entry);
  m.assert(entry.ne(40).or(io.x.ne(7)), 'no 40 at 7', { name: 'no_40_at_7' });
  m.assert(io.ok, 'ok holds', { name: 'ok_holds' });
});
const PeReader = defineModule('PeReader', () => ({ a: input(UInt(8)), y: output(UInt(8)) }), (m, io) => {
  const u = m.instance(PeLookup, undefined, { name: 'u' });
  u.io.x.set(io.a.xor(1));
  u.io.ok.set(io.a.ne(9));
  io.y.set(u.io.y);
});

test('values are named as in the module that declares the property: its input ports, a wire of a memory read', async () => {
  const design = elaborate(PeReader, undefined).design;
  const lookup = await sameFailureEverywhere(design, (sim) => {
    sim.poke('a', 6);
    sim.step(3);
  });
  expect(lookup).toMatchObject({ property: 'PeReader.u.no_40_at_7', cycle: 0, values: { 'u.entry': 40n, 'u.x': 7n } });
  const ok = await sameFailureEverywhere(design, (sim) => {
    sim.poke('a', 9);
    sim.step();
  });
  expect(ok).toMatchObject({ property: 'PeReader.u.ok_holds', cycle: 0, values: { 'u.ok': 0n } });
}, 600_000);

test('the standalone Verilator harness stops at the failing cycle of its run, with the TypeScript line and the instance', async () => {
  const { harness } = harnessDesign(peTop);
  const inputs = harness.ports.filter((p) => p.dir === 'input').map((p) => p.name);
  expect(inputs).toEqual(['rst_n', 'a', 'b']);
  const rows = 30;
  const stimulus = new Uint32Array(3 * rows);
  for (let c = 0; c < rows; c++) stimulus.set([1, c % 50, c === 12 ? 230 : c % 60], 3 * c);
  const prepared = await externalSimulator('verilator').prepare(harness);
  await expect(prepared.run(stimulus, rows)).rejects.toThrow(
    /^verilator simulation of PeTop stopped at cycle 13 of the run:\n {2}propertiesEngines\.test\.ts:\d+: assertion PeSub\.bounded failed: r stays below 200 \(r = 8'he6\) \(in TOP\.PeTop\.u_b\)$/,
  );
  stimulus[3 * 12 + 2] = 0;
  expect((await prepared.run(stimulus, rows)).outputs.length).toBe(2 * rows);
}, 600_000);

/** A register of `d` on the rising edge, checked on the falling edge. */
const PeFall = defineModule('PeFall', () => ({ clk: input(Clock), d: input(UInt(8)), q: output(UInt(8)) }), (m, io) => {
  const rise = m.clockDomain({ clock: io.clk });
  const fall = m.clockDomain({ clock: io.clk, edge: 'falling' });
  const r = m.reg(UInt(8), { domain: rise, name: 'r' });
  r.set(io.d);
  io.q.set(r);
  m.assert(r.ne(77), 'r is never 77 at a falling edge', { domain: fall, name: 'fall_not_77' });
});

/** A count of the slow clock's edges that must skip 3; d checked at the fast clock's falling edges. */
const PeClocks = defineModule('PeClocks', () => ({ fast: input(Clock), slow: input(Clock), d: input(UInt(8)), q: output(UInt(8)) }), (m, io) => {
  const fast = m.clockDomain({ clock: io.fast });
  const fastFall = m.clockDomain({ clock: io.fast, edge: 'falling' });
  const slow = m.clockDomain({ clock: io.slow });
  const n = m.reg(UInt(8), { domain: slow, name: 'n' });
  n.set(n.add(1));
  const f = m.reg(UInt(8), { domain: fast, name: 'f' });
  f.set(io.d);
  io.q.set(f.add(n));
  m.assert(n.ne(3), 'the slow count skips 3', { domain: slow, name: 'slow_not_3' });
  m.assert(io.d.ne(77), 'd is never 77 at a falling edge', { domain: fastFall, name: 'fall_not_77' });
});

describe('falling edges and a second clock', () => {
  test('a property on the falling edge of the only clock: the cycle its rising edge ended', async () => {
    const e = await sameFailureEverywhere(elaborate(PeFall, undefined).design, (sim) => {
      sim.poke('d', 5);
      sim.step(6);
      sim.poke('d', 77);
      sim.step(3);
    });
    expect(e).toMatchObject({ property: 'PeFall.fall_not_77', cycle: 7, values: { r: 77n }, timeNs: undefined });
  }, 600_000);

  test('the slow clock fails at its fourth edge; the fast clock at its falling edge: time and cycle as on the TS simulator', async () => {
    const design = elaborate(PeClocks, undefined).design;
    const timed = (sim: Simulator) => {
      sim.setClockTiming('fast', { period: 4, phase: 1 });
      sim.setClockTiming('slow', { period: 10, phase: 3 });
    };
    const slow = await sameFailureEverywhere(design, (sim) => {
      timed(sim);
      sim.advance(100);
    });
    expect(slow).toMatchObject({ property: 'PeClocks.slow_not_3', timeNs: 3 + 3 * 10, values: { n: 3n } });
    const fall = await sameFailureEverywhere(design, (sim) => {
      timed(sim);
      sim.advance(14);
      sim.poke('d', 77);
      sim.step(2);
    });
    // The fast clock rises at 1, 5, 9, 13, 17 and falls 2 ns later: d changed at 14, checked at 15.
    expect(fall).toMatchObject({ property: 'PeClocks.fall_not_77', timeNs: 15, cycle: 4, values: { d: 77n } });
  }, 600_000);
});

describe('lockstep', () => {
  test('a property only some engines fail is a mismatch naming it and what each engine did', async () => {
    // The same design, but the instances' bound is 250 on Verilator: it does not fail where the TS simulator does.
    const verilator = await compileSimulator(peTopDesign(250), { backend: 'verilator' });
    const sim = await compileSimulator(peTop, { backend: 'lockstep', backends: ['js', verilator] });
    try {
      sim.reset();
      sim.poke('b', 210);
      sim.step();
      let caught: unknown;
      try {
        sim.step();
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(LockstepMismatchError);
      const m = caught as LockstepMismatchError;
      expect(m).toMatchObject({ cycle: 2, signal: 'PeTop.u_b.bounded', values: { js: 0n, verilator: 1n } });
      expect(m.tsLocation).toMatch(/^test\/sim\/propertiesEngines\.test\.ts:\d+$/);
      expect(m.svLocation).toMatch(/^PeSub\.sv:\d+$/);
      expect(m.message).toContain('js: failed; verilator: held');
    } finally {
      sim.close();
    }
  }, 600_000);
});

/** Properties that hold for every input: temporal ones, a saturating count, a wide value; and cover points. */
const PeHolds = defineModule(
  'PeHolds',
  () => ({ d: input(UInt(8)), go: input(Bool), wide: input(UInt(100)), q: output(UInt(8)), cnt: output(UInt(8)), wq: output(UInt(100)) }),
  (m, io) => {
    const s1 = m.reg(UInt(8), { name: 's1' });
    const s2 = m.reg(UInt(8), { name: 's2' });
    s1.set(io.d);
    s2.set(s1);
    io.q.set(s2);
    m.assert(s2.eq(m.past(io.d, 2)), 's2 is d two edges ago');
    const cnt = m.reg(UInt(8), { reset: 0, name: 'count' });
    m.when(io.go.and(cnt.lt(100)), () => cnt.set(cnt.add(1)));
    io.cnt.set(cnt);
    m.assert(cnt.le(100), 'the count saturates at 100');
    const busy = m.reg(Bool, { name: 'busy' });
    busy.set(io.go);
    m.assert(m.impliesNext(io.go, busy), 'busy follows go');
    m.assert(m.implies(m.rose(io.go), busy.not()), 'go rose: busy was low');
    m.assume(m.stable(io.d).or(m.changed(io.d)), 'd is stable or changed');
    const w = m.reg(UInt(100), { name: 'w' });
    w.set(io.wide);
    io.wq.set(w);
    m.when(io.go, () => m.assert(w.eq(m.past(io.wide)), 'w is the wide input one edge ago'));
    m.cover(cnt.eq(100), 'saturated');
    m.cover(io.go, 'went');
  },
);

test('properties that hold never fire over many random cycles on any engine; lockstep compares every output', async () => {
  const design = elaborate(PeHolds, undefined).design;
  const cycles = 3000;
  const outputs: Record<string, bigint[]> = {};
  for (const engine of engines) {
    const sim = await open(design, engine);
    const rng = createRng(seed + 3);
    const seen: bigint[] = [];
    try {
      sim.reset();
      for (let c = 0; c < cycles; c++) {
        sim.poke('d', rng.int(256));
        sim.poke('go', rng.int(4) === 0 ? 0 : 1);
        sim.poke('wide', rng.bits(100));
        sim.step();
        seen.push(sim.peek('q') ^ (sim.peek('cnt') << 8n) ^ sim.peek('wq'));
      }
      if (engine === 'js' || engine === 'wasm' || engine === 'lockstep') {
        const covers = sim.coverCounts!();
        expect(covers.went, engine).toBeGreaterThan(cycles / 2);
        expect(covers.saturated, engine).toBeGreaterThan(0);
      } else expect(sim.coverCounts, engine).toBeUndefined();
    } finally {
      sim.close();
    }
    outputs[engine] = seen;
  }
  for (const engine of engines) expect(outputs[engine], engine).toEqual(outputs.js);
}, 600_000);

describe('the SystemVerilog of designs with properties', () => {
  const designs = () => [peTop, elaborate(PeClocks, undefined).design, elaborate(PeHolds, undefined).design];

  test('is lint-clean: verilator -Wall, iverilog -Wall, Yosys synth and read_verilog -formal', async () => {
    for (const design of designs()) {
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      expect(e.files.map((f) => f.text).join('\n')).toMatch(/\$error\("propertiesEngines\.test\.ts:\d+: assertion \w+\.\w+ failed: [^"]* \(\w+ = \d+'h%h(, \w+ = \d+'h%h)*\)", /);
      const [v, i, y] = await Promise.all([verilatorLint(src), icarusCompile(src), yosysSynth(src)]);
      expect(v.output, `verilator on ${design.top}`).toBe('');
      expect(i.output, `iverilog on ${design.top}`).toBe('');
      expect(y.ok, y.output).toBe(true);
      const formal = await inRtlDir(src, (dir) => runYosys([`read_verilog -formal -sv ${e.fileList.join(' ')}`, `hierarchy -check -top ${design.top}`, 'proc', 'check -assert', ''].join('\n'), { cwd: dir, quiet: true }));
      expect(formal.output).not.toMatch(/ERROR/);
    }
  }, 600_000);

  test('a portable testbench of a run where they hold is lint-clean and PASSes on Icarus and Verilator alone', async () => {
    const design = elaborate(PeHolds, undefined).design;
    const sim = new RecordingSimulator(await compileSimulator(design, { backend: 'js' }), design);
    const rng = createRng(seed + 4);
    sim.reset();
    for (let c = 0; c < 300; c++) {
      sim.poke('d', rng.int(256));
      sim.poke('go', rng.int(2));
      sim.poke('wide', rng.bits(100));
      sim.step();
    }
    const rec = sim.recording();
    sim.close();
    const emitted = emitSystemVerilog(design);
    const tb = portableTestbench(design, rec, { emitted, description: `propertiesEngines.test, seed ${seed}` });
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-properties-tb-'));
    try {
      for (const f of [...emitted.files, ...tb.files]) writeFileSync(join(dir, f.path), f.text);
      await toolVersion('verilator');
      const lint = await execa('verilator', ['--lint-only', '-Wall', '--timing', '--top-module', tb.name, ...emitted.fileList, `${tb.name}.sv`], { cwd: dir, reject: false, all: true });
      expect(lint.all).toBe('');
      for (const c of testbenchCommands(tb.name, emitted.fileList.join(' '), `${tb.name}.sv`).filter((c) => /Icarus|Verilator/.test(c.simulator))) {
        const r = await execa('sh', ['-c', c.command], { cwd: dir, reject: false, all: true });
        expect(r.all).toMatch(new RegExp(`^PASS: PeHolds: ${rec.cycles} cycles, every output matched$`, 'm'));
        expect(r.all).not.toMatch(/ERROR|%Error/);
        expect(r.exitCode, r.all).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
