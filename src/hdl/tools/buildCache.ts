// Content-addressed build directories, so a design is compiled once per distinct source and tool version,
// also when several processes (test workers, CLI runs) ask for the same build at once.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * `$RTGPU_CACHE`, else `node_modules/.cache/rtgpu` of the nearest project (a directory with a package.json,
 * from the working directory up, where tools keep their caches), else `~/.cache/rtgpu`.
 */
export function cacheRoot(): string {
  if (process.env.RTGPU_CACHE) return resolve(process.env.RTGPU_CACHE);
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'node_modules', '.cache', 'rtgpu');
    if (dirname(dir) === dir) return join(homedir(), '.cache', 'rtgpu');
  }
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the build lock of `dir` (a directory created atomically, holding the builder's pid); while another
 * live process holds it, waits. A lock whose process died is taken over. Returns the release function, or
 * null when the build appeared meanwhile.
 */
async function lock(dir: string): Promise<(() => void) | null> {
  const path = `${dir}.lock`;
  for (;;) {
    if (existsSync(join(dir, '.complete'))) return null;
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(join(path, 'pid'), 'utf8'));
    } catch {
      // just created: the holder writes its pid next
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(path, { recursive: true, force: true });
    else await sleep(250);
  }
}

/**
 * The directory for `key`, built by `build(tmpDir, dir)` on first use. Builds go to a private temporary
 * directory that is renamed into place (`dir`), so nobody sees a half-built directory; one process builds
 * while the others wait for it.
 */
export async function cachedBuild(kind: string, key: string, build: (tmp: string, dir: string) => Promise<void>): Promise<{ dir: string; cached: boolean }> {
  const dir = cacheDir(kind, key);
  if (existsSync(join(dir, '.complete'))) return { dir, cached: true };
  mkdirSync(join(cacheRoot(), kind), { recursive: true });
  const release = await lock(dir);
  if (!release) return { dir, cached: true };
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    mkdirSync(tmp, { recursive: true });
    const start = performance.now();
    await build(tmp, dir);
    // How long the build took, for whoever wonders where a cold cache's time goes (`rtgpu doctor`, CI timing).
    mkdirSync(join(tmp, '.complete'));
    writeFileSync(join(tmp, '.complete', 'seconds'), ((performance.now() - start) / 1000).toFixed(1));
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    release();
  }
  return { dir, cached: false };
}
