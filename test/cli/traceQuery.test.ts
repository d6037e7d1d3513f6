// The simulated GPU refuses `trace RVa` (docs/isa.md "trace RVa", Status): its RT core would run it as a plain trace.
// Every path that runs a program on the GPU's RTL (rtgpu run with a GPU --sim, runGpu, runFrame, GpuSession, the RT
// core testbench) names the program's file and line (or its PC) before anything is built; --sim iss runs it.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { formatHexWords } from '../../src/isa/hexWords.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { GpuRunError, GpuSession, runFrame, runGpu, type GpuJob } from '../../src/host/runtime/index.ts';
import { runOnCore } from '../../src/gpu/index.ts';
import { rtgpuInProcess } from './inProcessCli.ts';

// Origin 0, direction −z; RV3 = (tmin 0, tmax +inf, flags 0xff00); trace RV3; RV13 returned.
const kernel = `    s_write_high R2, 0xbf80
    v_get_from_s RV15, R2, 2
    s_write_high R2, 0x7f80
    v_get_from_s RV3, R2, 1
    s_write_low R2, 0xff00
    s_write_high R2, 0
    v_get_from_s RV3, R2, 2
    trace RV3
    ii_addi R4, R29, 0x7ff0
    ii_addi R4, R4, 0x7ff0
    ii_addi R4, R4, 0x10
    v_store_16byte RV13, R4, 0
    fin
`;
// Line 8 is the trace RV3, word 7 (PC 0x001c).
const TRACE_LINE = 8;
const obj = 'v -1 -1 -2\nv 1 -1 -2\nv 0 1 -2\nf 1 2 3\n';
const at = (where: string) => `${where}: 'trace RV3' (0xe8600000) casts a ray query (interval, flags, mask: docs/rays.md), which the simulated GPU does not run yet (its RT core would cast a plain trace)`;
const REFUSED_HINT = '; run it on the ISA simulator (--sim iss)';

function files(): Record<string, string> {
  const dir = tempDir('trace-query');
  const words = assemble(kernel, 'k.s').words;
  const contents: Record<string, string> = { 'k.s': kernel, 'k.hex': formatHexWords(words), 'scene.obj': obj, 'main.s': '    fin\n    .include "k.s"\n' };
  return Object.fromEntries(Object.entries(contents).map(([name, text]) => (writeFileSync(join(dir, name), text), [name, join(dir, name)])));
}

const job = (): GpuJob => ({
  program: assemble(kernel, 'k.s').words,
  sourceFile: 'k.s',
  sourceLines: assemble(kernel, 'k.s').sourceLines,
  constants: new Uint32Array(0),
  triangles: sceneToImage(parseObj(obj, 'scene.obj')),
  pixels: 1,
});

describe('rtgpu run: a program with trace RVa', () => {
  test('--sim iss runs it: RV13 = (t 2, u 0.25, v 0.5, no instance)', async () => {
    const f = files();
    const r = await rtgpuInProcess('run', f['k.s']!, '--scene', f['scene.obj']!, '--sim', 'iss');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('pixel 0: 40000000 3e800000 3f000000 ffffffff');
  });

  test.each(['ts', 'verilator', 'icarus', 'lockstep', 'ts,icarus'])('--sim %s refuses it, naming file:line and PC', async (sim) => {
    const f = files();
    const r = await rtgpuInProcess('run', f['k.s']!, '--scene', f['scene.obj']!, '--sim', sim);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`rtgpu: ${at(`${f['k.s']}:${TRACE_LINE} (PC 0x001c)`)}${REFUSED_HINT}`);
  });

  test('a hex program is named by its file and the word and PC; an included file by its own name and line', async () => {
    const f = files();
    const hex = await rtgpuInProcess('run', f['k.hex']!, '--scene', f['scene.obj']!, '--sim', 'ts');
    expect([hex.exitCode, hex.stderr]).toEqual([1, `rtgpu: ${at(`${f['k.hex']}, word 7 (PC 0x001c)`)}${REFUSED_HINT}`]);
    const included = await rtgpuInProcess('run', f['main.s']!, '--scene', f['scene.obj']!, '--sim', 'ts');
    expect([included.exitCode, included.stderr]).toEqual([1, `rtgpu: ${at(`${f['k.s']}:${TRACE_LINE} (PC 0x0020)`)}${REFUSED_HINT}`]);
  });

  test('the process: exit status 1, the message alone on stderr, no stack trace', async () => {
    const f = files();
    const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'run', f['k.s']!, '--scene', f['scene.obj']!, '--sim', 'ts'], { reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`rtgpu: ${at(`${f['k.s']}:${TRACE_LINE} (PC 0x001c)`)}${REFUSED_HINT}`);
  }, 30_000);
});

describe('the host runtime and the RT core testbench refuse trace RVa', () => {
  test('runGpu on every GPU simulator (and with render workers), runFrame and GpuSession.open throw a GpuRunError', async () => {
    const message = `${at(`k.s:${TRACE_LINE} (PC 0x001c)`)}${REFUSED_HINT}`;
    for (const sim of ['ts', 'verilator', 'icarus', 'lockstep'] as const) await expect(runGpu(job(), { sim })).rejects.toThrow(new GpuRunError(message));
    await expect(runGpu(job(), { sim: 'ts', jobs: 2 })).rejects.toThrow(message);
    await expect(runFrame(job(), { sim: 'ts' })).rejects.toThrow(message);
    await expect(GpuSession.open(job(), { sim: 'ts' })).rejects.toThrow(message);
  });

  test('without source lines: the word and PC', async () => {
    const { sourceFile: _, sourceLines: __, ...bare } = job();
    await expect(runGpu(bare, { sim: 'ts' })).rejects.toThrow(`${at('the program, word 7 (PC 0x001c)')}${REFUSED_HINT}`);
  });

  test('runGpu on the ISS runs it', async () => {
    const r = await runGpu(job(), { sim: 'iss' });
    expect(r.pixels[0]!.ret).toEqual([0x40000000, 0x3e800000, 0x3f000000, 0xffffffff]);
  });

  test('runOnCore (the RT core with the golden dispatcher) refuses it', () => {
    const words = assemble(kernel, 'k.s').words;
    const scene = parseObj(obj, 'scene.obj');
    expect(() => runOnCore({ program: words, scene, pixels: 1 })).toThrow(at("the program's word 7 (PC 0x001c)"));
  });
});
