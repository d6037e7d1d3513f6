// The directory a proof writes into: created when needed, and cleared of what the previous proof there wrote (and only that).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The list of the files a proof wrote, so that the next one removes exactly those (a stale counterexample would mislead). */
const LIST = '.rtgpu-prove';

/** `dir` created (or a new temporary directory), without the files the last proof in it wrote. */
export function prepareProofDir(dir: string | undefined): string {
  if (dir === undefined) return mkdtempSync(join(tmpdir(), 'rtgpu-prove-'));
  mkdirSync(dir, { recursive: true });
  const list = join(dir, LIST);
  if (existsSync(list)) {
    for (const f of readFileSync(list, 'utf8').split('\n')) if (f && !f.includes('/') && !f.startsWith('.')) rmSync(join(dir, f), { force: true });
    rmSync(list);
  }
  return dir;
}

/** Records the files this proof wrote into `dir` (names within it). */
export function recordProofFiles(dir: string, files: readonly string[]): void {
  writeFileSync(join(dir, LIST), `${[...new Set(files)].sort().join('\n')}\n`);
}
