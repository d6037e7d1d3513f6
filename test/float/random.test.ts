// Random operands (biased toward exponent edge cases, a quarter uniform bits) through every float unit
// at several latencies, with bubbles in in_valid, against the TS reference. Seed printed; SEED overrides.
import { describe, expect, test } from 'vitest';
import { UnitRunner, floatUnits, formatVectorMismatch } from '../../src/designs/catalogue/floatVectors.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`float random.test seed=${seed} (rerun with SEED=${seed})`);

/** Operations at the representative latency (the one the cosim designs use), and at each other latency. */
const COUNT = 1_000_000;
const OTHER_COUNT = 60_000;


describe('random operands against the reference', () => {
  floatUnits.forEach((spec, unitIndex) => {
    const latencies = [...new Set([0, spec.stages, spec.natural])];
    test(`${spec.op}: ${COUNT} operations at ${spec.stages} stages, ${OTHER_COUNT} at each of ${latencies.filter((s) => s !== spec.stages).join(', ')}`, () => {
      for (const stages of latencies) {
        const runner = new UnitRunner(spec, stages);
        const count = stages === spec.stages ? COUNT : OTHER_COUNT;
        const { mismatches, checked } = runner.runRandom(createRng((seed + unitIndex * 1000 + stages) >>> 0), count);
        expect(checked).toBe(count);
        expect(mismatches.map((m) => `stages ${stages}: ${formatVectorMismatch(spec.op, m)} (SEED=${seed})`)).toEqual([]);
      }
    }, 60_000);
  });
});

describe('every latency of the divider and the square root', () => {
  for (const op of ['div', 'sqrt'] as const) {
    const spec = floatUnits.find((u) => u.op === op)!;
    test(`${op}: stages 0..${spec.natural + 2}, 2,000 operations each`, () => {
      for (let stages = 0; stages <= spec.natural + 2; stages++) {
        const { mismatches } = new UnitRunner(spec, stages).runRandom(createRng((seed + stages) >>> 0), 2000);
        expect(mismatches.map((m) => `stages ${stages}: ${formatVectorMismatch(op, m)} (SEED=${seed})`)).toEqual([]);
      }
    }, 120_000);
  }
});
