// The BVH IC system (BvhIcCore + triangle, node and TriRange memories + loader) against the golden BVH traversal, bit for
// bit and test for test: primary rays of the default scene and the bunny, seeded random scenes and rays, leaf sizes,
// degenerate trees, malformed images, indices past the loaded BVH (a per-ray fault), reloading; live lockstep runs on
// Verilator and Icarus; lint.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { emitSystemVerilog } from '../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../src/hdl/cosim/rtlChecks.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { formatMismatch, runCosim } from '../../src/hdl/cosim/runCosim.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import type { Box } from '../../src/golden/rayBox.ts';
import { castRayBvh } from '../../src/bvh/traversal/bvhCaster.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { bvhSceneImage, bvhSceneImageLayout, encodeBvhSceneImage, EMPTY_CHILD, type Bvh4, type Bvh4Child, type BuildOptions } from '../../src/bvh/index.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { primaryRays } from '../../src/host/primaryRays.ts';
import { packWords } from '../../src/gpu/verification/portWords.ts';
import { randomIcScene, randomRay, randomRayQuery, withRandomMasks, type Ray } from '../../src/gpu/icCore/verification/rayVectors.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, type RayQuery } from '../../src/golden/rayQuery.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { BvhIcSystem, type BvhIcSystemParams } from '../../src/gpu/bvh/bvhIcSystem.ts';
import { bvhSystemSimulator, castBvhRays, checkBvhAnswers, directDriver, loadBvhImage, runBvhRays, type BvhRunReport, type PrebuiltBvhScene } from '../../src/gpu/bvh/verification/bvhRayRunner.ts';
import { mixedRay, randomBvhScene, rayFromAnySide } from '../../src/gpu/bvh/verification/bvhRayVectors.ts';
import { queryWords } from '../../src/gpu/bvh/verification/raySystemGolden.ts';
import { BAD_INDICES, faultColumns, withBadIndex, type BadIndex } from '../../src/gpu/bvh/verification/badIndexVectors.ts';
import { BVH_IC_DRAIN_CYCLES, BVH_IC_RAY_CYCLES, bvhIcCosimDesign, bvhIcCosimParams, bvhIcGolden } from '../../src/gpu/bvh/verification/bvhIcCosim.ts';
import { ciOrSoak } from '../scale.ts';

const seed = seedFromEnv();
console.log(`bvhIcCore.test seed=${seed} (rerun with SEED=${seed})`);

/** Small capacities (the bunny in the box fits) so that the system compiles quickly. */
const small: BvhIcSystemParams = { fadd: 3, fmul: 5, fdiv: 14, rays: 16, triangles: 4096, vertices: 4096, nodes: 2048, triRanges: 4096 };

function expectGolden(r: BvhRunReport, what: string): void {
  expect(r.loadError, `${what}: load_error`).toBe(false);
  expect(r.difference, what).toBeNull();
  expect({ nodeTests: r.nodeTests, triangleTests: r.triangleTests }, `${what}: test counts`).toEqual({ nodeTests: r.goldenNodeTests, triangleTests: r.goldenTriangleTests });
}

const hits = (scene: Scene, rays: readonly Ray[], build: BuildOptions = {}) => {
  const { bvh, ordered } = bvhSceneImage(scene, build);
  return rays.filter((r) => castRayBvh(bvh, ordered, r.origin, r.direction).triangle >= 0).length;
};

const primary = new Map<string, Ray[]>();
const cameraRays = (width: number, height: number): Ray[] => {
  const key = `${width}x${height}`;
  if (!primary.has(key)) primary.set(key, primaryRays(defaultCamera, width, height));
  return primary.get(key)!;
};

// ------------------------------------------------------------------------------------ hand-made trees

/** The exact box (bit patterns) around triangles first .. first + count − 1. */
function boxOf(scene: Scene, first: number, count: number): Box {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let t = first; t < first + count; t++) {
    for (let k = 0; k < 3; k++) {
      const v = scene.triangles[4 * t + k]!;
      for (let i = 0; i < 3; i++) {
        const x = toNumber(scene.vertices[3 * v + i]!);
        lo[i] = Math.min(lo[i]!, x);
        hi[i] = Math.max(hi[i]!, x);
      }
    }
  }
  return { min: lo.map(fromNumber) as unknown as Box['min'], max: hi.map(fromNumber) as unknown as Box['max'] };
}

