// The IC core (Möller–Trumbore pipeline) against the golden ray caster, bit for bit: with a TypeScript
// model of the triangle memory, and as the IC system (core + triangle memory) on all three simulators.
import { describe, expect, test } from 'vitest';
import { IcCoreBench } from '../../src/gpu/icCore/icTestbench.ts';
import { icPipelineDepth, defaultIcCoreParams } from '../../src/gpu/icCore/icCore.ts';
import { castRay, type Vec3 } from '../../src/golden/rayCaster.ts';
import { defaultScene } from '../../src/golden/defaultScene.ts';
import { generateScene } from '../../src/isa/randomProgram.ts';
import { triangleCount } from '../../src/golden/scene.ts';
import { createRng, seedFromEnv } from '../../src/hdl/testbench/rng.ts';
import { runRays } from '../../src/gpu/icCore/rayRunner.ts';
import { randomIcScene, randomRay } from '../../src/gpu/icCore/rays.ts';
import { icCoreCosimDesign } from '../../src/gpu/icCore/cosimDesign.ts';
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
    const r = await runCosim(icCoreCosimDesign, { cycles: 20_000, seed, sims: ['ts', 'verilator', 'icarus'] });
    expect(r.mismatch && formatMismatch(r.mismatch)).toBeNull();
    expect(r.golden).toBeNull();
  }, 600_000);

  test('the golden model notices a wrong answer', () => {
    const model = icCoreCosimDesign.golden!();
    const ray = { rst_n: 1n, ray_start: 1n, ray_origin: 0n, ray_direction: BigInt(bits(1)) << 64n, ray_thread: 5n, load_start: 0n, load_valid: 0n, load_data: 0n };
    expect(model.check(0, ray, { ready: 1n, done: 0n })).toBeNull();
    const idle = { ...ray, ray_start: 0n };
    // An empty scene: the answer must be a miss (all zero) for thread 5.
    expect(model.check(1, idle, { ready: 0n, done: 1n, hit_info: 1n, hit_normal: 0n, done_thread: 5n })).toMatch(/hit 00000001 00000000 00000000 00000000/);
  });
});
