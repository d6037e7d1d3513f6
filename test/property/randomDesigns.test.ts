// Property test: random eDSL designs (widths up to 140 bits, every operator, registers with sync and
// async resets, memories, state machines, a submodule) agree bit for bit on the JavaScript and
// WebAssembly simulators, the JavaScript one running the netlist as elaborated and the WebAssembly one
// the netlist rewritten for speed (randomDesignsExternal.test.ts: on Verilator and Icarus). A failure prints the
// shrunk design as TypeScript; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { elaborateRandom, randomDesignArb, reproductionFile, type RawDesign } from './randomDesign.ts';
import { firstDisagreement } from './designAgreement.ts';

const seed = seedFromEnv();
console.log(`randomDesigns.test seed=${seed} (rerun with SEED=${seed})`);

/** Designs per run: 2,000 in CI (about 45 s; RTGPU_DESIGNS scales it, as the Verilator/Icarus count: the soak runs 40,000). */
const scale = Number(process.env.RTGPU_DESIGNS ?? 1);
const JS_WASM_DESIGNS = Math.round(2_000 * scale);
const CYCLES = 40;

function checkJsWasm(raw: RawDesign, stimulusSeed: number): void {
  const { source, design } = elaborateRandom(raw);
  // The reference runs the netlist as elaborated: the rewrites of the optimized one are tested too.
  const js = compileSimulator(design, { backend: 'js', optimize: false });
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
