// Every parser of user input against its fuzz corpus and the inputs past fuzzing runs found
// (test/fuzz/regressions/<target>/), then a short seeded fuzzing burst per target; and the fuzz runner
// itself reports a crash and a hang (npm run fuzz; docs/reliability.md).
import { describe, expect, test } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { seedFromEnv } from '../../src/util/seededRandom.ts';
import { fuzzTargets } from './targets.ts';
import { fuzzLoop, runOne } from './fuzzLoop.ts';

const seed = seedFromEnv();
/** Fresh inputs per target in CI (a few seconds each); `npm run fuzz` and the soak run go further. */
const BURST = 10_000;
console.log(`fuzzCorpus.test seed=${seed} (rerun with SEED=${seed})`);
const here = fileURLToPath(new URL('.', import.meta.url));
const inputs = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((f) => ({ name: f, data: new Uint8Array(readFileSync(join(dir, f))) })) : []);

describe('fuzz targets', () => {
  for (const target of fuzzTargets.filter((t) => t.replayInNode)) {
    test(`${target.name}: the corpus and every past finding load or fail cleanly, ${target.ciBurst ?? 1} fresh inputs too (node's loader, in the fuzz runner)`, async () => {
      const out = mkdtempSync(join(tmpdir(), 'rtgpu-fuzz-'));
      try {
        // The corpus and the regressions, then the burst of fresh inputs (the runner divides --runs by the target's cost).
        const runs = Math.max(1, (target.ciBurst ?? 1) * (target.cost ?? 1));
        const r = await execa(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--target', target.name, '--runs', String(runs), '--seed', String(seed), '--out', out], { reject: false });
        expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    }, 300_000);
  }
  for (const target of fuzzTargets.filter((t) => !t.replayInNode)) {
    const burst = target.ciBurst ?? BURST;
    test(`${target.name}: the corpus and every past finding parse or fail cleanly; ${burst} fresh inputs too`, async () => {
      const corpus = inputs(join(here, 'corpus', target.name));
      expect(corpus.length, `test/fuzz/corpus/${target.name} is empty`).toBeGreaterThan(0);
      for (const input of [...corpus, ...inputs(join(here, 'regressions', target.name))]) {
        const t0 = performance.now();
        const o = await runOne(target, input.data);
        expect(o.kind === 'crash' ? `${input.name}: ${o.crash.stack}` : 'clean').toBe('clean');
        expect(performance.now() - t0, `${input.name} took too long`).toBeLessThan(5000);
      }
      const report = await fuzzLoop(target, corpus.map((c) => c.data), { seed, runs: burst });
      const crashes = [...report.crashes.values()].map((c) => `${c.key}\n  input: ${JSON.stringify(new TextDecoder().decode(c.input).slice(0, 300))}`);
      expect(crashes).toEqual([]);
    }, 300_000);
  }
});

describe('the fuzz runner', () => {
  test('reports a crash and a hang, writes their inputs, exits 1', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rtgpu-fuzz-'));
    try {
      const r = await execa(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--target', 'selftest-crash,selftest-hang', '--time', '6', '--input-timeout', '400', '--seed', '5', '--out', out], { reject: false });
      expect(r.exitCode, r.stdout + r.stderr).toBe(1);
      expect(r.stdout).toMatch(/^selftest-crash .* 1 +0$/m);
      expect(r.stdout).toMatch(/^selftest-hang .* 0 +[1-9]\d*$/m);
      expect(r.stdout).toContain("crash: TypeError: Cannot read properties of undefined (reading 'x') at Object.run");
      const files = (t: string) => readdirSync(join(out, t));
      expect(files('selftest-crash').some((f) => /^crash-[0-9a-f]{12}$/.test(f))).toBe(true);
      expect(files('selftest-hang').some((f) => /^hang-[0-9a-f]{12}$/.test(f))).toBe(true);
      // The crash input is minimized to the byte that matters.
      const crash = files('selftest-crash').find((f) => /^crash-[0-9a-f]{12}$/.test(f))!;
      expect(readFileSync(join(out, 'selftest-crash', crash), 'latin1')).toBe('X');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  test('bad flags: a one-line message and the usage, exit 2', async () => {
    const r = await execa(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--target', 'nope'], { reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^fuzz: unknown fuzz target 'nope' \(targets: asm, /);
  }, 60_000);
});

describe('--param values', () => {
  test('numbers, hex, booleans, JSON; a name that is not one (also __proto__) is an error naming the pair', async () => {
    const { parseParams } = await import('../../src/cli/designFile.ts');
    expect(parseParams(['width=8', 'depth=0x10', 'scale=0.5', 'on=true', 'taps=[1,2]', 'name=fifo'])).toEqual({ width: 8, depth: 16, scale: 0.5, on: true, taps: [1, 2], name: 'fifo' });
    expect(() => parseParams(['__proto__={"polluted":1}'])).toThrow(`--param '__proto__={"polluted":1}': '__proto__' is not a parameter name`);
    expect(() => parseParams(['1x=2'])).toThrow("--param '1x=2': '1x' is not a parameter name");
    expect(() => parseParams(['x=[1,'])).toThrow("--param 'x=[1,': the value is not valid JSON");
  });
});
