// rtl-out/ is what `npm run rtl` generates, and every design in it passes Verilator -Wall, iverilog -Wall and Yosys.
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { allDesigns } from '../../src/designs/catalogue/index.ts';
import { rtlFiles } from '../../src/designs/rtl/rtlOutput.ts';
import { rtlDifferences } from '../../src/designs/rtl/generatedDir.ts';
import { defaultGpuParams } from '../../src/gpu/top/gpuTop.ts';
import { icarusCompile, verilatorLint, yosysElaborate, yosysSynth } from '../../src/hdl/cosim/rtlChecks.ts';
import { gateLevelDesigns } from '../synth/gateLevelDesigns.ts';

const root = 'rtl-out';

test('rtl-out is up to date (run `npm run rtl` after changing a design)', async () => {
  expect(rtlDifferences(root, await rtlFiles(await allDesigns(), defaultGpuParams))).toEqual([]);
}, 120_000);

// Yosys `synth` takes 20-70 s on each of the GPU blocks, 2-4 min on the GFX12 node decoders (their wide barrel
// shifts), 1-2.5 min on three of the texture blocks and several minutes on the whole texture unit. CI runs it
// on the designs nothing else synthesizes and that take seconds; the gate-level checks
// (test/synth/postSynthCosim.test.ts) synthesize the float units' and several blocks' modules (the same
// SystemVerilog); the rest (the box and triangle engines' float datapaths among them: 20-35 s each) get Yosys' front end in CI
// (read, hierarchy, proc, check) and `synth` in the soak's rtl-yosys step (RTGPU_SOAK=1), as bench (the
// simulation benchmark, not hardware to hand off).
const synthInSoakOnly = new Set(['bench', 'bvh_ic', 'ic_core', 'ic_core_watertight', 'rtcore', 'gfx12_box', 'gfx12_primitive', 'texture_lod', 'texel_coordinates', 'bilinear_blend', 'texture_unit', 'bvh8_ic', 'obb_ray_rotate', 'ray_transform', 'ray_box4', 'ray_box8', 'triangle_pair']);
type YosysCheck = 'synth' | 'front end' | 'synth in the gate-level checks';
const yosysCheckOf = (dir: string): YosysCheck =>
  process.env.RTGPU_SOAK === '1' ? 'synth' : gateLevelDesigns.has(dir) ? 'synth in the gate-level checks' : synthInSoakOnly.has(dir) ? 'front end' : 'synth';

describe('every design in rtl-out passes the three tools', () => {
  // The cosim designs' directories, each with its own file list (rtgpu_top and synth/ are test/rtl/rtlHandoff.test.ts's).
  const dirs = readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(root, e.name, `${e.name}.f`))).map((e) => e.name).sort();
  test('there are designs to check', () => expect(dirs.length).toBeGreaterThanOrEqual(9));
  for (const dir of dirs) {
    const yosys = yosysCheckOf(dir);
    test(`${dir} (Yosys: ${yosys})`, async () => {
      const fileList = readFileSync(join(root, dir, `${dir}.f`), 'utf8').trim().split('\n');
      const files = readdirSync(join(root, dir)).map((path) => ({ path, text: readFileSync(join(root, dir, path), 'utf8') }));
      const top = fileList.at(-1)!.replace(/\.sv$/, '');
      const src = { top, files, fileList };
      const yosysRun = yosys === 'synth' ? yosysSynth(src) : yosys === 'front end' ? yosysElaborate(src) : undefined;
      const [v, i, y] = await Promise.all([verilatorLint(src), icarusCompile(src), yosysRun]);
      expect(v.output, 'verilator --lint-only -Wall').toBe('');
      expect(i.output, 'iverilog -g2012 -Wall').toBe('');
      if (y) expect(y.ok, `yosys ${yosys}:\n${y.output}`).toBe(true);
    }, 300_000);
  }
});