const leaf = (scene: Scene, index: number, first: number, count: number): Bvh4Child => ({ kind: 'leaf', box: boxOf(scene, first, count), index });
const slots = (...children: Bvh4Child[]) => ({ children: [...children, ...Array(4 - children.length).fill(EMPTY_CHILD)] });

/** A tree the builder would never make, over a scene taken in its own order (perm is the identity). */
function prebuilt(scene: Scene, nodes: Bvh4['nodes'], triRanges: Bvh4['triRanges']): PrebuiltBvhScene {
  const bvh: Bvh4 = { nodes, triRanges, perm: Uint32Array.from({ length: triangleCount(scene) }, (_, i) => i) };
  return { image: encodeBvhSceneImage(scene, bvh), bvh, ordered: scene };
}

/** `copies` copies of each of `n` random triangles (same vertices, other shader ids): every hit is a tie on t, won by the lower index. */
function duplicatedScene(rng: ReturnType<typeof createRng>, n: number, copies: number): Scene {
  const base = randomIcScene(rng, n);
  const triangles: number[] = [];
  for (let c = 0; c < copies; c++) for (let t = 0; t < n; t++) triangles.push(...base.triangles.subarray(4 * t, 4 * t + 3), 1 + ((t + c) % 15));
  return { vertices: base.vertices, triangles: Uint32Array.from(triangles) };
}

// ------------------------------------------------------------------------------------ answers

