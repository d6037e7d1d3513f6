// The golden ray caster: hand-checked hits and misses, the tie rule, and a seeded comparison with double precision.
import { describe, expect, test } from 'vitest';
import { castRay, testTriangle, rayIsValid, type Vec3 } from '../../src/golden/rayCaster.ts';
import { toNumber, fromNumber } from '../../src/golden/float32.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { f32 } from './encode.ts';
import { seedFromEnv } from '../../src/util/seededRandom.ts';

const V = (x: number, y: number, z: number): Vec3 => [f32(x), f32(y), f32(z)];
const NAN = 0x7fc00000;
const INF = 0x7f800000;

/** A scene from triangles given as three points and a shader id (vertices not shared). */
function sceneOf(...tris: [Vec3, Vec3, Vec3, number][]): Scene {
  return {
    vertices: Uint32Array.from(tris.flatMap(([a, b, c]) => [...a, ...b, ...c])),
    triangles: Uint32Array.from(tris.flatMap(([, , , s], i) => [3 * i, 3 * i + 1, 3 * i + 2, s])),
  };
}

// Triangle in the plane z = −2: v0 (−1,−1,−2), v1 (1,−1,−2), v2 (0,1,−2).
// e1 = (2,0,0), e2 = (1,2,0); along d = (0,0,−1): p = d × e2 = (2,−1,0), det = e1·p = 4.
const A = V(-1, -1, -2);
const B = V(1, -1, -2);
const C = V(0, 1, -2);
const DOWN = V(0, 0, -1);
const one = sceneOf([A, B, C, 7]);

describe('hits', () => {
  test('axis-aligned: every intermediate is exact', () => {
    // s = o − v0 = (1,1,2), q = s × e1 = (0,4,−2); u = (s·p)/4 = 1/4, v = (d·q)/4 = 1/2, t = (e2·q)/4 = 2
    const r = testTriangle(V(0, 0, 0), DOWN, A, B, C);
    expect([r.det, r.u, r.v, r.t, r.hit]).toEqual([f32(4), f32(0.25), f32(0.5), f32(2), true]);
    const hit = castRay(one, V(0, 0, 0), DOWN);
    expect(hit).toEqual({ hit: [0, 0, f32(-2), 7], normal: [0, 0, f32(4), 0], triangle: 0, t: f32(2), u: f32(0.25), v: f32(0.5), instance: 0xffffffff });
  });

  test('t is dot(e2, q) times the rounded reciprocal of det, not a division', () => {
    // v0 (0,0,0), v1 (1,0,0), v2 (0,1,0); o = (1/4, 1/4, 5), d = (0,0,−3): det = 3, q = (0,5,−1/4),
    // e2·q = 5. inv = fl(1/3) = 0x3EAAAAAB, t = fl(5 · inv) = 0x3FD55556 (fl(5/3) would be 0x3FD55555).
    // u = v = fl(0.75 · inv) = 1/4. Hit z = fl(5 + fl(t · −3)) and t · −3 = −(5 + 2^−22), a tie that
    // rounds to even −5, so z = 0. Normal e1 × e2 = (0,0,1).
    const tri = sceneOf([V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), 2]);
    const r = castRay(tri, V(0.25, 0.25, 5), V(0, 0, -3));
    expect(r).toEqual({ hit: [f32(0.25), f32(0.25), 0, 2], normal: [0, 0, f32(1), 0], triangle: 0, t: 0x3fd55556, u: f32(0.25), v: f32(0.25), instance: 0xffffffff });
  });

  test('double-sided: reversed winding and a ray from behind both hit', () => {
    const reversed = castRay(sceneOf([A, C, B, 1]), V(0, 0, 0), DOWN);
    expect(testTriangle(V(0, 0, 0), DOWN, A, C, B).det).toBe(f32(-4));
    expect(reversed.hit).toEqual([0, 0, f32(-2), 1]);
    expect(reversed.normal).toEqual([0, 0, f32(-4), 0]);
    const behind = castRay(one, V(0, 0, -4), V(0, 0, 1));
    expect(behind.hit).toEqual([0, 0, f32(-2), 7]);
    expect(behind.t).toBe(f32(2));
  });

  test('points on an edge (u = 0) and on a vertex hit', () => {
    // (−1/2, 0) lies on the edge v0–v2: s = (1/2, 1, 2), s·p = 1 − 1 = 0, so u = 0.
    const edge = testTriangle(V(-0.5, 0, 0), DOWN, A, B, C);
    expect([edge.u, edge.hit]).toEqual([0, true]);
    expect(castRay(one, V(0, 1, 0), DOWN).hit).toEqual([0, f32(1), f32(-2), 7]);
  });
});

