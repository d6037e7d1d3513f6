// Measures simulated cycles per second of each simulator on one design with the same stimulus.
import { topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { compileSimulator } from '../sim/index.ts';
import type { Design } from '../ir/netlist.ts';
import type { CosimDesign } from './design.ts';
import { checkRecording, type Recording } from './recording.ts';
import { buildStimulus, harnessDesign } from './runCosim.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';

export interface BenchRow {
  readonly design: string;
  readonly sim: SimulatorName;
  readonly cycles: number;
  readonly seconds: number;
  readonly cyclesPerSecond: number;
  /** Verilator's threads (`--threads`), when more than one. */
  readonly threads?: number;
}

/** A design and a run of its inputs recorded already (`recordRandomRun`): what a benchmark measures besides a catalogue design. */
export interface RecordedBench {
  readonly name: string;
  readonly design: Design;
  /** One clock, one rising edge per row (no `instants`); at least as many cycles as the benchmark asks for. */
  readonly recording: Recording;
}

/** What the benchmarks measure: a catalogue design and its seeded stimulus, or a design with a recorded run. */
export type BenchSource = CosimDesign | RecordedBench;

/** A design elaborated with one stimulus of `cycles` cycles (seeded, or recorded), and the port names a vector run takes. */
function benchSetup(d: BenchSource, cycles: number, seed: number) {
  const design = 'recording' in d ? d.design : d.elaborate();
  const top = topModule(design);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  if ('recording' in d) return { design, outs, ...recordedStimulus(d, cycles) };
  const stim = buildStimulus(d, top, cycles, seed);
  return { design, outs, stim, ins: stim.inputs.map((p) => p.net.name) };
}

/** The recorded rows as a stimulus: a benchmark's runs take them as they are, one row per cycle. */
function recordedStimulus({ name, design, recording }: RecordedBench, cycles: number) {
  checkRecording(design, recording);
  if (recording.instants) throw new Error(`${name}: its run is not one rising edge of one clock per cycle (several clocks, or a falling edge); the benchmarks time designs with one clock`);
  if (recording.cycles < cycles) throw new Error(`${name}: the recording holds ${recording.cycles} cycles, the benchmark asks for ${cycles}`);
  const rowWords = recording.rows.length / recording.cycles;
  return { stim: { data: recording.rows.subarray(0, rowWords * cycles), rowWords }, ins: recording.inputs };
}

/** Runs each simulator for its own cycle count (Icarus is far slower), all from one stimulus. */
export async function benchmarkDesign(d: BenchSource, cycles: Partial<Record<SimulatorName, number>>, seed: number): Promise<BenchRow[]> {
  const { design, stim, ins, outs } = benchSetup(d, Math.max(...Object.values(cycles)), seed);
  const rows: BenchRow[] = [];
  const row = (sim: SimulatorName, n: number, seconds: number) =>
    rows.push({ design: d.name, sim, cycles: n, seconds, cyclesPerSecond: n / seconds });
  for (const [sim, n] of Object.entries(cycles) as [SimulatorName, number][]) {
    const data = stim.data.subarray(0, n * stim.rowWords);
    if (sim === 'ts') {
      // Warm up the JIT on the same instance (its generated functions are its own), then measure.
      const s = compileSimulator(design);
      const warm = Math.min(n, 20_000);
      s.runVectors(ins, outs, data.subarray(0, warm * stim.rowWords), warm);
      const t0 = performance.now();
      s.runVectors(ins, outs, data, n);
      row(sim, n, (performance.now() - t0) / 1000);
    } else {
      // Nothing is compared here: an X output (vendor IP's data before a write) is read as 0, not an error.
      const prepared = await externalSimulator(sim).prepare({ ...harnessDesign(design).harness, unknownBefore: n });
      const r = await prepared.run(data, n);
      row(sim, n, r.seconds);
    }
  }
  return rows;
}

/** TS simulator cycles per second with the design's properties checked and without, measured alternately on one stimulus. */
export function benchmarkPropertyCost(d: BenchSource, cycles: number, seed: number): { readonly properties: number; readonly checkedCyclesPerSecond: number; readonly uncheckedCyclesPerSecond: number } {
  const { design, stim, ins, outs } = benchSetup(d, cycles, seed);
  const sims = [true, false].map((checkProperties) => compileSimulator(design, { checkProperties }));
  const warm = Math.min(cycles, 20_000);
  for (const s of sims) s.runVectors(ins, outs, stim.data.subarray(0, warm * stim.rowWords), warm);
  // Alternating rounds: the machine's noise falls on both alike.
  const seconds = [0, 0];
  for (let round = 0; round < 3; round++) {
    sims.forEach((s, k) => {
      const t0 = performance.now();
      s.runVectors(ins, outs, stim.data, cycles);
      seconds[k]! += (performance.now() - t0) / 1000;
    });
  }
  const properties = flattenDesign(design).properties?.length ?? 0;
  return { properties, checkedCyclesPerSecond: (3 * cycles) / seconds[0]!, uncheckedCyclesPerSecond: (3 * cycles) / seconds[1]! };
}

/** The TS simulator against Verilator in side-by-side rounds (benchmarkRounds). */
export interface RoundsResult {
  readonly design: string;
  /** Each round's cycles per second, per simulator, in round order. */
  readonly ts: readonly number[];
  readonly verilator: readonly number[];
  /** Each round's TS ÷ Verilator. */
  readonly ratios: readonly number[];
  /** Cycles each side ran per round (the stimulus run over as many times as its window needs). */
  readonly tsCycles: number;
  readonly verilatorCycles: number;
}

/** What names a figure taken on Verilator with `threads` threads: `Threads2` (`tsOverVerilatorThreads2`), nothing for one. */
export const verilatorThreadsSuffix = (threads = 1): string => (threads > 1 ? `Threads${threads}` : '');

/** The middle value (the mean of the middle two for an even count). */
export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * TS simulator and Verilator on one stimulus of `cycles` cycles, in `rounds` rounds of one side then the
 * other, each side timed for at least `minSeconds` (its stimulus run over as many times as a
 * calibration finds that takes): so the machine's noise falls on both alike, and a window is long enough
 * to mean something. The TS side is warmed up first (V8 optimizes the generated code meanwhile).
 */
export async function benchmarkRounds(d: BenchSource, opts: { readonly cycles: number; readonly seed: number; readonly rounds: number; readonly minSeconds: number; readonly verilatorThreads?: number }): Promise<RoundsResult> {
  const { design, stim, ins, outs } = benchSetup(d, opts.cycles, opts.seed);
  const ts = compileSimulator(design);
  const tsRun = (passes: number) => {
    const t0 = performance.now();
    for (let k = 0; k < passes; k++) ts.runVectors(ins, outs, stim.data, opts.cycles);
    return (performance.now() - t0) / 1000;
  };
  const vl = await externalSimulator('verilator').prepare({ ...harnessDesign(design).harness, threads: opts.verilatorThreads });
  const vlRun = async (passes: number) => (await vl.run(stim.data, opts.cycles, passes)).seconds;
  // Warm-up: V8 tiers the TS simulator's loop up meanwhile.
  tsRun(1);
  // The calibrations' last runs, each a full window, one side after the other, are the first round.
  const t = await passesFor(tsRun, opts.minSeconds);
  const v = await passesFor(vlRun, opts.minSeconds);
  const tsPasses = t.passes;
  const vlPasses = v.passes;
  const rates = { ts: [(tsPasses * opts.cycles) / t.seconds], verilator: [(vlPasses * opts.cycles) / v.seconds] };
  for (let r = 1; r < opts.rounds; r++) {
    rates.ts.push((tsPasses * opts.cycles) / tsRun(tsPasses));
    rates.verilator.push((vlPasses * opts.cycles) / (await vlRun(vlPasses)));
  }
  return { design: d.name, ...rates, ratios: rates.ts.map((x, k) => x / rates.verilator[k]!), tsCycles: tsPasses * opts.cycles, verilatorCycles: vlPasses * opts.cycles };
}

/** The passes of a stimulus a window of `minSeconds` takes: grown until one run of them lasts that long (a first run is often slow). */
async function passesFor(run: (passes: number) => number | Promise<number>, minSeconds: number): Promise<{ passes: number; seconds: number }> {
  let passes = 1;
  for (;;) {
    const seconds = await run(passes);
    if (seconds >= minSeconds) return { passes, seconds };
    passes = Math.ceil(passes * Math.min(100, Math.max(1.2, (1.2 * minSeconds) / Math.max(seconds, 1e-6))));
  }
}