describe('BVH IC system against the golden BVH traversal', () => {
  // CI casts a quarter of the soak's frames.
  const [w, h] = ciOrSoak([32, 24], [64, 48]);
  test(`the default scene: ${w * h} primary rays (${w}x${h}), answers and test counts identical`, () => {
    const rays = cameraRays(w, h);
    const r = runBvhRays(defaultScene(), rays, small);
    expectGolden(r, `default scene ${w}x${h}`);
    expect(r.nodeTests).toBeGreaterThan(rays.length);
    console.log(`default scene ${w}x${h}, 16 slots: ${r.cycles} cycles, ${r.nodeTests} node and ${r.triangleTests} triangle tests`);
  }, 120_000);

  test(`the bunny in the box: ${w * h} primary rays, identical; with 2 and with 32 ray slots too`, () => {
    const scene = bunnyInBox();
    const built = bvhSceneImage(scene);
    const rays = cameraRays(w, h);
    const r16 = runBvhRays(scene, rays, small, {}, built);
    expectGolden(r16, `bunny ${w}x${h}, 16 slots`);
    const r32 = runBvhRays(scene, rays, { ...small, rays: 32 }, {}, built);
    expectGolden(r32, `bunny ${w}x${h}, 32 slots`);
    const few = cameraRays(16, 12);
    const r2 = runBvhRays(scene, few, { ...small, rays: 2 }, {}, built);
    expectGolden(r2, 'bunny 16x12, 2 slots');
    // More slots, fewer cycles: one ray alone is latency bound.
    expect(r32.cycles).toBeLessThan(r16.cycles);
    expect(r2.cycles / few.length).toBeGreaterThan(r16.cycles / rays.length);
    console.log(`bunny: 16 slots ${r16.cycles} cycles (${r16.nodeTests} node, ${r16.triangleTests} triangle tests), 32 slots ${r32.cycles}, 2 slots ${r2.cycles} for 192 rays`);
  }, 240_000);

  test(`random scenes and rays: tricky and random triangles, closed meshes, rays at vertices and edges, invalid rays, from every side (SEED=${seed})`, () => {
    const rng = createRng(seed);
    let rays = 0;
    let hitRays = 0;
    for (let i = 0; i < ciOrSoak(12, 24); i++) {
      const s = i % 6 === 5 ? { scene: randomIcScene(rng, 1 + rng.int(1200)), what: 'random triangles', ray: undefined } : randomBvhScene(rng, 1200);
      const draw = s.ray ?? mixedRay(s.scene);
      const maxLeafTriangles = [1, 2, 4, 8][rng.int(4)]!;
      const list = Array.from({ length: 120 }, () => draw(rng));
      const r = runBvhRays(s.scene, list, small, { maxLeafTriangles });
      expectGolden(r, `scene ${i}: ${s.what}, ${triangleCount(s.scene)} triangles, maxLeafTriangles ${maxLeafTriangles} (SEED=${seed})`);
      rays += list.length;
      hitRays += hits(s.scene, list, { maxLeafTriangles });
    }
    expect(hitRays).toBeGreaterThan(rays / 4);
  }, 240_000);

  for (const triangleTest of ['moller-trumbore', 'watertight'] as const) {
    test(`random ray queries (${triangleTest}): intervals (empty, NaN, infinite, tmax = 0), masks, culled faces, any-hit, on scenes with random masks and one-sided triangles (SEED=${seed})`, () => {
      const rng = createRng(seed ^ (triangleTest === 'watertight' ? 0x9e7 : 0x9e4));
      const p = { ...small, triangleTest };
      const golden = triangleTest === 'watertight' ? testTriangleWatertight : undefined;
      let rays = 0;
      let accepted = 0;
      let anyHits = 0;
      for (let i = 0; i < ciOrSoak(8, 16); i++) {
        const s = randomBvhScene(rng, 1200);
        const scene = rng.int(4) === 0 ? s.scene : withRandomMasks(rng, s.scene);
        const maxLeafTriangles = [1, 2, 4, 8][rng.int(4)]!;
        const list = Array.from({ length: 120 }, (): Ray => ({ ...s.ray(rng), query: rng.int(5) === 0 ? DEFAULT_RAY_QUERY : randomRayQuery(rng) }));
        const built = bvhSceneImage(scene, { maxLeafTriangles });
        const r = runBvhRays(scene, list, p, {}, built);
        expectGolden(r, `scene ${i}: ${s.what}, ${triangleCount(scene)} triangles${scene.masks ? ' with masks' : ''}, maxLeafTriangles ${maxLeafTriangles} (SEED=${seed})`);
        rays += list.length;
        for (const ray of list) {
          if (castRayBvh(built.bvh, built.ordered, ray.origin, ray.direction, { query: ray.query!, ...(golden && { triangleTest: golden }) }).triangle < 0) continue;
          accepted++;
          if (ray.query!.flags & RAY_FLAG_ANY_HIT) anyHits++;
        }
      }
      console.log(`${triangleTest}: ${rays} rays with queries, ${accepted} accepted hits (${anyHits} any-hit)`);
      expect(accepted).toBeGreaterThan(rays / 8);
      expect(anyHits).toBeGreaterThan(rays / 20);
    }, 240_000);
  }

  test('any-hit against closest hit on the bunny: the same rays end sooner, with fewer node and triangle tests', () => {
    const scene = bunnyInBox();
    const built = bvhSceneImage(scene);
    const rng = createRng(seed ^ 0xa11);
    const base = [...cameraRays(16, 12), ...Array.from({ length: 192 }, () => rayFromAnySide(rng, scene))];
    const run = (query: RayQuery) => runBvhRays(scene, base.map((r) => ({ ...r, query })), small, {}, built);
    const closest = run(DEFAULT_RAY_QUERY);
    const any = run({ ...DEFAULT_RAY_QUERY, flags: DEFAULT_RAY_QUERY.flags | RAY_FLAG_ANY_HIT });
    expectGolden(closest, 'bunny, closest hit');
    expectGolden(any, 'bunny, any hit');
    expect(any.triangleTests).toBeLessThan(closest.triangleTests);
    expect(any.nodeTests).toBeLessThan(closest.nodeTests);
    const per = (r: BvhRunReport) => `${(r.nodeTests / r.rays).toFixed(2)} node, ${(r.triangleTests / r.rays).toFixed(2)} triangle tests and ${(r.cycles / r.rays).toFixed(2)} cycles per ray`;
    console.log(`bunny, ${base.length} rays, 16 slots: closest hit ${per(closest)}; any hit ${per(any)}`);
  }, 120_000);

  test('maxLeafTriangles 1 and 8 on the bunny and the default scene', () => {
    const rng = createRng(seed ^ 0x1eaf);
    for (const scene of [bunnyInBox(), defaultScene()]) {
      const rays = [...cameraRays(32, 24), ...Array.from({ length: 300 }, () => rayFromAnySide(rng, scene))];
      for (const maxLeafTriangles of [1, 8]) expectGolden(runBvhRays(scene, rays, small, { maxLeafTriangles }), `${triangleCount(scene)} triangles, maxLeafTriangles ${maxLeafTriangles} (SEED=${seed})`);
    }
  }, 240_000);

  test('one triangle, and no triangles at all', () => {
    const rng = createRng(seed ^ 0x0001);
    const one = randomIcScene(rng, 1);
    const rays = Array.from({ length: 200 }, () => mixedRay(one)(rng));
    expectGolden(runBvhRays(one, rays, small), `one triangle (SEED=${seed})`);
    expect(hits(one, rays)).toBeGreaterThan(20);
    const none: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
    const r = runBvhRays(none, rays.slice(0, 40), small);
    expectGolden(r, 'empty scene');
    expect(r.triangleTests).toBe(0);
  }, 120_000);

  test('long TriRanges: one leaf of 600 triangles, and tied duplicates split across leaves', () => {
    const rng = createRng(seed ^ 0x7a11);
    const scene = duplicatedScene(rng, 300, 2);
    const rays = Array.from({ length: 150 }, () => (rng.int(2) ? randomRay(rng, scene) : rayFromAnySide(rng, scene)));
    expect(hits(scene, rays)).toBeGreaterThan(30);
    const all = prebuilt(scene, [slots(leaf(scene, 0, 0, 600))], [{ first: 0, count: 600 }]);
    const r = runBvhRays(scene, rays, small, {}, all);
    expectGolden(r, `one leaf of 600 triangles (SEED=${seed})`);
    expect(r.triangleTests).toBeGreaterThanOrEqual(600 * 100);
    // Root: a leaf of triangle 0, a leaf of 1 .. 299, a node with the copies in a leaf of 300 .. 549 and one of 550 .. 599.
    const split = prebuilt(
      scene,
      [slots(leaf(scene, 0, 0, 1), leaf(scene, 1, 1, 299), { kind: 'node', box: boxOf(scene, 300, 300), index: 1 }), slots(leaf(scene, 2, 300, 250), leaf(scene, 3, 550, 50))],
      [{ first: 0, count: 1 }, { first: 1, count: 299 }, { first: 300, count: 250 }, { first: 550, count: 50 }],
    );
    expectGolden(runBvhRays(scene, rays, small, {}, split), `tied duplicates across leaves (SEED=${seed})`);
  }, 120_000);

  test('any-hit in one leaf of 600 triangles: the walk of the leaf stops at the first accepted hit, and the ray ends soon after', () => {
    const rng = createRng(seed ^ 0xa600);
    const scene = withRandomMasks(rng, randomIcScene(rng, 600));
    const all = prebuilt(scene, [slots(leaf(scene, 0, 0, 600))], [{ first: 0, count: 600 }]);
    const base = Array.from({ length: 60 }, () => rayFromAnySide(rng, scene));
    const anyHit = { ...DEFAULT_RAY_QUERY, flags: DEFAULT_RAY_QUERY.flags | RAY_FLAG_ANY_HIT };
    const closest = runBvhRays(scene, base, small, {}, all);
    const any = runBvhRays(scene, base.map((r) => ({ ...r, query: anyHit })), small, {}, all);
    expectGolden(closest, `closest hit (SEED=${seed})`);
    expectGolden(any, `any hit (SEED=${seed})`);
    expect(any.triangleTests).toBeLessThan(closest.triangleTests / 2);
    expect(any.cycles).toBeLessThan(closest.cycles / 2);
    console.log(`one leaf of 600: closest hit ${closest.cycles} cycles, ${closest.triangleTests} triangle tests; any hit ${any.cycles} cycles, ${any.triangleTests} tests (60 rays)`);
  }, 120_000);
});

