// The IC core with the watertight triangle test against the watertight caster, bit for bit: alone, as
// the IC system on closed meshes (rays at their shared edges), in co-simulation on all three
// simulators; and the default (Möller–Trumbore) core keeps its module names and RTL.
import { describe, expect, test } from 'vitest';
import { IcCoreBench } from '../../src/gpu/icCore/verification/icCoreTestbench.ts';
import { IcCore, defaultIcCoreParams, icIntakeCycles, icPipelineDepth, type IcCoreParams } from '../../src/gpu/icCore/icCore.ts';
import { IcSystem, defaultIcSystemParams, type IcSystemParams } from '../../src/gpu/icCore/icSystem.ts';
import { castRay, type Vec3 } from '../../src/golden/rayCaster.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { cube, icosphere, tetrahedron } from '../../src/scenes/closedMeshes.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { sceneToImage, triangleCount } from '../../src/golden/scene.ts';
import { generateScene } from '../../src/stimulus/randomProgram.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { runRays } from '../../src/gpu/icCore/verification/rayRunner.ts';
import { closedMeshRay, queryWords, randomIcScene, randomRay } from '../../src/gpu/icCore/verification/rayVectors.ts';
import { DEFAULT_RAY_QUERY } from '../../src/golden/rayQuery.ts';
import { icCoreWatertightCosimDesign, icWatertightCosimParams } from '../../src/gpu/icCore/verification/icCoreCosim.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { packWords } from '../../src/gpu/verification/portWords.ts';

const seed = seedFromEnv();
console.log(`watertight (gpu) test seed=${seed} (rerun with SEED=${seed})`);
const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
const coreParams: IcCoreParams = { fadd: 3, fmul: 3, fdiv: 14, memory: 2, slots: defaultIcCoreParams.slots, triangleTest: 'watertight' };
const systemParams: IcSystemParams = { ...defaultIcSystemParams, triangleTest: 'watertight' };
const watertight = (scene: Parameters<typeof castRay>[0], o: Vec3, d: Vec3) => castRay(scene, o, d, testTriangleWatertight);

describe('IC core with the watertight test against the watertight caster', () => {
  const bench = new IcCoreBench(coreParams);

  test('random rays over random and default scenes: identical hit, normal and shader id', () => {
    const rng = createRng(seed);
    let hits = 0;
    for (let i = 0; i < 300; i++) {
      const scene = i % 3 === 0 ? defaultScene() : generateScene(rng);
      const r = randomRay(rng, scene);
      const want = watertight(scene, r.origin, r.direction);
      const got = bench.trace(scene, r.origin, r.direction);
      expect([got.hit, got.normal], `ray ${i} (SEED=${seed})`).toEqual([want.hit.map((x) => x >>> 0), want.normal.map((x) => x >>> 0)]);
      if (want.triangle >= 0) hits++;
    }
    expect(hits).toBeGreaterThan(50);
  });

  test('NaN, infinite and all-zero rays miss', () => {
    const scene = defaultScene();
    for (const [o, d] of [
      [[0, 0, 0x7fc00000], [0, 0, bits(1)]],
      [[0, 0, 0], [0x7f800000, 0, bits(1)]],
      [[0, 0, 0], [0, 0x80000000, 0]],
    ] as [Vec3, Vec3][])
      expect(bench.trace(scene, o, d).hit).toEqual([0, 0, 0, 0]);
  });

  test('a ray over N triangles is answered intake + N + a constant cycles after it starts', () => {
    const scene = defaultScene();
    const r = bench.trace(scene, [0, 0, bits(-5)], [0, 0, bits(1)]);
    const p = coreParams;
    expect(icIntakeCycles(p)).toBe(p.fdiv + 4);
    expect(icPipelineDepth(p)).toBe(icPipelineDepth(defaultIcCoreParams) - 3 * defaultIcCoreParams.fmul + 3 * p.fmul);
    expect(r.cycles).toBe(icIntakeCycles(p) + 1 + triangleCount(scene) + p.memory + icPipelineDepth(p) + p.fmul + p.fadd);
  });
});

