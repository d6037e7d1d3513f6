// Test helper: a design's SystemVerilog passes Verilator -Wall and Icarus with no output, and Yosys' front end.
import { expect } from 'vitest';
import type { Design } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint, yosysElaborate } from '../../src/hdl/cosim/rtlChecks.ts';

/** Checks the emitted SystemVerilog on the three tools; returns its text (every file) for further checks. */
export async function expectLintClean(d: Design): Promise<string> {
  const e = emitSystemVerilog(d);
  const src = { top: d.top, files: e.files, fileList: e.fileList };
  const [v, i, y] = await Promise.all([verilatorLint(src), icarusCompile(src), yosysElaborate(src)]);
  expect(v.output).toBe('');
  expect(v.ok).toBe(true);
  expect(i.output).toBe('');
  expect(i.ok).toBe(true);
  expect(y.ok, y.output).toBe(true);
  return e.files.map((f) => f.text).join('\n');
}
