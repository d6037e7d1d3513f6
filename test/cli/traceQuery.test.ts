// `trace RVa` on every path that runs a program (docs/rays.md): rtgpu run on the ISS and on the simulated GPU (the TS
// simulator alone, and TS and Verilator in lockstep, Icarus too in the soak), runGpu, GpuSession, and the RT core testbench: one
// hand-derived answer, RV13 = (t, u, v, no instance), the same everywhere.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { SOAK } from '../scale.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { formatHexWords } from '../../src/isa/hexWords.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { GpuSession, runGpu, type GpuJob } from '../../src/host/runtime/index.ts';
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
// The triangle (−1, −1), (1, −1), (0, 1) at z = −2: the ray meets it at t = 2, at (0, 0) = v0 + 0.25 e1 + 0.5 e2.
const obj = 'v -1 -1 -2\nv 1 -1 -2\nv 0 1 -2\nf 1 2 3\n';
const RV13 = [0x40000000, 0x3e800000, 0x3f000000, 0xffffffff];
const RV13_LINE = 'pixel 0: 40000000 3e800000 3f000000 ffffffff';

function files(): Record<string, string> {
  const dir = tempDir('trace-query');
  const words = assemble(kernel, 'k.s').words;
  const contents: Record<string, string> = { 'k.s': kernel, 'k.hex': formatHexWords(words), 'scene.obj': obj };
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
  test.each(['iss', 'ts'])('--sim %s: RV13 = (t 2, u 0.25, v 0.5, no instance)', async (sim) => {
    const f = files();
    const r = await rtgpuInProcess('run', f['k.s']!, '--scene', f['scene.obj']!, '--sim', sim);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(RV13_LINE);
  }, 120_000);

  // Icarus joins in the soak (RTGPU_SOAK=1): in CI it runs trace RVa in the shade kernel's shadow rays (lighting.s),
  // in lockstep with TS and Verilator (test/gpu/gpuCosim.test.ts), and its compile and run here cost CI about a minute.
  const lockstep = SOAK ? 'lockstep' : 'ts,verilator';
  test(`--sim ${lockstep} (${SOAK ? 'TS, Verilator and Icarus' : 'TS and Verilator'} every cycle), from the hex program`, async () => {
    const f = files();
    const r = await rtgpuInProcess('run', f['k.hex']!, '--scene', f['scene.obj']!, '--sim', lockstep);
    // Nothing on stderr but, on a first run, what was built for the simulators.
    for (const line of r.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^(verilator: building|icarus: compiling) rtgpu_top \(\d+ files\) \(cached for the next run\)$/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(RV13_LINE);
  }, 1_200_000);
});

describe('the host runtime and the RT core testbench run trace RVa', () => {
  test('runGpu (with render workers too) and GpuSession answer as the ISS', async () => {
    for (const sim of ['iss', 'ts'] as const) expect([...(await runGpu(job(), { sim })).pixels[0]!.ret]).toEqual(RV13);
    expect([...(await runGpu(job(), { sim: 'ts', jobs: 2 })).pixels[0]!.ret]).toEqual(RV13);
    const session = await GpuSession.open(job(), { sim: 'ts' });
    try {
      expect([...session.run(0, 1).pixels[0]!.ret]).toEqual(RV13);
    } finally {
      session.close();
    }
  }, 120_000);

  test('runOnCore (the RT core with the golden dispatcher) answers as the ISS', () => {
    const words = assemble(kernel, 'k.s').words;
    const scene = parseObj(obj, 'scene.obj');
    const r = runOnCore({ program: words, scene, pixels: 1 });
    expect([...r.pixels[0]!.ret]).toEqual(RV13);
  });
});
