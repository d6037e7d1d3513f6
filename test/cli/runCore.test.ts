// `rtgpu run --sim ts|verilator|icarus`: the whole GPU gives the ISA simulator's results; limits are errors.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', 'run', ...args], { reject: false });

// Result = (pixel, pixel × 3, 1.0 × pixel as float, 0); derived by hand below.
const kernel = `
    ii_muli R2, R1, 3
    s_itof R3, R1
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R1, R7, 0
    s_store_4byte R2, R7, 4
    s_store_4byte R3, R7, 8
    fin
`;

describe('rtgpu run on the whole GPU', () => {
  // ts alone, and live on all three simulators of the RTL in lockstep (rtgpu_top's Verilator build is
  // shared with test/gpu/gpuCosim.test.ts through the build cache).
  for (const sim of ['ts', 'ts,verilator,icarus']) {
    test(`--sim ${sim}`, async () => {
      const file = join(tempDir('runcore'), 'k.s');
      writeFileSync(file, kernel);
      const r = await rtgpu(file, '--pixels', '3', '--sim', sim, '--json');
      // Nothing on stderr but, on a first run, what was built for the simulators.
      for (const line of r.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^(verilator: building|icarus: compiling) rtgpu_top \(\d+ files\) \(cached for the next run\)$/);
      expect(r.exitCode).toBe(0);
      const out = JSON.parse(r.stdout) as { cycles: number; instructions: number; pixels: { pixel: number; ret: string[] }[]; faults: number[] };
      expect(out.instructions).toBe(24);
      expect(out.cycles).toBeGreaterThan(24);
      expect(out.faults).toEqual([]);
      expect(out.pixels.map((p) => p.ret)).toEqual([
        ['00000000', '00000000', '00000000', '00000000'],
        ['00000001', '00000003', '3f800000', '00000000'],
        ['00000002', '00000006', '40000000', '00000000'],
      ]);
    }, 600_000);
  }

  test('a kernel that never ends stops at the cycle limit naming the thread, its core and source line', async () => {
    const file = join(tempDir('runcore'), 'spin.s');
    writeFileSync(file, 'loop:\n  jmp loop\n');
    const r = await rtgpu(file, '--sim', 'ts', '--max-cycles', '2000');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('rtgpu: the frame did not finish within 2000 cycles (--max-cycles); patch 0 (pixels 0..0) is stuck:');
    expect(r.stderr).toContain(`running: thread 0 (pixel 0) on RT core 0 context 0 at PC 0x0000 (${file}:2)`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
