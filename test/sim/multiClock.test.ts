// Clock domains on every engine: a dual-edge flip-flop, a register of each reset kind and polarity with
// resets changed at random times between edges, and two counters on unrelated clocks joined by a
// synchronizer run on js, Verilator, Icarus and lockstep(js, Verilator, Icarus), instant by instant: every
// output and register agrees bit for bit with the TS simulator, and with a model of the design written here.
import { describe, expect, test } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bool, Clock, UInt, defineModule, elaborate, flattenDesign, input, mux, output, type Design } from '../../src/hdl/index.ts';
import { LockstepMismatchError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { ClockSchedule, type ClockTiming } from '../../src/hdl/sim/clockSchedule.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`multiClock.test seed=${seed} (rerun with SEED=${seed})`);

/** A dual-edge flip-flop: p on the rising edge, n on the falling edge of one clock, q = p ^ n follows d at both. */
const DualEdge = defineModule('McDualEdge', () => ({ clk: input(Clock), d: input(Bool), q: output(Bool) }), (m, io) => {
  const rise = m.clockDomain({ clock: io.clk });
  const fall = m.clockDomain({ clock: io.clk, edge: 'falling' });
  const p = m.reg(Bool, { domain: rise });
  const n = m.reg(Bool, { domain: fall });
  p.set(io.d.xor(n));
  n.set(io.d.xor(p));
  io.q.set(p.xor(n));
});

const RESET_VALUES = { sh: 0x11, sl: 0x22, ah: 0x33, al: 0x44 } as const;
type ResetKind = keyof typeof RESET_VALUES;
const KINDS = Object.keys(RESET_VALUES) as ResetKind[];

/** A register per reset kind and polarity (sync/async × active high/low) on one clock, each accumulating d. */
const ResetBank = defineModule(
  'McResetBank',
  () => ({
    clock: input(Clock),
    rst_sh: input(Bool),
    rst_sl: input(Bool),
    areset: input(Bool),
    aresetn: input(Bool),
    d: input(UInt(8)),
    q_sh: output(UInt(8)),
    q_sl: output(UInt(8)),
    q_ah: output(UInt(8)),
    q_al: output(UInt(8)),
  }),
  (m, io) => {
    const domains = {
      sh: m.clockDomain({ clock: io.clock, reset: io.rst_sh, resetKind: 'sync', resetActive: 'high', name: 'sh' }),
      sl: m.clockDomain({ clock: io.clock, reset: io.rst_sl, resetKind: 'sync', resetActive: 'low', name: 'sl' }),
      ah: m.clockDomain({ clock: io.clock, reset: io.areset, resetKind: 'async', resetActive: 'high', name: 'ah' }),
      al: m.clockDomain({ clock: io.clock, reset: io.aresetn, resetKind: 'async', resetActive: 'low', name: 'al' }),
    };
    const outs = { sh: io.q_sh, sl: io.q_sl, ah: io.q_ah, al: io.q_al };
    for (const k of KINDS) {
      const r = m.reg(UInt(8), { reset: RESET_VALUES[k], domain: domains[k], name: `r_${k}` });
      r.set(r.add(io.d));
      outs[k].set(r);
    }
  },
);
const RESET_INPUT: Record<ResetKind, string> = { sh: 'rst_sh', sl: 'rst_sl', ah: 'areset', al: 'aresetn' };
const ACTIVE_HIGH: Record<ResetKind, boolean> = { sh: true, sl: false, ah: true, al: false };

/** Two counters on unrelated clocks: the slow domain samples the fast counter's low bit through a 2-flop synchronizer. */
const TwoClocks = defineModule('McTwoClocks', () => ({ clk_a: input(Clock), clk_b: input(Clock), en: input(Bool), a: output(UInt(8)), b: output(UInt(8)), seen: output(Bool) }), (m, io) => {
  const fast = m.clockDomain({ clock: io.clk_a, name: 'fast' });
  const slow = m.clockDomain({ clock: io.clk_b, name: 'slow' });
  const ca = m.reg(UInt(8), { domain: fast, name: 'ca' });
  m.withDomain(fast, () => m.when(io.en, () => ca.set(ca.add(1))));
  const s1 = m.reg(Bool, { domain: slow, synchronizer: true, name: 's1' });
  const s2 = m.reg(Bool, { domain: slow, name: 's2' });
  const cb = m.reg(UInt(8), { domain: slow, name: 'cb' });
  s1.set(ca.bit(0));
  s2.set(s1);
  cb.set(cb.add(s2.zext(8)));
  io.a.set(ca);
  io.b.set(cb);
  io.seen.set(s2);
});

const designs = {
  dual: elaborate(DualEdge, undefined).design,
  resets: elaborate(ResetBank, undefined).design,
  two: elaborate(TwoClocks, undefined).design,
};

const engines = ['js', 'verilator', 'icarus', 'lockstep'] as const;
type EngineName = (typeof engines)[number];

function open(design: Design, e: EngineName): Simulator | Promise<Simulator> {
  if (e === 'js') return compileSimulator(design, { backend: 'js' });
  if (e === 'lockstep') return compileSimulator(design, { backend: 'lockstep', backends: ['js', 'verilator', 'icarus'], compareRegisters: true });
  return compileSimulator(design, { backend: e, registers: true });
}

/** Every output and register, with the cycle and time: what is compared after every call. */
function snapshot(sim: Simulator, regs: readonly string[]): string {
  const values = [...sim.ports.filter((p) => p.direction === 'output').map((p) => p.name), ...regs].map((n) => `${n}=${sim.peek(n).toString(16)}`);
  return `${sim.cycle} ${sim.time} ${values.join(' ')}`;
}

type Script = (sim: Simulator, log: (line: string) => void) => void;

/** Runs `script` on every engine; each engine's log must equal the js one line for line. */
async function agree(design: Design, script: Script): Promise<string[]> {
  const logs: Partial<Record<EngineName, string[]>> = {};
  for (const e of engines) {
    const sim = await open(design, e);
    const log: string[] = [];
    try {
      script(sim, (l) => log.push(l));
    } finally {
      sim.close();
    }
    logs[e] = log;
  }
  for (const e of engines) {
    const first = logs[e]!.findIndex((l, i) => l !== logs.js![i]);
    expect(first === -1 ? null : { engine: e, line: first, js: logs.js![first], [e]: logs[e]![first] }).toBeNull();
    expect(logs[e]!.length).toBe(logs.js!.length);
  }
  return logs.js!;
}

const registersOf = (design: Design) => flattenDesign(design).regs.map((r) => flattenDesign(design).nets[r.q]!.name);

/**
 * Instant by instant through `advance`: before each instant, at a random time between it and the one
 * before, `between` pokes (then a snapshot); after it, `after` checks and a snapshot.
 */
function byInstant(design: Design, timings: Readonly<Record<string, ClockTiming>>, instants: number, rng: Rng, between: (sim: Simulator) => void, after: (sim: Simulator, levels: Readonly<Record<string, 0 | 1>>) => void): Script {
  const regs = registersOf(design);
  return (sim, log) => {
    for (const [c, t] of Object.entries(timings)) sim.setClockTiming(c, t);
    const schedule = new ClockSchedule(sim.clocks);
    for (const [c, t] of Object.entries(timings)) schedule.set(c, t);
    for (let i = 0; i < instants; i++) {
      const nowPs = schedule.nowPs;
      const next = schedule.next();
      if (next.timePs - nowPs > 1) sim.advance((nowPs + 1 + rng.int(next.timePs - nowPs - 1)) / 1000);
      between(sim);
      log(snapshot(sim, regs));
      sim.advance(next.timePs / 1000);
      after(sim, next.levels);
      log(snapshot(sim, regs));
    }
  };
}

/** The same random choices on every engine: a fresh generator per engine from one seed. */
const rngFor = (salt: number) => () => createRng((seed ^ salt) >>> 0);

describe('a dual-edge flip-flop (rising and falling domains of one clock)', () => {
  test('every instant on js, verilator, icarus and lockstep, as the model: p <= d^n at the rise, n <= d^p at the fall', async () => {
    const fresh = rngFor(1);
    let rng = fresh();
    let model = { p: 0, n: 0, d: 0 };
    const script: Script = (sim, log) => {
      rng = fresh();
      model = { p: 0, n: 0, d: 0 };
      byInstant(
        designs.dual,
        { clk: { period: 8 + rng.int(5), high: 3 } },
        300,
        rng,
        (s) => {
          model.d = rng.int(2);
          s.poke('d', model.d);
        },
        (s, levels) => {
          if (levels.clk === 1) model.p = model.d ^ model.n;
          else model.n = model.d ^ model.p;
          expect([s.peek('p'), s.peek('n'), s.peek('q')]).toEqual([BigInt(model.p), BigInt(model.n), BigInt(model.p ^ model.n)]);
        },
      )(sim, log);
      // step() on one clock runs both edges of each cycle (in C, in the Icarus harness), setClocks one instant.
      for (let i = 0; i < 50; i++) {
        model.d = rng.int(2);
        sim.poke('d', model.d);
        sim.step(1 + rng.int(3));
        log(`${sim.cycle} ${sim.peek('q')}`);
      }
      sim.step(1000);
      sim.setClocks({ clk: 1 });
      sim.poke('d', 1 - model.d);
      log(`${sim.cycle} ${sim.peek('q')}`);
      sim.setClocks({ clk: 0 });
      log(`${sim.cycle} ${sim.peek('q')}`);
    };
    const log = await agree(designs.dual, script);
    expect(log.length).toBe(2 * 300 + 52);
  }, 600_000);
});

describe('registers of each reset kind and polarity', () => {
  test('resets changed at random times between edges: async ones act at once, sync ones at the edge, on every engine', async () => {
    const fresh = rngFor(2);
    const script: Script = (sim, log) => {
      const rng = fresh();
      const inputs: Record<string, number> = { rst_sh: 0, rst_sl: 0, areset: 0, aresetn: 0, d: 0 };
      // Inputs power on at 0: the active-low asynchronous reset is asserted, the others keep their init value 0.
      const model: Record<ResetKind, number> = { sh: 0, sl: 0, ah: 0, al: RESET_VALUES.al };
      const asserted = (k: ResetKind) => (inputs[RESET_INPUT[k]] === 1) === ACTIVE_HIGH[k];
      const check = (s: Simulator) => expect(KINDS.map((k) => Number(s.peek(`q_${k}`)))).toEqual(KINDS.map((k) => model[k]));
      check(sim);
      byInstant(
        designs.resets,
        { clock: { period: 10 } },
        400,
        rng,
        (s) => {
          // Mostly released, so the registers count; each reset changes now and then, at a random time.
          for (const k of KINDS) if (rng.int(4) === 0) inputs[RESET_INPUT[k]] = rng.int(3) === 0 ? Number(ACTIVE_HIGH[k]) : Number(!ACTIVE_HIGH[k]);
          inputs.d = rng.int(256);
          for (const [n, v] of Object.entries(inputs)) s.poke(n, v);
          for (const k of ['ah', 'al'] as const) if (asserted(k)) model[k] = RESET_VALUES[k];
          check(s);
        },
        (s, levels) => {
          if (levels.clock === 1) for (const k of KINDS) model[k] = asserted(k) ? RESET_VALUES[k] : (model[k] + inputs.d!) & 0xff;
          check(s);
        },
      )(sim, log);
      // reset() holds the top's reset named, asserted at its polarity from the registers.
      sim.poke('aresetn', 1);
      sim.reset(2, 'areset');
      log(`reset: ${KINDS.map((k) => sim.peek(`q_${k}`)).join(' ')}`);
      expect(sim.peek('q_ah')).toBe(BigInt(RESET_VALUES.ah));
    };
    await agree(designs.resets, script);
  }, 600_000);
});

describe('two counters on unrelated clocks, joined by a synchronizer', () => {
  const configs: [string, Record<string, ClockTiming>][] = [
    ['10 ns and 7.3 ns', { clk_a: { period: 10 }, clk_b: { period: 7.3 } }],
    ['10 ns and 20 ns, rising together', { clk_a: { period: 10, phase: 5 }, clk_b: { period: 20, phase: 5 } }],
    ['the same clock twice', { clk_a: { period: 6 }, clk_b: { period: 6 } }],
    ['random periods and phases', {}],
  ];
  test.each(configs)('%s: every instant on every engine, as the model (simultaneous edges sample the values before them)', async (_name, given) => {
    const fresh = rngFor(3);
    const script: Script = (sim, log) => {
      const rng = fresh();
      const timings = Object.keys(given).length
        ? given
        : Object.fromEntries(['clk_a', 'clk_b'].map((c) => {
            const period = 2 + rng.int(20000) / 1000;
            return [c, { period, phase: rng.int(Math.round(period * 1000)) / 1000 }];
          }));
      const m = { ca: 0, s1: 0, s2: 0, cb: 0, en: 0 };
      byInstant(
        designs.two,
        timings,
        400,
        rng,
        (s) => {
          m.en = rng.int(4) === 0 ? 0 : 1;
          s.poke('en', m.en);
        },
        (s, levels) => {
          const riseA = levels.clk_a === 1;
          const riseB = levels.clk_b === 1;
          const before = { ...m };
          if (riseA && before.en) m.ca = (before.ca + 1) & 0xff;
          if (riseB) {
            m.s1 = before.ca & 1;
            m.s2 = before.s1;
            m.cb = (before.cb + before.s2) & 0xff;
          }
          expect([s.peek('a'), s.peek('seen'), s.peek('b'), s.peek('s1')]).toEqual([BigInt(m.ca), BigInt(m.s2), BigInt(m.cb), BigInt(m.s1)]);
        },
      )(sim, log);
      // step(n): n rising edges of the first clock, and every edge of the other on the way.
      const a = sim.peek('a');
      sim.poke('en', 1);
      sim.step(25);
      log(snapshot(sim, []));
      expect(sim.peek('a')).toBe((a + 25n) & 0xffn);
      // One instant outside the schedule: both clocks rise together.
      sim.setClocks({ clk_a: 1, clk_b: 1 });
      log(snapshot(sim, registersOf(designs.two)));
      sim.setClocks({ clk_a: 0, clk_b: 0 });
      log(snapshot(sim, registersOf(designs.two)));
    };
    await agree(designs.two, script);
  }, 600_000);
});

describe('lockstep compares at every edge of every clock', () => {
  /** The same counters with a bug in the slow domain: from the 20th clk_b edge its counter adds 2. */
  const Buggy = defineModule('McTwoClocks', () => ({ clk_a: input(Clock), clk_b: input(Clock), en: input(Bool), a: output(UInt(8)), b: output(UInt(8)), seen: output(Bool) }), (m, io) => {
    const fast = m.clockDomain({ clock: io.clk_a, name: 'fast' });
    const slow = m.clockDomain({ clock: io.clk_b, name: 'slow' });
    const ca = m.reg(UInt(8), { domain: fast, name: 'ca' });
    m.withDomain(fast, () => m.when(io.en, () => ca.set(ca.add(1))));
    const s1 = m.reg(Bool, { domain: slow, synchronizer: true, name: 's1' });
    const s2 = m.reg(Bool, { domain: slow, name: 's2' });
    const cb = m.reg(UInt(8), { domain: slow, name: 'cb' });
    const edges = m.reg(UInt(8), { domain: slow, name: 'edges' });
    edges.set(edges.add(1));
    s1.set(ca.bit(0));
    s2.set(s1);
    cb.set(mux(edges.ge(19), cb.add(s2.zext(8)).add(2), cb.add(s2.zext(8))));
    io.a.set(ca);
    io.b.set(cb);
    io.seen.set(s2);
  });

  test('a difference that appears at a clk_b edge stops the run there, naming the cycle, time and signal, with timed waveforms', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-multiclock-'));
    try {
      const buggy = elaborate(Buggy, undefined).design;
      const sim = await compileSimulator(designs.two, { backend: 'lockstep', backends: [compileSimulator(designs.two, { backend: 'js' }), await compileSimulator(buggy, { backend: 'verilator' })], mismatchDir: dir, historyCycles: 16 });
      sim.setClockTiming('clk_b', { period: 7.3 });
      sim.poke('en', 1);
      let err: unknown;
      try {
        sim.advance(1000);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LockstepMismatchError);
      const e = err as LockstepMismatchError;
      // The 20th rising edge of clk_b (3.65 + 19 * 7.3 ns): compared right after it, not at a clk_a edge later.
      expect(e.timeNs).toBeCloseTo(3.65 + 19 * 7.3, 6);
      expect(e.message).toMatch(/^lockstep mismatch at cycle \d+ \(142\.35 ns\) on McTwoClocks\.b \(8 bits\)/);
      const vcd = readFileSync(e.waveforms[0]!, 'utf8');
      expect(vcd).toContain('$timescale 1ps $end');
      expect(vcd).toMatch(/\$var wire 1 \S+ clk_b \$end/);
      expect(vcd).toContain('#142350\n');
      sim.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  test('a falling-edge register of a single-clock design is compared at the falling edge', async () => {
    const BuggyDual = defineModule('McDualEdge', () => ({ clk: input(Clock), d: input(Bool), q: output(Bool) }), (m, io) => {
      const rise = m.clockDomain({ clock: io.clk });
      const fall = m.clockDomain({ clock: io.clk, edge: 'falling' });
      const p = m.reg(Bool, { domain: rise });
      const n = m.reg(Bool, { domain: fall });
      p.set(io.d.xor(n));
      n.set(io.d.xor(p).not());
      io.q.set(p.xor(n));
    });
    const sim = await compileSimulator(designs.dual, { backend: 'lockstep', backends: [compileSimulator(designs.dual, { backend: 'js' }), await compileSimulator(elaborate(BuggyDual, undefined).design, { backend: 'icarus' })] });
    // The first falling edge is at 10 ns: there, not at the next rising edge (15 ns).
    expect(() => sim.step(1)).toThrow(/^lockstep mismatch at cycle 1 \(10 ns\) on McDualEdge\.q/);
    sim.close();
  }, 600_000);
});

describe('waveforms of a design with several clocks', () => {
  /** Value changes of the named signals in a VCD, as `time name value`, in order of time then name. */
  function changes(path: string, names: readonly string[]): string[] {
    const text = readFileSync(path, 'utf8');
    const code = new Map<string, string>();
    for (const m of text.matchAll(/\$var\s+\S+\s+\d+\s+(\S+)\s+(\S+)/g)) if (names.includes(m[2]!) && ![...code.values()].includes(m[2]!)) code.set(m[1]!, m[2]!);
    const out: string[] = [];
    const last = new Map<string, bigint>();
    let now = 0;
    for (const line of text.slice(text.indexOf('$enddefinitions')).split('\n')) {
      const t = line.trim();
      if (t.startsWith('#')) now = Number(t.slice(1));
      const m = /^(?:b([01]+) (\S+)|([01])(\S+))$/.exec(t);
      if (!m) continue;
      const name = code.get(m[2] ?? m[4]!);
      const v = BigInt(`0b${m[1] ?? m[3]}`);
      if (name === undefined || last.get(name) === v) continue;
      last.set(name, v);
      out.push(`${now} ${name} ${v}`);
    }
    return out.sort((x, y) => Number(x.split(' ')[0]) - Number(y.split(' ')[0]) || x.localeCompare(y));
  }

  test('js, verilator and icarus write the same changes at the same times, in ps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-multiclock-vcd-'));
    try {
      const out: Record<string, string[]> = {};
      for (const e of ['js', 'verilator', 'icarus'] as const) {
        const sim = await compileSimulator(designs.two, e === 'verilator' ? { backend: e, trace: true } : { backend: e });
        const file = join(dir, `${e}.vcd`);
        sim.traceVcd(file);
        sim.setClockTiming('clk_b', { period: 7.3 });
        sim.advance(3);
        sim.poke('en', 1);
        sim.advance(60);
        sim.setClocks({ clk_a: 1 });
        sim.poke('en', 0);
        sim.setClocks({ clk_a: 0 });
        sim.step(3);
        sim.close();
        expect(readFileSync(file, 'utf8')).toMatch(/\$timescale\s+1ps\s+\$end/);
        out[e] = changes(file, ['clk_a', 'clk_b', 'en', 'a', 'b', 'seen']);
      }
      // Pokes show 1 ps after the instant before them; each clock edge at its time (3.65 ns: clk_b's first rise).
      expect(out.js).toContain('3650 clk_b 1');
      expect(out.js).toContain('5000 a 1');
      expect(out.js).toContain('0 en 1');
      expect(out.verilator).toEqual(out.js);
      expect(out.icarus).toEqual(out.js);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
