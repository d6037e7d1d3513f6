// The IC core (Möller–Trumbore pipeline) against the golden ray caster, bit for bit: with a TypeScript
// model of the triangle memory, and as the IC system (core + triangle memory) on all three simulators;
// every slot count with both triangle tests; its pace in cycles per ray; its RTL under lint.
import { describe, expect, test } from 'vitest';
import { IcCoreBench } from '../../src/gpu/icCore/verification/icCoreTestbench.ts';
import { IcCore, icIntakeCycles, icPipelineDepth, defaultIcCoreParams } from '../../src/gpu/icCore/icCore.ts';
import { IcSystem, defaultIcSystemParams, type IcSystemParams, type TriangleTestKind } from '../../src/gpu/icCore/icSystem.ts';
import { castRay, rayIsValid, testTriangle, type Vec3 } from '../../src/golden/rayCaster.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { tetrahedron } from '../../src/scenes/closedMeshes.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { generateScene } from '../../src/stimulus/randomProgram.ts';
import { triangleCount } from '../../src/golden/scene.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { icBackToBackSlots, runRays } from '../../src/gpu/icCore/verification/rayRunner.ts';
import { runBackToBack, steadyCyclesPerRay, type PacedRun } from '../../src/gpu/icCore/verification/backToBackRunner.ts';
import { closedMeshRay, queryWords, randomIcScene, randomRay, randomRayQuery, withRandomMasks, type Ray } from '../../src/gpu/icCore/verification/rayVectors.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT } from '../../src/golden/rayQuery.ts';
import { packWords } from '../../src/gpu/verification/portWords.ts';
import { TRIANGLE_MEMORY_LATENCY } from '../../src/gpu/memory/triangleMemory.ts';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { icCoreCosimDesign } from '../../src/gpu/icCore/verification/icCoreCosim.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';

const seed = seedFromEnv();
console.log(`icCore.test seed=${seed} (rerun with SEED=${seed})`);
const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;

describe('IC core against the golden caster', () => {
  const bench = new IcCoreBench();

  test('random rays over random and default scenes: identical hit, normal and shader id', () => {
    const rng = createRng(seed);
    let hits = 0;
    let tests = 0;
    for (let i = 0; i < 300; i++) {
      const scene = i % 3 === 0 ? defaultScene() : generateScene(rng);
      const o: Vec3 = [bits(rng() * 4 - 2), bits(rng() * 4 - 2), bits(rng() * 2 - 6)];
      const d: Vec3 = [bits(rng() - 0.5), bits(rng() - 0.5), bits(rng() < 0.1 ? -1 : 1)];
      const want = castRay(scene, o, d);
      const got = bench.trace(scene, o, d);
      expect([got.hit, got.normal], `ray ${i} (SEED=${seed})`).toEqual([want.hit.map((x) => x >>> 0), want.normal.map((x) => x >>> 0)]);
      if (want.triangle >= 0) hits++;
      tests += triangleCount(scene);
    }
    expect(hits).toBeGreaterThan(10);
    expect(tests).toBeGreaterThan(3000);
  });

  test('NaN, infinite and all-zero rays miss; an empty scene misses', () => {
    const scene = defaultScene();
    const nan = 0x7fc00000;
    const inf = 0x7f800000;
    for (const [o, d] of [
      [[0, 0, nan], [0, 0, bits(1)]],
      [[0, 0, 0], [inf, 0, bits(1)]],
      [[0, 0, 0], [0, 0x80000000, 0]],
    ] as [Vec3, Vec3][]) {
      expect(bench.trace(scene, o, d).hit).toEqual([0, 0, 0, 0]);
    }
    expect(bench.trace({ vertices: new Uint32Array(0), triangles: new Uint32Array(0) }, [0, 0, 0], [0, 0, bits(1)]).hit).toEqual([0, 0, 0, 0]);
  });

  test('a ray over N triangles is answered N + a constant cycles after it starts (one test per cycle)', () => {
    const scene = defaultScene();
    const n = triangleCount(scene);
    const r = bench.trace(scene, [0, 0, bits(-5)], [0, 0, bits(1)]);
    const p = defaultIcCoreParams;
    // Accepted at cycle 0; ids 0 .. n requested from cycle 1; the end token follows the last test down
    // the pipeline, then the hit point takes a multiply and an add.
    expect(r.cycles).toBe(1 + n + p.memory + icPipelineDepth(p) + p.fmul + p.fadd);
  });
});