describe('misses', () => {
  const miss = { hit: [0, 0, 0, 0], normal: [0, 0, 0, 0], triangle: -1, t: 0 };

  test('parallel to the plane (det = 0)', () => {
    expect(testTriangle(V(0, 0, -2), V(1, 0, 0), A, B, C).det).toBe(0);
    expect(castRay(one, V(0, 0, -2), V(1, 0, 0))).toEqual(miss);
    expect(castRay(one, V(0, 0, 0), V(1, 0, 0))).toEqual(miss);
  });

  test('behind the origin (t < 0) and at the origin (t = 0)', () => {
    expect(castRay(one, V(0, 0, -4), DOWN)).toEqual(miss);
    const at = testTriangle(V(0, 0, -2), DOWN, A, B, C);
    expect([at.t, at.hit]).toEqual([0, false]);
    expect(castRay(one, V(0, 0, -2), DOWN)).toEqual(miss);
  });

  test('outside each edge (u < 0, v < 0, u + v > 1)', () => {
    for (const [x, y] of [
      [-0.875, 0.875],
      [0, -1.5],
      [0.875, 0.875],
    ] as const) {
      expect(castRay(one, V(x, y, 0), DOWN)).toEqual(miss);
    }
  });

  test('rays with a NaN or infinite component, or a zero direction, miss', () => {
    const bad: [Vec3, Vec3][] = [
      [[NAN, 0, 0], DOWN],
      [[0, 0, 0], [0, 0, NAN]],
      [[0, 0, INF], DOWN],
      [[0, 0, 0], [0, 0, 0xff800000]],
      [[0, 0, 0], [0, 0, 0]],
      [[0, 0, 0], [0x80000000, 0, 0x80000000]],
    ];
    for (const [o, d] of bad) {
      expect(rayIsValid(o, d)).toBe(false);
      expect(castRay(one, o, d)).toEqual(miss);
    }
    expect(rayIsValid([0, 0, 0], [0, 0, 1])).toBe(true); // a subnormal direction is not zero
  });

  test('a triangle with a NaN vertex never hits', () => {
    expect(castRay(sceneOf([A, B, [0, NAN, f32(-2)], 1]), V(0, 0, 0), DOWN)).toEqual(miss);
  });
});

describe('closest hit and ties', () => {
  const near = sceneOf([V(-1, -1, -1), V(1, -1, -1), V(0, 1, -1), 2]);

  test('the smallest t wins whatever the order', () => {
    const s = sceneOf([A, B, C, 1], [V(-1, -1, -1), V(1, -1, -1), V(0, 1, -1), 2]);
    expect(castRay(s, V(0, 0, 0), DOWN)).toMatchObject({ triangle: 1, t: f32(1) });
    const r = sceneOf([V(-1, -1, -1), V(1, -1, -1), V(0, 1, -1), 2], [A, B, C, 1]);
    expect(castRay(r, V(0, 0, 0), DOWN)).toMatchObject({ triangle: 0, t: f32(1) });
    expect(castRay(near, V(0, 0, 0), DOWN).hit[3]).toBe(2);
  });

  test('on equal t the lower triangle index wins', () => {
    const twins = sceneOf([A, B, C, 5], [A, B, C, 6]);
    expect(castRay(twins, V(0, 0, 0), DOWN)).toMatchObject({ triangle: 0, hit: [0, 0, f32(-2), 5] });
    // a quad split along its diagonal x = y; a ray through the diagonal hits both halves at t = 1
    const quad = sceneOf([V(-1, -1, 0), V(1, 1, 0), V(-1, 1, 0), 3], [V(-1, -1, 0), V(1, -1, 0), V(1, 1, 0), 4]);
    expect(castRay(quad, V(0.5, 0.5, 1), DOWN)).toMatchObject({ triangle: 0, t: f32(1) });
    const swapped = sceneOf([V(-1, -1, 0), V(1, -1, 0), V(1, 1, 0), 4], [V(-1, -1, 0), V(1, 1, 0), V(-1, 1, 0), 3]);
    expect(castRay(swapped, V(0.5, 0.5, 1), DOWN)).toMatchObject({ triangle: 0, t: f32(1) });
  });
});

