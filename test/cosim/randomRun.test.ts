// recordRandomRun: a seeded, protocol-keeping random run of any design, recorded; and the benchmarks taking it as their stimulus.
import { expect, test } from 'vitest';
import { Bool, UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { assumptionsHold, benchmarkDesign, recordRandomRun } from '../../src/hdl/cosim/index.ts';
import { Fifo } from '../../src/hdl/lib/index.ts';

const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`randomRun.test seed=${seed} (rerun with SEED=${seed})`);

const fifo = () => elaborate(Fifo, { depth: 4, width: 8 }).design;

test('the same seed records the same run; another seed another; the streams are found and the resets held first', async () => {
  const a = await recordRandomRun(fifo(), 500, seed);
  const b = await recordRandomRun(fifo(), 500, seed);
  const c = await recordRandomRun(fifo(), 500, seed + 1);
  expect(a.recording.cycles).toBe(500);
  expect(a.recording.rows).toEqual(b.recording.rows);
  expect(a.recording.rows).not.toEqual(c.recording.rows);
  expect(a.streams.map((s) => `${s.name} ${s.direction}`).sort()).toEqual(['deq output', 'enq input']);
  const rst = a.recording.inputs.indexOf('rst_n');
  expect(rst).toBeGreaterThanOrEqual(0);
  const rowWords = a.recording.rows.length / 500;
  expect(a.recording.rows[rst]).toBe(0);
  expect(a.recording.rows[rst + 499 * rowWords]).toBe(1);
});

test('replayed as a benchmark stimulus, the recorded run moves data through the design', async () => {
  const design = fifo();
  const { recording } = await recordRandomRun(design, 2000, seed);
  const rows = await benchmarkDesign({ name: 'fifo4', design, recording }, { ts: 2000 }, 0);
  expect(rows.map((r) => `${r.design} ${r.sim} ${r.cycles}`)).toEqual(['fifo4 ts 2000']);
  // The same rows through runVectors: items go in and come out (the stimulus is not idle).
  const sim = compileSimulator(design);
  const outs = sim.runVectors(recording.inputs, ['deq_valid'], recording.rows, 2000);
  expect(outs.reduce((n, v) => n + v, 0)).toBeGreaterThan(100);
  await expect(benchmarkDesign({ name: 'fifo4', design, recording }, { ts: 2001 }, 0)).rejects.toThrow('fifo4: the recording holds 2000 cycles, the benchmark asks for 2001');
});

// Enable and clear must never come together, and a 2-bit mode never reads 3 while enabled: random inputs break both often.
const Assuming = defineModule('Assuming', () => ({ en: input(Bool), clear: input(Bool), mode: input(UInt(2)), count: output(UInt(8)) }), (m, io) => {
  const count = m.reg(UInt(8), { reset: 0 });
  m.when(io.clear, () => count.set(0)).elsewhen(io.en, () => count.set(count.add(io.mode.zext(8)).trunc(8)));
  io.count.set(count);
  m.assume(io.en.and(io.clear).not(), 'never enable and clear at once');
  m.when(io.en, () => m.assume(io.mode.ne(3), 'mode 3 is reserved while enabled'));
});

test("random inputs are drawn again until the design's assumptions hold, and the run checks them", async () => {
  const { design } = elaborate(Assuming, undefined);
  // Without the redraws the TS simulator stops at the first broken assumption (recordRandomRun checks properties).
  const { recording } = await recordRandomRun(design, 3000, seed);
  const col = (name: string) => recording.inputs.indexOf(name);
  const rowWords = recording.rows.length / recording.cycles;
  let enabled = 0;
  let reset = 0;
  for (let c = 0; c < recording.cycles; c++) {
    const at = (name: string) => recording.rows[c * rowWords + col(name)]!;
    // Properties hold outside the reset (their enable is rst_n): in it, anything goes.
    if (!at('rst_n')) {
      reset++;
      continue;
    }
    expect(at('en') & at('clear'), `cycle ${c}`).toBe(0);
    if (at('en')) expect(at('mode'), `cycle ${c}`).not.toBe(3);
    enabled += at('en');
  }
  expect(reset).toBe(2);
  // Still random: about a third of the cycles enable (en=1 with clear=0 out of the three allowed pairs).
  expect(enabled).toBeGreaterThan(600);
  expect(enabled).toBeLessThan(1500);
  expect(assumptionsHold(compileSimulator(fifo()), fifo())).toBeUndefined();
});