describe('IC system (core + triangle memory)', () => {
  test('200,000 ray-triangle tests: tricky small scenes, 40 and 512 triangles, every answer on time and exact', () => {
    const rng = createRng(seed ^ 0x1c);
    let tests = 0;
    const run = (size: number, rays: number) => {
      const scene = randomIcScene(rng, size);
      const r = runRays(
        scene,
        Array.from({ length: rays }, () => randomRay(rng, scene)),
      );
      expect(r.difference, `scene of ${size || 'a few'} triangles (SEED=${seed})`).toBeNull();
      tests += r.tests;
    };
    for (const [size, rays] of [
      [0, 400],
      [0, 400],
      [40, 600],
      [512, 380],
    ] as const)
      run(size, rays);
    // Scene sizes are random (a few triangles are degenerate and dropped): top up to the count in the title.
    while (tests < 200_000) run(512, 20);
  }, 120_000);

  test('ic_core on the TS simulator, Verilator and Icarus, with the caster as golden model', async () => {
    // 6,000 cycles: about 40 s of Icarus; the soak's ic-cosim step runs 200,000.
    const r = await runCosim(icCoreCosimDesign, { cycles: 6_000, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden).toBeNull();
  }, 600_000);

  test('the golden model notices a wrong answer', () => {
    const model = icCoreCosimDesign.golden!();
    const plainQuery = packWords(queryWords(DEFAULT_RAY_QUERY));
    const ray = { rst_n: 1n, dispatch_ray_start: 1n, ray_origin: 0n, ray_direction: BigInt(bits(1)) << 64n, ray_thread: 5n, ray_query: plainQuery, load_start: 0n, load_valid: 0n, load_data: 0n };
    expect(model.check(0, ray, { dispatch_ready: 1n, dispatch_done: 0n })).toBeNull();
    const idle = { ...ray, dispatch_ray_start: 0n };
    // An empty scene: the answer must be a miss (all zero) for thread 5.
    const answer = { dispatch_ready: 0n, dispatch_done: 1n, dispatch_hit_info: 0n, dispatch_hit_normal: 0n, dispatch_hit_parameters: 0n, dispatch_done_thread: 5n };
    expect(model.check(1, idle, { ...answer, dispatch_hit_info: 1n })).toMatch(/hit 00000001 00000000 00000000 00000000/);
    // RV13 is checked too.
    const again = icCoreCosimDesign.golden!();
    expect(again.check(0, ray, { dispatch_ready: 1n, dispatch_done: 0n })).toBeNull();
    expect(again.check(1, idle, { ...answer, dispatch_hit_parameters: 1n })).toMatch(/parameters 00000001 00000000 00000000 00000000/);
  });
});

/** Valid rays only: an invalid ray is answered without a sweep. */
function validRays(rng: ReturnType<typeof createRng>, scene: Scene, n: number): Ray[] {
  const rays: Ray[] = [];
  while (rays.length < n) {
    const r = randomRay(rng, scene);
    if (rayIsValid(r.origin, r.direction)) rays.push(r);
  }
  return rays;
}

/** Answers of a back-to-back run in the order the rays were accepted (threads 0, 1, 2, …), each the caster's. */
function expectExactInOrder(run: PacedRun, scene: Scene, rays: readonly Ray[], p: IcSystemParams): void {
  const triangleTest = p.triangleTest === 'watertight' ? testTriangleWatertight : testTriangle;
  run.answers.forEach((a, i) => {
    const want = castRay(scene, rays[i]!.origin, rays[i]!.direction, triangleTest);
    expect([a.thread, a.hit, a.normal], `answer ${i}, ${p.slots} slots (SEED=${seed})`).toEqual([i & 31, want.hit.map((x) => x >>> 0), want.normal.map((x) => x >>> 0)]);
  });
}

/** The counters of a back-to-back run of valid rays: some slot busy from the first ray's entry into its slot (after the watertight intake, if any) to the last answer; N tests per ray. */
function expectCounters(run: PacedRun, scene: Scene, rays: readonly Ray[], p: IcSystemParams): void {
  expect(run.busyCycles).toBe(run.answers.at(-1)!.cycle - run.accepts[0]! - icIntakeCycles({ ...p, memory: TRIANGLE_MEMORY_LATENCY }));
  expect(run.tests).toBe(rays.length * triangleCount(scene));
}

describe('ray queries (docs/rays.md): interval, flags, masks, one-sided triangles, any-hit, (t, u, v)', () => {
  const kinds: readonly TriangleTestKind[] = ['moller-trumbore', 'watertight'];
  for (const kind of kinds)
    test(`${kind}: random queries over masked, partly one-sided scenes; every answer, RV13 included, exact and on time (an any-hit ray's sweep stops early)`, () => {
      const rng = createRng(seed ^ 0x42 ^ (kind === 'watertight' ? 0x5a : 0));
      const p: IcSystemParams = { ...defaultIcSystemParams, ...(kind === 'watertight' ? { triangleTest: kind } : {}) };
      let anyHitRays = 0;
      for (const size of [0, 8, 36, 200, 512]) {
        const scene = withRandomMasks(rng, randomIcScene(rng, size));
        const rays: Ray[] = Array.from({ length: 150 }, () => ({ ...randomRay(rng, scene), query: randomRayQuery(rng) }));
        anyHitRays += rays.filter((r) => (r.query!.flags & RAY_FLAG_ANY_HIT) !== 0).length;
        const r = runRays(scene, rays, p);
        expect(r.difference, `${kind}, ${triangleCount(scene)} triangles (SEED=${seed})`).toBeNull();
      }
      expect(anyHitRays).toBeGreaterThan(100);
    }, 120_000);

  test('an any-hit ray over 512 triangles that hits the first one stops its sweep: far fewer tests than a closest-hit ray', () => {
    const rng = createRng(seed ^ 0x43);
    const scene = randomIcScene(rng, 512);
    // Aimed at triangle 0's centroid, so that the first triangle tested is hit.
    const v = [0, 1, 2].map((k) => scene.triangles[k]!);
    const centroid = [0, 1, 2].map((i) => v.reduce((a, j) => a + new Float32Array(new Uint32Array([scene.vertices[3 * j + i]!]).buffer)[0]!, 0) / 3);
    const origin = [bits(centroid[0]! + 0.01), bits(centroid[1]! + 0.02), bits(centroid[2]! - 10)] as unknown as Vec3;
    const ray: Ray = { origin, direction: [bits(0), bits(0), bits(1)] as unknown as Vec3 };
    const closest = runRays(scene, [ray], defaultIcSystemParams);
    const anyHit = runRays(scene, [{ ...ray, query: { tmin: 0, tmax: 0x7f800000, flags: 0xff00 | RAY_FLAG_ANY_HIT } }], defaultIcSystemParams);
    expect(closest.difference).toBeNull();
    expect(anyHit.difference).toBeNull();
    expect(closest.tests).toBe(512);
    expect(anyHit.tests).toBeLessThan(100);
  });
});

describe('ray slots: 2, 3, 4 and 8, both triangle tests', () => {
  const kinds: readonly TriangleTestKind[] = ['moller-trumbore', 'watertight'];
  for (const slots of [2, 3, 4, 8])
    for (const kind of kinds)
      test(`${slots} slots, ${kind}: tricky, 1–8, 36-triangle scenes (and a tetrahedron), rays back to back by the timing and held until taken; every answer exact, in order and on time`, () => {
        const rng = createRng(seed ^ (slots << 8) ^ (kind === 'watertight' ? 0x5a : 0));
        const p: IcSystemParams = { ...defaultIcSystemParams, slots, ...(kind === 'watertight' ? { triangleTest: kind } : {}) };
        const scenes: [Scene, (s: Scene) => Ray][] = [
          [randomIcScene(rng), (sc) => randomRay(rng, sc)],
          [randomIcScene(rng, 1 + rng.int(8)), (sc) => randomRay(rng, sc)],
          [randomIcScene(rng, 36), (sc) => randomRay(rng, sc)],
          [tetrahedron(), (sc) => closedMeshRay(rng, sc)],
        ];
        for (const [scene, ray] of scenes) {
          const r = runRays(scene, Array.from({ length: 120 }, () => ray(scene)), p);
          expect(r.difference, `${slots} slots, ${kind}, ${triangleCount(scene)} triangles (SEED=${seed})`).toBeNull();
        }
        // Held on the ports until taken (every slot in use on 1–8 triangles): a ray never lands in a busy slot.
        const small = randomIcScene(rng, 1 + rng.int(8));
        const rays = Array.from({ length: 60 }, () => randomRay(rng, small));
        expectExactInOrder(runBackToBack(small, rays, p), small, rays, p);
      }, 60_000);

  test('a slot count outside 2 to 8 is refused', () => {
    for (const slots of [1, 9, 2.5]) expect(() => elaborate(IcCore, { ...defaultIcCoreParams, slots }), `${slots}`).toThrow(/slots must be an integer from 2 to 8/);
  });
});

describe('throughput in cycles: each ray held on the ports until the core takes it', () => {
  // A sweep costs N + memory + 2 cycles: ids 0 … N requested one per cycle (id N is past the last
  // triangle and ends the sweep), its answer `memory` cycles later, then the next ray is accepted.
  const sweepCycles = (n: number) => n + TRIANGLE_MEMORY_LATENCY + 2;

  test(`36 triangles (the built-in scene): the default ${defaultIcSystemParams.slots} slots sweep back to back, exactly N + 4 = 40 cycles per ray; 2 slots wait for the drain`, () => {
    const rng = createRng(seed ^ 0x36);
    const scene = defaultScene();
    const n = triangleCount(scene);
    expect(n).toBe(36);
    // The default is the fewest slots that keep these sweeps back to back.
    expect(icBackToBackSlots(defaultIcSystemParams, n)).toBe(defaultIcSystemParams.slots);
    for (const kind of ['moller-trumbore', 'watertight'] as const) {
      const p: IcSystemParams = { ...defaultIcSystemParams, ...(kind === 'watertight' ? { triangleTest: kind } : {}) };
      const rays = validRays(rng, scene, 24);
      const run = runBackToBack(scene, rays, p);
      expectExactInOrder(run, scene, rays, p);
      expectCounters(run, scene, rays, p);
      expect(steadyCyclesPerRay(run), kind).toBe(sweepCycles(n));
      // From the third ray on (the watertight intake takes the second D + 5 cycles after the first), each is taken the cycle its predecessor's sweep allows.
      const gaps = run.accepts.slice(1).map((a, i) => a - run.accepts[i]!);
      expect(new Set(gaps.slice(1)), kind).toEqual(new Set([sweepCycles(n)]));
    }
    // Two slots: a ray waits for the ray two back to drain (52 cycles after its sweep), about 46 cycles per ray.
    const two = runBackToBack(scene, validRays(rng, scene, 24), { ...defaultIcSystemParams, slots: 2 });
    expect(steadyCyclesPerRay(two)).toBeGreaterThan(sweepCycles(n) + 4);
  }, 60_000);

  test("icBackToBackSlots is the hardware's own threshold: at 14 triangles 4 slots keep N + 4 = 18 cycles per ray, 3 do not", () => {
    const rng = createRng(seed ^ 0x14);
    const scene = randomIcScene(rng, 14);
    const n = triangleCount(scene);
    expect(icBackToBackSlots(defaultIcSystemParams, n)).toBe(4);
    const pace = (slots: number) => steadyCyclesPerRay(runBackToBack(scene, validRays(rng, scene, 24), { ...defaultIcSystemParams, slots }));
    expect(pace(4)).toBe(sweepCycles(n));
    expect(pace(3)).toBeGreaterThan(sweepCycles(n));
  }, 60_000);

  test('512 triangles: exactly N + 4 = 516 cycles per ray, ≥ 0.95 tests per busy cycle', () => {
    const rng = createRng(seed ^ 0x512);
    const scene = randomIcScene(rng, 512);
    const rays = validRays(rng, scene, 12);
    const run = runBackToBack(scene, rays, defaultIcSystemParams);
    expectExactInOrder(run, scene, rays, defaultIcSystemParams);
    expectCounters(run, scene, rays, defaultIcSystemParams);
    expect(steadyCyclesPerRay(run, 2)).toBe(sweepCycles(triangleCount(scene)));
    expect(run.tests / run.busyCycles).toBeGreaterThanOrEqual(0.95);
  }, 60_000);
});

describe('RTL', () => {
  for (const slots of [3, 8])
    test(`the IC system with ${slots} slots passes verilator --lint-only -Wall and iverilog -Wall with no warnings`, async () => {
      const e = emitSystemVerilog(elaborate(IcSystem, { ...defaultIcSystemParams, slots }).design);
      expect(e.fileList.at(-1)).toBe(`IcSystem_fadd3_fdiv14_fmul5_slots${slots}_triangles512_vertices2048.sv`);
      const src = { top: e.fileList.at(-1)!.replace(/\.sv$/, ''), files: e.files, fileList: e.fileList };
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output).toBe('');
      expect(i.output).toBe('');
    }, 120_000);
});
