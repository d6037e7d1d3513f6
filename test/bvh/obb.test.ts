// Oriented boxes on the BVH8: the 104-matrix ROM, the golden ray rotation, the builder's rotation choice (conservative boxes:
// every hit still found, bit for bit), the image checker and the traversal with OBB on, and the figures on the bunny and the thin rods.
import { describe, expect, test, vi } from 'vitest';
import {
  OBB_DISTINCT_ROTATIONS,
  OBB_MATRIX_COUNT,
  OBB_MATRIX_INDICES,
  OBB_VALUES,
  OBB_VALUE_COUNT,
  buildBvh8,
  bvh8SahCost,
  bvh8ChildTargets,
  bvh8NodeWords,
  decodeBvh8Image,
  decodeGfx12BoxNode,
  encodeBvh8Image,
  gfx12ChildBox,
  obbIndexIsValid,
  obbMatrix,
  BVH8_DEFAULT_TRIANGLE_COST,
  type Bvh8,
} from '../../src/bvh/index.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { obbRay, rotateObb } from '../../src/bvh/traversal/obbRay.ts';
import { castRay, type Vec3 } from '../../src/golden/rayCaster.ts';
import { rayInverse } from '../../src/golden/rayBox.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { fadd, fmul, fromNumber, toNumber } from '../../src/golden/float32.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { thinRods, thinRodsInBox } from '../../src/scenes/thinRodsScene.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { primaryRays } from '../../src/host/primaryRays.ts';
import { compareObbOnBunny, compareObbOnThinRods, measureObb } from '../../src/designs/bench/obbBench.ts';
import { announceSeed, bits3, createRng, randomRays, randomScene, sceneOf, type P, type Rng, type TestRay } from './helpers.ts';

vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('obb.test');

const num = (m: readonly number[]): number[] => m.map(toNumber);

