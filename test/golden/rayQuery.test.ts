// Ray queries (docs/rays.md) in the golden casters: interval, ANY_HIT, culling, masks; u, v, instance; the face decision.
import { describe, expect, test, vi } from 'vitest';
import { buildBvh, buildBvh8, encodeBvh8Image, reorderScene } from '../../src/bvh/index.ts';
import { castRayBvh } from '../../src/bvh/traversal/bvhCaster.ts';
import { castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { buildBvh8Instanced } from '../../src/bvh/bvh8Instanced.ts';
import { affineFrom } from '../../src/scenes/instancedScene.ts';
import { decodeGfx12InstanceNode } from '../../src/bvh/gfx12Instance.ts';
import { bvh8NodeWords } from '../../src/bvh/index.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { castRay, NO_INSTANCE, testTriangle, triangleVertex, type TraceResult, type TriangleTestFn, type Vec3 } from '../../src/golden/rayCaster.ts';
import { faceOf } from '../../src/golden/rayAccept.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, RAY_FLAG_CULL_BACK, RAY_FLAG_CULL_FRONT, RAY_MASK_SHIFT, type RayQuery } from '../../src/golden/rayQuery.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { sceneTracer } from '../../src/iss/sceneTracer.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { announceSeed, bits3, createRng, randomRays, randomScene, sceneOf, type Rng, type TestRay } from '../bvh/helpers.ts';

vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('rayQuery.test');

const NAN = 0x7fc00000;
const INF = 0x7f800000;
const NEG_INF = 0xff800000;
const NEG_ZERO = 0x80000000;

/** A bound: mostly a number in [−1, 4] (the random scenes' hits lie in about [0, 4]), often a special value. */
function randomBound(rng: Rng): number {
  const special = [0, NEG_ZERO, NAN, INF, NEG_INF, fromNumber(1e-30), fromNumber(-1e-30)];
  return rng() < 0.3 ? special[rng.int(special.length)]! : fromNumber(-1 + 5 * rng());
}

/** A random query: random bounds (tmin > tmax, NaN, ±∞, tmax = 0 among them), random flags and a random ray mask. */
function randomQuery(rng: Rng): RayQuery {
  const mask = rng() < 0.2 ? 0xff : rng.int(256);
  // Reserved bits set now and then: they are ignored.
  const reserved = rng() < 0.1 ? 0xf0 | (0x5 << 16) : 0;
  return { tmin: rng() < 0.3 ? 0 : randomBound(rng), tmax: rng() < 0.3 ? INF : randomBound(rng), flags: rng.int(8) | (mask << RAY_MASK_SHIFT) | reserved };
}

/** A scene with random geometry masks (one bit or 0xFF) and about half its triangles one-sided. */
function withAttributes(rng: Rng, scene: Scene): Scene {
  const n = triangleCount(scene);
  return {
    ...scene,
    masks: Uint8Array.from({ length: n }, () => (rng() < 0.2 ? 0xff : 1 << rng.int(8))),
    oneSided: Uint8Array.from({ length: n }, () => (rng() < 0.5 ? 1 : 0)),
  };
}

/** The acceptance rule of docs/rays.md written with JavaScript numbers, independent of rayAccept.ts. */
function acceptedByHand(scene: Scene, i: number, q: RayQuery, r: { hit: boolean; t: number; det: number }): boolean {
  if (!r.hit) return false;
  const t = toNumber(r.t);
  const [tmin, tmax] = [toNumber(q.tmin), toNumber(q.tmax)];
  if (!(t >= tmin && t <= tmax)) return false;
  if ((((q.flags >>> 8) & 0xff) & (scene.masks?.[i] ?? 0xff)) === 0) return false;
  if ((scene.oneSided?.[i] ?? 0) === 1) {
    const det = toNumber(r.det);
    if (det < 0 && q.flags & RAY_FLAG_CULL_BACK) return false;
    if (det > 0 && q.flags & RAY_FLAG_CULL_FRONT) return false;
  }
  return true;
}

/** Every triangle's test of the ray and whether the query accepts it (by hand). */
function accepted(scene: Scene, ray: TestRay, q: RayQuery, test: TriangleTestFn): { index: number; t: number }[] {
  const out: { index: number; t: number }[] = [];
  for (let i = 0; i < triangleCount(scene); i++) {
    const r = test(ray.o, ray.d, triangleVertex(scene, i, 0), triangleVertex(scene, i, 1), triangleVertex(scene, i, 2));
    if (acceptedByHand(scene, i, q, r)) out.push({ index: i, t: r.t });
  }
  return out;
}

/** The expected brute-force answer by hand: closest (lowest index on ties) or, with ANY_HIT, the lowest index. */
function expectedTriangle(list: { index: number; t: number }[], q: RayQuery): number {
  if (list.length === 0) return -1;
  if (q.flags & RAY_FLAG_ANY_HIT) return list[0]!.index;
  let best = list[0]!;
  for (const c of list) if (toNumber(c.t) < toNumber(best.t)) best = c;
  return best.index;
}

describe('brute force', () => {
  test('random queries on random scenes: the hand-written rule picks the same triangle; u, v the test\'s', () => {
    const rng = createRng(seed);
    let hits = 0;
    let culled = 0;
    for (let s = 0; s < 12; s++) {
      const scene = withAttributes(rng, randomScene(rng, 40, 0.5));
      for (const ray of randomRays(rng, scene, 150)) {
        const q = randomQuery(rng);
        for (const test of [testTriangle, testTriangleWatertight]) {
          const list = accepted(scene, ray, q, test);
          const r = castRay(scene, ray.o, ray.d, test, q);
          const where = `SEED=${seed} scene ${s} o ${ray.o} d ${ray.d} q ${JSON.stringify(q)}`;
          expect(r.triangle, where).toBe(expectedTriangle(list, q));
          if (r.triangle >= 0) {
            hits++;
            const t = test(ray.o, ray.d, triangleVertex(scene, r.triangle, 0), triangleVertex(scene, r.triangle, 1), triangleVertex(scene, r.triangle, 2));
            expect([r.t, r.u, r.v, r.instance], where).toEqual([t.t, t.u, t.v, NO_INSTANCE]);
          }
          if (castRay(scene, ray.o, ray.d, test).triangle >= 0 && r.triangle < 0) culled++;
        }
      }
    }
    console.log(`brute force: ${hits} accepted answers, ${culled} rays whose default hit the query refused (SEED=${seed})`);
    expect(hits).toBeGreaterThan(200);
    expect(culled).toBeGreaterThan(100);
  });

  test('the default query is the plain trace, bit for bit', () => {
    const rng = createRng(seed ^ 1);
    const scene = withAttributes(rng, randomScene(rng, 40, 0.5));
    for (const ray of randomRays(rng, scene, 300)) {
      for (const test of [testTriangle, testTriangleWatertight]) expect(castRay(scene, ray.o, ray.d, test, DEFAULT_RAY_QUERY)).toEqual(castRay(scene, ray.o, ray.d, test));
    }
  });

  test('directed: interval ends are inclusive; NaN, tmin > tmax and tmax = 0 accept nothing; culling only one-sided triangles', () => {
    // Triangle at z = −2, counter-clockwise seen from above: a ray down meets its front face (det > 0).
    const one = sceneOf([[[-1, -1, -2], [1, -1, -2], [0, 1, -2], 3]]);
    const o = bits3([0, 0, 0]);
    const down = bits3([0, 0, -1]);
    const q = (tmin: number, tmax: number, flags = 0xff00): RayQuery => ({ tmin: fromNumber(tmin), tmax: fromNumber(tmax), flags });
    expect(castRay(one, o, down, testTriangle, q(2, 2)).triangle).toBe(0);
    expect(castRay(one, o, down, testTriangle, q(2.0000002, 5)).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, q(0, 1.9999999)).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, { tmin: NAN, tmax: INF, flags: 0xff00 }).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, { tmin: 0, tmax: NAN, flags: 0xff00 }).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, q(3, 1)).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, q(-1, 0)).triangle).toBe(-1);
    expect(castRay(one, o, down, testTriangle, { tmin: NEG_INF, tmax: INF, flags: 0xff00 }).triangle).toBe(0);
    expect(castRay(one, o, down, testTriangle, q(0, Infinity, 0)).triangle).toBe(-1); // ray mask 0
    const oneSided: Scene = { ...one, oneSided: Uint8Array.of(1) };
    for (const test of [testTriangle, testTriangleWatertight]) {
      expect(castRay(one, o, down, test, q(0, Infinity, 0xff00 | RAY_FLAG_CULL_FRONT)).triangle).toBe(0);
      expect(castRay(oneSided, o, down, test, q(0, Infinity, 0xff00 | RAY_FLAG_CULL_FRONT)).triangle).toBe(-1);
      expect(castRay(oneSided, o, down, test, q(0, Infinity, 0xff00 | RAY_FLAG_CULL_BACK)).triangle).toBe(0);
      // From below the ray meets the back face.
      const up = castRay(oneSided, bits3([0, 0, -4]), bits3([0, 0, 1]), test, q(0, Infinity, 0xff00 | RAY_FLAG_CULL_BACK));
      expect(up.triangle).toBe(-1);
      expect(castRay(oneSided, bits3([0, 0, -4]), bits3([0, 0, 1]), test, q(0, Infinity, 0xff00 | RAY_FLAG_CULL_FRONT)).triangle).toBe(0);
    }
    const masked: Scene = { ...one, masks: Uint8Array.of(0x10) };
    expect(castRay(masked, o, down, testTriangle, q(0, Infinity, 0x1000)).triangle).toBe(0);
    expect(castRay(masked, o, down, testTriangle, q(0, Infinity, 0xef00)).triangle).toBe(-1);
  });

  test('u and v are the weights of v1 and v2 in both tests', () => {
    // v0 (0,0,0), v1 (1,0,0), v2 (0,1,0); the ray down through (0.25, 0.5) has u = 0.25, v = 0.5.
    const tri = sceneOf([[[0, 0, 0], [1, 0, 0], [0, 1, 0], 1]]);
    for (const test of [testTriangle, testTriangleWatertight]) {
      const r = castRay(tri, bits3([0.25, 0.5, 1]), bits3([0, 0, -1]), test);
      expect([r.u, r.v, r.instance]).toEqual([fromNumber(0.25), fromNumber(0.5), NO_INSTANCE]);
    }
  });
});

