// The build cache: one build per key even when several callers ask at once; stale locks and failed builds do not block it.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir, cachedBuild, cacheUsage, pruneCachedBuilds, writeCachedValue } from '../../src/hdl/tools/buildCache.ts';

let root = '';
let saved: string | undefined;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtgpu-cache-'));
  saved = process.env.RTGPU_CACHE;
  process.env.RTGPU_CACHE = root;
});
afterEach(() => {
  if (saved === undefined) delete process.env.RTGPU_CACHE;
  else process.env.RTGPU_CACHE = saved;
  rmSync(root, { recursive: true, force: true });
});

const slowBuild = (count: { n: number }) => async (tmp: string) => {
  count.n++;
  await new Promise((r) => setTimeout(r, 300));
  writeFileSync(join(tmp, 'out.txt'), 'built');
};

describe('cachedBuild', () => {
  test('concurrent callers of one key share a single build', async () => {
    const count = { n: 0 };
    const results = await Promise.all([1, 2, 3].map(() => cachedBuild('k', 'same', slowBuild(count))));
    expect(count.n).toBe(1);
    expect(results.filter((r) => !r.cached).length).toBe(1);
    for (const r of results) expect(readFileSync(join(r.dir, 'out.txt'), 'utf8')).toBe('built');
    expect((await cachedBuild('k', 'same', slowBuild(count))).cached).toBe(true);
    expect(count.n).toBe(1);
  });

  test('a lock left by a process that died is taken over', async () => {
    const dir = cacheDir('k', 'stale');
    mkdirSync(`${dir}.lock`, { recursive: true });
    writeFileSync(join(`${dir}.lock`, 'pid'), '999999999');
    const count = { n: 0 };
    const r = await cachedBuild('k', 'stale', slowBuild(count));
    expect([r.cached, count.n, existsSync(`${dir}.lock`)]).toEqual([false, 1, false]);
  });

  test('a failed build leaves no directory and no lock; the next call builds again', async () => {
    await expect(cachedBuild('k', 'bad', async () => Promise.reject(new Error('compiler said no')))).rejects.toThrow('compiler said no');
    expect(existsSync(cacheDir('k', 'bad'))).toBe(false);
    expect(existsSync(`${cacheDir('k', 'bad')}.lock`)).toBe(false);
    const count = { n: 0 };
    expect((await cachedBuild('k', 'bad', slowBuild(count))).cached).toBe(false);
  });
});

describe('cacheUsage (rtgpu doctor)', () => {
  test('each kind with its entries and bytes, largest first, values told from builds; writes in progress and locks left out', async () => {
    expect(cacheUsage()).toEqual([]);
    await cachedBuild('model', 'a', async (tmp) => writeFileSync(join(tmp, 'lib.so'), Buffer.alloc(3000)));
    await cachedBuild('model', 'b', async (tmp) => {
      mkdirSync(join(tmp, 'obj'));
      writeFileSync(join(tmp, 'obj', 'x.o'), Buffer.alloc(5000));
    });
    mkdirSync(join(root, 'model', 'c.tmp-1-2'));
    mkdirSync(join(root, 'model', 'c.lock'));
    writeCachedValue('image', 'k1', { words: new Uint8Array(100) });
    writeFileSync(join(root, 'image', 'k2.v8.gz.1-0.tmp'), 'partial');
    const usage = cacheUsage();
    expect(usage.map((u) => [u.kind, u.entries, u.values])).toEqual([
      ['model', 2, false],
      ['image', 1, true],
    ]);
    // The build's files and its .complete record (the seconds it took), the value's compressed bytes.
    expect(usage[0]!.bytes).toBeGreaterThanOrEqual(8000);
    expect(usage[0]!.bytes).toBeLessThan(8100);
    expect(usage[1]!.bytes).toBeGreaterThan(20);
    expect(usage[1]!.bytes).toBeLessThan(400);
  });
});

describe('pruneCachedBuilds', () => {
  const build = (key: string, bytes: number) => cachedBuild('model', key, async (tmp) => writeFileSync(join(tmp, 'lib.so'), Buffer.alloc(bytes)));
  const setUsed = (key: string, secondsAgo: number) => {
    const t = new Date(Date.now() - secondsAgo * 1000);
    utimesSync(join(cacheDir('model', key), '.complete'), t, t);
  };

  test('the least recently used builds go first, a cache hit counts as a use, and the build just made stays', async () => {
    for (const key of ['a', 'b', 'c']) await build(key, 1000);
    setUsed('a', 30);
    setUsed('b', 20);
    setUsed('c', 10);
    // A hit on 'a' makes it the most recently used.
    expect((await build('a', 1000)).cached).toBe(true);
    pruneCachedBuilds('model', 'd', 2100);
    expect(['a', 'b', 'c'].map((k) => existsSync(cacheDir('model', k)))).toEqual([true, false, true]);
    // The one kept is kept even when it alone is over the budget.
    pruneCachedBuilds('model', 'c', 10);
    expect(['a', 'c'].map((k) => existsSync(cacheDir('model', k)))).toEqual([false, true]);
  });

});

