// A test whose worker does not return to its event loop for a minute (run only by watchdog.test.ts, through its own config).
import { test } from 'vitest';

test('a synchronous loop that blocks its worker', () => {
  const start = Date.now();
  while (Date.now() - start < 60_000);
}, 1_000);
