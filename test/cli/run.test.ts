// `rtgpu run --sim iss`: kernels in, one returned vector per pixel out; bad input gives file:line messages.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { enc } from '../golden/encode.ts';
import { rtgpuInProcess } from './inProcessCli.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', 'run', ...args], { reject: false });
/** The same command line in this process (test/cli/inProcessCli.ts): for the cases whose process side another case checks. */
const rtgpuHere = (...args: string[]) => rtgpuInProcess('run', ...args);

/** Write files into a fresh temporary directory; returns their paths by name. */
function files(contents: Record<string, string>): Record<string, string> {
  const dir = tempDir('run');
  return Object.fromEntries(
    Object.entries(contents).map(([name, text]) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return [name, path];
    }),
  );
}

// Result = (float(pixel id), 0, 0, 1.0), stored at R29 + 0xFFF0; 9 instructions per pixel.
const pixelKernel = `; the pixel id as a float, and 1.0
    s_itof R2, R1
    v_get_from_s RV1, R2, 0
    s_write_high R3, 0x3f80
    v_get_from_s RV1, R3, 3
    ii_addi R4, R29, 0x7ff0
    ii_addi R4, R4, 0x7ff0
    ii_addi R4, R4, 0x10
    v_store_16byte RV1, R4, 0
    fin
`;

/** A kernel that sets up RV14 (origin) and RV15 (direction) with `setup`, traces, and returns RV14. */
const traceKernel = (setup: string) => `${setup}
    trace
    ii_addi R4, R29, 0x7ff0
    ii_addi R4, R4, 0x7ff0
    ii_addi R4, R4, 0x10
    v_store_16byte RV14, R4, 0
    fin
`;
// direction (0, 0, −1)
const down = `    s_write_high R2, 0xbf80
    v_get_from_s RV15, R2, 2`;

