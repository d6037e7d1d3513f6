// Proofs too slow for CI: the library's blocks and the GPU's queue at the sizes the GPU uses, at depth 20; a table of results and times.
// Run: node --import tsx scripts/prove-soak.ts   (npm run soak -- --only proofs)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { elaborate, type Design } from '../src/hdl/index.ts';
import { Fifo, RoundRobinArbiter, SkidBuffer } from '../src/hdl/lib/index.ts';
import { AsyncFifo } from '../src/hdl/lib/clockCrossing/index.ts';
import { prove } from '../src/hdl/formal/index.ts';
import { IcQueue } from '../src/gpu/icBuffer/icBuffer.ts';
import { CommandPatcher } from '../src/gpu/commandPatcher/commandPatcher.ts';

const cases: readonly [string, () => Design, number][] = [
  ['Fifo width 32, depth 64', () => elaborate(Fifo, { width: 32, depth: 64 }).design, 20],
  ['Fifo width 8, depth 45', () => elaborate(Fifo, { width: 8, depth: 45 }).design, 20],
  ['SkidBuffer width 64', () => elaborate(SkidBuffer, { width: 64 }).design, 20],
  ['RoundRobinArbiter n 8, width 8', () => elaborate(RoundRobinArbiter, { n: 8, width: 8 }).design, 20],
  ['IcQueue width 16, depth 32, 4 sources (the GPU’s depth)', () => elaborate(IcQueue, { width: 16, depth: 32, sources: 4 }).design, 12],
  ['CommandPatcher', () => elaborate(CommandPatcher, undefined as never).design, 10],
  ['AsyncFifo width 2, depth 4 (instants)', () => elaborate(AsyncFifo, { width: 2, depth: 4 }).design, 16],
];

const dir = mkdtempSync(join(tmpdir(), 'rtgpu-prove-soak-'));
let failed = 0;
console.log('| block | depth | result | seconds |\n|---|---:|---|---:|');
try {
  for (const [name, design, depth] of cases) {
    const r = await prove(design(), { mode: 'prove', depth, dir: join(dir, String(cases.findIndex((c) => c[0] === name))) });
    if (r.status === 'failed') failed++;
    const stopped = r.status === 'failed' ? r.property : r.status === 'bounded' ? r.induction?.property : undefined;
    const why = stopped ? ` (${stopped.name})` : '';
    console.log(`| ${name} | ${depth} | ${r.status}${why} | ${r.seconds.toFixed(1)} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
