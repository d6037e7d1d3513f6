// The library's blocks proven with their own invariants (issue 41, item 6): what closes by induction is
// proven, what does not is bounded and says which assertion stops the induction. Each proof is a second or less.
import { describe, expect, test } from 'vitest';
import { elaborate, type Design } from '../../src/hdl/index.ts';
import { Fifo, RoundRobinArbiter, SkidBuffer } from '../../src/hdl/lib/index.ts';
import { AsyncFifo } from '../../src/hdl/lib/clockCrossing/index.ts';
import { prove, type ProofResult } from '../../src/hdl/formal/index.ts';
import { tempDir } from '../tempDir.ts';

/** Ten cycles: enough for induction to close on these blocks, and a base case that stays fast. */
const DEPTH = 10;

async function proof(design: Design): Promise<ProofResult> {
  const r = await prove(design, { mode: 'prove', depth: DEPTH, dir: tempDir('prove-lib') });
  console.log(`${design.top}: ${r.status} in ${r.seconds.toFixed(1)} s${r.induction?.property ? ` (induction stops at ${r.induction.property.path})` : ''}`);
  expect(r.property, `${design.top}: ${r.property?.name} fails`).toBeUndefined();
  return r;
}

describe('the library proven', () => {
  test('Fifo (power-of-two depths and others) and SkidBuffer: proven by induction', async () => {
    // At depths 3 and 5 the pointers' range is an invariant of its own (pointers_in_range), which closes the induction.
    for (const depth of [4, 16, 3, 5]) expect((await proof(elaborate(Fifo, { width: 8, depth }).design)).status, `Fifo depth ${depth}`).toBe('proven');
    expect((await proof(elaborate(SkidBuffer, { width: 8 }).design)).status, 'SkidBuffer').toBe('proven');
  }, 60_000);

  test('RoundRobinArbiter (n = 4 and 3): fairness proven by induction, tied to the grant pointer (fair_<i>_ahead)', async () => {
    for (const n of [4, 3]) expect((await proof(elaborate(RoundRobinArbiter, { n, width: 8 }).design)).status, `RoundRobinArbiter n ${n}`).toBe('proven');
  }, 60_000);

  test('AsyncFifo (depth 2, no reset): bounded, the solver interleaving both clocks for 12 instants; induction does not close', async () => {
    // Each side's invariant reads the other side's pointer through its synchronizer, and k-induction over clock
    // instants starts from states no interleaving reaches (the guide's "several clocks"). 12 instants (1.5 s)
    // give each clock 6 rising edges: time to fill it, cross both words (2 synchronizer stages) and read them;
    // 20 instants take 17 s, too long for CI.
    const r = await prove(elaborate(AsyncFifo, { width: 2, depth: 2 }).design, { mode: 'prove', depth: 12, dir: tempDir('prove-lib') });
    console.log(`${r.top}: ${r.status} in ${r.seconds.toFixed(1)} s (${r.unit}s)`);
    expect(r.property, r.property?.name).toBeUndefined();
    expect(r).toMatchObject({ status: 'bounded', unit: 'instant' });
  }, 60_000);
});
