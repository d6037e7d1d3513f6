// The generated SystemVerilog of the whole GPU is clean under `verilator --lint-only -Wall` and
// `iverilog -Wall`, at the default configuration, at the smallest one, and with small BVH IC cores (their fault path).
import { describe, expect, test } from 'vitest';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { gpuDesign } from '../../src/gpu/top/gpuDesign.ts';
import { GPU_TOP_NAME } from '../../src/gpu/top/gpuTop.ts';

describe('rtgpu_top RTL lints clean', () => {
  const smallBvh = { rtCores: 1, icCores: 1, traversal: 'bvh', icRays: 4, triangles: 64, vertices: 128, nodes: 32, triRanges: 64 } as const;
  for (const cores of [{}, { rtCores: 1, icCores: 1 }, smallBvh]) {
    test(`rtgpu_top ${JSON.stringify(cores)}`, async () => {
      const design = gpuDesign(cores);
      expect(design.top).toBe(GPU_TOP_NAME);
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output, 'verilator').toBe('');
      expect(i.output, 'icarus').toBe('');
    }, 300_000);
  }
});