describe('IC system with the watertight test', () => {
  test('closed meshes, rays from inside exactly at shared vertices and edges: every ray hits, every answer on time and exact', () => {
    const rng = createRng(seed ^ 0x77);
    for (const scene of [tetrahedron(), cube(), icosphere(1), icosphere(2)]) {
      const rays = Array.from({ length: 150 }, () => closedMeshRay(rng, scene));
      for (const r of rays) expect(watertight(scene, r.origin, r.direction).triangle, `SEED=${seed}`).toBeGreaterThanOrEqual(0);
      const report = runRays(scene, rays, systemParams);
      expect(report.difference, `${triangleCount(scene)} triangles (SEED=${seed})`).toBeNull();
    }
  }, 120_000);

  test('random scenes and rays (tricky, 40 and 512 triangles), back to back: exact, on time, ≥ 0.95 tests per busy cycle', () => {
    const rng = createRng(seed ^ 0x1c);
    for (const [size, count] of [
      [0, 300],
      [40, 300],
      [512, 60],
    ] as const) {
      const scene = randomIcScene(rng, size);
      const report = runRays(scene, Array.from({ length: count }, () => randomRay(rng, scene)), systemParams);
      expect(report.difference, `scene of ${size || 'a few'} triangles (SEED=${seed})`).toBeNull();
      // The intake computes the next ray's constants while the previous ray sweeps.
      if (size === 512) expect(report.testsPerBusyCycle).toBeGreaterThanOrEqual(0.95);
    }
  }, 120_000);

  test('ic_core_watertight on the TS simulator against the watertight caster, several runs', async () => {
    for (let k = 0; k < 6; k++) {
      const r = await runCosim(icCoreWatertightCosimDesign, { cycles: 20_000, seed: seed + k, sims: ['ts'] });
      expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
      expect(r.golden, `SEED=${seed + k}`).toBeNull();
    }
  }, 120_000);

  test('ic_core_watertight in lockstep on the TS simulator, Verilator and Icarus (a short run)', async () => {
    const r = await runCosim(icCoreWatertightCosimDesign, { cycles: 600, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden).toBeNull();
  }, 600_000);

  test('the golden model wants the watertight answer: a miss where Möller–Trumbore misses is wrong', () => {
    const scene = icosphere(2);
    // A ray Möller–Trumbore lets through between two triangles.
    const rays = Array.from({ length: 3000 }, (_, i) => closedMeshRay(createRng(i), scene));
    const ray = rays.find((r) => castRay(scene, r.origin, r.direction).triangle < 0);
    expect(ray).toBeDefined();
    const model = icCoreWatertightCosimDesign.golden!();
    const plainQuery = packWords(queryWords(DEFAULT_RAY_QUERY));
    const base = { rst_n: 1n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ray_query: plainQuery, load_start: 0n, load_valid: 0n, load_data: 0n };
    const idle = { dispatch_ready: 1n, dispatch_done: 0n };
    expect(model.check(0, { ...base, load_start: 1n }, idle)).toBeNull();
    sceneToImage(scene).forEach((w, i) => expect(model.check(1 + i, { ...base, load_valid: 1n, load_data: BigInt(w) }, idle)).toBeNull());
    const start = { ...base, dispatch_ray_start: 1n, ray_origin: packWords(ray!.origin), ray_direction: packWords(ray!.direction), ray_thread: 3n };
    expect(model.check(5000, start, idle)).toBeNull();
    expect(model.check(5001, base, { dispatch_ready: 1n, dispatch_done: 1n, dispatch_hit_info: 0n, dispatch_hit_normal: 0n, dispatch_hit_parameters: 0n, dispatch_done_thread: 3n })).toMatch(/hit 00000000 00000000 00000000 00000000 .*; caster [0-9a-f]{8} /);
  });
});

describe('RTL', () => {
  test('the watertight IC system passes verilator --lint-only -Wall and iverilog -Wall with no warnings', async () => {
    const e = emitSystemVerilog(elaborate(IcSystem, icWatertightCosimParams).design);
    const src = { top: e.fileList.at(-1)!.replace(/\.sv$/, ''), files: e.files, fileList: e.fileList };
    const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
    expect(v.output).toBe('');
    expect(i.output).toBe('');
  }, 120_000);

  test("the default core keeps its module name and RTL; 'moller-trumbore' given explicitly changes nothing below the top", () => {
    const svOf = (p: IcSystemParams) => emitSystemVerilog(elaborate(IcSystem, p).design);
    const plain = { fadd: 3, fmul: 3, fdiv: 14, slots: 3, triangles: 32, vertices: 96 };
    const a = svOf(plain);
    const b = svOf({ ...plain, triangleTest: 'moller-trumbore' });
    // The top's own name carries its parameters; the IcCore it instantiates is the default one.
    expect(b.files.slice(0, -1)).toEqual(a.files.slice(0, -1));
    expect(a.fileList).toContain('IcCore_fadd3_fdiv14_fmul3_memory2_slots3.sv');
    expect(a.fileList.at(-1)).toBe('IcSystem_fadd3_fdiv14_fmul3_slots3_triangles32_vertices96.sv');
    const core = emitSystemVerilog(elaborate(IcCore, { fadd: 3, fmul: 3, fdiv: 14, memory: 2, slots: 3, triangleTest: 'watertight' }).design);
    expect(core.fileList.at(-1)).toBe('IcCore_fadd3_fdiv14_fmul3_memory2_slots3_triangleTest_watertight.sv');
  }, 120_000);

  test('an unknown triangle test is refused', () => {
    expect(() => elaborate(IcCore, { ...defaultIcCoreParams, triangleTest: 'plucker' as 'watertight' })).toThrow(/triangleTest must be/);
  });
});
