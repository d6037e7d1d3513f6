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

/**
 * The directory for `key`, built by `build(tmpDir)` on first use. Builds go to a private temporary
 * directory that is renamed into place, so concurrent builders never see a half-built directory.
 */
export async function cachedBuild(kind: string, key: string, build: (dir: string) => Promise<void>): Promise<{ dir: string; cached: boolean }> {
  const dir = join(cacheRoot(), kind, key);
  if (existsSync(join(dir, '.complete'))) return { dir, cached: true };
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  try {
    await build(tmp);
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
