// How fast the command starts on a user's design file (`rtgpu emit examples/gcd/gcd.ts`) and on the GPU (`rtgpu render`)
// in a fresh process, run as an installed package runs it (compiled JavaScript, the design file loaded through tsx).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from '../../hdl/cosim/index.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The median wall time of five fresh processes of each command, on the gcd example in a user's project
 * (dist/ is built first): `rtgpu --help` (helpStartMs), `rtgpu emit gcd.ts` (emitColdStartMs; its type
 * check cached, as from the second run on), `rtgpu sim gcd.tb.ts` (simStartMs); and the first emit, whose
 * type check is not cached yet (emitFirstRunMs). Then the GPU's start there (measureGpuStart).
 */
export function measureEmitColdStart(log: (s: string) => void = () => {}): Record<string, number> {
  log('building dist/ for the installed command …');
  execFileSync(process.execPath, [join(repo, 'scripts', 'build.mjs')], { stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-coldstart-'));
  try {
    // A user's project: an ES-module package with rtgpu installed (here: linked) and the example copied in.
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repo, join(dir, 'node_modules', 'rtgpu'), 'dir');
    cpSync(join(repo, 'examples', 'gcd'), dir, { recursive: true });
    // A cache of the project's own, empty at first: the first emit type-checks for real.
    const env = { ...process.env, RTGPU_CACHE: join(dir, 'cache') };
    const run = (args: string[]) => {
      const t0 = performance.now();
      execFileSync(process.execPath, [join(repo, 'dist', 'cli', 'main.js'), ...args], { cwd: dir, stdio: 'ignore', env });
      return performance.now() - t0;
    };
    const fiveRuns = (args: string[]) => median([0, 1, 2, 3, 4].map(() => run(args)));
    const emit = ['emit', 'gcd.ts', '--out', 'out', '--force'];
    const emitFirstRunMs = run(emit);
    return { helpStartMs: fiveRuns(['--help']), emitColdStartMs: fiveRuns(emit), simStartMs: fiveRuns(['sim', 'gcd.tb.ts', '--sim', 'ts', '--seed', '1']), emitFirstRunMs, ...measureGpuStart(dir, env) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The seconds `rtgpu render` says it spent elaborating the GPU and compiling or loading its simulator. */
function setupSeconds(stdout: string): number {
  const m = /wall time: [\d.]+ s \(([\d.]+) s of it elaborating/.exec(stdout);
  if (!m) throw new Error(`rtgpu render printed no setup time:\n${stdout}`);
  return Number(m[1]);
}

/**
 * The GPU's start in the same project (issue 44, item 3): elaborating and compiling `rtgpu_top` for the TS
 * simulator with an empty build cache (gpuSetupFirstSeconds) and, in a fresh process, from the cache
 * (gpuSetupCachedSeconds, median of three), both on a 1-pixel frame; and the demo, `rtgpu render` of the
 * built-in scene at 64x48 from process start to the PNG written, cache warm (demoSeconds, median of three).
 */
function measureGpuStart(dir: string, env: NodeJS.ProcessEnv): Record<string, number> {
  const render = (args: string[]) => {
    const t0 = performance.now();
    const stdout = execFileSync(process.execPath, [join(repo, 'dist', 'cli', 'main.js'), 'render', ...args], { cwd: dir, env, encoding: 'utf8' });
    return { seconds: (performance.now() - t0) / 1000, setup: setupSeconds(stdout) };
  };
  const median3 = (f: () => number) => median([f(), f(), f()]);
  const pixel = ['--width', '1', '--height', '1', '--out', 'pixel.png'];
  const gpuSetupFirstSeconds = render(pixel).setup;
  const gpuSetupCachedSeconds = median3(() => render(pixel).setup);
  const demoSeconds = median3(() => render(['--out', 'demo.png']).seconds);
  return { gpuSetupFirstSeconds, gpuSetupCachedSeconds, demoSeconds };
}
