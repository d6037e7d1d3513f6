// BitSynchronizer, PulseSynchronizer and ResetSynchronizer on the TS simulator in time: exact latency, resets between edges, random clock ratios.
import { describe, expect, test } from 'vitest';
import { Bool, Clock, UInt, defineModule, elaborate, input, lit, output } from '../../../src/hdl/index.ts';
import { BitSynchronizer, PulseSynchronizer, ResetSynchronizer, fromGray, toGray } from '../../../src/hdl/lib/index.ts';
import { compileSimulator, type Simulator } from '../../../src/hdl/sim/index.ts';
import { ClockSchedule } from '../../../src/hdl/sim/clockSchedule.ts';
import { createRng, seedFromEnv, type Rng } from '../../../src/util/seededRandom.ts';
import { ciOrSoak } from '../../scale.ts';
import { multiClockEngine } from './engines.ts';

const seed = seedFromEnv();
console.log(`synchronizers.test seed=${seed} (rerun with SEED=${seed})`);

type Timing = { period: number; phase: number };
const randomTiming = (rng: Rng, min = 2, max = 50): Timing => {
  const period = Math.round(1000 * min * (max / min) ** rng()) / 1000;
  return { period, phase: Math.round(rng() * period * 1000) / 1000 };
};

/** Clock timings of the tests with two clocks: near 1, equal with coincident edges, extreme, random. */
function ratioCases(rng: Rng): { name: string; a: Timing; b: Timing }[] {
  return [
    { name: '10 vs 10.01 ns', a: { period: 10, phase: 5 }, b: { period: 10.01, phase: 5 } },
    { name: 'equal, coincident edges', a: { period: 10, phase: 3 }, b: { period: 10, phase: 3 } },
    { name: '1:13', a: { period: 3, phase: 1 }, b: { period: 39, phase: 7 } },
    { name: '13:1', a: { period: 39, phase: 7 }, b: { period: 3, phase: 1 } },
    ...Array.from({ length: 4 }, (_, i) => ({ name: `random ${i + 1}`, a: randomTiming(rng), b: randomTiming(rng) })),
  ];
}

/**
 * Runs a design's clocks one instant at a time (sim.advance to each, as a mirror schedule computes them)
 * and calls `after` with the clocks that rose (it returns true to stop); `between(t0, t1)` may poke inputs
 * at times inside the gap before the next instant.
 */
function runInstants(sim: Simulator, timings: Record<string, Timing>, instants: number, after: (rose: Set<string>) => boolean | void, between?: (from: number, to: number) => void): void {
  const names = Object.keys(timings);
  const mirror = new ClockSchedule(names);
  for (const n of names) {
    sim.setClockTiming(n, timings[n]!);
    mirror.set(n, timings[n]!);
  }
  for (let i = 0; i < instants; i++) {
    const next = mirror.peekNext()!;
    between?.(mirror.nowPs / 1000, next.timePs / 1000);
    const n = mirror.next();
    sim.advance(n.timePs / 1000);
    if (after(new Set(names.filter((c) => n.levels[c] === 1)))) return;
  }
}

/** A time strictly between `from` and `to`, to the ps (undefined when they are a ps apart): advancing to it runs no edge at `to`. */
function inside(rng: Rng, from: number, to: number): number | undefined {
  const a = Math.round(from * 1000) + 1;
  const b = Math.round(to * 1000) - 1;
  return a > b ? undefined : (a + Math.floor(rng() * (b - a + 1))) / 1000;
}

