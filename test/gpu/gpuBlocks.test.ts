// Co-simulation of three GPU blocks (main memory, command patcher, memory controller): random stimulus on
// TS, Verilator and Icarus in lockstep against golden models, coverage of the stimulus, corner parameters, lint.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import type { CosimDesign, GoldenModel } from '../../src/hdl/cosim/design.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { seedFromEnv } from '../../src/hdl/testbench/rng.ts';
import { UnifiedMainMemory, type UnifiedMainMemoryParams } from '../../src/gpu/memory/unifiedMainMemory.ts';
import { unifiedMainMemoryCosimDesign, unifiedMainMemoryGolden, unifiedMainMemoryStimulus } from '../../src/gpu/memory/unifiedMainMemoryCosim.ts';
import { CommandPatcherModel, commandPatcherCosimDesign } from '../../src/gpu/commandPatcher/cosimDesign.ts';
import { MemoryController, type MemoryControllerParams } from '../../src/gpu/memoryController/memoryController.ts';
import { memoryControllerCosimDesign, memoryControllerCosimParams, memoryControllerGolden, memoryControllerStimulus, type MemoryControllerModel } from '../../src/gpu/memoryController/cosimDesign.ts';
import { findDesign } from '../../src/designs/index.ts';

const seed = seedFromEnv();
console.log(`gpuBlocks.test seed=${seed} (rerun with SEED=${seed})`);

const CYCLES = 20_000;

/** The golden model with a hook that sees every cycle's outputs (for coverage counts). */
function watched(d: CosimDesign, golden: () => GoldenModel, see: (outs: Readonly<Record<string, bigint>>) => void): CosimDesign {
  return {
    ...d,
    golden: () => {
      const g = golden();
      return {
        check(cycle, ins, outs) {
          see(outs);
          return g.check(cycle, ins, outs);
        },
      };
    },
  };
}

async function lockstep(d: CosimDesign): Promise<void> {
  const r = await runCosim(d, { cycles: CYCLES, seed, sims: ['ts', 'verilator', 'icarus'] });
  const secs = Object.entries(r.seconds).map(([s, t]) => `${s} ${t.toFixed(2)} s`).join(', ');
  console.log(`${d.name}: ${CYCLES} cycles, seed ${seed}: ${secs}`);
  expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
  expect(r.golden).toBeNull();
}

async function lintClean(d: CosimDesign): Promise<void> {
  const design = d.elaborate();
  const e = emitSystemVerilog(design);
  const src = { top: design.top, files: e.files, fileList: e.fileList };
  for (const r of [await verilatorLint(src), await icarusCompile(src)]) expect(r.output, `${r.tool} on ${design.top}`).toBe('');
}

describe('the three designs are registered', () => {
  test.each(['main_memory', 'command_patcher', 'memory_controller'])('%s', async (name) => {
    expect((await findDesign(name)).name).toBe(name);
  });
});

describe('unified main memory (main_memory)', () => {
  test('the stimulus reaches conflicts, wrapping vectors and held requests; the model agrees (TS)', async () => {
    let dones = 0;
    let conflictRises = 0;
    let conflict = 0n;
    const d = watched(unifiedMainMemoryCosimDesign, unifiedMainMemoryCosimDesign.golden!, (o) => {
      for (let i = 0; i < 4; i++) if (o[`done_${i}`] === 1n) dones++;
      if (o.conflict === 1n && conflict === 0n) conflictRises++;
      conflict = o.conflict!;
    });
    const r = await runCosim(d, { cycles: CYCLES, seed, sims: ['ts'] });
    expect(r.golden).toBeNull();
    expect(dones).toBeGreaterThan(10_000);
    expect(conflictRises).toBeGreaterThanOrEqual(2); // several reset epochs with a conflict, several without
  });

  const corners: UnifiedMainMemoryParams[] = [
    { ports: 1, threads: 1, threadWords: 8 },
    { ports: 2, threads: 2, threadWords: 8 },
    { ports: 3, threads: 8, threadWords: 16 },
    { ports: 4, threads: 32, threadWords: 16 },
  ];
  test.each(corners)('corner parameters against the model (TS): %o', async (p) => {
    const d = { ...unifiedMainMemoryCosimDesign, elaborate: () => elaborate(UnifiedMainMemory, p).design, stimulus: unifiedMainMemoryStimulus(p), golden: () => unifiedMainMemoryGolden(p) };
    expect((await runCosim(d, { cycles: CYCLES, seed, sims: ['ts'] })).golden).toBeNull();
  });

  test('RTL lints clean', () => lintClean(unifiedMainMemoryCosimDesign), 60_000);
  test(`TS, Verilator and Icarus in lockstep with the golden model (${CYCLES} cycles)`, () => lockstep(unifiedMainMemoryCosimDesign), 120_000);
});

