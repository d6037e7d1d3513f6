// Property test: random designs with declared clocks (one to three Clock ports at random periods and phases,
// rising- and falling-edge domains, every reset kind and polarity, crossings through synchronizer flops and
// m.crossDomain) elaborate (the crossing check accepts them) and agree bit for bit on the JavaScript and
// WebAssembly simulators at every instant, with resets asserted at random times between edges
// (randomDesignsExternal.test.ts runs them on Verilator and Icarus). A failure prints the shrunk design as
// TypeScript with its clock timings; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { clockedReproductionFile, elaborateClocked, randomClockedDesignArb, type RawClockedDesign } from './randomClockedDesign.ts';
import { firstClockedDisagreement } from './designAgreement.ts';

const seed = seedFromEnv();
console.log(`randomClockedDesigns.test seed=${seed} (rerun with SEED=${seed})`);

/** Designs per run: 1,000 in CI, about 20 s (RTGPU_DESIGNS scales it, as the other campaigns). */
const scale = Number(process.env.RTGPU_DESIGNS ?? 1);
const DESIGNS = Math.round(1_000 * scale);
const INSTANTS = 120;

function checkJsWasm(raw: RawClockedDesign, stimulusSeed: number): void {
  const { source, design, timings, resets } = elaborateClocked(raw);
  // The reference runs the netlist as elaborated: the rewrites of the optimized one are tested too.
  const js = compileSimulator(design, { backend: 'js', optimize: false });
  const wasm = compileSimulator(design, { backend: 'wasm' });
  if (wasm.backend !== 'wasm') throw new Error(`the design fell back to ${wasm.backend}\n\n${clockedReproductionFile(source, timings)}`);
  const diff = firstClockedDisagreement(design, [js, wasm], { timings, resets, seed: stimulusSeed, instants: INSTANTS });
  if (diff) throw new Error(`${diff} (stimulus seed ${stimulusSeed}, ${INSTANTS} instants)\n\n${clockedReproductionFile(source, timings)}`);
}

describe('random designs with declared clocks', () => {
  test(`js and wasm agree on ${DESIGNS} random multi-clock designs, every output and register at every instant`, () => {
    const t0 = performance.now();
    // Split in chunks so the seed of a chunk reproduces it without the ones before.
    const chunks = 10;
    for (let i = 0; i < chunks; i++)
      fc.assert(
        fc.property(randomClockedDesignArb(), fc.nat(), (raw, stimulusSeed) => checkJsWasm(raw, stimulusSeed)),
        { seed: (seed + i) | 0, numRuns: Math.ceil(DESIGNS / chunks) },
      );
    const s = (performance.now() - t0) / 1000;
    console.log(`randomClockedDesigns.test: ${DESIGNS} designs in ${s.toFixed(1)} s (${(DESIGNS / s).toFixed(1)} designs/s, ${INSTANTS} instants each)`);
  }, 1_800_000);

  test('the generator covers what it claims: several clocks, falling edges, every reset kind and polarity, both crossings', () => {
    const raws = fc.sample(randomClockedDesignArb(), { seed, numRuns: 300 });
    const designs = raws.map((raw) => elaborateClocked(raw));
    const share = (f: (x: (typeof designs)[number]) => boolean) => designs.filter(f).length / designs.length;
    const src = (re: RegExp) => (x: (typeof designs)[number]) => re.test(x.source);
    // About half of the lowest share over several seeds (so a seed does not fail it by chance).
    expect(share((x) => Object.keys(x.timings).length >= 2)).toBeGreaterThan(0.6);
    expect(share((x) => Object.keys(x.timings).length === 3)).toBeGreaterThan(0.2);
    expect(share(src(/edge: 'falling'/))).toBeGreaterThan(0.5);
    for (const kind of ['sync', 'async'])
      for (const active of ['high', 'low']) expect(share(src(new RegExp(`resetKind: '${kind}', resetActive: '${active}'`))), `${kind} active ${active}`).toBeGreaterThan(0.2);
    expect(share(src(/m\.clockDomain\(\{ clock: io\.c\d(, edge: 'falling')?, name/))).toBeGreaterThan(0.3);
    // Resets from an input, from logic on two inputs (tested after the comb's steps), from a flop.
    expect(share(src(/reset: io\.r\d+, resetKind: 'async'/))).toBeGreaterThan(0.15);
    expect(share(src(/reset: io\.r\d+\.(or|and)\(io\.r\d+b\), resetKind: 'async'/))).toBeGreaterThan(0.15);
    expect(share(src(/reset: d\d+_sync, resetKind: 'async'/))).toBeGreaterThan(0.15);
    expect(share(src(/synchronizer: true/))).toBeGreaterThan(0.3);
    expect(share(src(/m\.crossDomain\(/))).toBeGreaterThan(0.2);
    expect(share(src(/\{ reset: [^}]*domain: d\d \}\);\n[\s\S]*\.set\(/))).toBeGreaterThan(0.3);
    expect(share(src(/m\.memory\(/))).toBeGreaterThan(0.4);
    expect(share(src(/\.read\(/))).toBeGreaterThan(0.05);
    expect(share(src(/fsm\(m/))).toBeGreaterThan(0.3);
    expect(share(src(/m\.instance\(/))).toBeGreaterThan(0.3);
    // Every generated design passed the crossing check (elaborateClocked throws otherwise), and the
    // designs with several clocks do cross: a synchronizer or a false path between two clocks.
    expect(share((x) => Object.keys(x.timings).length >= 2 && /synchronizer: true|m\.crossDomain\(/.test(x.source))).toBeGreaterThan(0.3);
  });
});