describe('BitSynchronizer', () => {
  const variants = [
    { stages: 2, width: 1 },
    { stages: 3, width: 5, resetKind: 'async', resetActive: 'low' },
    { stages: 4, width: 8, resetKind: 'sync', resetActive: 'high' },
    { stages: 2, width: 3, resetKind: 'async', resetActive: 'high' },
  ] as const;
  for (const v of variants) {
    test(`${v.stages} stages, ${v.width} bits, ${'resetKind' in v ? `${v.resetKind} reset active ${v.resetActive}` : 'no reset'}: q is d as it was ${v.stages} edges before; the reset clears it (SEED=${seed})`, () => {
      const rng = createRng(seed ^ (v.stages * 31 + v.width));
      const sim = compileSimulator(elaborate(BitSynchronizer, v).design, { backend: 'js' });
      const hasReset = 'resetKind' in v;
      const assertLevel = hasReset && v.resetActive === 'high' ? 1 : 0;
      if (hasReset) sim.poke('reset', 1 - assertLevel);
      // d before each edge; after edge k, q = d before edge k - stages + 1, or 0 if a reset has wiped the
      // values of that edge (clearedAt: the last edge wiped; an asynchronous reset wipes those before it at once).
      const history: bigint[] = [];
      let inReset = false;
      let clearedAt = 0;
      runInstants(
        sim,
        { clk: randomTiming(rng) },
        ciOrSoak(6000, 60000),
        (rose) => {
          if (!rose.has('clk')) return;
          history.push(inReset ? 0n : sim.peek('d'));
          if (inReset) clearedAt = history.length;
          const k = history.length;
          const expected = k - v.stages + 1 > clearedAt ? history[k - v.stages]! : 0n;
          expect(sim.peek('q'), `edge ${k}`).toBe(expected);
        },
        (from, to) => {
          // d changes at random times, sometimes twice between edges (a glitch shorter than a period).
          for (let j = rng.int(3); j > 0; j--) {
            const t = inside(rng, Math.max(from, sim.time), to);
            if (t === undefined) break;
            sim.advance(t);
            sim.poke('d', rng.bits(v.width));
          }
          const t = inside(rng, Math.max(from, sim.time), to);
          if (hasReset && t !== undefined && rng.int(100) === 0) {
            inReset = !inReset;
            sim.advance(t);
            sim.poke('reset', inReset ? assertLevel : 1 - assertLevel);
            // An asynchronous reset clears the chain at once (even if released before the next edge); a
            // synchronous one at the next edge, if still asserted there.
            if (inReset && v.resetKind === 'async') {
              clearedAt = history.length;
              expect(sim.peek('q')).toBe(0n);
            }
          }
        },
      );
    });
  }

  test('a Gray-coded counter crosses bit by bit: the receiver sees the values the sender had, in order, two edges late', () => {
    const GrayCross = defineModule(
      'GrayCross',
      () => ({ clkA: input(Clock), clkB: input(Clock), sent: output(UInt(6)), seen: output(UInt(6)) }),
      (m, io) => {
        const a = m.clockDomain({ clock: io.clkA });
        const counter = m.reg(UInt(6), { domain: a, name: 'counter' });
        counter.set(counter.add(1));
        const gray = m.reg(UInt(6), { domain: a, name: 'gray' });
        gray.set(toGray(counter));
        const sync = m.instance(BitSynchronizer, { width: 6 }, { domain: m.clockDomain({ clock: io.clkB }) });
        sync.io.clk.set(io.clkB);
        sync.io.d.set(gray);
        io.sent.set(fromGray(gray));
        io.seen.set(fromGray(sync.io.q));
      },
    );
    const rng = createRng(seed ^ 0x6a7);
    for (const c of ratioCases(rng)) {
      const sim = compileSimulator(elaborate(GrayCross, undefined).design, { backend: 'js' });
      // What the Gray register held before each B edge: after B edge K, seen is its value before edge K - 1.
      const sentBefore: number[] = [];
      let sent = 0;
      let last = 0;
      const maxStep = Math.ceil(c.b.period / c.a.period) + 1;
      runInstants(sim, { clkA: c.a, clkB: c.b }, 4000, (rose) => {
        if (rose.has('clkB')) {
          sentBefore.push(sent);
          const K = sentBefore.length;
          const seen = Number(sim.peek('seen'));
          expect(seen, `${c.name}, B edge ${K} at ${sim.time} ns`).toBe(K >= 2 ? sentBefore[K - 2]! : 0);
          expect((seen - last + 64) % 64, `${c.name}: a step forward of at most ${maxStep}`).toBeLessThanOrEqual(maxStep);
          last = seen;
        }
        sent = Number(sim.peek('sent'));
      });
    }
  });

  test('toGray and fromGray: one bit changes per step, and they invert each other (every value up to 10 bits)', () => {
    for (let n = 1; n <= 10; n++) {
      const G = defineModule(`Gray${n}`, () => ({ b: input(UInt(n)), g: output(UInt(n)), back: output(UInt(n)), gNext: output(UInt(n)) }), (m, io) => {
        io.g.set(toGray(io.b));
        io.back.set(fromGray(io.b));
        io.gNext.set(toGray(io.b.add(lit(1, n))));
      });
      const sim = compileSimulator(elaborate(G, undefined).design, { backend: 'js' });
      for (let b = 0; b < 2 ** n; b++) {
        sim.poke('b', b);
        const g = Number(sim.peek('g'));
        expect(g).toBe(b ^ (b >> 1));
        const diff = g ^ Number(sim.peek('gNext'));
        expect(diff & (diff - 1), `n ${n}, ${b} -> ${b + 1}`).toBe(0);
        expect(diff).not.toBe(0);
        sim.poke('b', g);
        expect(Number(sim.peek('back'))).toBe(b);
      }
    }
  });

  test.each([1, 0, 2.5])('stages %s is refused', (stages) => {
    expect(() => elaborate(BitSynchronizer, { width: 1, stages })).toThrow(`BitSynchronizer: stages must be an integer of at least 2, got ${stages}`);
  });
});

