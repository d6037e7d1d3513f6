// `rtgpu synth` as a user meets it: the table and JSON, and clear errors (exit status, no stack trace) for bad input and Yosys trouble.
import { describe, expect, test } from 'vitest';
import { chmodSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { tempDir } from '../tempDir.ts';
import { runYosys, YosysError } from '../../src/hdl/tools/yosys.ts';
import { runCliCases } from '../cli/inProcessCli.ts';

const rtgpu = (args: string[], env: Record<string, string> = {}) => execa(process.execPath, ['bin/rtgpu.mjs', 'synth', ...args], { reject: false, env, extendEnv: true });
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('rtgpu synth', () => {
  test('prints the per-module table (and --out writes it); --json prints the report', async () => {
    const dir = tempDir('synth-cli');
    const out = join(dir, 'fifo.txt');
    const r = await rtgpu(['fifo', '--target', 'generic', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^module\s+count\s+gates\s+FFs\s+BRAMs\s+LUT-RAM\s+DSPs\s+depth$/m);
    expect(r.stdout).toMatch(/^Fifo_depth16_width8\s+1\s+\d+\s+\d+\s+1\s+0\s+0\s+\d+ \/ \d+$/m);
    expect(r.stdout).toMatch(/^Fifo_depth16_width8\s+storage\s+block RAM\s+1\s+0$/m);
    expect(readFileSync(out, 'utf8')).toBe(`${r.stdout}\n`);
    const j = await rtgpu(['fifo', '--target', 'generic', '--json']);
    expect(j.exitCode).toBe(0);
    const report = JSON.parse(j.stdout);
    expect(report).toMatchObject({ target: 'generic', top: 'Fifo_depth16_width8', total: { brams: 1 }, memories: [{ memory: 'storage', mappedTo: 'block RAM' }] });
  }, 120_000);

  test('bad input: unknown target, design or module, GPU flags on a block', async () => {
    // The first two through bin/rtgpu.mjs, the others in-process (test/cli/inProcessCli.ts).
    const [target, design, top, flags] = await runCliCases([['fifo', '--target', 'virtex'], ['fifoo'], ['ic_buffer', '--top', 'Nope'], ['fifo', '--rt-cores', '2']], { spawn: (...argv) => rtgpu(argv), spawnAt: [0, 1], prefix: ['synth'] });
    expect(target.exitCode).toBe(2);
    expect(target.stderr).toBe("rtgpu: unknown target 'virtex' (choose from generic, xilinx, intel, ecp5, ice40)");
    expect(design.exitCode).toBe(1);
    expect(design.stderr).toMatch(/^rtgpu: unknown design 'fifoo'; 'rtgpu cosim --list' lists them: fifo, /);
    expect(top.exitCode).toBe(1);
    expect(top.stderr).toMatch(/^rtgpu: design IcBuffer_depth32_icCores4_rtCores4 has no module 'Nope'; its modules: IcQueue_depth32_sources4_width288, /);
    expect(flags.exitCode).toBe(2);
    expect(flags.stderr).toMatch(/apply to rtgpu_top only, not 'fifo'/);
    for (const r of [target, design, top, flags]) noStack(r.stderr);
  }, 120_000);

  test('Yosys failing: its error line and the end of its log, exit 1', async () => {
    // A yosys that reports its version, then fails the way a synthesis error does.
    const bin = tempDir('synth-fake-yosys');
    writeFileSync(join(bin, 'yosys'), '#!/bin/sh\nif [ "$1" = "-V" ]; then echo "Yosys 0.0 (fake)"; exit 0; fi\necho "1. Executing SYNTH pass."\necho "ERROR: out of luck"\nexit 1\n');
    chmodSync(join(bin, 'yosys'), 0o755);
    const r = await rtgpu(['fifo'], { PATH: `${bin}${delimiter}${process.env.PATH}` });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^rtgpu: yosys failed \(exit 1\): ERROR: out of luck\n--- end of the Yosys log ---\n1\. Executing SYNTH pass\.\nERROR: out of luck$/);
    noStack(r.stderr);
  }, 120_000);

  test('no Yosys on PATH and npm offline: says so and how to install it, exit 1', async () => {
    // PATH with node and npm only; an empty npm cache and rtgpu cache, and npm told not to use the network.
    const bin = tempDir('synth-no-yosys');
    const cache = tempDir('synth-cache');
    symlinkSync(process.execPath, join(bin, 'node'));
    const npm = (await execa('sh', ['-c', 'command -v npm'])).stdout.trim();
    symlinkSync(realpathSync(npm), join(bin, 'npm'));
    const r = await rtgpu(['fifo'], { PATH: bin, XDG_CACHE_HOME: cache, npm_config_cache: join(cache, 'npm'), npm_config_offline: 'true' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^rtgpu: yosys not found on PATH, and the WebAssembly build could not be used instead: could not install @yowasp\/yosys@[\d.]+ from npm \(.+\)\. Install Yosys: 'bash scripts\/install-tools\.sh' \(Debian: apt-get install yosys\)$/);
    noStack(r.stderr);
  }, 120_000);
});

test('runYosys: a failing script throws YosysError with the error and the log tail', async () => {
  const dir = tempDir('synth-run');
  const e = await runYosys('read_verilog -sv missing.sv\n', { cwd: dir }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(YosysError);
  expect((e as YosysError).message).toMatch(/^yosys failed \(exit 1\): ERROR: .*missing\.sv/);
  expect((e as YosysError).logTail).toMatch(/Executing script file `script.ys'/);
});
