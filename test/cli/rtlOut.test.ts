// rtl-out/ is what `npm run rtl` generates, and every design in it passes Verilator -Wall, iverilog -Wall and Yosys.
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { allDesigns } from '../../src/designs/index.ts';
import { rtlFiles } from '../../src/designs/rtlOutput.ts';
import { rtlDifferences } from '../../src/designs/generatedDir.ts';
import { defaultGpuParams } from '../../src/gpu/top/gpuTop.ts';
import { icarusCompile, verilatorLint, yosysSynth } from '../../src/hdl/cosim/rtlChecks.ts';

const root = 'rtl-out';

test('rtl-out is up to date (run `npm run rtl` after changing a design)', async () => {
  expect(rtlDifferences(root, await rtlFiles(await allDesigns(), defaultGpuParams))).toEqual([]);
}, 120_000);

// Yosys takes 20-70 s on each of the first four, 2-4 min on the GFX12 node decoders (their wide
// barrel shifts) and 1-2.5 min on three of the texture blocks (float units already checked elsewhere), several minutes on the whole texture unit (all of them). In CI the GPU blocks' modules are synthesized by Yosys in
// test/synth/postSynthCosim.test.ts (the same SystemVerilog, module by module), and bench is the
// simulation benchmark, not hardware to hand off; the soak's rtl-yosys step (RTGPU_SOAK=1) runs all.
const yosysInSoakOnly = process.env.RTGPU_SOAK === '1' ? new Set<string>() : new Set(['bench', 'bvh_ic', 'ic_core', 'rtcore', 'gfx12_box', 'gfx12_primitive', 'texture_lod', 'texel_coordinates', 'bilinear_blend', 'texture_unit', 'bvh8_ic', 'obb_ray_rotate', 'ray_transform']);

describe('every design in rtl-out passes the three tools', () => {
  // The cosim designs' directories, each with its own file list (rtgpu_top and synth/ are test/rtl/rtlHandoff.test.ts's).
  const dirs = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(root, e.name, `${e.name}.f`))).map((e) => e.name).sort();
  test('there are designs to check', () => expect(dirs.length).toBeGreaterThanOrEqual(9));
  for (const dir of dirs) {
    const yosys = !yosysInSoakOnly.has(dir);
    test(yosys ? dir : `${dir} (Verilator and Icarus; Yosys in the soak run)`, async () => {
      const fileList = readFileSync(join(root, dir, `${dir}.f`), 'utf8').trim().split('\n');
      const files = readdirSync(join(root, dir)).map((path) => ({ path, text: readFileSync(join(root, dir, path), 'utf8') }));
      const top = fileList.at(-1)!.replace(/\.sv$/, '');
      const src = { top, files, fileList };
      const [v, i, y] = await Promise.all([verilatorLint(src), icarusCompile(src), yosys ? yosysSynth(src) : undefined]);
      expect(v.output, 'verilator --lint-only -Wall').toBe('');
      expect(i.output, 'iverilog -g2012 -Wall').toBe('');
      if (y) expect(y.ok, `yosys synth:\n${y.output}`).toBe(true);
    }, 300_000);
  }
});
