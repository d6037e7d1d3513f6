// A temporary directory for one test, removed when the test finishes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `rtgpu-${prefix}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
