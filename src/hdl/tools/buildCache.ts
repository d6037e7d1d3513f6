// Content-addressed build directories, so a design is compiled once per distinct source and tool version.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function cacheRoot(): string {
  return resolve(process.env.RTGPU_CACHE ?? join('node_modules', '.cache', 'rtgpu'));
}

export function contentHash(parts: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p.length)).update(':').update(p);
  return h.digest('hex').slice(0, 24);
}

/** Where `cachedBuild` puts the build of `key`. */
export function cacheDir(kind: string, key: string): string {
  return join(cacheRoot(), kind, key);
}

/**
 * The directory for `key`, built by `build(tmpDir, dir)` on first use. Builds go to a private temporary
 * directory that is renamed into place (`dir`), so concurrent builders never see a half-built directory.
 */
export async function cachedBuild(kind: string, key: string, build: (tmp: string, dir: string) => Promise<void>): Promise<{ dir: string; cached: boolean }> {
  const dir = cacheDir(kind, key);
  if (existsSync(join(dir, '.complete'))) return { dir, cached: true };
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  try {
    await build(tmp, dir);
    mkdirSync(join(tmp, '.complete'));
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (existsSync(join(dir, '.complete'))) return { dir, cached: true };
    throw e;
  }
  return { dir, cached: false };
}
