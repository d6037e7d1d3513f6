// The TS simulator's compile cache (hdl/sim/compiled/compileCache.ts), names found in source files, and the GPU's
// elaboration cache: what is read back simulates exactly as a fresh compile (fused loops included), any change to the design or to rtgpu's code misses, and a damaged entry is compiled again.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileSimulator, type CompiledSimulator } from '../../src/hdl/sim/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { pruneCachedValues, readCachedValue, writeCachedValue } from '../../src/hdl/tools/index.ts';
import { treeFingerprint } from '../../src/hdl/tools/codeFingerprint.ts';
import { cachedGpuDesign } from '../../src/host/runtime/index.ts';
import { gpuDesign } from '../../src/gpu/top/gpuDesign.ts';
import { elaborate, flattenDesign, type Design } from '../../src/hdl/index.ts';
import { compileImage, type NetlistImage } from '../../src/hdl/sim/compiled/netlistImage.ts';
import { forgetInferredNames } from '../../src/hdl/core/naming.ts';
import { GpuTop } from '../../src/gpu/index.ts';

let cache: string;
const previous = process.env.RTGPU_CACHE;
beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), 'rtgpu-compile-cache-'));
  process.env.RTGPU_CACHE = cache;
});
afterAll(() => {
  if (previous === undefined) delete process.env.RTGPU_CACHE;
  else process.env.RTGPU_CACHE = previous;
  rmSync(cache, { recursive: true, force: true });
});

/** Every module, net, cell, name and source location as text (bigints, maps and sets spelled out). */
const text = (d: Design | NetlistImage) => JSON.stringify(d, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v instanceof Map ? [...v] : v instanceof Set ? [...v] : ArrayBuffer.isView(v) ? [...(v as Uint8Array)] : v));

/** Values are stored once the task that compiled them is done. */
const stored = () => new Promise<void>((resolve) => setImmediate(resolve));

const entries = (kind: string) => (existsSync(join(cache, kind)) ? readdirSync(join(cache, kind)).filter((f) => f.endsWith('.v8.gz')) : []);

/** The same seeded stimulus on both simulators, every output compared every cycle; then a fused run of `batch` cycles compared word for word. */
function expectSameBehaviour(a: CompiledSimulator, b: CompiledSimulator, stimulus: (cycle: number, rng: ReturnType<typeof createRng>) => Record<string, bigint | number>, seed: number, cycles: number): void {
  const rngA = createRng(seed);
  const rngB = createRng(seed);
  for (let c = 0; c < cycles; c++) {
    for (const [port, v] of Object.entries(stimulus(c, rngA))) a.poke(port, v);
    for (const [port, v] of Object.entries(stimulus(c, rngB))) b.poke(port, v);
    for (const p of a.ports) if (p.direction === 'output') expect(a.peek(p.name), `${p.name} at cycle ${c}`).toBe(b.peek(p.name));
    a.step();
    b.step();
  }
  const outputs = a.ports.filter((p) => p.direction === 'output').map((p) => p.name);
  // Past the activity profile (4,096 cycles): the recompiled loop is read from the cache too.
  for (let round = 0; round < 2; round++) expect(a.runVectors([], outputs, new Uint32Array(0), 2500)).toEqual(b.runVectors([], outputs, new Uint32Array(0), 2500));
}