describe('rtgpu run --sim iss', () => {
  test('prints each pixel and the counts; --json', async () => {
    const f = files({ 'k.s': pixelKernel });
    const r = await rtgpu(f['k.s']!, '--pixels', '3');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual([
      'pixel 0: 00000000 00000000 00000000 3f800000',
      'pixel 1: 3f800000 00000000 00000000 3f800000',
      'pixel 2: 40000000 00000000 00000000 3f800000',
      'instructions: 27',
      'cycles: 27',
    ]);
    const j = await rtgpu(f['k.s']!, '--pixels', '2', '--json', '--sim', 'iss');
    expect(j.exitCode).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({
      cycles: 18,
      instructions: 18,
      pixels: [
        { pixel: 0, ret: ['00000000', '00000000', '00000000', '3f800000'] },
        { pixel: 1, ret: ['3f800000', '00000000', '00000000', '3f800000'] },
      ],
      faults: [],
    });
  }, 60_000);

  test('a .hex program and --const', async () => {
    // R10 = 0x20000000; RV1.x = const[1], RV1.w = const[0]; store at R29 + 0xFFF0
    const words = [
      enc('s_write_high', 10, 0x2000),
      enc('s_load_4byte', 2, 10, 4),
      enc('v_get_from_s', 1, 2, 0),
      enc('s_load_4byte', 2, 10, 0),
      enc('v_get_from_s', 1, 2, 3),
      enc('ii_addi', 4, 29, 0x7ff0),
      enc('ii_addi', 4, 4, 0x7ff0),
      enc('ii_addi', 4, 4, 0x10),
      enc('v_store_16byte', 1, 4, 0),
      enc('fin'),
    ];
    const f = files({ 'k.hex': words.map((w) => w.toString(16).padStart(8, '0')).join('\n') + '\n', 'c.hex': 'deadbeef\n0x12345678  # second word\n' });
    const r = await rtgpu(f['k.hex']!, '--const', f['c.hex']!);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe('pixel 0: 12345678 00000000 00000000 deadbeef');
  }, 60_000);

  test('trace against an OBJ scene and against the built-in scene', async () => {
    // OBJ: one triangle in z = −2 with the second material (shader 2); the ray from 0 along −z hits (0, 0, −2).
    const obj = 'usemtl a\nusemtl b\nv -1 -1 -2\nv 1 -1 -2\nv 0 1 -2\nf 1 2 3\n';
    const f = files({ 'obj.s': traceKernel(down), 'scene.obj': obj, 'box.s': traceKernel(`${down}\n    s_write_high R3, 0x3f80\n    v_get_from_s RV14, R3, 1\n    s_write_high R3, 0x4060\n    v_get_from_s RV14, R3, 2`) });
    const r = await rtgpu(f['obj.s']!, '--scene', f['scene.obj']!);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toBe('pixel 0: 00000000 00000000 c0000000 00000002');
    // Built-in scene: from (0, 1, 3.5) along −z the back wall (shader 1) at (0, 1, −1).
    const b = await rtgpu(f['box.s']!);
    expect(b.stdout.split('\n')[0]).toBe('pixel 0: 00000000 3f800000 bf800000 00000001');
  }, 60_000);

  test('faulting pixels are marked and listed, and the exit status is 3', async () => {
    // pixel 1 loads from address 0 (a fault) and still finishes
    const kernel = 'ii_subi R2, R1, 1\ncmp_i R2, R0\nbne done\ns_load_4byte R3, R0, 0\ndone:\nfin\n';
    const f = files({ 'f.s': kernel });
    const r = await rtgpu(f['f.s']!, '--pixels', '3');
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe('rtgpu: 1 pixel faulted (pixel 1); exit status 3');
    expect(r.stdout.split('\n')).toEqual([
      'pixel 0: 00000000 00000000 00000000 00000000',
      'pixel 1: 00000000 00000000 00000000 00000000 fault',
      'pixel 2: 00000000 00000000 00000000 00000000',
      'instructions: 13',
      'cycles: 13',
      'faults: 1 (pixels 1)',
    ]);
    const j = await rtgpu(f['f.s']!, '--pixels', '3', '--json');
    expect(j.exitCode).toBe(3);
    expect(JSON.parse(j.stdout).faults).toEqual([1]);
    // The same on the whole GPU.
    const ts = await rtgpu(f['f.s']!, '--pixels', '3', '--sim', 'ts', '--json');
    expect(ts.exitCode).toBe(3);
    expect(JSON.parse(ts.stdout).faults).toEqual([1]);
    expect(ts.stderr).toMatch(/^rtgpu: 1 pixel faulted \(pixel 1\); exit status 3$/m);
  }, 120_000);

  test('the built-in shade kernel gets the default frame\'s constants: the pixels of rtgpu render, not black', async () => {
    const dir = tempDir('run');
    const pixels = 64 * 8;
    const [run, render] = await Promise.all([
      rtgpu('src/host/kernels/shade.s', '--pixels', String(pixels), '--json'),
      execa(process.execPath, ['bin/rtgpu.mjs', 'render', '--sim', 'iss', '--out', join(dir, 'r.png'), '--dump', join(dir, 'r.json')], { reject: false }),
    ]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(render.exitCode).toBe(0);
    const got = JSON.parse(run.stdout).pixels as { pixel: number; ret: string[] }[];
    const want = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).pixels as { pixel: number; ret: string[] }[]).slice(0, pixels);
    expect(got).toEqual(want);
    // Sky and the room: r, g or b above 0 in every pixel.
    for (const p of got) expect(p.ret.slice(0, 3).some((w) => w !== '00000000'), `pixel ${p.pixel}`).toBe(true);
  }, 120_000);

  test('input errors name file and line, exit 1, no stack traces', async () => {
    const f = files({ 'bad.s': 'fin\nbogus R1\n', 'k.s': pixelKernel, 'c.hex': '1\nxyz\n', 'bad.obj': 'v 0 0 0\nv 1 x 0\n', 'loop.s': 'loop:\n    jmp loop\n' });
    const asm = await rtgpu(f['bad.s']!);
    expect(asm.exitCode).toBe(1);
    expect(asm.stderr).toBe(`rtgpu: ${f['bad.s']}:2:1: error: unknown mnemonic 'bogus'`);
    const hex = await rtgpuHere(f['k.s']!, '--const', f['c.hex']!);
    expect(hex.exitCode).toBe(1);
    expect(hex.stderr).toBe(`rtgpu: ${f['c.hex']}:2: 'xyz' is not a 32-bit hex word`);
    const obj = await rtgpuHere(f['k.s']!, '--scene', f['bad.obj']!);
    expect(obj.exitCode).toBe(1);
    expect(obj.stderr).toBe(`rtgpu: ${f['bad.obj']}:2: error: bad number 'x'`);
    const loop = await rtgpuHere(f['loop.s']!, '--max-instructions', '50', '--pixels', '2');
    expect(loop.exitCode).toBe(1);
    expect(loop.stderr).toBe(`rtgpu: pixel 0: no fin after 50 instructions (stopped at PC 0x0000 in ${f['loop.s']}:2); raise the instruction limit if the kernel is just long (rtgpu run --max-instructions, rtgpu render --max-cycles)`);
    const missing = await rtgpu('/nonexistent/k.s');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^rtgpu: cannot read \/nonexistent\/k.s: ENOENT/);
    for (const r of [asm, hex, obj, loop, missing]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  test('flag errors', async () => {
    const f = files({ 'k.s': pixelKernel });
    const sim = await rtgpu(f['k.s']!, '--sim', 'modelsim');
    expect(sim.exitCode).toBe(2);
    expect(sim.stderr).toBe("rtgpu: --sim: unknown simulator 'modelsim' (choose from ts, verilator, icarus, lockstep, iss, or a comma list of ts, verilator, icarus)");
    const px = await rtgpuHere(f['k.s']!, '--pixels', '0');
    expect(px.exitCode).toBe(2);
    expect(px.stderr).toBe('rtgpu: --pixels must be between 1 and 16777216, got 0');
    const none = await rtgpuHere();
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toMatch(/^rtgpu: expected one program file\n\nusage: rtgpu run PROGRAM/);
    const help = await rtgpuHere('--help');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/--sim S +ts, verilator or icarus: rtgpu_top live .*lockstep:/);
  }, 120_000);
});

