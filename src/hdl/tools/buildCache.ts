// Content-addressed build directories and values, so a design is compiled once per distinct source and tool
// version, also when several processes (test workers, CLI runs) ask for the same build at once.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { threadId } from 'node:worker_threads';
import { gunzipSync, gzipSync } from 'node:zlib';
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
  if (existsSync(join(dir, '.complete'))) return { dir, cached: markUsed(dir) };
  mkdirSync(join(cacheRoot(), kind), { recursive: true });
  const release = await lock(dir);
  if (!release) return { dir, cached: markUsed(dir) };
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
    // Once per kind and process: walking a kind's builds takes up to 0.1 s, and a test run builds hundreds.
    if (!prunedKinds.has(kind)) pruneCachedBuilds(kind, key);
    prunedKinds.add(kind);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    release();
  }
  return { dir, cached: false };
}

/** Where `writeCachedValue` keeps the value of `key`. */
function valueFile(kind: string, key: string): string {
  return join(cacheRoot(), kind, `${key}.v8.gz`);
}

/**
 * The value stored under `key` (a structured-clone copy), or undefined. An entry that cannot be read back
 * (cut short, or written by another Node version's serializer) is removed and counts as absent.
 */
export function readCachedValue(kind: string, key: string): unknown {
  const file = valueFile(kind, key);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = deserialize(gunzipSync(bytes));
  } catch {
    rmSync(file, { force: true });
    return undefined;
  }
  // Its modification time says when it was last used: pruning removes the least recently used first.
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // a read-only cache is still read
  }
  return value;
}

/** How many bytes of values each kind keeps (a checkout that changes its code makes new entries at every change). */
export const CACHED_VALUE_BYTES_PER_KIND = 512 * 1024 * 1024;

/** Removes the least recently used values of `kind` until the rest fit in `budget` bytes. */
export function pruneCachedValues(kind: string, budget = CACHED_VALUE_BYTES_PER_KIND): void {
  const dir = join(cacheRoot(), kind);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.v8.gz'))
    .flatMap((f) => {
      try {
        const st = statSync(join(dir, f));
        return [{ path: join(dir, f), bytes: st.size, used: st.mtimeMs }];
      } catch {
        return []; // removed meanwhile by another process
      }
    })
    .sort((a, b) => b.used - a.used);
  let total = 0;
  for (const f of files) if ((total += f.bytes) > budget) rmSync(f.path, { force: true });
}

/**
 * Stores a structured-cloneable `value` under `key`: written aside and renamed into place, so a reader never
 * sees half of it and concurrent writers of one key (whose values are equal) do not clash. The cache only
 * saves time: a cache that cannot be written (read-only, full) leaves the value unstored.
 */
export function writeCachedValue(kind: string, key: string, value: unknown): void {
  const file = valueFile(kind, key);
  // Per process and thread: render workers of one process may store the same key at once.
  const tmp = `${file}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Level 1: a quarter of the bytes (netlist names repeat) for a few percent of the compile's time.
    writeFileSync(tmp, gzipSync(serialize(value), { level: 1 }));
    renameSync(tmp, file);
    pruneCachedValues(kind);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (!['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
  }
}

/** The kinds this process has pruned since it started. */
const prunedKinds = new Set<string>();

/** A build's `.complete` marker's modification time says when it was last used: pruning removes the least recently used first. */
function markUsed(dir: string): true {
  const now = new Date();
  try {
    utimesSync(join(dir, '.complete'), now, now);
  } catch {
    // a read-only cache is still used
  }
  return true;
}

/** How many bytes of builds each kind keeps (rtgpu_top's Verilator model at -O0, its library alone, is 5.5 MB; a checkout that changes its code builds again at every change). */
export const CACHED_BUILD_BYTES_PER_KIND = 1024 * 1024 * 1024;

/**
 * Removes the least recently used builds of `kind` until the rest fit in `budget` bytes; never `keep` (the
 * build just made). A process that loaded a removed build's library keeps it (the file lives on while open).
 */
export function pruneCachedBuilds(kind: string, keep: string, budget = CACHED_BUILD_BYTES_PER_KIND): void {
  const dir = join(cacheRoot(), kind);
  const builds = readdirSync(dir)
    .filter((name) => name !== keep && !name.includes('.tmp') && !name.endsWith('.lock'))
    .flatMap((name) => {
      try {
        return [{ path: join(dir, name), used: statSync(join(dir, name, '.complete')).mtimeMs, bytes: bytesIn(join(dir, name)) }];
      } catch {
        return []; // not complete, or removed meanwhile by another process
      }
    })
    .sort((a, b) => b.used - a.used);
  let total = bytesIn(join(dir, keep));
  for (const b of builds) if ((total += b.bytes) > budget) rmSync(b.path, { recursive: true, force: true });
}

/** The bytes of a file, or of every file below a directory. */
function bytesIn(path: string): number {
  try {
    const st = lstatSync(path); // a link is its own few bytes, not what it points at (no loop through a linked directory)
    return st.isDirectory() ? readdirSync(path).reduce((n, f) => n + bytesIn(join(path, f)), 0) : st.size;
  } catch {
    return 0; // removed meanwhile by another process
  }
}

/** What one kind of the build cache holds. */
export interface CacheKindUsage {
  readonly kind: string;
  /** Builds (directories) or values (files) in it. */
  readonly entries: number;
  readonly bytes: number;
  /** Values (pruned to CACHED_VALUE_BYTES_PER_KIND), or builds (CACHED_BUILD_BYTES_PER_KIND); least recently used first. */
  readonly values: boolean;
}

/** Each kind under `cacheRoot()` with its entries and bytes (what `rtgpu doctor` reports), largest first. */
export function cacheUsage(root = cacheRoot()): CacheKindUsage[] {
  const kinds = existsSync(root) ? readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  return kinds
    .map((d) => {
      const names = readdirSync(join(root, d.name)).filter((f) => !f.includes('.tmp') && !f.endsWith('.lock')); // a build or value being written, a build's lock
      const values = names.filter((f) => f.endsWith('.v8.gz'));
      return { kind: d.name, entries: names.length, bytes: bytesIn(join(root, d.name)), values: values.length > 0 && values.length === names.length };
    })
    .sort((a, b) => b.bytes - a.bytes || a.kind.localeCompare(b.kind));
}

