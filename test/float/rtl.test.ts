// The generated SystemVerilog of every float unit is clean under `verilator --lint-only -Wall` and
// `iverilog -Wall`, combinational and at its representative latency.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { floatUnits } from '../../src/designs/catalogue/floatVectors.ts';

describe('float RTL lints clean', () => {
  for (const u of floatUnits) {
    test(u.op, async () => {
      for (const stages of new Set([0, u.stages])) {
        const design = elaborate(u.def, { stages }).design;
        const e = emitSystemVerilog(design);
        const src = { top: design.top, files: e.files, fileList: e.fileList };
        for (const r of [await verilatorLint(src), await icarusCompile(src)]) expect(r.output, `${r.tool} on ${design.top}`).toBe('');
      }
    }, 60_000);
  }
});
