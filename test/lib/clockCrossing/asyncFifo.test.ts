// AsyncFifo under random clock ratios and phases with a scoreboard (TS simulator; every engine where it runs several clocks), and its parameter errors.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, Clock, Decoupled, HdlError, SInt, UInt, Vec, defineModule, elaborate, input, output, type Design } from '../../../src/hdl/index.ts';
import { AsyncFifo, type AsyncFifoParams } from '../../../src/hdl/lib/index.ts';
import { emitSystemVerilog } from '../../../src/hdl/emit/index.ts';
import { compileSimulator, type Simulator } from '../../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv, type Rng } from '../../../src/util/seededRandom.ts';
import { ciOrSoak } from '../../scale.ts';
import { markerLine } from '../../hdl/markers.ts';
import { runFifoScoreboard, type FifoRun } from './fifoBench.ts';
import { multiClockEngine } from './engines.ts';

const seed = seedFromEnv();
console.log(`asyncFifo.test seed=${seed} (rerun with SEED=${seed})`);
const thisFile = fileURLToPath(import.meta.url);

/** Words over all the random runs: 10^5 in CI, 10^6 in the soak. */
const TOTAL_WORDS = ciOrSoak(100_000, 1_000_000);

type Timing = { period: number; phase: number };
interface Case {
  readonly name: string;
  readonly wclk: Timing;
  readonly rclk: Timing;
}

/** A random timing: a period from 2 to 50 ns (log-uniform, to the ps) and a phase within it. */
function randomTiming(rng: Rng): Timing {
  const period = Math.round(2000 * 25 ** rng()) / 1000;
  return { period, phase: Math.round(rng() * period * 1000) / 1000 };
}

/** Named ratios (near 1, equal with coincident edges, integer, extreme) and random ones. */
function clockCases(rng: Rng): Case[] {
  const named: Case[] = [
    { name: '10 vs 10.01 ns', wclk: { period: 10, phase: 5 }, rclk: { period: 10.01, phase: 5 } },
    { name: '10.01 vs 10 ns', wclk: { period: 10.01, phase: 2 }, rclk: { period: 10, phase: 7.3 } },
    { name: 'equal periods, coincident edges', wclk: { period: 8, phase: 4 }, rclk: { period: 8, phase: 4 } },
    { name: '2:1 with coincident edges', wclk: { period: 5, phase: 5 }, rclk: { period: 10, phase: 10 } },
    { name: '1:13 (fast writer)', wclk: { period: 3, phase: 1.1 }, rclk: { period: 39, phase: 20 } },
    { name: '13:1 (fast reader)', wclk: { period: 39, phase: 3 }, rclk: { period: 3, phase: 0.4 } },
    { name: '1:13.37', wclk: { period: 2.5, phase: 0.5 }, rclk: { period: 33.425, phase: 30 } },
  ];
  const random = Array.from({ length: 7 }, (_, i) => {
    const wclk = randomTiming(rng);
    const rclk = randomTiming(rng);
    return { name: `random ${i + 1}: ${wclk.period}/${wclk.phase} vs ${rclk.period}/${rclk.phase} ns`, wclk, rclk };
  });
  return [...named, ...random];
}

const resetVariants: readonly Pick<AsyncFifoParams, 'resetKind' | 'resetActive'>[] = [{ resetKind: 'async', resetActive: 'high' }, { resetKind: 'sync', resetActive: 'low' }, { resetKind: 'async', resetActive: 'low' }, {}];

function fifoDesign(depth: number, syncStages: number, reset: Pick<AsyncFifoParams, 'resetKind' | 'resetActive'>): Design {
  return elaborate(AsyncFifo, { width: 32, depth, syncStages, ...reset }).design;
}

describe('AsyncFifo on the TS simulator: no word lost, duplicated or reordered; full and empty never wrong', () => {
  const rng = createRng(seed);
  const cases = clockCases(rng);
  const wordsEach = Math.ceil(TOTAL_WORDS / cases.length);
  let total = 0;
  let seconds = 0;
  cases.forEach((c, i) => {
    const depth = 2 ** (1 + rng.int(5));
    const syncStages = 2 + rng.int(2);
    const reset = resetVariants[rng.int(resetVariants.length)]!;
    const runSeed = rng.u32();
    test(`${c.name}, depth ${depth}, ${syncStages} sync stages, ${reset.resetKind ?? 'no'} reset: ${wordsEach} words (SEED=${seed})`, () => {
      const sim = compileSimulator(fifoDesign(depth, syncStages, reset), { backend: 'js' });
      const t0 = performance.now();
      const stats = runFifoScoreboard(sim, { depth, syncStages, wclk: c.wclk, rclk: c.rclk, words: wordsEach, seed: runSeed, resetActive: reset.resetActive });
      const s = (performance.now() - t0) / 1000;
      total += stats.words;
      seconds += s;
      console.log(`asyncFifo ${c.name}: ${stats.words} words, ${stats.wEdges} write / ${stats.rEdges} read edges, full ${stats.fullSeen}x, empty ${stats.emptySeen}x, ${(stats.words / s).toFixed(0)} words/s`);
      expect(stats.words).toBe(wordsEach);
      // The traffic phases reach both ends of the FIFO.
      expect(stats.fullSeen).toBeGreaterThan(0);
      expect(stats.emptySeen).toBeGreaterThan(0);
      if (i === cases.length - 1) console.log(`asyncFifo: ${total} words in ${seconds.toFixed(1)} s, ${(total / seconds).toFixed(0)} words/s`);
    }, 600_000);
  });
});