describe('the ROM', () => {
  test('104 matrices of nine 6-bit indices into 26 distinct binary32 values, each value but the spare used', () => {
    expect(OBB_MATRIX_INDICES).toHaveLength(OBB_MATRIX_COUNT);
    expect(OBB_VALUES).toHaveLength(OBB_VALUE_COUNT);
    expect(new Set(OBB_VALUES).size).toBe(26);
    for (const row of OBB_MATRIX_INDICES) {
      expect(row).toHaveLength(9);
      for (const i of row) expect(i >= 0 && i < 26 && i < 64).toBe(true);
    }
    expect(new Set(OBB_MATRIX_INDICES.flat()).size).toBe(25);
    expect(OBB_MATRIX_INDICES.flat()).not.toContain(25);
    expect(toNumber(OBB_VALUES[25]!)).toBeCloseTo(Math.sin(Math.PI / 12) ** 2, 7);
  });

  test('every matrix is a rotation (orthonormal to binary32 precision, determinant +1)', () => {
    for (let k = 0; k < OBB_MATRIX_COUNT; k++) {
      const m = num(obbMatrix(k));
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          const dot = m[i]! * m[j]! + m[3 + i]! * m[3 + j]! + m[6 + i]! * m[6 + j]!;
          expect(Math.abs(dot - (i === j ? 1 : 0)), `matrix ${k} columns ${i}, ${j}`).toBeLessThan(2 ** -22);
        }
      const det = m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
      expect(det).toBeCloseTo(1, 6);
    }
  });

  test('93 distinct orientations (no two the same up to a rotation of the cube, none the identity), then the identity', () => {
    const cube: number[][] = [];
    for (const p of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
      for (let s = 0; s < 8; s++) cube.push([0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => (j === p[i] ? ((s >> i) & 1 ? -1 : 1) : 0))));
    const mul = (q: number[], m: number[]) => [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => q[3 * i]! * m[j]! + q[3 * i + 1]! * m[3 + j]! + q[3 * i + 2]! * m[6 + j]!));
    const key = (m: number[]) => m.map((x) => Math.round(x * 1e5) + 0).join();
    const orientation = (m: number[]) => cube.map((q) => key(mul(q, m))).sort()[0]!;
    const identity = orientation([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const distinct = Array.from({ length: OBB_DISTINCT_ROTATIONS }, (_, k) => orientation(num(obbMatrix(k))));
    expect(new Set(distinct).size).toBe(OBB_DISTINCT_ROTATIONS);
    expect(distinct).not.toContain(identity);
    for (let k = OBB_DISTINCT_ROTATIONS; k < OBB_MATRIX_COUNT; k++) expect(num(obbMatrix(k))).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  test('indices: 0–103 and 0x7F are valid, anything else is refused clearly', () => {
    expect([0, 103, 0x7f].every(obbIndexIsValid)).toBe(true);
    expect([104, 126, 128, -1, 0.5, 0xffffffff].some(obbIndexIsValid)).toBe(false);
    expect(() => obbMatrix(104)).toThrow('OBB matrix index 104 is outside 0–103 (127 = off)');
  });
});

describe('the golden rotation', () => {
  test('component i is fadd(fadd(m_i0·x, m_i1·y), m_i2·z), in that order (the sums do not associate)', () => {
    // x + y rounds away the 1 that a (y + z) first would keep: the order shows.
    const m = [0x3f800000, 0x3f800000, 0x3f800000, 0, 0, 0, 0, 0, 0];
    const v: Vec3 = [fromNumber(2 ** 24), fromNumber(1), fromNumber(1)];
    expect(toNumber(rotateObb(m, v)[0])).toBe(2 ** 24);
    expect(toNumber(fadd(fmul(m[0]!, v[0]), fadd(fmul(m[1]!, v[1]), fmul(m[2]!, v[2]))))).toBe(2 ** 24 + 2);
  });

  test('obbRay: off keeps the ray and the given inverse, a matrix rotates both and inverts the rotated direction, a bad index is undefined', () => {
    const o = bits3([0.5, 1, 3.5]);
    const d = bits3([-0.25, -0.125, -1]);
    const inv = rayInverse(d);
    expect(obbRay(0x7f, o, d, inv)).toEqual({ origin: o, direction: d, inv });
    const r = obbRay(7, o, d)!;
    expect(r.origin).toEqual(rotateObb(obbMatrix(7), o));
    expect(r.direction).toEqual(rotateObb(obbMatrix(7), d));
    expect(r.inv).toEqual(rayInverse(r.direction));
    expect(obbRay(104, o, d)).toBeUndefined();
  });
});

/** A random scene of long thin triangles (slivers along a few random directions), where rotated boxes pay. */
function sliverScene(rng: Rng, n: number): Scene {
  const dirs = Array.from({ length: 3 }, () => {
    const v = [rng() - 0.5, rng() - 0.5, rng() - 0.5];
    const l = Math.hypot(...v);
    return v.map((x) => x / l);
  });
  return sceneOf(
    Array.from({ length: n }, () => {
      const u = dirs[rng.int(3)]!;
      const c = [rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1];
      const at = (s: number, e: number[]): P => [c[0]! + s * u[0]! + e[0]!, c[1]! + s * u[1]! + e[1]!, c[2]! + s * u[2]! + e[2]!];
      const w = () => [(rng() - 0.5) * 0.02, (rng() - 0.5) * 0.02, (rng() - 0.5) * 0.02];
      return [at(-0.4, w()), at(0.4, w()), at(0.4, w()), 1 + rng.int(6)] as const;
    }),
  );
}

/** Rays aimed exactly at vertices and edge midpoints (hits on the boundary of every box), from random origins. */
function boundaryRays(rng: Rng, scene: Scene, n: number): TestRay[] {
  const tris = scene.triangles.length / 4;
  const vertex = (t: number, k: number): number[] => [0, 1, 2].map((a) => toNumber(scene.vertices[3 * scene.triangles[4 * t + k]! + a]!));
  return Array.from({ length: n }, (_, i) => {
    const t = rng.int(tris);
    const [a, b] = [vertex(t, i % 3), vertex(t, (i + 1) % 3)];
    const target = i % 2 === 0 ? a : a.map((x, k) => (x + b[k]!) / 2);
    const o: P = [rng() * 4 - 2, rng() * 4 - 2, rng() * 4 - 2];
    return { o: bits3(o), d: bits3([target[0]! - o[0], target[1]! - o[1], target[2]! - o[2]]) };
  });
}

/** Rays whose OBB answer differs from the brute-force watertight caster's; also checks no fault. */
function mismatches(scene: Scene, bvh: Bvh8, rays: readonly TestRay[]): TestRay[] {
  const words = encodeBvh8Image(bvh).words;
  decodeBvh8Image(words);
  return rays.filter((r) => {
    const { counters: _c, fault, ...got } = castRayBvh8(words, r.o, r.d);
    expect(fault).toBeUndefined();
    return JSON.stringify(got) !== JSON.stringify(castRay(scene, r.o, r.d, testTriangleWatertight));
  });
}

const rotatedNodes = (bvh: Bvh8): number => bvh.nodes.filter((n) => n.obbMatrixIndex !== undefined).length;

describe('the builder with OBB on', () => {
  const rng = createRng(seed);

  test.each([
    ['slivers (600)', () => sliverScene(rng, 600)],
    ['random triangles (400)', () => randomScene(rng, 400)],
    ['the thin rods', () => thinRods()],
  ])('%s: some nodes rotated, every answer equal to the brute-force caster\'s, bit for bit (random and boundary rays)', (_, make) => {
    const scene = make();
    const bvh = buildBvh8(scene, { obb: true });
    expect(rotatedNodes(bvh)).toBeGreaterThan(0);
    const many = triangleCount(scene) < 1000;
    const rays = [...randomRays(rng, scene, many ? 300 : 150), ...boundaryRays(rng, scene, many ? 300 : 150)];
    expect(mismatches(scene, bvh, rays)).toEqual([]);
  });

  test('the thin rods in the box: every primary ray of a 24x18 frame, and rays from 20 times the scene\'s size away', () => {
    const scene = thinRodsInBox();
    const bvh = buildBvh8(scene, { obb: true });
    const far = boundaryRays(rng, scene, 200).map((r) => {
      const o = bits3([toNumber(r.o[0]) * 20, toNumber(r.o[1]) * 20, toNumber(r.o[2]) * 20]);
      return { o, d: r.d };
    });
    const primary = primaryRays(defaultCamera, 24, 18).map((r) => ({ o: r.origin, d: r.direction }));
    expect(mismatches(scene, bvh, [...primary, ...far])).toEqual([]);
  });

  test('every decoded child box (in its node\'s frame) contains its triangles\' vertices rotated exactly', () => {
    let checked = 0;
    // Some seeds' slivers rotate few nodes: more scenes until over 1,000 vertex coordinates are checked.
    for (let scene = 0; scene < 6 && checked <= 1000; scene++) checked += checkRotatedLeaves(buildBvh8(sliverScene(rng, 300), { obb: true }));
    expect(checked).toBeGreaterThan(1000);
  });

  /** Every vertex of every leaf under a rotated node, rotated, within its decoded child box; the coordinates checked. */
  function checkRotatedLeaves(bvh: ReturnType<typeof buildBvh8>): number {
    const decoded = decodeBvh8Image(encodeBvh8Image(bvh).words);
    let checked = 0;
    for (const [node, box] of decoded.boxNodes) {
      if (box.obbMatrixIndex === 0x7f) continue;
      const m = num(obbMatrix(box.obbMatrixIndex));
      bvh8ChildTargets(box).forEach((t, i) => {
        if (t.kind !== 'primitive') return;
        const b = gfx12ChildBox(box, i);
        for (let k = 0; k < t.size; k++)
          for (const tri of decoded.primitiveNodes.get(t.node + k)!.triangles)
            for (const v of tri.vertices) {
              const x = num(v);
              for (let a = 0; a < 3; a++) {
                const r = m[3 * a]! * x[0]! + m[3 * a + 1]! * x[1]! + m[3 * a + 2]! * x[2]!;
                expect(toNumber(b.min[a]!) <= r && r <= toNumber(b.max[a]!), `node ${node} child ${i} (SEED=${seed})`).toBe(true);
                checked++;
              }
            }
      });
    }
    return checked;
  }

  test('the SAH cost never rises; OBB off leaves every node axis-aligned; the same scene builds the same BVH', () => {
    // (The oriented binary build is kept only where its SAH is lower; the rotation choice only where it lowers a node's.)
    for (const scene of [sliverScene(rng, 500), thinRods()]) {
      const off = buildBvh8(scene);
      const on = buildBvh8(scene, { obb: true });
      expect(rotatedNodes(off)).toBe(0);
      expect(bvh8SahCost(on, BVH8_DEFAULT_TRIANGLE_COST)).toBeLessThan(bvh8SahCost(off, BVH8_DEFAULT_TRIANGLE_COST));
      expect(encodeBvh8Image(buildBvh8(scene, { obb: true })).words).toEqual(encodeBvh8Image(on).words);
    }
  });

  test('a ray through the empty corner of a tilted sliver\'s axis-aligned box: tested with OBB off, culled with it on', () => {
    // A long thin quad tilted 30° about z (a rotation in the ROM): its axis-aligned box is mostly empty.
    const u = [-Math.sin(Math.PI / 6), Math.cos(Math.PI / 6)];
    const w = [0.01 * u[1]!, -0.01 * u[0]!];
    const at = (s: number, t: number): P => [s * u[0]! + t * w[0]!, s * u[1]! + t * w[1]!, 0];
    const sliver = sceneOf([
      [at(-0.5, -1), at(0.5, -1), at(0.5, 1), 1],
      [at(-0.5, -1), at(0.5, 1), at(-0.5, 1), 1],
    ]);
    // Near the corner of the axis-aligned box the sliver does not reach: (max x, max y) less a tenth.
    const o = bits3([0.25 - 0.05, 0.433 - 0.08, 5]);
    const d = bits3([0, 0, -1]);
    const off = castRayBvh8(encodeBvh8Image(buildBvh8(sliver)).words, o, d);
    const onBvh = buildBvh8(sliver, { obb: true });
    const on = castRayBvh8(encodeBvh8Image(onBvh).words, o, d);
    expect(onBvh.nodes[0]!.obbMatrixIndex).toBeDefined();
    expect(castRay(sliver, o, d, testTriangleWatertight).triangle).toBe(-1);
    expect(off).toMatchObject({ triangle: -1, counters: { triangleTests: 2 } });
    expect(on).toMatchObject({ triangle: -1, counters: { nodeTests: 1, triangleTests: 0 } });
    // What the hardware core reads (ObbRayRotate in its pipeline): the oriented node as the golden tests it; with OBB off, a fault.
    expect(castRayBvh8(encodeBvh8Image(onBvh).words, o, d, BVH8_CORE_FEATURES)).toEqual(on);
    expect(castRayBvh8(encodeBvh8Image(onBvh).words, o, d, { orientedBoxes: false })).toMatchObject({ fault: true, counters: { nodeTests: 0 } });
    expect(castRayBvh8(encodeBvh8Image(buildBvh8(sliver)).words, o, d, BVH8_CORE_FEATURES)).toEqual(off);
  });
});

describe('the image with OBB on', () => {
  test('the box node carries the chosen index; the checker accepts 0–103 and refuses others by name', () => {
    const bvh = buildBvh8(thinRods(), { obb: true });
    const image = encodeBvh8Image(bvh);
    bvh.nodes.forEach((n, i) => expect(decodeGfx12BoxNode(bvh8NodeWords(image.words, image.nodeAt[i]!)).obbMatrixIndex).toBe(n.obbMatrixIndex ?? 0x7f));
    expect(decodeBvh8Image(image.words).boxNodes.size).toBe(bvh.nodes.length);
  });
});

describe('figures (64x48 primary rays)', () => {
  test('the thin rods and the bunny: SAH cost and box tests, OBB against off, with the same hits', () => {
    const rods = compareObbOnThinRods();
    const bunny = compareObbOnBunny();
    const show = (name: string, c: typeof rods) =>
      `${name}: SAH ${c.off.sahCost.toFixed(3)} → ${c.obb.sahCost.toFixed(3)} (${(100 * c.sahSaved).toFixed(1)}% lower), box tests/ray ${c.off.boxTests.toFixed(2)} → ${c.obb.boxTests.toFixed(2)} (${(100 * c.boxTestsSaved).toFixed(1)}% saved), triangle tests/ray ${c.off.triangleTests.toFixed(2)} → ${c.obb.triangleTests.toFixed(2)}, rotated nodes ${c.obb.rotatedNodes}/${c.obb.boxNodes}, build ${c.off.buildMs.toFixed(0)} → ${c.obb.buildMs.toFixed(0)} ms`;
    console.log(show('thin rods', rods));
    console.log(show('bunny', bunny));
    for (const c of [rods, bunny]) {
      expect(c.differences).toBe(0);
      expect(c.faults).toBe(0);
      expect(c.sahSaved).toBeGreaterThanOrEqual(0);
      expect(c.boxTestsSaved).toBeGreaterThanOrEqual(0);
    }
    // docs/performance.md: 30.1 % and 14.9 % on the thin rods (deterministic build and rays).
    expect(rods.sahSaved).toBeGreaterThan(0.25);
    expect(rods.boxTestsSaved).toBeGreaterThan(0.1);
    expect(rods.obb.triangleTests).toBeLessThan(rods.off.triangleTests * 0.6);
    // The bench's metrics are these.
    expect(measureObb()).toEqual({ obbBoxTestsSaved: rods.boxTestsSaved, obbSahSaved: rods.sahSaved });
  });
});