// ------------------------------------------------------------------------------------ loading

describe('loading BVH scene images', () => {
  const good = bvhSceneImage(defaultScene());
  const layout = bvhSceneImageLayout(good.image);
  const checkRays = cameraRays(8, 6);

  /** The system loads `image` after a reset; load_error afterwards. */
  const loadError = (sim: ReturnType<typeof bvhSystemSimulator>['sim'], image: Uint32Array, reset = true) => {
    loadBvhImage(sim, image, { reset });
    return sim.peek('load_error');
  };
  /** A new load_start with the good image clears the error, and rays then get the golden answers. */
  const recovers = (sim: ReturnType<typeof bvhSystemSimulator>['sim'], what: string) => {
    expect(loadError(sim, good.image, false), `${what}: load_error after loading a good image`).toBe(0n);
    const run = castBvhRays(sim, directDriver(sim), checkRays);
    const golden = checkBvhAnswers(good.bvh, good.ordered, checkRays, run.answers);
    expect(run.problem ?? golden.difference, what).toBeNull();
    expect(run.nodeTests, what).toBe(golden.goldenNodeTests);
  };
  const edited = (edit: (w: Uint32Array) => void) => {
    const w = good.image.slice();
    edit(w);
    return w;
  };

  test('malformed images raise load_error; load_start with a good image clears it', () => {
    const { sim } = bvhSystemSimulator(small);
    const nodeWord = (n: number, k: number) => layout.nodesAt + 32 * n + k;
    const rangeWord = (r: number, k: number) => layout.triRangesAt + 4 * r + k;
    const cases: [string, Uint32Array][] = [
      ['a triangle section shorter than two records', edited((w) => (w[0] = 4))],
      ['a vertex index past the triangle memory', edited((w) => (w[1] = small.vertices))],
      ['a node count of 0', edited((w) => (w[layout.nodesAt - 1] = 0))],
      ['a node count above the capacity', edited((w) => (w[layout.nodesAt - 1] = small.nodes + 1))],
      ['a TriRange count above the capacity', edited((w) => (w[layout.triRangesAt - 1] = small.triRanges + 1))],
      ['a child index wider than the index field', edited((w) => (w[nodeWord(0, 24)] = 1 << 12))],
      ['flag bits above bit 7', edited((w) => (w[nodeWord(0, 28)]! |= 0x100))],
      ['a non-zero node padding word', edited((w) => (w[nodeWord(layout.nodes - 1, 31)] = 1))],
      ['a TriRange first wider than a triangle id', edited((w) => (w[rangeWord(0, 0)] = 1 << 13))],
      ['a non-zero TriRange base', edited((w) => (w[rangeWord(layout.triRanges - 1, 3)] = 1))],
      ['a word past the end', Uint32Array.from([...good.image, 0])],
    ];
    expect(loadError(sim, good.image)).toBe(0n);
    for (const [what, image] of cases) {
      expect(loadError(sim, image), what).toBe(1n);
      recovers(sim, what);
    }
  }, 120_000);

  test('a ray before the image is complete (or before any image) raises load_error', () => {
    const { sim } = bvhSystemSimulator(small);
    const d = directDriver(sim);
    const offer = () => {
      const r = checkRays[20]!;
      d.poke('ray_origin', packWords(r.origin));
      d.poke('ray_direction', packWords(r.direction));
      d.poke('ray_thread', 3);
      d.poke('dispatch_ray_start', 1);
      d.step();
      d.poke('dispatch_ray_start', 0);
      // Let the ray finish (it walks whatever the memories hold) before the next load.
      for (let c = 0; c < 400; c++) d.step();
    };
    loadBvhImage(sim, new Uint32Array(0)); // reset only: nothing loaded
    expect(sim.peek('load_error')).toBe(0n);
    offer();
    expect(sim.peek('load_error'), 'a ray before any image').toBe(1n);
    recovers(sim, 'a ray before any image');
    loadBvhImage(sim, good.image.subarray(0, layout.nodesAt + 40), { reset: false });
    expect(sim.peek('load_error')).toBe(0n);
    offer();
    expect(sim.peek('load_error'), 'a ray with half the nodes loaded').toBe(1n);
    recovers(sim, 'a ray with half the nodes loaded');
  }, 120_000);

  test('a second scene loaded after the first gives the second scene’s answers; and back', () => {
    const { sim } = bvhSystemSimulator(small);
    const d = directDriver(sim);
    const rays = cameraRays(16, 12);
    const rng = createRng(seed ^ 0x2e10);
    const scenes = [good, bvhSceneImage(bunnyInBox()), bvhSceneImage(randomIcScene(rng, 500), { maxLeafTriangles: 1 }), good];
    scenes.forEach((s, k) => {
      loadBvhImage(sim, s.image, { reset: k === 0 });
      expect(sim.peek('load_error')).toBe(0n);
      const run = castBvhRays(sim, d, rays);
      const golden = checkBvhAnswers(s.bvh, s.ordered, rays, run.answers);
      expect(run.problem ?? golden.difference, `scene ${k} (SEED=${seed})`).toBeNull();
      expect({ nodeTests: run.nodeTests, triangleTests: run.triangleTests }, `scene ${k}`).toEqual({ nodeTests: golden.goldenNodeTests, triangleTests: golden.goldenTriangleTests });
    });
  }, 120_000);

  test('a tree that overflows a ray’s stack ends that ray and raises load_error, until the next load_start', () => {
    // A chain of 25 nodes, each with the next node in slot 0 and three leaves, all boxes around the ray's origin: every
    // node pushes four entries and pops one, so the 22nd node pushes past 64 entries. Its leaf triangle is behind the ray.
    const scene: Scene = { vertices: Uint32Array.from([0, 0, -5, 1, 0, -5, 0, 1, -5].map(fromNumber)), triangles: Uint32Array.from([0, 1, 2, 1]) };
    const big: Box = { min: [-10, -10, -10].map(fromNumber) as unknown as Box['min'], max: [10, 10, 10].map(fromNumber) as unknown as Box['max'] };
    const toLeaf: Bvh4Child = { kind: 'leaf', box: big, index: 0 };
    const nodes = Array.from({ length: 25 }, (_, n) => slots(n < 24 ? { kind: 'node', box: big, index: n + 1 } : toLeaf, toLeaf, toLeaf, toLeaf));
    const deep = prebuilt(scene, nodes, [{ first: 0, count: 1 }]);
    const { sim } = bvhSystemSimulator(small);
    loadBvhImage(sim, deep.image);
    expect(sim.peek('load_error')).toBe(0n);
    const ray: Ray = { origin: [0, 0, 0], direction: [0, 0, fromNumber(1)] };
    const run = castBvhRays(sim, directDriver(sim), [ray]);
    expect(run.problem).toBeNull();
    expect(run.answers[0], 'the ray is answered (a miss; the overflow is load_error, not a ray fault)').toEqual({ hit: [0, 0, 0, 0], normal: [0, 0, 0, 0], hitParameters: [0, 0, 0, 0], fault: false });
    expect(run.nodeTests).toBe(22);
    expect(sim.peek('load_error')).toBe(1n);
    recovers(sim, 'after a stack overflow');
  }, 120_000);
});

