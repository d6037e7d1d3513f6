// `rtgpu prove` on design files: what it prints for each result and its exit status, the counterexample testbench
// replayed by `rtgpu sim`, bad flags and designs, and a missing solver named with its package.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, test } from 'vitest';
import { rtgpuInProcess, runCliCases } from '../cli/inProcessCli.ts';
import { tempDir } from '../tempDir.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const decade = 'test/formal/fixtures/decade.ts';

describe('rtgpu prove', () => {
  test('a failing assertion: its line, name, message and cycle, the waveform and the testbench; exit 1; rtgpu sim replays the failure', async () => {
    const out = tempDir('prove-cli');
    const r = await rtgpuInProcess('prove', decade, '--param', 'variant=broken', '--out', out, '--depth', '12');
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`${decade}: Decade_variant_broken, prove to depth 12 -> ${out}/`);
    expect(lines[1]).toMatch(/^FAILED: decade\.ts:\d+: assertion Decade_variant_broken\.digit: a decimal digit$/);
    expect(lines[2]).toMatch(/^ {2}fails at the clock edge ending cycle 10 \(11 cycles from power-on; prove, depth 12, \d+\.\d s\)$/);
    expect(lines[3]).toBe(`  waveform:   ${out}/cex_digit.vcd`);
    expect(lines[4]).toBe(`  testbench:  ${out}/cex_digit.ts  (rtgpu sim ${out}/cex_digit.ts --sim ts|verilator|icarus|lockstep)`);
    const sim = await rtgpuInProcess('sim', `${out}/cex_digit.ts`, '--sim', 'ts');
    expect(sim.exitCode).toBe(1);
    expect(sim.stdout).toMatch(/^FAIL: .*cex_digit\.ts on wasm, seed \d+, at cycle 10$/);
    // Reported at the property's line (the testbench file may name itself first).
    expect(sim.stderr).toMatch(/^rtgpu: (\S+: )?(\S*\/)?decade\.ts:\d+: assertion Decade_variant_broken\.digit failed: a decimal digit, at the clock edge ending cycle 10\n {2}count_1 = 10 \(0xa\)$/);
  }, 60_000);

  test('several clocks: the failure is at an instant, and its testbench sets the clocks', async () => {
    const out = tempDir('prove-cli');
    const r = await rtgpuInProcess('prove', 'test/formal/fixtures/twoClocks.ts', '--param', 'broken=true', '--mode', 'bmc', '--depth', '6', '--out', out);
    expect(r.exitCode).toBe(1);
    expect(r.stdout.split('\n')[2]).toMatch(/^ {2}fails at instant 3 \(4 instants, the clocks' levels chosen by the solver from power-on; bmc, depth 6, \d+\.\d s\)$/);
    const sim = await rtgpuInProcess('sim', `${out}/cex_aBelowNine.ts`, '--sim', 'ts');
    expect(sim.exitCode).toBe(1);
    expect(sim.stderr).toMatch(/twoClocks\.ts:\d+: assertion TwoClocks_broken1\.aBelowNine failed: a holds less than nine/);
  }, 60_000);

  test('proven, bounded and covers: exit 0, or 1 for a cover point not reached, each said plainly', async () => {
    const [proven, bounded, covers] = await runCliCases(
      [
        [decade, '--depth', '8'],
        [decade, '--param', 'variant=weak', '--depth', '8'],
        [decade, '--mode', 'cover', '--depth', '10'],
      ].map((a) => [...a, '--out', tempDir('prove-cli')]),
      { spawn: (...argv) => rtgpu('prove', ...argv), spawnAt: [0], prefix: ['prove'] },
    );
    expect(proven.exitCode).toBe(0);
    expect(proven.stdout.split('\n')[1]).toMatch(/^PROVEN: every assertion of Decade_variant_good holds in every reachable state \(k-induction closes at depth 8; \d+\.\d s\)$/);
    expect(bounded.exitCode).toBe(0);
    expect(bounded.stdout.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^BOUNDED: no assertion of Decade_variant_weak fails within 8 cycles from power-on; beyond that nothing is proven/),
      expect.stringMatching(/^ {2}induction does not close for Decade_variant_weak\.neverTwelve \(decade\.ts:\d+\): a state that need not be reachable breaks it \(.*induction\.vcd\);$/),
      '  state what makes it unreachable as further assertions, or try a larger --depth',
    ]);
    expect(covers.exitCode).toBe(1);
    expect(covers.stdout.split('\n').slice(1)).toEqual([
      expect.stringMatching(/^UNREACHED: 1 of 2 cover points of Decade_variant_good are not reached within 10 cycles/),
      expect.stringMatching(/^ {2}reached {6}Decade_variant_good\.seven \(decade\.ts:\d+\) at the edge ending cycle 7: .*cover0\.vcd$/),
      expect.stringMatching(/^ {2}not reached {2}Decade_variant_good\.eleven \(decade\.ts:\d+\) within 10 cycles$/),
    ]);
  }, 60_000);

  test('bad flags and designs: usage errors exit 2, designs with nothing to prove exit 1', async () => {
    const cases: [string[], number, RegExp][] = [
      [[], 2, /^rtgpu: expected one design file\n\nusage: rtgpu prove DESIGN\.ts/],
      [[decade, decade], 2, /^rtgpu: expected one design file/],
      [[decade, '--mode', 'induct'], 2, /^rtgpu: --mode must be one of bmc, prove, cover, got 'induct'$/],
      [[decade, '--depth', '0'], 2, /^rtgpu: --depth must be between 1 and 1000, got 0$/],
      [[decade, '--depth', 'ten'], 2, /^rtgpu: --depth expects a whole number, got 'ten'$/],
      [[decade, '--param', 'variant'], 2, /^rtgpu: --param expects key=value, got 'variant'$/],
      [[decade, '--frobnicate'], 2, /frobnicate/],
      [['test/formal/fixtures/nope.ts'], 1, /^rtgpu: test\/formal\/fixtures\/nope\.ts: no such file$/],
      [[decade, '--top', 'Nope'], 1, /^rtgpu: test\/formal\/fixtures\/decade\.ts has no module 'Nope'; it exports Decade$/],
      [['test/formal/fixtures/noProperties.ts'], 1, /^rtgpu: Wire has no properties to prove: state them in the design with m\.assert\(cond, message\), m\.assume\(cond\) and m\.cover\(cond, name\)$/],
    ];
    const runs = await runCliCases(
      cases.map(([argv]) => argv),
      { spawn: (...argv) => rtgpu('prove', ...argv), spawnAt: [0], prefix: ['prove'] },
    );
    runs.forEach((r, i) => {
      expect(r.stderr, cases[i]![0].join(' ')).toMatch(cases[i]![2]);
      expect(r.exitCode, cases[i]![0].join(' ')).toBe(cases[i]![1]);
    });
    expect((await rtgpuInProcess('prove', '--help')).stdout).toMatch(/^usage: rtgpu prove DESIGN\.ts .*\n[^]*--mode cover[^]*--no-typecheck/);
  }, 60_000);

  test('the solver missing: an error naming its package, not a skipped proof', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'rtgpu-prove-bin-'));
    try {
      for (const tool of ['yosys', 'yosys-smtbmc']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
      symlinkSync(process.execPath, join(bin, 'node'));
      const r = await execa(process.execPath, ['bin/rtgpu.mjs', 'prove', decade, '--out', tempDir('prove-cli'), '--no-typecheck'], { reject: false, env: { PATH: bin, HOME: tmpdir() }, extendEnv: false });
      expect(r.stderr).toBe("rtgpu: z3 not found on PATH: run 'bash scripts/install-tools.sh' (Debian: apt-get install z3)");
      expect(r.exitCode).toBe(1);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 60_000);
});