/** A binary32 value as an exact integer times 2^−149. */
function exact(bits: number): bigint {
  const e = (bits >>> 23) & 0xff;
  const m = bits & 0x7fffff;
  const mag = e === 0 ? BigInt(m) : BigInt(m | 0x800000) << BigInt(e - 1);
  return bits >>> 31 ? -mag : mag;
}

/** The exact sign of dot(d, cross(e1, e2)) for the binary32 e1, e2 and d (a product of three: scale 2^−447). */
function exactFaceSign(d: Vec3, e1: Vec3, e2: Vec3): number {
  const [a, b, c] = [d.map(exact), e1.map(exact), e2.map(exact)] as [bigint[], bigint[], bigint[]];
  const n = [b[1]! * c[2]! - b[2]! * c[1]!, b[2]! * c[0]! - b[0]! * c[2]!, b[0]! * c[1]! - b[1]! * c[0]!];
  const dot = a[0]! * n[0]! + a[1]! * n[1]! + a[2]! * n[2]!;
  return dot > 0n ? 1 : dot < 0n ? -1 : 0;
}

test('the face each test decides from its det is the exact sign of dot(d, cross(e1, e2)) on every hit', () => {
  const rng = createRng(seed ^ 2);
  const counts = { mt: 0, wt: 0, front: 0, back: 0 };
  for (let s = 0; s < 20; s++) {
    const scene = randomScene(rng, 30, 0.5);
    for (const ray of randomRays(rng, scene, 200)) {
      for (let i = 0; i < triangleCount(scene); i++) {
        const [v0, v1, v2] = [0, 1, 2].map((k) => triangleVertex(scene, i, k)) as [Vec3, Vec3, Vec3];
        for (const [name, test] of [['mt', testTriangle], ['wt', testTriangleWatertight]] as const) {
          const r = test(ray.o, ray.d, v0, v1, v2);
          if (!r.hit) continue;
          counts[name]++;
          const sign = exactFaceSign(ray.d, r.e1, r.e2);
          // Front: dot(d, cross(e1, e2)) < 0.
          const want = sign < 0 ? 'front' : 'back';
          counts[want]++;
          expect(sign, `SEED=${seed} ${name} triangle ${i} o ${ray.o} d ${ray.d}`).not.toBe(0);
          expect(faceOf(r.det), `SEED=${seed} ${name} triangle ${i} o ${ray.o} d ${ray.d}`).toBe(want);
        }
      }
    }
  }
  console.log(`face decision: ${counts.mt} Möller–Trumbore and ${counts.wt} watertight hits, ${counts.front} front, ${counts.back} back (SEED=${seed})`);
  expect(Math.min(counts.front, counts.back)).toBeGreaterThan(1000);
});