// ------------------------------------------------------------------------------------ indices past the loaded BVH

describe('indices past the loaded BVH fault the ray that reaches them', () => {
  const zero = [0, 0, 0, 0];

  test('the fault columns: a node, a TriRange and a TriRange’s triangles past the loaded ones; a skipped bad entry does not fault', () => {
    const columns = faultColumns();
    const { sim } = bvhSystemSimulator(small);
    loadBvhImage(sim, columns.image);
    expect(sim.peek('load_error')).toBe(0n);
    const run = castBvhRays(sim, directDriver(sim), columns.rays);
    const golden = checkBvhAnswers(columns.bvh, columns.ordered, columns.rays, run.answers);
    expect(run.problem ?? golden.difference).toBeNull();
    expect({ nodeTests: run.nodeTests, triangleTests: run.triangleTests }).toEqual({ nodeTests: golden.goldenNodeTests, triangleTests: golden.goldenTriangleTests });
    columns.rays.forEach((r, i) => {
      const a = run.answers[i]!;
      const what = `ray ${i} at x ${toNumber(r.origin[0])}, y ${toNumber(r.origin[1])}`;
      expect(a.fault, `${what}: done_fault`).toBe(r.fault);
      expect(a.hit[3] !== 0, `${what}: a hit`).toBe(r.hit);
      if (r.fault) expect({ hit: a.hit, normal: a.normal }, `${what}: a faulted ray answers a miss`).toEqual({ hit: zero, normal: zero });
    });
    expect(columns.rays.filter((r) => r.fault)).toHaveLength(9);
    // Per ray, not sticky: the system is not in error, and the next rays of a good image are answered as ever.
    expect(sim.peek('load_error')).toBe(0n);
  }, 120_000);

  /** Which child (or TriRange) of the default scene's BVH each kind moves past the loaded part: one that some primary rays reach. */
  const nthOf: Record<BadIndex, number> = { node: 0, triRange: 0, triangles: 3 };

  test('the default scene with each kind of bad index: the rays that reach it fault with a miss, every other answer is unchanged', () => {
    const good = bvhSceneImage(defaultScene());
    const rng = createRng(seed ^ 0xbad1);
    const rays = [...cameraRays(16, 12), ...Array.from({ length: 300 }, () => rayFromAnySide(rng, good.ordered))];
    const { sim } = bvhSystemSimulator(small);
    const d = directDriver(sim);
    BAD_INDICES.forEach((bad, k) => {
      const broken = withBadIndex(good, bad, nthOf[bad]);
      loadBvhImage(sim, broken.image, { reset: k === 0 }); // one after another: the loaded sizes follow each image
      expect(sim.peek('load_error'), bad).toBe(0n);
      const run = castBvhRays(sim, d, rays);
      const golden = checkBvhAnswers(broken.bvh, broken.ordered, rays, run.answers);
      expect(run.problem ?? golden.difference, `${bad} (SEED=${seed})`).toBeNull();
      expect({ nodeTests: run.nodeTests, triangleTests: run.triangleTests }, bad).toEqual({ nodeTests: golden.goldenNodeTests, triangleTests: golden.goldenTriangleTests });
      let faults = 0;
      rays.forEach((r, i) => {
        const a = run.answers[i]!;
        const before = castRayBvh(good.bvh, good.ordered, r.origin, r.direction);
        if (a.fault) {
          faults++;
          expect({ hit: a.hit, normal: a.normal }, `${bad}, ray ${i}: a miss`).toEqual({ hit: zero, normal: zero });
        } else expect({ hit: a.hit, normal: a.normal }, `${bad}, ray ${i}: as with the good tree`).toEqual({ hit: before.hit.map((x) => x >>> 0), normal: before.normal.map((x) => x >>> 0) });
      });
      expect(faults, `${bad}: rays that fault`).toBeGreaterThan(5);
      expect(rays.length - faults, `${bad}: rays that do not`).toBeGreaterThan(rays.length / 4);
      expect(sim.peek('load_error'), `${bad}: no system-wide error`).toBe(0n);
    });
    // And back to the good image without a reset: no ray faults.
    loadBvhImage(sim, good.image, { reset: false });
    const run = castBvhRays(sim, d, rays);
    expect(run.answers.some((a) => a!.fault)).toBe(false);
    expect(checkBvhAnswers(good.bvh, good.ordered, rays, run.answers).difference).toBeNull();
  }, 120_000);
});

