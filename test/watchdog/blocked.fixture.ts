// A test whose worker does not return to its event loop for a minute (run only by watchdog.test.ts, through its own config).
import { writeFileSync } from 'node:fs';
import { test } from 'vitest';

test('a synchronous loop that blocks its worker', () => {
  // The watchdog test checks that this process was killed.
  if (process.env.RTGPU_WATCHDOG_PID_FILE) writeFileSync(process.env.RTGPU_WATCHDOG_PID_FILE, String(process.pid));
  const start = Date.now();
  while (Date.now() - start < 60_000);
}, 1_000);
