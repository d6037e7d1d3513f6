// The test watchdog: a worker blocked in a synchronous loop ends the run with a message naming the file,
// instead of holding CI until its time limit (vitest's own timeout cannot fire in a blocked worker).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { execa } from 'execa';
import { tempDir } from '../tempDir.ts';

test('a blocked file is named and the run ends with a non-zero exit, its worker killed', async () => {
  const pidFile = join(tempDir('watchdog'), 'worker.pid');
  const started = Date.now();
  const r = await execa('npx', ['vitest', 'run', '--config', 'test/watchdog/vitest.fixture.config.ts'], {
    reject: false,
    timeout: 90_000,
    env: { RTGPU_WATCHDOG_POLL_MS: '500', RTGPU_WATCHDOG_FILE_MS: '5000', RTGPU_WATCHDOG_PID_FILE: pidFile },
  });
  expect(r.timedOut, 'the watchdog did not stop the run').toBe(false);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toMatch(/watchdog: test\/watchdog\/blocked\.fixture\.ts has run \d+ s \(no test of it reported\), past the 5 s limit of a file/);
  // The fixture blocks for a minute: the run ended well before, so the watchdog ended it, and killed the worker.
  expect(Date.now() - started).toBeLessThan(45_000);
  const worker = Number(readFileSync(pidFile, 'utf8'));
  expect(worker).toBeGreaterThan(0);
  expect(await ended(worker), `the blocked worker ${worker} is still running`).toBe(true);
}, 100_000);

/** Whether process `pid` is gone or a zombie (killed, not yet reaped) within a few seconds. */
async function ended(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return true;
    }
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    await sleep(100);
  }
  return false;
}
