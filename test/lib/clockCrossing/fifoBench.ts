// A scoreboard testbench for AsyncFifo on any engine: two clocks in time, random traffic, every output checked at every edge.
import type { PortHandle, Simulator } from '../../../src/hdl/sim/index.ts';
import { ClockSchedule } from '../../../src/hdl/sim/clockSchedule.ts';
import { createRng } from '../../../src/util/seededRandom.ts';

export interface FifoRun {
  readonly depth: number;
  readonly syncStages: number;
  /** Clock timings in ns. */
  readonly wclk: { readonly period: number; readonly phase: number };
  readonly rclk: { readonly period: number; readonly phase: number };
  /** Words to pass. */
  readonly words: number;
  readonly seed: number;
  /** The reset inputs' polarity, when the FIFO has them. */
  readonly resetActive?: 'high' | 'low';
  /** Payload fields: the enq and deq port names and widths (each at most 32 bits). Default: one 32-bit `bits`. */
  readonly fields?: readonly { readonly enq: string; readonly deq: string; readonly width: number }[];
}

export interface FifoStats {
  readonly words: number;
  /** Observations (after an edge of the side's clock) at which the FIFO was full / empty. */
  readonly fullSeen: number;
  readonly emptySeen: number;
  readonly wEdges: number;
  readonly rEdges: number;
  readonly timeNs: number;
}

/** Where a run failed, with everything needed to replay it. */
export class ScoreboardError extends Error {}

/**
 * Drives `sim` (an AsyncFifo with ports wclk, rclk, enq_*, deq_*, wcount, rcount and optionally wreset,
 * rreset) through `sim.setClockTiming` and `sim.advance`, one scheduled instant at a time, and checks:
 * every word leaves once, in order, unchanged; `enq.ready` never while full and `deq.valid` never while
 * empty; the exact moment each becomes true again (`syncStages` edges of its clock after the other side
 * acted); `wcount` and `rcount` exactly; and that no output of one side changes at an edge of the other.
 */