describe('PulseSynchronizer', () => {
  const rng = createRng(seed ^ 0x9013);
  for (const c of ratioCases(rng)) {
    const stages = 2 + rng.int(2);
    const reset = rng.int(2) === 0 ? ({ resetKind: 'async', resetActive: 'low' } as const) : ({} as const);
    test(`${c.name} (${c.a.period} vs ${c.b.period} ns), ${stages} stages: one output pulse per input pulse, at destination edge ${stages} after it (SEED=${seed})`, () => {
      const sim = compileSimulator(elaborate(PulseSynchronizer, { stages, ...reset }).design, { backend: 'js' });
      checkPulses(sim, c.a, c.b, stages, createRng(seed ^ Math.round(c.a.period * 1000)), ciOrSoak(2000, 20000), 'resetKind' in reset);
    });
  }

  test('pulses closer than a destination period can be lost, in pairs (the documented limit)', () => {
    const sim = compileSimulator(elaborate(PulseSynchronizer, {}).design, { backend: 'js' });
    sim.setClockTiming('srcClk', { period: 2, phase: 1 });
    sim.setClockTiming('dstClk', { period: 40, phase: 20 });
    let pulses = 0;
    // Two pulses at the source edges at 1 and 3 ns, between destination edges at 20 and 60 ns.
    sim.poke('d', 1);
    sim.advance(4);
    sim.poke('d', 0);
    for (let t = 5; t < 400; t += 10) {
      sim.advance(t);
      pulses += Number(sim.peek('q'));
    }
    expect(pulses).toBe(0);
  });
});

