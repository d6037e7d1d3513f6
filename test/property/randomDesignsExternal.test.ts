// Property test: random eDSL designs agree bit for bit between the TS simulator, Verilator and Icarus,
// 125 side by side in one top module per build (randomDesigns.test.ts has the generator's js/wasm run);
// and random designs with declared clocks (randomClockedDesigns.test.ts), at every instant of their clocks,
// on every engine that runs several clocks, and in lockstep.
// A failure names the design and prints it as TypeScript; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { batchOfRandom, randomDesignArb, reproductionFile } from './randomDesign.ts';
import { batchOfClocked, clockTimings, clockedReproductionFile, randomClockedDesignArb } from './randomClockedDesign.ts';
import { ciOrSoak } from '../scale.ts';
import { firstClockedDisagreement, firstDisagreement } from './designAgreement.ts';

const seed = seedFromEnv();
console.log(`randomDesignsExternal.test seed=${seed} (rerun with SEED=${seed})`);

/**
 * Designs per run: 125 in CI, one build of about 50 s, twice that in the soak (RTGPU_SOAK=1); RTGPU_DESIGNS scales
 * both, as it scales the js/wasm count (the soak's designs step runs 2,500).
 */
const scale = Number(process.env.RTGPU_DESIGNS ?? 1) * ciOrSoak(1, 2);
const EXTERNAL_DESIGNS = Math.round(125 * scale);
const BATCH = 125;
const CYCLES = 40;
/** A batch takes vvp seconds per request: one that stops answering is an error naming the seed, not a stuck worker. */
const ICARUS_TIMEOUT_SECONDS = 300;
/** Designs with declared clocks per run: 50 in CI (100 × RTGPU_DESIGNS in the soak), in batches sharing the clocks c0 … at one random timing each. */
const CLOCKED_DESIGNS = Math.round(50 * scale);
const CLOCKED_BATCH = 50;
const CLOCKED_INSTANTS = 80;

/** Whether an engine runs the design's clocks (lists them, drives them with `setClocks` and `advance`): every engine must. */
function runsClocks(sim: Simulator, clocks: readonly string[]): boolean {
  return typeof sim.setClocks === 'function' && typeof sim.advance === 'function' && typeof sim.setClockTiming === 'function' && clocks.every((c) => sim.clocks?.includes(c));
}

describe('random designs on Verilator and Icarus', () => {
  test(`Verilator and Icarus agree with js on ${EXTERNAL_DESIGNS} random designs (batches of ${BATCH} in one top module)`, async () => {
    const all = fc.sample(randomDesignArb(), { seed, numRuns: EXTERNAL_DESIGNS });
    for (let at = 0; at < all.length; at += BATCH) {
      const raws = all.slice(at, at + BATCH);
      const { sources, design } = batchOfRandom(raws);
      const sims = [compileSimulator(design, { backend: 'js' }), await compileSimulator(design, { backend: 'verilator', registers: true }), await compileSimulator(design, { backend: 'icarus', registers: true, timeoutSeconds: ICARUS_TIMEOUT_SECONDS })];
      try {
        const diff = firstDisagreement(design, sims, seed + at, CYCLES);
        // Ports and registers of design j are named d<j>_… and d<j>.…: print that design alone.
        const j = diff ? Number(/\bd(\d+)[._]/.exec(diff)?.[1] ?? -1) : -1;
        expect(diff, diff ? `${diff}\n\ndesign ${j} of the batch at ${at} (SEED=${seed}):\n${j >= 0 ? reproductionFile(sources[j]!, `R${j}`) : sources.join('\n\n')}` : '').toBeNull();
      } finally {
        for (const s of sims) s.close();
      }
    }
  }, 1_800_000);

  test(`Verilator, Icarus and lockstep agree with js on ${CLOCKED_DESIGNS} random multi-clock designs at every instant (batches of ${CLOCKED_BATCH} on shared clocks)`, async () => {
    const t0 = performance.now();
    const all = fc.sample(randomClockedDesignArb(), { seed, numRuns: CLOCKED_DESIGNS });
    for (let at = 0; at < all.length; at += CLOCKED_BATCH) {
      const raws = all.slice(at, at + CLOCKED_BATCH);
      const { sources, design, clocks, resets } = batchOfClocked(raws);
      // One design's clock timings for the whole batch (one with every clock of the batch).
      const timings = clockTimings(raws.find((r) => r.clocks.length === clocks)!);
      const names = Object.keys(timings);
      const js = compileSimulator(design, { backend: 'js' });
      const external = [await compileSimulator(design, { backend: 'verilator', registers: true }), await compileSimulator(design, { backend: 'icarus', registers: true, timeoutSeconds: ICARUS_TIMEOUT_SECONDS })];
      for (const s of external) if (!runsClocks(s, names)) throw new Error(`${s.backend} does not run the clocks ${names.join(', ')}`);
      // Lockstep compares its members at every instant itself; here it is one more engine beside js.
      const lockstep = await compileSimulator(design, { backend: 'lockstep', backends: ['wasm', 'verilator', 'icarus'], compareRegisters: true });
      const sims = [js, ...external, lockstep];
      try {
        let diff: string | null;
        try {
          diff = firstClockedDisagreement(design, sims, { timings, resets, seed: seed + at, instants: CLOCKED_INSTANTS });
        } catch (e) {
          diff = e instanceof Error ? e.message : String(e);
        }
        const j = diff ? Number(/\bd(\d+)[._]/.exec(diff)?.[1] ?? -1) : -1;
        expect(diff, diff ? `${diff}\n\ndesign ${j} of the clocked batch at ${at} (SEED=${seed}), clocks ${JSON.stringify(timings)}:\n${j >= 0 ? clockedReproductionFile(sources[j]!, timings, `R${j}`) : sources.join('\n\n')}` : '').toBeNull();
      } finally {
        for (const s of [...external, lockstep]) s.close();
      }
    }
    const s = (performance.now() - t0) / 1000;
    console.log(`randomDesignsExternal.test: ${all.length} clocked designs in ${s.toFixed(1)} s (${(all.length / s).toFixed(2)} designs/s, builds included)`);
  }, 1_800_000);
});