export function runFifoScoreboard(sim: Simulator, run: FifoRun): FifoStats {
  const rng = createRng(run.seed);
  const fields = run.fields ?? [{ enq: 'enq_bits', deq: 'deq_bits', width: 32 }];
  const S = run.syncStages;
  const where = () => `at ${sim.time} ns (${JSON.stringify({ ...run, fields: undefined })})`;
  const fail = (msg: string): never => {
    throw new ScoreboardError(`${msg} ${where()}`);
  };
  sim.setClockTiming('wclk', run.wclk);
  sim.setClockTiming('rclk', run.rclk);
  const mirror = new ClockSchedule(['wclk', 'rclk']);
  mirror.set('wclk', run.wclk);
  mirror.set('rclk', run.rclk);
  const h = (name: string): PortHandle => sim.port(name);
  const enqValid = h('enq_valid'), enqReady = h('enq_ready'), wcount = h('wcount');
  const deqValid = h('deq_valid'), deqReady = h('deq_ready'), rcount = h('rcount');
  const enqBits = fields.map((f) => h(f.enq));
  const deqBits = fields.map((f) => h(f.deq));
  const masks = fields.map((f) => (f.width >= 32 ? 0xffffffff : 2 ** f.width - 1));

  // Time stamps: edges of the other side's clock counted when a word was pushed / popped.
  const words: number[][] = [];
  const pushStamp: number[] = [];
  const popStamp: number[] = [];
  let pushes = 0, pops = 0, pushesSeen = 0, popsSeen = 0;
  let wEdges = 0, rEdges = 0, fullSeen = 0, emptySeen = 0;
  let enqFire = false, deqFire = false;
  let wState = { ready: 0, count: 0 };
  let rState = { valid: 0, count: 0, bits: [] as number[] };
  // Traffic comes in phases: a busy writer and idle reader fill the FIFO, the other way round drain it.
  let phaseLeft = 0, pWrite = 0.5, pRead = 0.5;
  const rates = [0, 0.1, 0.5, 0.9, 1, 1];

  const readW = () => ({ ready: enqReady.get(), count: wcount.get() });
  const readR = () => ({ valid: deqValid.get(), count: rcount.get(), bits: deqBits.map((p) => p.get()) });
  const instant = (): { w: boolean; r: boolean } => {
    const n = mirror.next();
    sim.advance(n.timePs / 1000);
    return { w: n.levels.wclk === 1, r: n.levels.rclk === 1 };
  };

  // Reset both sides together for a few edges of the slower clock.
  const reset = run.resetActive !== undefined;
  if (reset) for (const r of ['wreset', 'rreset']) sim.poke(r, run.resetActive === 'high' ? 1 : 0);
  enqValid.set(0);
  deqReady.set(0);
  if (reset) {
    let w = 0, r = 0;
    while (w < 3 || r < 3) {
      const e = instant();
      w += e.w ? 1 : 0;
      r += e.r ? 1 : 0;
    }
    for (const r of ['wreset', 'rreset']) sim.poke(r, run.resetActive === 'high' ? 0 : 1);
  }
  wState = readW();
  rState = readR();
  if (wState.ready !== 1 || wState.count !== 0 || rState.valid !== 0 || rState.count !== 0) fail(`after reset: enq.ready ${wState.ready}, wcount ${wState.count}, deq.valid ${rState.valid}, rcount ${rState.count}`);

  const t0 = performance.now();
  let drainEdges = 0;
  // Phases last a random number of cycles of the slower clock, long enough to fill or drain the FIFO.
  const slower = run.wclk.period >= run.rclk.period ? 'w' : 'r';
  while (pops < run.words) {
    if (phaseLeft <= 0) {
      phaseLeft = 4 + rng.int(4 * run.depth + 16);
      pWrite = rates[rng.int(rates.length)]!;
      pRead = rates[rng.int(rates.length)]!;
      if (pRead === 0 && pWrite === 0) pRead = 1;
    }
    const e = instant();
    if (!e.w && !e.r) continue;
    if (e[slower]) phaseLeft--;
    // What the edge did, as the testbench decided it before the edge. A stamp counts the coincident edge of
    // the other clock, which sampled the pointer from before the instant.
    if (e.w) wEdges++;
    if (e.r) rEdges++;
    if (e.w && enqFire) {
      if (pushes - pops >= run.depth) fail(`a word was accepted while the FIFO held ${pushes - pops} of ${run.depth}`);
      words.push(enqBits.map((p) => p.get()));
      pushStamp.push(rEdges);
      pushes++;
    }
    if (e.r && deqFire) {
      popStamp.push(wEdges);
      pops++;
    }
    while (pushesSeen < pushes && rEdges - pushStamp[pushesSeen]! >= S) pushesSeen++;
    while (popsSeen < pops && wEdges - popStamp[popsSeen]! >= S) popsSeen++;

    // The write side after its edge: ready and wcount exactly as the synchronized read pointer says.
    const w = readW();
    if (!e.w && (w.ready !== wState.ready || w.count !== wState.count)) fail(`the write side changed at a read clock edge: ready ${wState.ready} -> ${w.ready}, wcount ${wState.count} -> ${w.count}`);
    wState = w;
    if (w.count !== pushes - popsSeen) fail(`wcount ${w.count}, expected ${pushes - popsSeen} (${pushes} written, ${popsSeen} of ${pops} reads visible)`);
    if (w.ready !== (w.count < run.depth ? 1 : 0)) fail(`enq.ready ${w.ready} with wcount ${w.count}`);
    if (w.ready && pushes - pops >= run.depth) fail(`enq.ready while full`);
    if (!w.ready && e.w) fullSeen++;
    // The read side after its edge: valid, rcount and the head word.
    const r = readR();
    if (!e.r && (r.valid !== rState.valid || r.count !== rState.count || r.bits.some((b, i) => b !== rState.bits[i]))) fail(`the read side changed at a write clock edge: valid ${rState.valid} -> ${r.valid}, rcount ${rState.count} -> ${r.count}, bits ${rState.bits} -> ${r.bits}`);
    rState = r;
    if (r.count !== pushesSeen - pops) fail(`rcount ${r.count}, expected ${pushesSeen - pops} (${pushesSeen} of ${pushes} writes visible, ${pops} read)`);
    if (r.valid !== (r.count > 0 ? 1 : 0)) fail(`deq.valid ${r.valid} with rcount ${r.count}`);
    if (r.valid) {
      if (pushes === pops) fail('deq.valid while empty');
      const head = words[pops]!;
      if (r.bits.some((b, i) => b !== head[i])) fail(`word ${pops}: deq.bits ${r.bits}, expected ${head}`);
    } else if (e.r) {
      emptySeen++;
      if (r.bits.some((b) => b !== 0)) fail(`deq.bits ${r.bits} while empty (expected 0)`);
    }
    // Decide the next edges' traffic.
    if (e.w) {
      const writing = pushes < run.words && rng() < pWrite;
      enqValid.set(writing ? 1 : 0);
      if (writing) {
        // The first field carries the word's number in its low bits: a lost or repeated word shows.
        enqBits.forEach((p, i) => p.set(((i === 0 ? (rng.u32() & ~0xffff) | (pushes & 0xffff) : rng.u32()) & masks[i]!) >>> 0));
      }
      enqFire = writing && w.ready === 1;
    }
    if (e.r) {
      const draining = pushes >= run.words;
      const reading = draining || rng() < pRead;
      deqReady.set(reading ? 1 : 0);
      deqFire = reading && r.valid === 1;
      if (draining && ++drainEdges > 4 * (run.depth + S + 4) + run.depth) fail(`the last ${pushes - pops} words did not come out`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  void seconds;
  return { words: pops, fullSeen, emptySeen, wEdges, rEdges, timeNs: sim.time };
}
