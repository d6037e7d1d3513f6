// Property test: random designs with random assertions over their inputs and outputs (past, rose, fell,
// stable, changed, implications), many side by side in one top module, stop at the same edge with the
// same failed property on js, wasm, Verilator and Icarus (or run to the end on all of them).
// A failure names the seed; SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Design } from '../../src/hdl/index.ts';
import { PropertyFailedError, compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { batchOfSources, designSource, moduleOfSource, randomDesignArb, type RawDesign } from './randomDesign.ts';

const seed = seedFromEnv();
console.log(`randomProperties.test seed=${seed} (rerun with SEED=${seed})`);

const BATCHES = 5;
const DESIGNS_PER_BATCH = 16;
const CYCLES = 300;

interface RawProperty {
  readonly kind: number;
  /** Terms OR-ed together: the more, the rarer a failure. */
  readonly terms: readonly { readonly form: number; readonly a: number; readonly b: number; readonly bit: number; readonly n: number }[];
}

const propertyArb: fc.Arbitrary<RawProperty> = fc.record({
  kind: fc.nat(3),
  terms: fc.array(fc.record({ form: fc.nat(7), a: fc.nat(), b: fc.nat(), bit: fc.nat(), n: fc.integer({ min: 1, max: 3 }) }), { minLength: 5, maxLength: 9 }),
});

/** The design's source with its properties appended to the top module's body (over its ports: `io.i<k>`, `io.o<k>`). */
function withProperties(raw: RawDesign, props: readonly RawProperty[], name: string): string {
  const source = designSource(raw, name);
  const ports = Object.entries(moduleOfSource(source, name).ports(undefined) as Record<string, { type: { width: number } }>).map(([p, spec]) => ({ code: `io.${p}`, width: spec.type.width }));
  const bit = (k: number, j: number) => {
    const v = ports[k % ports.length]!;
    return v.width === 1 ? v.code : `${v.code}.bit(${j % v.width})`;
  };
  const term = (t: RawProperty['terms'][number]): string => {
    const x = bit(t.a, t.bit);
    const y = bit(t.b, t.bit + 1);
    const whole = ports[t.a % ports.length]!.code;
    // Each term true at least half the time on random stimulus: an OR of several fails rarely.
    return [x, `m.past(${x}, ${t.n})`, `m.rose(${x}).not()`, `m.fell(${x}).not()`, `m.changed(${whole})`, `m.implies(${x}, ${y})`, `m.impliesNext(${x}, ${y})`, `m.impliesWithin(${x}, ${y}, ${t.n})`][t.form % 8]!;
  };
  const lines = props.map((p, i) => {
    const cond = p.terms.map(term).reduce((acc, t) => `${acc}.or(${t})`);
    return p.kind === 0 ? `    m.assume(${cond}, 'assumed ${i}', { name: 'p${i}' });` : `    m.assert(${cond}, 'asserted ${i}', { name: 'p${i}' });`;
  });
  // The top module's body ends the source: the properties go before its closing line.
  const end = source.lastIndexOf('\n});');
  return `${source.slice(0, end)}\n${lines.join('\n')}${source.slice(end)}`;
}

/** The first failed property and its cycle on `sim` under the seeded stimulus, or null after all cycles. */
function firstFailure(sim: Simulator, stimulusSeed: number): string | null {
  const rng = createRng(stimulusSeed);
  const inputs = sim.ports.filter((p) => p.direction === 'input' && p.name !== 'clk');
  try {
    for (let c = 0; c < CYCLES; c++) {
      for (const p of inputs) sim.poke(p.name, p.name === 'rst_n' ? (c < 2 || rng.int(16) === 0 ? 0n : 1n) : rng.bits(p.width));
      sim.step();
    }
    return null;
  } catch (e) {
    if (!(e instanceof PropertyFailedError)) throw e;
    return `${e.property} (${e.kind}) at cycle ${e.cycle}`;
  }
}

describe('random properties on every engine', () => {
  test(`${BATCHES} batches of ${DESIGNS_PER_BATCH} random designs with random assertions stop at the same edge on js, wasm, Verilator and Icarus (SEED=${seed})`, async () => {
    const raws = fc.sample(fc.tuple(randomDesignArb(12), fc.array(propertyArb, { minLength: 1, maxLength: 2 })), { seed, numRuns: BATCHES * DESIGNS_PER_BATCH });
    const failures: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const batch = raws.slice(b * DESIGNS_PER_BATCH, (b + 1) * DESIGNS_PER_BATCH);
      // The last batch's properties keep 2 of their terms: they fail within a few cycles whatever the seed
      // (with every term, all 5 batches ran clean for SEED=151966621), so the campaign always compares failures.
      const design: Design = batchWithProperties(b === BATCHES - 1 ? batch.map(([raw, props]) => [raw, props.map((p) => ({ ...p, terms: p.terms.slice(0, 2) }))] as const) : batch);
      const sims: Simulator[] = [compileSimulator(design, { backend: 'js' }), compileSimulator(design, { backend: 'wasm' }), await compileSimulator(design, { backend: 'verilator' }), await compileSimulator(design, { backend: 'icarus' })];
      try {
        const results = sims.map((s) => firstFailure(s, seed + b));
        failures.push(results[0] ?? 'none');
        expect(results, `batch ${b} (SEED=${seed})`).toEqual(results.map(() => results[0]));
      } finally {
        for (const s of sims) s.close();
      }
    }
    console.log(`randomProperties.test: first failures ${failures.join('; ')}`);
    // The campaign must see failures to compare (properties are OR-ed terms: rare, not absent).
    expect(failures.filter((f) => f !== 'none').length).toBeGreaterThan(0);
  }, 600_000);
});

function batchWithProperties(batch: readonly (readonly [RawDesign, readonly RawProperty[]])[]): Design {
  return batchOfSources(batch.map(([raw, props], j) => withProperties(raw, props, `R${j}`))).design;
}
