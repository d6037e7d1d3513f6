// Test helper: a cosim design in lockstep on the TS simulator, Verilator and Icarus; a design's RTL through verilator --lint-only -Wall and iverilog -Wall.
import { expect } from 'vitest';
import type { Design } from '../../src/hdl/index.ts';
import type { CosimDesign } from '../../src/hdl/cosim/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';

/** `cycles` cycles of the design's stimulus on all three simulators: no mismatch, and the golden model content. */
export async function expectLockstepOnThree(design: CosimDesign, seed: number, cycles = 400): Promise<void> {
  const r = await runCosim(design, { cycles, seed, sims: ['ts', 'verilator', 'icarus'] });
  expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
  expect(r.golden).toBeNull();
  expect(Object.keys(r.seconds)).toEqual(['ts', 'verilator', 'icarus']);
}

/** Each design's SystemVerilog draws no warning from Verilator's lint and Icarus. */
export async function expectLintClean(designs: readonly Design[]): Promise<void> {
  for (const design of designs) {
    const e = emitSystemVerilog(design);
    const src = { top: design.top, files: e.files, fileList: e.fileList };
    const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
    expect(v.output, `verilator on ${design.top}`).toBe('');
    expect(v.ok).toBe(true);
    expect(i.output, `icarus on ${design.top}`).toBe('');
  }
}
