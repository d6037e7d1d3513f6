// Test helper: a texture block's cosim design run on the TS simulator against its golden model for many cycles, and one item per cycle held.
import { expect } from 'vitest';
import type { CosimDesign, GoldenModel } from '../../src/hdl/cosim/index.ts';
import type { Design } from '../../src/hdl/index.ts';
import { createRng } from '../../src/util/seededRandom.ts';
import { VectorBench } from './vectorBench.ts';

type Row = Record<string, bigint>;

/** `cycles` cycles of `stimulus` (its generator seeded from the test's seed and a salt) on the TS simulator, every output checked by the golden model; returns the answers seen. */
export function runAgainstGolden(design: Design, golden: GoldenModel, stimulus: CosimDesign['stimulus'], seed: number, salt: number, cycles: number): number {
  const bench = new VectorBench(design);
  const rng = createRng((seed ^ salt) >>> 0);
  const rows = Array.from({ length: cycles }, (_, c) => stimulus(c, rng));
  const outs = bench.run(rows);
  let answers = 0;
  rows.forEach((row, c) => {
    expect(golden.check(c, row, outs[c]!), `cycle ${c} (SEED=${seed})`).toBeNull();
    if (outs[c]!.out_valid === 1n) answers++;
  });
  return answers;
}

/** `count` items entered on consecutive cycles (in_valid held high): out_valid is high for exactly `count` cycles, `latency` later, each answer as `expected` says. */
export function expectOnePerCycle<A>(design: Design, latency: number, items: readonly Row[], expected: (row: Row) => A, read: (outs: Row) => A, seed: number): void {
  const bench = new VectorBench(design);
  const rows = items.map((r) => ({ ...r, in_valid: 1n, rst_n: 1n }));
  const outs = bench.run([...rows, ...new Array<Row>(latency + 3).fill({})]);
  expect(outs.map((o) => Number(o.out_valid)).join('')).toBe('0'.repeat(latency) + '1'.repeat(items.length) + '0'.repeat(3));
  rows.forEach((row, k) => expect(read(outs[k + latency]!), `item ${k} (SEED=${seed})`).toEqual(expected(row)));
}