describe('ResetSynchronizer', () => {
  const rng = createRng(seed ^ 0x7e5);
  for (const inputActive of ['high', 'low'] as const) {
    for (const outputActive of ['high', 'low'] as const) {
      const stages = 2 + rng.int(3);
      test(`input active ${inputActive}, output active ${outputActive}, ${stages} stages: asserts at once between edges, releases at edge ${stages} after resetIn releases (SEED=${seed})`, () => {
        const sim = compileSimulator(elaborate(ResetSynchronizer, { inputActive, outputActive, stages }).design, { backend: 'js' });
        checkResetSynchronizer(sim, { inputActive, outputActive, stages }, createRng(rng.u32()), ciOrSoak(20000, 200000));
      });
    }
  }

  /** A counter whose domain is reset by a ResetSynchronizer. */
  const SyncResetCounter = defineModule('SyncResetCounter', () => ({ clk: input(Clock), arstn: input(Bool), count: output(UInt(8)) }), (m, io) => {
    const rs = m.instance(ResetSynchronizer, { inputActive: 'low', outputActive: 'high' });
    rs.io.clk.set(io.clk);
    rs.io.resetIn.set(io.arstn);
    m.useDomain(m.clockDomain({ clock: io.clk, reset: rs.io.resetOut, resetKind: 'async', resetActive: 'high' }));
    const count = m.reg(UInt(8), { reset: 0 });
    count.set(count.add(1));
    io.count.set(count);
  });

  test('its output resets a domain of the parent: registers leave reset together, on an edge', () => {
    const sim = compileSimulator(elaborate(SyncResetCounter, undefined).design, { backend: 'js' });
    sim.setClockTiming('clk', { period: 10, phase: 5 });
    sim.poke('arstn', 0);
    sim.advance(52);
    expect(sim.peek('count')).toBe(0n);
    sim.poke('arstn', 1);
    // Edges at 55 and 65 release the synchronizer; the counter counts from the edge at 75.
    sim.advance(72);
    expect(sim.peek('count')).toBe(0n);
    sim.advance(77);
    expect(sim.peek('count')).toBe(1n);
    sim.advance(101);
    expect(sim.peek('count')).toBe(3n);
  });

  // An asynchronous reset through a register of a child instance (the synchronizer's output) acts between edges on every engine.
  for (const engine of ['js', 'wasm', 'verilator', 'icarus'] as const) {
    test(`${engine}: its output asserted between edges resets the parent domain at once`, async () => {
      const sim = await multiClockEngine(elaborate(SyncResetCounter, undefined).design, engine, ['clk']);
      try {
        sim.setClockTiming('clk', { period: 10, phase: 5 });
        sim.poke('arstn', 0);
        sim.advance(52);
        sim.poke('arstn', 1);
        sim.advance(101);
        expect(sim.peek('count')).toBe(3n);
        sim.poke('arstn', 0);
        expect(sim.peek('count'), 'asserted between edges').toBe(0n);
        sim.advance(107);
        expect(sim.peek('count')).toBe(0n);
      } finally {
        sim.close();
      }
    });
  }
});

describe('the synchronizers on every engine that runs several clocks (lockstep compares at every instant)', () => {
  const rng = createRng(seed ^ 0xe61);
  for (const engine of ['wasm', 'verilator', 'icarus', 'lockstep'] as const) {
    const src = randomTiming(rng);
    const dst = randomTiming(rng);
    const stages = 2 + rng.int(2);
    const runSeed = rng.u32();
    test(`${engine}: PulseSynchronizer at ${src.period} vs ${dst.period} ns, ${stages} stages (SEED=${seed})`, async () => {
      const sim = await multiClockEngine(elaborate(PulseSynchronizer, { stages, resetKind: 'sync', resetActive: 'low' }).design, engine, ['srcClk', 'dstClk']);
      try {
        checkPulses(sim, src, dst, stages, createRng(runSeed), ciOrSoak(300, 3000), true);
      } finally {
        sim.close();
      }
    }, 600_000);
    test(`${engine}: ResetSynchronizer, resets asserted and released between edges (SEED=${seed})`, async () => {
      const p = { inputActive: 'low', outputActive: 'high', stages: 3 } as const;
      const sim = await multiClockEngine(elaborate(ResetSynchronizer, p).design, engine, ['clk']);
      try {
        checkResetSynchronizer(sim, p, createRng(runSeed), ciOrSoak(3000, 30000));
      } finally {
        sim.close();
      }
    }, 600_000);
  }
});

/**
 * Asserts `resetIn` at random times between edges (now and then only for a moment) and releases it at
 * random times; checks that `resetOut` asserts at once and releases at the `stages`-th edge after.
 */
