// `rtgpu fp`: operand lines in, one hex result per line out, on each simulator; bad input names its line.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';

const fp = (input: string, ...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', 'fp', ...args], { input, reject: false });

// Expected values derived by hand from IEEE-754 (not produced by the units).
const addLines = '3f800000 40000000\n0x7f7fffff 7f7fffff   # overflow to +inf\n\n00000001 80000000\n7f800000 ff800000\n';
const addResults = ['40400000', '7f800000', '00000001', '7fc00000'];

describe('rtgpu fp', () => {
  for (const sim of ['ts', 'verilator', 'icarus']) {
    test(`add on ${sim}`, async () => {
      const r = await fp(addLines, 'add', '--sim', sim);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')).toEqual(addResults);
    }, 120_000);
  }

  test('cmp prints the 2-bit ISA flag (0 Z, 3 N, 2 P, 1 unordered)', async () => {
    const r = await fp('3f800000 40000000\n40000000 3f800000\n80000000 00000000\n7fc00000 3f800000\n', 'cmp');
    expect(r.stdout.split('\n')).toEqual(['3', '2', '0', '1']);
  }, 60_000);

  test('one-operand ops, --stages, a file, and --check against the reference', async () => {
    const dir = tempDir('fp');
    const file = join(dir, 'ops.txt');
    writeFileSync(file, '40800000\n3f800000\nbf800000\n00000000\n');
    const r = await fp('', 'sqrt', file, '--stages', '0', '--check', '--sim', 'verilator');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')).toEqual(['40000000', '3f800000', '7fc00000', '00000000']);
    expect(r.stderr).toBe('4 operations on verilator, 0 differences from the reference');
    const f = await fp('4f000000\nc0000000\n7fc00000\n', 'ftoi');
    expect(f.stdout.split('\n')).toEqual(['7fffffff', 'fffffffe', '00000000']);
    const i = await fp('ffffffff\n01000001\n', 'itof');
    expect(i.stdout.split('\n')).toEqual(['bf800000', '4b800000']);
  }, 120_000);

  test('bad input names the source and line and exits 1 without a stack trace', async () => {
    const bad = await fp('3f800000 40000000\n3f80000g 1\n', 'add');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe("rtgpu: <stdin>:2: '3f80000g' is not a 32-bit hex word");
    const arity = await fp('3f800000\n', 'mul');
    expect(arity.stderr).toBe("rtgpu: <stdin>:1: expected two hex words, got 1: '3f800000'");
    const wide = await fp('123456789\n', 'sqrt');
    expect(wide.stderr).toBe("rtgpu: <stdin>:1: '123456789' is not a 32-bit hex word");
    const op = await fp('', 'fma');
    expect(op.exitCode).toBe(2);
    expect(op.stderr).toMatch(/^rtgpu: unknown op 'fma'; ops: add, sub, mul, div, sqrt, cmp, itof, ftoi/);
    const sim = await fp('', 'add', '--sim', 'modelsim');
    expect(sim.stderr).toBe("rtgpu: unknown simulator 'modelsim' (choose from ts, verilator, icarus, icarus-gate, icarus-gate-reset)");
    const missing = await fp('', 'add', '/nonexistent/ops.txt');
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^rtgpu: cannot read \/nonexistent\/ops.txt: ENOENT/);
    for (const r of [bad, arity, wide, op, sim, missing]) expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
