// `rtgpu asm` and `rtgpu disasm` end to end: files, formats, round trips, exit codes, errors without stack traces.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';

const rtgpu = (args: string[], input = '') => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { input, reject: false });

// Expected words by hand: ii_addi R2, R1, #7 = 101000 00010 00001 0000000000000111; be #-8 from 0x04 to 0x00;
// s_push R5 = s_store_4byte R5, R29, #0 + ii_addi R29, R29, #4; fin = 111011 << 26.
const SOURCE = 'start: ii_addi R2, R1, #7\n  be start\n  s_push R5\n  fin\n  .string "ok"\n';
const HEX = ['a0410007', 'c000fff8', 'f0bd0000', 'a3bd0004', 'ec000000', '00006b6f'];

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('rtgpu asm', () => {
  test('a file to hex on stdout, to a hex file, to a raw binary file; stdin', async () => {
    const dir = tempDir('asm');
    const src = join(dir, 'prog.s');
    writeFileSync(src, SOURCE);
    const out = await rtgpu(['asm', src]);
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    expect(out.stdout.split('\n')).toEqual(HEX);

    const hexFile = join(dir, 'prog.hex');
    expect((await rtgpu(['asm', src, '-o', hexFile])).exitCode).toBe(0);
    expect(readFileSync(hexFile, 'utf8')).toBe(HEX.join('\n') + '\n');

    const binFile = join(dir, 'prog.bin');
    expect((await rtgpu(['asm', src, '-o', binFile, '--format', 'bin'])).exitCode).toBe(0);
    expect(Array.from(readFileSync(binFile).subarray(0, 8))).toEqual([0x07, 0x00, 0x41, 0xa0, 0xf8, 0xff, 0x00, 0xc0]);
    expect(readFileSync(binFile).length).toBe(4 * HEX.length);

    const piped = await rtgpu(['asm'], SOURCE);
    expect(piped.stdout.split('\n')).toEqual(HEX);
  }, 60_000);

  test('assembly errors: file:line:col, exit 1, no stack trace', async () => {
    const dir = tempDir('asm');
    const src = join(dir, 'bad.s');
    writeFileSync(src, 'fin\n  foo R1\n  ii_add R31, R1, R2\n');
    const r = await rtgpu(['asm', src, '-o', join(dir, 'bad.hex')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')).toEqual([`rtgpu: ${src}:2:3: error: unknown mnemonic 'foo'`, `${src}:3:10: error: R31 is the program counter and cannot be written`]);
    expect(r.stdout).toBe('');
    const stdin = await rtgpu(['asm'], 'jmp nowhere\n');
    expect(stdin.stderr).toBe("rtgpu: <stdin>:1:5: error: undefined label 'nowhere'");
    noStack(r.stderr);
  }, 60_000);

  test('a program longer than the instruction memory: an error at its first word past it, exit 1, nothing written', async () => {
    const dir = tempDir('asm');
    const src = join(dir, 'big.s');
    // 4096 words fit (line 1 is a comment); the 4097th instruction is on line 4098.
    writeFileSync(src, '; too long\n' + 'fin\n'.repeat(5001));
    const out = join(dir, 'big.hex');
    const r = await rtgpu(['asm', src, '-o', out]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`rtgpu: ${src}:4098:1: error: the program does not fit the instruction memory: it holds 4096 words (bytes 0x0000-0x3fff), the program has 5001; word 4096 is the first past it`);
    expect(existsSync(out)).toBe(false);
    const piped = await rtgpu(['asm'], 'fin\n'.repeat(4097));
    expect(piped.exitCode).toBe(1);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toMatch(/^rtgpu: <stdin>:4097:1: error: the program does not fit/);
    // Exactly full is fine, and `run` says the same as asm.
    writeFileSync(src, 'fin\n'.repeat(4096));
    expect((await rtgpu(['asm', src, '-o', out])).exitCode).toBe(0);
    writeFileSync(src, 'fin\n'.repeat(4097));
    const run = await rtgpu(['run', src]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^rtgpu: ${src}:4097:1: error: the program does not fit the instruction memory`));
    noStack(r.stderr);
  }, 60_000);

  test('usage errors exit 2; unreadable input exits 1; the input is never overwritten', async () => {
    const dir = tempDir('asm');
    const src = join(dir, 'prog.s');
    writeFileSync(src, SOURCE);
    const same = await rtgpu(['asm', src, '-o', join(dir, '.', 'prog.s')]);
    expect(same.exitCode).toBe(2);
    expect(same.stderr).toBe(`rtgpu: refusing to overwrite the input file ${src} with the output`);
    const link = join(dir, 'link.s');
    symlinkSync(src, link);
    const viaLink = await rtgpu(['asm', src, '-o', link]);
    expect(viaLink.exitCode).toBe(2);
    expect(readFileSync(src, 'utf8')).toBe(SOURCE);
    const bin = await rtgpu(['asm', src, '--format', 'bin']);
    expect(bin.exitCode).toBe(2);
    expect(bin.stderr).toBe('rtgpu: --format bin writes raw bytes: give an output file with -o');
    const format = await rtgpu(['asm', src, '--format', 'elf']);
    expect(format.exitCode).toBe(2);
    expect(format.stderr).toBe("rtgpu: unknown format 'elf' (choose from hex, bin)");
    const two = await rtgpu(['asm', src, src]);
    expect(two.exitCode).toBe(2);
    expect(two.stderr).toMatch(/^rtgpu: expected at most one input file\n\nusage: rtgpu asm/);
    const missing = await rtgpu(['asm', '/nonexistent/prog.s']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/^rtgpu: cannot read \/nonexistent\/prog.s: ENOENT/);
    const help = await rtgpu(['asm', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^usage: rtgpu asm \[FILE\] \[-o OUT\] \[--format hex\|bin\]/);
    for (const r of [same, bin, format, two, missing]) noStack(r.stderr);
  }, 60_000);
});

describe('rtgpu disasm', () => {
  test('hex and binary input; the output assembles back to the same words', async () => {
    const dir = tempDir('disasm');
    const hexFile = join(dir, 'prog.hex');
    // The words above plus two that are not instructions (data).
    const words = [...HEX, 'ffffffff', '63e11000'];
    writeFileSync(hexFile, `// a comment\n${words.slice(0, 2).join(' ')}\n0x${words.slice(2).join('\n')}\n`);
    const r = await rtgpu(['disasm', hexFile]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.replace(/\s*\/\/.*/, '').trim())).toEqual(['ii_addi R2, R1, #7', 'be #-8', 's_store_4byte R5, R29, #0', 'ii_addi R29, R29, #4', 'fin', '.word 0x00006b6f', '.word 0xffffffff', '.word 0x63e11000']);
    expect(r.stdout.split('\n')[1]).toMatch(/\/\/ 0x0004 -> 0x0000$/);

    const back = await rtgpu(['asm'], r.stdout);
    expect(back.stdout.split('\n')).toEqual(words);

    const binFile = join(dir, 'prog.bin');
    writeFileSync(binFile, Buffer.from([0x07, 0x00, 0x41, 0xa0, 0x00, 0x00, 0x00, 0xec]));
    const bin = await rtgpu(['disasm', binFile, '--format', 'bin', '-o', join(dir, 'out.s')]);
    expect(bin.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'out.s'), 'utf8')).toMatch(/^ {4}ii_addi R2, R1, #7 +\/\/ 0x0000\n {4}fin +\/\/ 0x0004\n$/);
  }, 60_000);

  test('malformed input: file:line, exit 1, no stack trace', async () => {
    const dir = tempDir('disasm');
    const bad = join(dir, 'bad.hex');
    writeFileSync(bad, 'a0410007\n\nzz\n');
    const r = await rtgpu(['disasm', bad]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`rtgpu: ${bad}:3: 'zz' is not a 32-bit hex word`);
    const wide = await rtgpu(['disasm'], '123456789\n');
    expect(wide.stderr).toBe("rtgpu: <stdin>:1: '123456789' is not a 32-bit hex word");
    const binFile = join(dir, 'odd.bin');
    writeFileSync(binFile, Buffer.from([1, 2, 3]));
    const odd = await rtgpu(['disasm', '--format', 'bin', binFile]);
    expect(odd.exitCode).toBe(1);
    expect(odd.stderr).toBe(`rtgpu: ${binFile}: 3 bytes is not a whole number of 32-bit words`);
    const same = await rtgpu(['disasm', bad, '-o', bad]);
    expect(same.exitCode).toBe(2);
    for (const x of [r, wide, odd, same]) noStack(x.stderr);
  }, 60_000);
});
