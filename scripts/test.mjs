// `npm test`: the external tools (installed when missing), then the type check and the test suite side by side.
// tsc takes half a minute of one core; run first, it left the second core idle. A type error still fails
// fast: it is printed at once and the suite is stopped. Arguments go to vitest (`npm test -- test/emit`).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const tools = spawnSync(process.execPath, [join(here, 'ensure-tools.mjs')], { stdio: 'inherit' });
if (tools.status !== 0) process.exit(tools.status ?? 1);

const tsc = spawn(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', '.'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
let tscOutput = '';
tsc.stdout.on('data', (d) => (tscOutput += d));
tsc.stderr.on('data', (d) => (tscOutput += d));

// The tests build Verilator models at -O0 unless told otherwise: short runs, large designs.
const env = { ...process.env, RTGPU_VERILATOR_OPT: process.env.RTGPU_VERILATOR_OPT || '0' };
const reporters = ['--reporter=default', '--reporter=./test/summaryReporter.ts', '--reporter=./test/watchdogReporter.ts'];
// In a process group of its own, so that stopping it stops its workers too (SIGTERM to vitest alone leaves them running).
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--maxWorkers=2', '--testTimeout=120000', ...reporters, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env, detached: true });
const stopVitest = (signal) => {
  try {
    process.kill(-vitest.pid, signal);
  } catch {
    // already gone
  }
};
// A detached group does not get the terminal's Ctrl-C: pass it on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopVitest(signal));

const exited = (child) => new Promise((done) => child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
let vitestRunning = true;
const vitestDone = exited(vitest).then((code) => ((vitestRunning = false), code));
const tscCode = await exited(tsc);
if (tscCode !== 0) {
  const stopped = vitestRunning ? ', so the tests were stopped' : '';
  stopVitest('SIGTERM');
  await vitestDone;
  console.error(`\nnpm test: the type check failed (tsc --noEmit -p .)${stopped}:\n${tscOutput}`);
  process.exit(1);
}
process.exit(await vitestDone);