/** A traversal's answer reduced to what the casters must agree on. */
const key = (r: TraceResult) => ({ triangle: r.triangle, t: r.t, u: r.u, v: r.v });

describe('BVH4 and BVH8 against brute force', () => {
  test('closest hit with random queries: the same triangle, t, u, v; any hit: an accepted hit, a miss only when brute force misses', () => {
    const rng = createRng(seed ^ 3);
    const stats = { rays: 0, hits: 0, any: 0 };
    for (let s = 0; s < 8; s++) {
      const scene = withAttributes(rng, randomScene(rng, 60, 0.4));
      const bvh = buildBvh(scene, { maxLeafTriangles: 4 });
      const ordered = reorderScene(scene, bvh);
      const image = encodeBvh8Image(buildBvh8(scene)).words;
      for (const ray of randomRays(rng, scene, 200)) {
        const q = randomQuery(rng);
        const where = `SEED=${seed} scene ${s} o ${ray.o} d ${ray.d} q ${JSON.stringify(q)}`;
        stats.rays++;
        const four = castRayBvh(bvh, ordered, ray.o, ray.d, { query: q });
        const brute4 = castRay(ordered, ray.o, ray.d, testTriangle, { ...q, flags: q.flags & ~RAY_FLAG_ANY_HIT });
        const eight = castRayBvh8(image, ray.o, ray.d, { query: q });
        const brute8 = castRay(scene, ray.o, ray.d, testTriangleWatertight, { ...q, flags: q.flags & ~RAY_FLAG_ANY_HIT });
        if (brute4.triangle >= 0) stats.hits++;
        if ((q.flags & RAY_FLAG_ANY_HIT) === 0) {
          expect(key(four), `BVH4 ${where}`).toEqual(key(brute4));
          expect(key(eight), `BVH8 ${where}`).toEqual(key(brute8));
          expect(eight.instance, where).toBe(eight.triangle >= 0 ? NO_INSTANCE : undefined);
          continue;
        }
        stats.any++;
        for (const [got, sc, test, brute] of [[four, ordered, testTriangle, brute4], [eight, scene, testTriangleWatertight, brute8]] as const) {
          expect(got.triangle >= 0, `any hit ${where}`).toBe(brute.triangle >= 0);
          if (got.triangle < 0) continue;
          const r = test(ray.o, ray.d, triangleVertex(sc, got.triangle, 0), triangleVertex(sc, got.triangle, 1), triangleVertex(sc, got.triangle, 2));
          expect(acceptedByHand(sc, got.triangle, q, r), `any hit accepted ${where}`).toBe(true);
          expect([got.t, got.u, got.v], where).toEqual([r.t, r.u, r.v]);
        }
      }
    }
    console.log(`BVH4/BVH8 with queries: ${stats.rays} rays, ${stats.hits} closest hits, ${stats.any} any-hit rays (SEED=${seed})`);
    expect(stats.hits).toBeGreaterThan(80);
  });

  test('the default query changes nothing: answers and counters equal the plain cast', () => {
    const rng = createRng(seed ^ 4);
    const scene = randomScene(rng, 80, 0.4);
    const bvh = buildBvh(scene);
    const ordered = reorderScene(scene, bvh);
    const image = encodeBvh8Image(buildBvh8(scene)).words;
    for (const ray of randomRays(rng, scene, 300)) {
      expect(castRayBvh(bvh, ordered, ray.o, ray.d, { query: DEFAULT_RAY_QUERY })).toEqual(castRayBvh(bvh, ordered, ray.o, ray.d));
      expect(castRayBvh8(image, ray.o, ray.d, { query: DEFAULT_RAY_QUERY })).toEqual(castRayBvh8(image, ray.o, ray.d));
      // The options' anyHit and the query's ANY_HIT are the same traversal.
      expect(castRayBvh8(image, ray.o, ray.d, { query: { ...DEFAULT_RAY_QUERY, flags: DEFAULT_RAY_QUERY.flags | RAY_FLAG_ANY_HIT } })).toEqual(castRayBvh8(image, ray.o, ray.d, { anyHit: true }));
    }
  });

  test('a tmin past the nearest hit finds the next one behind it, with fewer box tests pruned by tmax', () => {
    // Three stacked triangles at z = −1, −2, −3 under a ray down from the origin.
    const tri = (z: number) => [[-1, -1, z], [1, -1, z], [0, 1, z], 1] as const;
    const scene = sceneOf([tri(-1), tri(-2), tri(-3)]);
    const bvh = buildBvh(scene, { maxLeafTriangles: 1 });
    const ordered = reorderScene(scene, bvh);
    const image = encodeBvh8Image(buildBvh8(scene, { maxLeafTriangles: 1 })).words;
    const q = (tmin: number, tmax: number): RayQuery => ({ tmin: fromNumber(tmin), tmax: fromNumber(tmax), flags: 0xff00 });
    const o = bits3([0.1, 0.1, 0]);
    const d = bits3([0, 0, -1]);
    for (const [tmin, tmax, z] of [[0, Infinity, 1], [1.5, Infinity, 2], [2.5, Infinity, 3], [1.5, 2.5, 2], [3.5, Infinity, 0]] as const) {
      const want = z === 0 ? -1 : fromNumber(z);
      const four = castRayBvh(bvh, ordered, o, d, { query: q(tmin, tmax) });
      const eight = castRayBvh8(image, o, d, { query: q(tmin, tmax) });
      expect([four.triangle < 0 ? -1 : four.t, eight.triangle < 0 ? -1 : eight.t], `[${tmin}, ${tmax}]`).toEqual([want, want]);
    }
    // tmax below every box: nothing below the root is tested.
    expect(castRayBvh8(image, o, d, { query: q(0, 0.5) }).counters.triangleTests).toBe(0);
    expect(castRayBvh(bvh, ordered, o, d, { query: q(0, 0.5) }).counters.triangleTests).toBe(0);
  });
});

