// The GPU's blocks proven with their own invariants (issue 41, item 6): the command patcher's frame indices and
// the IC buffer's queue, by k-induction at small parameterizations. Each proof takes about a second.
import { describe, expect, test } from 'vitest';
import { elaborate, type Design } from '../../src/hdl/index.ts';
import { prove, type ProofResult } from '../../src/hdl/formal/index.ts';
import { CommandPatcher } from '../../src/gpu/commandPatcher/commandPatcher.ts';
import { IcQueue } from '../../src/gpu/icBuffer/icBuffer.ts';
import { tempDir } from '../tempDir.ts';

async function proof(design: Design, depth: number): Promise<ProofResult> {
  const r = await prove(design, { mode: 'prove', depth, dir: tempDir('prove-gpu') });
  console.log(`${design.top}: ${r.status} in ${r.seconds.toFixed(1)} s${r.induction?.property ? ` (induction stops at ${r.induction.property.path})` : ''}`);
  expect(r.property, `${design.top}: ${r.property?.name} fails`).toBeUndefined();
  return r;
}

describe('the GPU blocks proven', () => {
  test('CommandPatcher: the oldest patch, the next index and the frame size stay ordered, at most two patches apart', async () => {
    expect((await proof(elaborate(CommandPatcher, undefined).design, 4)).status).toBe('proven');
  }, 60_000);

  test('IcQueue (depths 3 and 4): the count in range and matching the pointers, no enqueue into a full queue unless one leaves', async () => {
    for (const depth of [3, 4]) expect((await proof(elaborate(IcQueue, { width: 4, depth, sources: 2 }).design, 6)).status, `IcQueue depth ${depth}`).toBe('proven');
  }, 60_000);
});
