// The float co-simulation designs, seeded cycles: the TS simulator and Verilator agree every cycle over 100,000, Icarus (20 times
// slower) over 20,000, and the golden model (the TS reference at the unit's latency, with bubbles and resets) accepts every result.
import { describe, expect, test } from 'vitest';
import { floatDesigns } from '../../src/designs/catalogue/floatCosim.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`float cosim.test seed=${seed} (rerun with SEED=${seed})`);

describe('float units on three simulators with golden models', () => {
  test('the catalogue has the seven named designs', () => {
    expect(floatDesigns.map((d) => d.name)).toEqual(['fadd', 'fmul', 'fdiv', 'fsqrt', 'fcmp', 'itof', 'ftoi']);
  });

  for (const d of floatDesigns) {
    test(d.name, async () => {
      for (const [cycles, sim] of [[100_000, 'verilator'], [20_000, 'icarus']] as const) {
        const r = await runCosim(d, { cycles, seed, sims: ['ts', sim] });
        expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
        expect(r.golden).toBeNull();
      }
    }, 300_000);
  }

  test('the golden model notices a wrong result and a wrong latency', async () => {
    const fadd = floatDesigns.find((d) => d.name === 'fadd')!;
    const model = fadd.golden!();
    const ins = { in_valid: 1n, a: 0x3f800000n, b: 0x3f800000n, rst_n: 1n };
    const idle = { in_valid: 0n, a: 0n, b: 0n, rst_n: 1n };
    const quiet = { out_valid: 0n, result: 0n };
    expect(model.check(0, ins, quiet)).toBeNull();
    expect(model.check(1, idle, quiet)).toBeNull();
    expect(model.check(2, idle, quiet)).toBeNull();
    expect(model.check(3, idle, { out_valid: 1n, result: 0x40000001n })).toMatch(/result is 0x40000001, expected 0x40000000/);
    const early = fadd.golden!();
    expect(early.check(0, ins, quiet)).toBeNull();
    expect(early.check(1, idle, { out_valid: 1n, result: 0x40000000n })).toMatch(/out_valid is 1, expected 0/);
  });
});
