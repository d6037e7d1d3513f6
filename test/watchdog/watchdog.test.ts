// The test watchdog: a worker blocked in a synchronous loop ends the run with a message naming the file,
// instead of holding CI until its time limit (vitest's own timeout cannot fire in a blocked worker).
import { expect, test } from 'vitest';
import { execa } from 'execa';

test('a blocked file is named and the run ends with a non-zero exit, its worker killed', async () => {
  const started = Date.now();
  const r = await execa('npx', ['vitest', 'run', '--config', 'test/watchdog/vitest.fixture.config.ts'], {
    reject: false,
    timeout: 90_000,
    env: { RTGPU_WATCHDOG_POLL_MS: '500', RTGPU_WATCHDOG_FILE_MS: '5000' },
  });
  expect(r.timedOut, 'the watchdog did not stop the run').toBe(false);
  expect(r.exitCode).toBe(1);
  expect(r.stderr).toMatch(/watchdog: test\/watchdog\/blocked\.fixture\.ts has run \d+ s \(no test of it reported\), past the 5 s limit of a file/);
  // The fixture blocks for a minute: the run ended well before, so the watchdog ended it.
  expect(Date.now() - started).toBeLessThan(45_000);
}, 100_000);