describe('the BVH8 image carries masks and sides', () => {
  test('a leaf of many masks is split so no primitive node mixes them; cull_mask is the OR beneath; double_sided from the scene', () => {
    const rng = createRng(seed ^ 5);
    // 16 small triangles in one cluster, each its own mask (more than 8: two levels of split nodes), a few one-sided.
    const base = randomScene(rng, 16, 0.05);
    const scene: Scene = { ...base, vertices: base.vertices.map((w) => fromNumber(toNumber(w) * 0.05)), masks: Uint8Array.from({ length: 16 }, (_, i) => [1, 2, 4, 8, 16, 32, 64, 128, 3, 5, 6, 9, 10, 12, 17, 18][i]!), oneSided: Uint8Array.from({ length: 16 }, (_, i) => i % 3 === 0 ? 1 : 0) };
    const bvh = buildBvh8(scene, { maxLeafTriangles: 16, triangleCost: 0.001 });
    expect(bvh.nodes.length).toBeGreaterThan(2);
    const maskOf = (c: (typeof bvh.nodes)[number]['children'][number]): number => (c.kind === 'leaf' ? c.cullMask ?? 0xff : bvh.nodes[c.index]!.children.reduce((m, k) => m | maskOf(k), 0));
    for (const node of bvh.nodes)
      for (const c of node.children) {
        expect(c.cullMask, 'every child has its cull_mask').toBe(maskOf(c));
        if (c.kind !== 'leaf') continue;
        const masks = new Set(c.groups.flat().map((t) => scene.masks![t.primitiveIndex]!));
        expect([...masks]).toEqual([c.cullMask]);
        for (const t of c.groups.flat()) expect(t.doubleSided).toBe(scene.oneSided![t.primitiveIndex] === 0);
      }
    expect(bvh.worstCaseStack).toBeLessThanOrEqual(64);
    const image = encodeBvh8Image(bvh).words;
    let hits = 0;
    for (const ray of randomRays(rng, scene, 400)) {
      const q = { ...randomQuery(rng), tmin: 0, tmax: INF };
      const want = castRay(scene, ray.o, ray.d, testTriangleWatertight, { ...q, flags: q.flags & ~RAY_FLAG_ANY_HIT });
      if (want.triangle >= 0) hits++;
      if ((q.flags & RAY_FLAG_ANY_HIT) === 0) expect(key(castRayBvh8(image, ray.o, ray.d, { query: q })), `SEED=${seed} ${JSON.stringify(q)}`).toEqual(key(want));
    }
    expect(hits).toBeGreaterThan(20);
  });

  test('a scene without masks or sides builds the same image as before (every cull_mask 0xFF, double-sided)', () => {
    const rng = createRng(seed ^ 6);
    const scene = randomScene(rng, 50, 0.4);
    const n = triangleCount(scene);
    const explicit: Scene = { ...scene, oneSided: new Uint8Array(n) };
    expect(encodeBvh8Image(buildBvh8(explicit)).words).toEqual(encodeBvh8Image(buildBvh8(scene)).words);
    const allFF: Scene = { ...scene, masks: new Uint8Array(n).fill(0xff) };
    expect(encodeBvh8Image(buildBvh8(allFF)).words).toEqual(encodeBvh8Image(buildBvh8(scene)).words);
  });
});