describe('AsyncFifo payloads and corners', () => {
  test('a bundle payload (UInt, Bool, SInt, Vec) crosses field by field, depth 2 and 64', () => {
    const type = Bundle({ tag: UInt(20), flag: Bool, delta: SInt(7), lanes: Vec(2, UInt(3)) });
    const names = ['tag', 'flag', 'delta', 'lanes_0', 'lanes_1'];
    const widths = [20, 1, 7, 3, 3];
    const fields = names.map((n, i) => ({ enq: `enq_bits_${n}`, deq: `deq_bits_${n}`, width: widths[i]! }));
    for (const depth of [2, 64]) {
      const sim = compileSimulator(elaborate(AsyncFifo, { payload: type, depth, resetKind: 'async', resetActive: 'low' }).design, { backend: 'js' });
      const stats = runFifoScoreboard(sim, { depth, syncStages: 2, wclk: { period: 7, phase: 1 }, rclk: { period: 11.3, phase: 4 }, words: 5000, seed, resetActive: 'low', fields });
      expect(stats.words).toBe(5000);
    }
  });

  test('full throughput at equal clocks: a word per cycle once the pointers have made their round trip', () => {
    // Depth 8 covers the round trip of two 2-flop synchronizers: a steady stream never stalls.
    const sim = compileSimulator(fifoDesign(8, 2, { resetKind: 'sync', resetActive: 'high' }), { backend: 'js' });
    sim.setClockTiming('wclk', { period: 10, phase: 5 });
    sim.setClockTiming('rclk', { period: 10, phase: 7 });
    sim.poke('wreset', 1);
    sim.poke('rreset', 1);
    sim.advance(40);
    sim.poke('wreset', 0);
    sim.poke('rreset', 0);
    sim.poke('enq_valid', 1);
    sim.poke('deq_ready', 1);
    let accepted = 0;
    let delivered = 0;
    for (let t = 46; t < 46 + 10 * 1000; t += 10) {
      // Just after the write edge at t - 1 and the read edge at t + 1.
      sim.advance(t);
      accepted += Number(sim.peek('enq_ready'));
      sim.advance(t + 2);
      delivered += Number(sim.peek('deq_valid'));
    }
    expect(accepted).toBe(1000);
    expect(delivered).toBeGreaterThanOrEqual(996);
  });
});

describe('a typed payload reaches the ports', () => {
  const Record = Bundle({ id: UInt(6), last: Bool });
  const Framer = defineModule('Framer', () => ({ wclk: input(Clock), rclk: input(Clock), go: input(Bool), id: output(UInt(6)), last: output(Bool) }), (m, io) => {
    const fifo = m.instance(AsyncFifo, { payload: Record, depth: 4 });
    fifo.io.wclk.set(io.wclk);
    fifo.io.rclk.set(io.rclk);
    const id = m.reg(UInt(6), { domain: m.clockDomain({ clock: io.wclk }), name: 'next_id' });
    m.when(fifo.io.enq.fire, () => id.set(id.add(1)));
    fifo.io.enq.valid.set(io.go);
    fifo.io.enq.bits.id.set(id);
    fifo.io.enq.bits.last.set(id.eq(63));
    fifo.io.deq.ready.set(true);
    io.id.set(fifo.io.deq.bits.id);
    io.last.set(fifo.io.deq.bits.last);
  });
  test('bundle fields are written and read by name; ids arrive in order', () => {
    const sim = compileSimulator(elaborate(Framer, undefined).design, { backend: 'js' });
    sim.setClockTiming('wclk', { period: 4, phase: 1 });
    sim.setClockTiming('rclk', { period: 9.5, phase: 3 });
    sim.poke('go', 1);
    const ids: number[] = [];
    for (let t = 5; t < 2000; t += 9.5) {
      sim.advance(t);
      ids.push(Number(sim.peek('id')));
    }
    const distinct = ids.filter((v, i) => i === 0 || v !== ids[i - 1]);
    expect(distinct.length).toBeGreaterThan(100);
    distinct.forEach((v, i) => i > 0 && expect(v).toBe((distinct[i - 1]! + 1) % 64));
  });
});

describe('width: n is payload: UInt(n)', () => {
  const svOf = (design: Design) => emitSystemVerilog(design).files.map((f) => f.text.replaceAll(design.top, 'TOP')).join('\n');
  test.each([{ name: 'no reset' }, { name: 'async reset, 3 sync stages', resetKind: 'async', resetActive: 'low', syncStages: 3 }] as const)('$name: the same SystemVerilog but for the module name', ({ name: _, ...rest }) => {
    expect(svOf(elaborate(AsyncFifo, { payload: UInt(12), depth: 8, ...rest }).design)).toBe(svOf(elaborate(AsyncFifo, { width: 12, depth: 8, ...rest }).design));
  });
});