describe('compile cache', () => {
  test('an image read back simulates as the fresh compile, every output every cycle, fused loops included', async () => {
    const seed = seedFromEnv();
    console.log(`compile cache: seed ${seed} (SEED=${seed} reruns it)`);
    const rtcore = await findDesign('rtcore');
    const design = rtcore.elaborate();
    const first = compileSimulator(design);
    expect(first.fromCache).toBe(false);
    // The image is stored after this task: whatever running the simulator does meanwhile must not change it.
    expectSameBehaviour(first, compileSimulator(design, { cache: false }), (c, rng) => rtcore.stimulus(c, rng), seed + 2, 100);
    await stored();
    expect(entries('ts-sim')).toHaveLength(1);
    const storedImage = readCachedValue('ts-sim', entries('ts-sim')[0]!.replace('.v8.gz', '')) as NetlistImage;
    expect(text(storedImage)).toBe(text(compileImage(flattenDesign(design, { blackBoxes: 'model' }))));
    const second = compileSimulator(design);
    expect(second.fromCache).toBe(true);
    const fresh = compileSimulator(design, { cache: false });
    expect(fresh.fromCache).toBe(false);
    expectSameBehaviour(second, fresh, (c, rng) => rtcore.stimulus(c, rng), seed, 300);
    await stored();
    // The fused loops (compiled for the activity measured on their first cycles) were stored for the next run.
    expect(entries('ts-sim-run').length).toBeGreaterThanOrEqual(2);
    const third = compileSimulator(design);
    expectSameBehaviour(third, compileSimulator(design, { cache: false }), (c, rng) => rtcore.stimulus(c, rng), seed + 1, 100);
  }, 300_000);

  test('another design, or other compile options, is compiled anew; cache: false stores nothing', async () => {
    const design = (await findDesign('rtcore')).elaborate();
    compileSimulator(design);
    await stored();
    const before = entries('ts-sim').length;
    expect(compileSimulator(design, { optimize: false }).fromCache).toBe(false);
    expect(compileSimulator(design, { checkProperties: false }).fromCache).toBe(false);
    const other = (await findDesign('ic_core')).elaborate();
    expect(compileSimulator(other, { cache: false }).fromCache).toBe(false);
    await stored();
    expect(entries('ts-sim').length).toBe(before + 2);
    expect(compileSimulator(other).fromCache).toBe(false);
    await stored();
    expect(compileSimulator(other).fromCache).toBe(true);
  }, 300_000);

  test('a damaged entry is removed and the design compiled again', async () => {
    const rtcore = await findDesign('rtcore');
    const design = rtcore.elaborate();
    compileSimulator(design);
    await stored();
    for (const f of entries('ts-sim')) writeFileSync(join(cache, 'ts-sim', f), 'not a cached image');
    const sim = compileSimulator(design);
    expect(sim.fromCache).toBe(false);
    expectSameBehaviour(sim, compileSimulator(design, { cache: false }), (c, rng) => rtcore.stimulus(c, rng), 7, 100);
    await stored();
    expect(compileSimulator(design).fromCache).toBe(true);
  }, 300_000);

  test('values over the budget of their kind go least recently used first; a read counts as a use', () => {
    const value = (k: number) => Array.from({ length: 2000 }, (_, i) => (i * 7919 + k) % 65_521);
    for (const k of [1, 2, 3]) writeCachedValue('prune-test', `v${k}`, value(k));
    const file = (k: number) => join(cache, 'prune-test', `v${k}.v8.gz`);
    // v1 oldest, v3 newest; then v1 is read, which makes v2 the least recently used.
    [1, 2, 3].forEach((k) => utimesSync(file(k), new Date(1000 * k), new Date(1000 * k)));
    expect(readCachedValue('prune-test', 'v1')).toEqual(value(1));
    const size = statSync(file(1)).size + statSync(file(3)).size;
    pruneCachedValues('prune-test', size);
    expect([1, 2, 3].map((k) => existsSync(file(k)))).toEqual([true, false, true]);
  });

  test("rtgpu's code fingerprint changes with any byte of any file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-fingerprint-'));
    try {
      cpSync(join(import.meta.dirname, '..', '..', 'src', 'hdl', 'tools'), join(dir, 'tools'), { recursive: true });
      const before = treeFingerprint(dir);
      expect(treeFingerprint(dir)).toBe(before);
      const file = join(dir, 'tools', 'buildCache.ts');
      writeFileSync(file, readFileSync(file, 'utf8').replace('const sleep', 'const  sleep'));
      expect(treeFingerprint(dir)).not.toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('names found in source files', () => {
  test('a later elaboration reads them from the cache, and gets the same design', () => {
    const params = { rtCores: 1, icCores: 1, triangles: 64, vertices: 256 };
    forgetInferredNames();
    const parsed = text(elaborate(GpuTop, params).design);
    const namesStored = entries('names');
    expect(namesStored.length).toBeGreaterThan(10);
    forgetInferredNames();
    expect(text(elaborate(GpuTop, params).design)).toBe(parsed);
    // What is read back is what names the signals: a tampered entry shows up in the design.
    const key = namesStored[0]!.replace('.v8.gz', '');
    const names = readCachedValue('names', key) as [string, { name: string; exact: boolean } | null][];
    writeCachedValue('names', key, names.map(([at, n]) => [at, n && { ...n, name: `${n.name}_tampered` }]));
    forgetInferredNames();
    const tampered = text(elaborate(GpuTop, params).design);
    expect(tampered).not.toBe(parsed);
    expect(tampered).toContain('_tampered');
    writeCachedValue('names', key, names);
    forgetInferredNames();
  }, 300_000);
});

describe('GPU elaboration cache', () => {

  test('rtgpu_top read back from the cache is the fresh elaboration, and its compiled image is found by content', async () => {
    const params = { rtCores: 1, icCores: 1, triangles: 64, vertices: 256 };
    const cached = cachedGpuDesign(params);
    const [file] = entries('gpu-design');
    expect(file).toBeDefined();
    const storedDesign = readCachedValue('gpu-design', file!.replace('.v8.gz', '')) as Design;
    expect(text(storedDesign)).toBe(text(gpuDesign(params)));
    expect(text(cached)).toBe(text(storedDesign));
    // A design read back (a new object) keys the same compiled image as the one elaborated.
    compileSimulator(cached);
    await stored();
    expect(compileSimulator(storedDesign).fromCache).toBe(true);
  }, 300_000);
});
