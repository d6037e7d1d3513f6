// Property test: random eDSL designs agree bit for bit between the TS simulator, Verilator and Icarus,
// 125 side by side in one top module per build (randomDesigns.test.ts has the generator's js/wasm run).
// A failure names the design and prints it as TypeScript; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { batchOfRandom, randomDesignArb, reproductionFile } from './randomDesign.ts';
import { firstDisagreement } from './designAgreement.ts';

const seed = seedFromEnv();
console.log(`randomDesignsExternal.test seed=${seed} (rerun with SEED=${seed})`);

/** Designs per run: 250 in CI, two builds of about 50 s each (RTGPU_DESIGNS scales it, as the js/wasm count: the soak runs 2,500). */
const scale = Number(process.env.RTGPU_DESIGNS ?? 1);
const EXTERNAL_DESIGNS = Math.round(250 * scale);
const BATCH = 125;
const CYCLES = 40;
/** A batch takes vvp seconds per request: one that stops answering is an error naming the seed, not a stuck worker. */
const ICARUS_TIMEOUT_SECONDS = 300;

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

});