function checkResetSynchronizer(sim: Simulator, p: { inputActive: 'high' | 'low'; outputActive: 'high' | 'low'; stages: number }, rng: Rng, instants: number): void {
  const inAsserted = p.inputActive === 'high' ? 1 : 0;
  const outAsserted = BigInt(p.outputActive === 'high' ? 1 : 0);
  const outReleased = 1n - outAsserted;
  // resetIn is asserted at power-on, as a power-on reset is; edges counted since its release (-1: asserted).
  sim.poke('resetIn', inAsserted);
  expect(sim.peek('resetOut')).toBe(outAsserted);
  let edgesSinceRelease = -1;
  let toggles = 0;
  const release = () => {
    sim.poke('resetIn', 1 - inAsserted);
    edgesSinceRelease = 0;
    toggles++;
    expect(sim.peek('resetOut'), `released at ${sim.time} ns: the release waits for the clock`).toBe(outAsserted);
  };
  runInstants(
    sim,
    { clk: randomTiming(rng) },
    instants,
    (rose) => {
      if (!rose.has('clk')) return;
      if (edgesSinceRelease >= 0) edgesSinceRelease++;
      const expected = edgesSinceRelease >= p.stages ? outReleased : outAsserted;
      expect(sim.peek('resetOut'), `${edgesSinceRelease} edges after the release, at ${sim.time} ns`).toBe(expected);
    },
    (from, to) => {
      const t = inside(rng, from, to);
      if (t === undefined || rng.int(edgesSinceRelease < 0 ? 3 : 2 * p.stages + 4) !== 0) return;
      sim.advance(t);
      if (edgesSinceRelease < 0) return release();
      sim.poke('resetIn', inAsserted);
      edgesSinceRelease = -1;
      toggles++;
      expect(sim.peek('resetOut'), `asserted at ${t} ns, between edges`).toBe(outAsserted);
      // A glitch: released again before the next edge.
      const u = inside(rng, t, to);
      if (u !== undefined && rng.int(4) === 0) {
        sim.advance(u);
        release();
      }
    },
  );
  expect(toggles).toBeGreaterThan(instants / 200);
}

/**
 * Random pulses at least two destination periods apart (the documented spacing); checks after every
 * destination edge that q is 1 exactly at the `stages`-th destination edge after each pulse's source edge.
 */
function checkPulses(sim: Simulator, src: Timing, dst: Timing, stages: number, rng: Rng, pulses: number, reset: boolean): void {
  if (reset) {
    sim.poke('srcReset', 0);
    sim.poke('dstReset', 0);
  }
  const spacing = 2 * dst.period;
  const due: number[] = [];
  let sent = 0, received = 0, dEdges = 0, lastPulse = -Infinity, nextSrcEdge = src.phase;
  let d = 0;
  let released = !reset;
  let instants = 0;
  runInstants(sim, { srcClk: src, dstClk: dst }, Number.MAX_SAFE_INTEGER, (rose) => {
    instants++;
    if (!released && instants > 6 + 6 * Math.ceil(dst.period / src.period + src.period / dst.period)) {
      sim.poke('srcReset', 1);
      sim.poke('dstReset', 1);
      released = true;
    }
    if (rose.has('dstClk')) {
      dEdges++;
      const q = Number(sim.peek('q'));
      const expected = due.length && due[0] === dEdges ? 1 : 0;
      expect(q, `destination edge ${dEdges} at ${sim.time} ns (pulses due at ${due.slice(0, 3)})`).toBe(expected);
      if (expected) {
        due.shift();
        received++;
      }
    }
    if (rose.has('srcClk')) {
      if (d) {
        // The toggle flipped at this instant; a coincident destination edge sampled it before.
        due.push(dEdges + stages);
        lastPulse = sim.time;
        sent++;
      }
      nextSrcEdge = sim.time + src.period;
      d = released && sent < pulses && nextSrcEdge - lastPulse >= spacing && rng() < 0.5 ? 1 : 0;
      sim.poke('d', d);
    }
    return received === pulses;
  });
  expect(received).toBe(pulses);
  expect(due).toEqual([]);
}
