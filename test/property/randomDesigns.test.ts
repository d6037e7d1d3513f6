// Property test: random eDSL designs (widths up to 140 bits, every operator, registers with sync and
// async resets, memories, state machines, a submodule) agree bit for bit on every back end: the
// JavaScript and WebAssembly simulators on many designs, Verilator and Icarus on batches of them.
// A failure prints the (shrunk, for js/wasm) design as TypeScript; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { seedFromEnv } from '../../src/hdl/testbench/rng.ts';
import { batchOfRandom, elaborateRandom, randomDesignArb, reproductionFile, type RawDesign } from './randomDesign.ts';
import { firstDisagreement } from './designAgreement.ts';

const seed = seedFromEnv();
console.log(`randomDesigns.test seed=${seed} (rerun with SEED=${seed})`);

/** Designs per run: 10,000 js/wasm and 500 on Verilator and Icarus in CI (RTGPU_DESIGNS scales both). */
const scale = Number(process.env.RTGPU_DESIGNS ?? 1);
const JS_WASM_DESIGNS = Math.round(10_000 * scale);
const EXTERNAL_DESIGNS = Math.round(500 * scale);
const BATCH = 125;
const CYCLES = 40;

function checkJsWasm(raw: RawDesign, stimulusSeed: number): void {
  const { source, design } = elaborateRandom(raw);
  const js = compileSimulator(design, { backend: 'js' });
  const wasm = compileSimulator(design, { backend: 'wasm' });
  const diff = firstDisagreement(design, [js, wasm], stimulusSeed, CYCLES);
  if (diff) throw new Error(`${diff} (stimulus seed ${stimulusSeed}, ${CYCLES} cycles)\n\n${reproductionFile(source)}`);
}

describe('random designs', () => {
  test(`js and wasm agree on ${JS_WASM_DESIGNS} random designs, every output and register every cycle, and through runVectors`, () => {
    // Split in chunks so the seed of a chunk reproduces it without the ones before.
    const chunks = 10;
    for (let i = 0; i < chunks; i++)
      fc.assert(
        fc.property(randomDesignArb(), fc.nat(), (raw, stimulusSeed) => checkJsWasm(raw, stimulusSeed)),
        { seed: (seed + i) | 0, numRuns: Math.ceil(JS_WASM_DESIGNS / chunks) },
      );
  }, 1_800_000);

  test(`Verilator and Icarus agree with js on ${EXTERNAL_DESIGNS} random designs (batches of ${BATCH} in one top module)`, async () => {
    const all = fc.sample(randomDesignArb(), { seed, numRuns: EXTERNAL_DESIGNS });
    for (let at = 0; at < all.length; at += BATCH) {
      const raws = all.slice(at, at + BATCH);
      const { sources, design } = batchOfRandom(raws);
      const sims = [compileSimulator(design, { backend: 'js' }), await compileSimulator(design, { backend: 'verilator', registers: true }), await compileSimulator(design, { backend: 'icarus', registers: true })];
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

  test('the generator covers what it claims: wide values, memories, state machines, submodules, async resets', () => {
    const raws = fc.sample(randomDesignArb(), { seed, numRuns: 300 });
    const sources = raws.map((raw) => elaborateRandom(raw).source);
    const share = (re: RegExp) => sources.filter((s) => re.test(s)).length / sources.length;
    // About half of the lowest share over several seeds (so a seed does not fail it by chance).
    expect(share(/UInt\((6[5-9]|[7-9]\d|1[0-3]\d|140)\)/)).toBeGreaterThan(0.5);
    expect(share(/m\.memory\(/)).toBeGreaterThan(0.4);
    expect(share(/\.read\(/)).toBeGreaterThan(0.05);
    expect(share(/fsm\(m/)).toBeGreaterThan(0.4);
    expect(share(/m\.instance\(/)).toBeGreaterThan(0.3);
    expect(share(/async: true/)).toBeGreaterThan(0.3);
    expect(share(/m\.switch\(/)).toBeGreaterThan(0.08);
    expect(share(/\.asSInt\(\)\.shr\(/)).toBeGreaterThan(0.15);
    expect(share(/\{ mask: /)).toBeGreaterThan(0.2);
  });
});
