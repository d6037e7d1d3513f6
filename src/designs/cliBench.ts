// How fast the command starts on a user's design file: `rtgpu emit examples/gcd/gcd.ts` in a fresh process,
// run as an installed package runs it (compiled JavaScript, the design file loaded through tsx).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** emitColdStartMs: the median wall time of five fresh `rtgpu emit gcd.ts` processes (dist/ is built first). */
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
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      execFileSync(process.execPath, [join(repo, 'dist', 'cli', 'main.js'), 'emit', 'gcd.ts', '--out', 'out', '--force'], { cwd: dir, stdio: 'ignore' });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { emitColdStartMs: times[2]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