// ---- randomized comparison with an independent double-precision Möller–Trumbore ----

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type D3 = [number, number, number];
const dsub = (a: D3, b: D3): D3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dcross = (a: D3, b: D3): D3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const ddot = (a: D3, b: D3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const dlen = (a: D3): number => Math.sqrt(ddot(a, a));

interface DoubleTest {
  readonly hit: boolean;
  /** False when some decision is too close to its boundary to trust binary32 to agree. */
  readonly clear: boolean;
  readonly t: number;
}

/** Double-precision Möller–Trumbore with margins: u, v, 1 − u − v, t and det must be well away from 0. */
function doubleMT(o: D3, d: D3, v0: D3, v1: D3, v2: D3): DoubleTest {
  const e1 = dsub(v1, v0);
  const e2 = dsub(v2, v0);
  const p = dcross(d, e2);
  const det = ddot(e1, p);
  const scale = dlen(e1) * dlen(e2) * dlen(d);
  if (Math.abs(det) < 1e-3 * scale) return { hit: false, clear: false, t: 0 };
  const s = dsub(o, v0);
  const q = dcross(s, e1);
  const u = ddot(s, p) / det;
  const v = ddot(d, q) / det;
  const t = ddot(e2, q) / det;
  const m = 1e-3;
  const tScale = (dlen(s) + dlen(e1) + dlen(e2)) / dlen(d);
  const clear = Math.abs(u) > m && Math.abs(v) > m && Math.abs(1 - u - v) > m && Math.abs(t) > m * tScale;
  return { hit: u >= 0 && v >= 0 && u + v <= 1 && t > 0, clear, t };
}

const seed = seedFromEnv();
const toD3 = (v: Vec3): D3 => [toNumber(v[0]), toNumber(v[1]), toNumber(v[2])];

describe(`random rays against double precision (SEED=${seed} reruns)`, () => {
  const rand = rng(seed);
  const coord = () => fromNumber((rand() - 0.5) * 8);
  const point = (): Vec3 => [coord(), coord(), coord()];
  /** A direction towards a random point of the triangle (or a little outside it), or a random one. */
  function direction(o: Vec3, tri: Vec3[]): Vec3 {
    if (rand() < 0.25) return point();
    const a = rand() * 1.2 - 0.1;
    const b = rand() * (1.2 - a) - 0.1;
    const [v0, v1, v2] = tri.map(toD3) as [D3, D3, D3];
    const target = [0, 1, 2].map((k) => v0[k]! + a * (v1[k]! - v0[k]!) + b * (v2[k]! - v0[k]!));
    const oo = toD3(o);
    const sign = rand() < 0.1 ? -1 : 1;
    return [0, 1, 2].map((k) => fromNumber(sign * (target[k]! - oo[k]!) * (0.5 + rand()))) as [number, number, number];
  }

  test('single triangles: hit/miss and t agree where the double result is clear', () => {
    console.log(`rayCaster random test seed ${seed} (SEED=${seed} reruns it)`);
    let compared = 0;
    let hits = 0;
    for (let i = 0; i < 20000; i++) {
      const tri = [point(), point(), point()];
      const o = point();
      const d = direction(o, tri);
      const ref = doubleMT(toD3(o), toD3(d), toD3(tri[0]!), toD3(tri[1]!), toD3(tri[2]!));
      if (!ref.clear || !rayIsValid(o, d)) continue;
      compared++;
      const got = testTriangle(o, d, tri[0]!, tri[1]!, tri[2]!);
      const where = `seed ${seed}, case ${i}: o ${o.map((x) => x.toString(16))} d ${d.map((x) => x.toString(16))}`;
      expect(got.hit, where).toBe(ref.hit);
      if (!ref.hit) continue;
      hits++;
      expect(Math.abs(toNumber(got.t) - ref.t), where).toBeLessThan(1e-3 * Math.max(1, Math.abs(ref.t)));
    }
    expect(compared).toBeGreaterThan(5000);
    expect(hits).toBeGreaterThan(1000);
  });

  test('scenes: the closest hit agrees where the two nearest t are well apart', () => {
    let compared = 0;
    for (let i = 0; i < 2000; i++) {
      const tris = Array.from({ length: 8 }, () => [point(), point(), point(), 1 + i] as [Vec3, Vec3, Vec3, number]);
      const scene = sceneOf(...tris);
      const o = point();
      const d = direction(o, tris[Math.floor(rand() * 8)]!.slice(0, 3) as Vec3[]);
      const refs = tris.map(([a, b, c]) => doubleMT(toD3(o), toD3(d), toD3(a), toD3(b), toD3(c)));
      if (refs.some((r) => !r.clear) || !rayIsValid(o, d)) continue;
      const hitTs = refs.map((r, k) => ({ t: r.t, k })).filter((x, k) => refs[k]!.hit).sort((x, y) => x.t - y.t);
      if (hitTs.length > 1 && hitTs[1]!.t - hitTs[0]!.t < 1e-3 * Math.max(1, hitTs[0]!.t)) continue;
      compared++;
      const got = castRay(scene, o, d);
      const where = `seed ${seed}, scene ${i}`;
      expect(got.triangle, where).toBe(hitTs.length ? hitTs[0]!.k : -1);
      if (!hitTs.length) continue;
      const dd = toD3(d);
      const want = toD3(o).map((x, k) => x + hitTs[0]!.t * dd[k]!);
      got.hit.slice(0, 3).forEach((x, k) => expect(Math.abs(toNumber(x) - want[k]!), where).toBeLessThan(1e-3 * (1 + Math.abs(want[k]!) + hitTs[0]!.t * dlen(dd))));
    }
    expect(compared).toBeGreaterThan(300);
  });
});