describe('command patcher (command_patcher)', () => {
  test('the stimulus runs many frames of one to four patches; the model agrees (TS)', async () => {
    let model: CommandPatcherModel | undefined;
    let frameDones = 0;
    const d = watched(
      commandPatcherCosimDesign,
      () => {
        const m = new CommandPatcherModel();
        model = m;
        return { check: (_c, ins, outs) => m.check(ins, outs) };
      },
      (o) => (frameDones += Number(o.frame_done)),
    );
    const r = await runCosim(d, { cycles: CYCLES, seed, sims: ['ts'] });
    expect(r.golden).toBeNull();
    expect(model!.frames).toBeGreaterThan(50);
    expect(model!.patches).toBeGreaterThan(1.5 * model!.frames); // 0 to 100 pixels: about two patches a frame
    expect(frameDones).toBeGreaterThan(50);
  });

  test('RTL lints clean', () => lintClean(commandPatcherCosimDesign), 60_000);
  test(`TS, Verilator and Icarus in lockstep with the golden model (${CYCLES} cycles)`, () => lockstep(commandPatcherCosimDesign), 120_000);
});

describe('memory controller (memory_controller)', () => {
  test('the stimulus loads every memory, runs frames, writes patches and reports, hits every error; the model agrees (TS)', async () => {
    let model: MemoryControllerModel | undefined;
    const d = { ...memoryControllerCosimDesign, golden: () => memoryControllerGolden(memoryControllerCosimParams, (m) => (model = m)) };
    const r = await runCosim(d, { cycles: CYCLES, seed, sims: ['ts'] });
    expect(r.golden).toBeNull();
    const c = model!.coverage;
    console.log(`memory_controller coverage (seed ${seed}): ${JSON.stringify(c)}`);
    for (const n of c.loads) expect(n).toBeGreaterThan(2);
    expect(c.wordsStored).toBeGreaterThan(200);
    expect(c.frames).toBeGreaterThan(3);
    expect(c.patchesWritten).toBeGreaterThan(5);
    expect(c.reportsWritten).toBeGreaterThan(2);
    expect(c.patchesWritten).toBeGreaterThan(c.reportsWritten); // some patches without a report
    expect(c.busyErrors).toBeGreaterThan(5);
    expect(c.tooLong).toBeGreaterThan(0);
    expect(c.reads).toBeGreaterThan(5000);
  });

  const corners: MemoryControllerParams[] = [
    { rtCores: 1, icCores: 1, triangleCountBits: 2, contexts: 1 },
    { rtCores: 4, icCores: 32, triangleCountBits: 21, contexts: 16 },
  ];
  test.each(corners)('corner parameters against the model (TS): %o', async (p) => {
    const d = { ...memoryControllerCosimDesign, elaborate: () => elaborate(MemoryController, p).design, stimulus: memoryControllerStimulus(p), golden: () => memoryControllerGolden(p) };
    expect((await runCosim(d, { cycles: CYCLES, seed, sims: ['ts'] })).golden).toBeNull();
  });

  test('RTL lints clean', () => lintClean(memoryControllerCosimDesign), 60_000);
  test(`TS, Verilator and Icarus in lockstep with the golden model (${CYCLES} cycles)`, () => lockstep(memoryControllerCosimDesign), 120_000);
});