describe('instances', () => {
  test('the instance mask decides whether a ray enters it; instance = user_data; the face is decided in object space', () => {
    // One triangle at z = 0 (front face up, one-sided), placed at z = −2 (instance 0, mask 0x01) and z = −4 (instance 1, mask 0x02).
    const mesh: Scene = { ...sceneOf([[[-1, -1, 0], [1, -1, 0], [0, 1, 0], 4]]), oneSided: Uint8Array.of(1) };
    const image = buildBvh8Instanced({
      meshes: [mesh],
      instances: [
        { mesh: 0, objectToWorld: affineFrom({ translate: [0, 0, -2] }), mask: 0x01 },
        { mesh: 0, objectToWorld: affineFrom({ translate: [0, 0, -4] }), mask: 0x02 },
      ],
    });
    const masks = Array.from({ length: image.instanceNodes }, (_, i) => decodeGfx12InstanceNode(bvh8NodeWords(image.words, image.tlasBoxNodes + i)).cullMask);
    expect(masks.sort()).toEqual([1, 2]);
    const o = bits3([0.1, 0, 0]);
    const down = bits3([0, 0, -1]);
    const q = (mask: number, flags = 0): RayQuery => ({ tmin: 0, tmax: INF, flags: (mask << RAY_MASK_SHIFT) | flags });
    const at = (query: RayQuery, origin = o, d = down) => {
      const r = castRayBvh8(image.words, origin, d, { query });
      return r.triangle < 0 ? 'miss' : [r.instance, toNumber(r.t)];
    };
    expect(at(q(0xff))).toEqual([0, 2]);
    expect(at(q(0x03))).toEqual([0, 2]);
    expect(at(q(0x02))).toEqual([1, 4]);
    expect(at(q(0x04))).toBe('miss');
    // Down through the front faces: CULL_FRONT passes both by; from below the back face of instance 1 is met first.
    expect(at(q(0xff, RAY_FLAG_CULL_FRONT))).toBe('miss');
    expect(at(q(0xff, RAY_FLAG_CULL_BACK))).toEqual([0, 2]);
    expect(at(q(0xff, RAY_FLAG_CULL_BACK), bits3([0.1, 0, -6]), bits3([0, 0, 1]))).toBe('miss');
    expect(at(q(0xff, RAY_FLAG_CULL_FRONT), bits3([0.1, 0, -6]), bits3([0, 0, 1]))).toEqual([1, 2]);
    // An interval past instance 0's hit.
    expect(at({ ...q(0xff), tmin: fromNumber(3) })).toEqual([1, 4]);
    const tracer = sceneTracer(mesh, { traversal: 'bvh8', bvh8: image.words });
    expect(tracer.trace(o, down, q(0x02)).hitParameters[3]).toBe(1);
    expect(tracer.trace(o, down, undefined).hitParameters[3]).toBe(0);
  });

  test('an instance mask outside 0–255 is refused; mask 0 hides the instance from every ray, plain trace included', () => {
    const mesh = sceneOf([[[-1, -1, 0], [1, -1, 0], [0, 1, 0], 4]]);
    expect(() => buildBvh8Instanced({ meshes: [mesh], instances: [{ mesh: 0, objectToWorld: affineFrom({}), mask: 256 }] })).toThrow(/instance 0 has mask 256/);
    const placed = (mask: number) => buildBvh8Instanced({ meshes: [mesh], instances: [{ mesh: 0, objectToWorld: affineFrom({}), mask }] }).words;
    expect(castRayBvh8(placed(1), bits3([0, 0, 1]), bits3([0, 0, -1])).triangle).toBe(0);
    expect(castRayBvh8(placed(0), bits3([0, 0, 1]), bits3([0, 0, -1])).triangle).toBe(-1);
  });
});

describe('sceneTracer', () => {
  test('hitParameters: (t, u, v, 0xFFFFFFFF) on a hit, zeros on a miss, for each traversal; the query reaches the caster', () => {
    const tri = sceneOf([[[0, 0, -2], [1, 0, -2], [0, 1, -2], 5]]);
    const o = bits3([0.25, 0.5, 0]);
    const d = bits3([0, 0, -1]);
    for (const traversal of ['brute-force', 'bvh', 'bvh8'] as const) {
      const tracer = sceneTracer(tri, { traversal });
      const hit = tracer.trace(o, d, undefined);
      expect(hit.hitParameters, traversal).toEqual([fromNumber(2), fromNumber(0.25), fromNumber(0.5), 0xffffffff]);
      expect(hit.hit[3]).toBe(5);
      const refused = tracer.trace(o, d, { tmin: fromNumber(3), tmax: INF, flags: 0xff00 });
      expect([refused.hit, refused.normal, refused.hitParameters], traversal).toEqual([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
      expect(tracer.trace(bits3([5, 5, 0]), d, undefined).hitParameters).toEqual([0, 0, 0, 0]);
    }
  });
});