// ------------------------------------------------------------------------------------ RTL

describe('BVH IC system on Verilator and Icarus', () => {
  test('bvh_ic is registered', async () => {
    expect(await findDesign('bvh_ic')).toBe(bvhIcCosimDesign);
  });

  // Verilator only: Icarus runs the same RTL in lockstep in the random test below (Icarus on this frame
  // took two minutes of CI).
  test('the default scene at 8x6, live on TS and Verilator in lockstep, with the golden traversal', async () => {
    const sim = await compileSimulator(elaborate(BvhIcSystem, bvhIcCosimParams).design, { backend: 'lockstep', backends: [{}, 'verilator'], log: (l) => console.log(`  ${l}`) });
    const t0 = performance.now();
    const report = runBvhRays(defaultScene(), cameraRays(8, 6), bvhIcCosimParams, {}, undefined, sim);
    expectGolden(report, 'default scene 8x6');
    console.log(`bvh_ic in lockstep: ${sim.cycle} cycles, 0 mismatches, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sim.close();
  }, 900_000);

  test('the fault columns live on TS, Verilator and Icarus in lockstep, with the golden traversal', async () => {
    const sim = await compileSimulator(elaborate(BvhIcSystem, bvhIcCosimParams).design, { backend: 'lockstep', backends: [{}, 'verilator', 'icarus'], log: (l) => console.log(`  ${l}`) });
    const t0 = performance.now();
    const columns = faultColumns();
    const report = runBvhRays(columns.ordered, columns.rays, bvhIcCosimParams, {}, columns, sim);
    expectGolden(report, 'fault columns');
    console.log(`fault columns in lockstep: ${sim.cycle} cycles, 0 mismatches, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    sim.close();
  }, 900_000);

  test('bvh_ic: random scenes and rays in lockstep on the three simulators, with the golden traversal', async () => {
    const cycles = 2000 + BVH_IC_RAY_CYCLES + BVH_IC_DRAIN_CYCLES;
    const r = await runCosim(bvhIcCosimDesign, { cycles, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden, `SEED=${seed}`).toBeNull();
  }, 900_000);

  test('the bvh_ic golden model notices a wrong answer and a wrong count', () => {
    const model = bvhIcGolden(bvhIcCosimParams);
    const image = bvhSceneImage(defaultScene()).image;
    const idle = { rst_n: 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ray_query: packWords(queryWords(DEFAULT_RAY_QUERY)) };
    const quiet = { load_error: 0n, dispatch_ready: 1n, dispatch_done: 0n };
    expect(model.check(0, { ...idle, load_start: 1n }, quiet)).toBeNull();
    image.forEach((w, i) => expect(model.check(1 + i, { ...idle, load_valid: 1n, load_data: BigInt(w) }, quiet)).toBeNull());
    // Straight down the middle of the room: it hits the back wall (not a miss).
    const ray = { dispatch_ray_start: 1n, ray_origin: packWords([0, fromNumber(1), fromNumber(3)]), ray_direction: packWords([0, 0, fromNumber(-1)]), ray_thread: 9n };
    let c = image.length + 1;
    expect(model.check(c++, { ...idle, ...ray }, quiet)).toBeNull();
    expect(model.check(c++, idle, { ...quiet, dispatch_done: 1n, dispatch_done_thread: 9n, dispatch_hit_info: 0n, dispatch_hit_normal: 0n, dispatch_hit_parameters: 0n, counters_node_tests: 1n, counters_tests: 0n })).toMatch(/thread 9, ray .*: hit 00000000 00000000 00000000 00000000/);
    expect(model.check(c++, idle, { ...quiet, dispatch_done: 1n, dispatch_done_thread: 4n, dispatch_hit_info: 0n, dispatch_hit_normal: 0n, dispatch_hit_parameters: 0n })).toMatch(/thread 4, which has no ray in flight/);
    expect(model.check(c++, idle, { ...quiet, load_error: 1n })).toMatch(/load_error/);
  });

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    for (const p of [bvhIcCosimParams, { fadd: 0, fmul: 0, fdiv: 0, rays: 2, triangles: 2, vertices: 2, nodes: 2, triRanges: 2 }, { ...small, rays: 32 }]) {
      const design = elaborate(BvhIcSystem, p).design;
      const e = emitSystemVerilog(design);
      const src = { top: design.top, files: e.files, fileList: e.fileList };
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output, `verilator on ${JSON.stringify(p)}`).toBe('');
      expect(v.ok).toBe(true);
      expect(i.output, `icarus on ${JSON.stringify(p)}`).toBe('');
    }
  }, 300_000);
});