describe('kernels with .include', () => {
  test('run follows the include; a stuck thread is reported at the included file and line', async () => {
    const dir = tempDir('run-include');
    writeFileSync(join(dir, 'lib.s'), 'loop:\n  jmp loop\n');
    writeFileSync(join(dir, 'ok.s'), 'done:\n  fin\n');
    writeFileSync(join(dir, 'main.s'), '  ii_addi R2, R0, 1\n  .include "lib.s"\n  fin\n');
    writeFileSync(join(dir, 'good.s'), '  .include "ok.s"\n');
    const stuck = await rtgpu(join(dir, 'main.s'), '--pixels', '1', '--max-instructions', '50');
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stderr).toContain(`(stopped at PC 0x0004 in ${join(dir, 'lib.s')}:2)`);
    const good = await rtgpu(join(dir, 'good.s'), '--pixels', '2');
    expect(good.exitCode).toBe(0);
    const missing = await rtgpu(join(dir, 'nope.s'));
    expect(missing.exitCode).toBe(1);
  }, 60_000);
});

describe('a run stopped at the instruction limit', () => {
  test('prints the pixels that finished (text and JSON), then the reason, exit 1', async () => {
    const dir = tempDir('run-stopped');
    // Pixel 1 spins; pixels 0 and 2 end at once (the ISS runs threads one after another).
    writeFileSync(join(dir, 'stop.s'), '  ii_addi R2, R0, 1\n  cmp_i R1, R2\n  be spin\n  fin\nspin:\n  jmp spin\n');
    const text = await rtgpu(join(dir, 'stop.s'), '--pixels', '3', '--max-instructions', '50');
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toBe('pixel 0: 00000000 00000000 00000000 00000000\nstopped: 1 of 3 pixels finished');
    expect(text.stderr).toMatch(/^rtgpu: pixel 1: no fin after 50 instructions \(stopped at PC 0x0010 in .*stop\.s:6\)/);
    const json = await rtgpu(join(dir, 'stop.s'), '--pixels', '3', '--max-instructions', '50', '--json');
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ stopped: true, finished: 1, pixelCount: 3, pixels: [{ pixel: 0, ret: ['00000000', '00000000', '00000000', '00000000'] }], faults: [] });
  }, 60_000);
});