describe('AsyncFifo parameters are checked', () => {
  const errorOf = (p: AsyncFifoParams): HdlError => {
    try {
      elaborate(AsyncFifo, p); // @mark:elaborate
    } catch (e) {
      if (e instanceof HdlError) return e;
      throw e;
    }
    throw new Error('expected an HdlError');
  };
  test.each([0, 1, 3, 6, 12, 2.5, -4])('depth %s: not a power of two of at least 2', (depth) => {
    const e = errorOf({ width: 8, depth });
    expect(e.code).toBe('InvalidArgument');
    expect(e.message).toContain(`AsyncFifo: depth must be a power of two from 2 to 2^30`);
    expect(e.message).toContain(`got ${depth}`);
    expect(e.diagnostics[0]!.loc).toMatchObject({ file: thisFile, line: markerLine(thisFile, 'elaborate') });
  });
  test('payload, sync stages and reset parameters', () => {
    expect(errorOf({ depth: 4 } as AsyncFifoParams).message).toContain('AsyncFifo: give either payload (the data type of a word, such as a Bundle) or width (a UInt of that many bits), not both or neither');
    expect(errorOf({ depth: 4, width: 8, payload: UInt(8) } as unknown as AsyncFifoParams).message).toContain('not both or neither');
    expect(errorOf({ depth: 4, width: 8, syncStages: 1 }).message).toContain('AsyncFifo: syncStages must be an integer of at least 2, got 1');
    expect(errorOf({ depth: 4, width: 8, resetKind: 'async' }).message).toContain("AsyncFifo: resetActive must be 'high' or 'low' when resetKind is given");
    expect(errorOf({ depth: 4, width: 8, resetActive: 'low' }).message).toContain("AsyncFifo: resetKind must be 'sync' or 'async' when resetActive is given");
  });
  test('a payload that is no data type: a named error at the line that gives it', () => {
    const flipped = errorOf({ payload: Decoupled(UInt(8)), depth: 4 });
    expect(flipped.code).toBe('InvalidArgument');
    expect(flipped.message).toContain('AsyncFifo: payload.ready is flipped: a payload is data that travels one way');
    expect(flipped.diagnostics[0]!.loc).toMatchObject({ file: thisFile, line: markerLine(thisFile, 'elaborate') });
    expect(errorOf({ payload: 8, depth: 4 } as unknown as AsyncFifoParams).message).toContain('AsyncFifo: payload must be a data type (UInt, SInt, Bool, an Enum, or a Bundle or Vec of them), got the number 8 (for a UInt of 8 bits, give width: 8)');
  });
  test('every power of two from 2 to 256 elaborates', () => {
    for (let depth = 2; depth <= 256; depth *= 2) expect(() => elaborate(AsyncFifo, { width: 4, depth })).not.toThrow();
  });
});

describe('AsyncFifo on every engine that runs several clocks (lockstep compares at every edge of both clocks)', () => {
  const rng = createRng(seed ^ 0x5a5a);
  // Icarus runs an instant in about 50 us: its runs (and lockstep's, which includes it) are shorter, the
  // extreme ratio (13 edges of one clock per word) shortest.
  const engineCases: { engine: 'wasm' | 'verilator' | 'icarus' | 'lockstep'; words: number }[] = [
    { engine: 'wasm', words: ciOrSoak(20_000, 200_000) },
    { engine: 'verilator', words: ciOrSoak(20_000, 200_000) },
    { engine: 'icarus', words: ciOrSoak(2_000, 30_000) },
    { engine: 'lockstep', words: ciOrSoak(2_000, 30_000) },
  ];
  for (const { engine, words: baseWords } of engineCases) {
    const cases = [
      { name: 'near 1', wclk: { period: 10, phase: 5 }, rclk: { period: 10.01, phase: 1 }, share: 1 },
      { name: '1:13', wclk: { period: 3, phase: 1 }, rclk: { period: 39, phase: 2 }, share: 0.3 },
      { name: 'random', wclk: randomTiming(rng), rclk: randomTiming(rng), share: 0.5 },
    ];
    for (const c of cases) {
      const runSeed = rng.u32();
      const words = Math.round(baseWords * c.share);
      test(`${engine}: ${c.name} (${c.wclk.period} vs ${c.rclk.period} ns), ${words} words (SEED=${seed})`, async () => {
        const design = fifoDesign(8, 2, { resetKind: 'async', resetActive: 'low' });
        const sim: Simulator | undefined = await multiClockEngine(design, engine, ['wclk', 'rclk']);
        try {
          const run: FifoRun = { depth: 8, syncStages: 2, wclk: c.wclk, rclk: c.rclk, words, seed: runSeed, resetActive: 'low' };
          expect(runFifoScoreboard(sim, run).words).toBe(words);
        } finally {
          sim.close();
        }
      }, 900_000);
    }
  }
});
