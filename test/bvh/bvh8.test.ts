// The BVH8: builder, GFX12 memory image, and the golden traversal castRayBvh8 against the brute-force caster and the BVH4 traversal.
import { describe, expect, test, vi } from 'vitest';
import {
  BvhBuildError,
  Gfx12Error,
  buildBvh,
  buildBvh8,
  bvh8ChildTargets,
  bvh8NodeWords,
  decodeBvh8Image,
  decodeGfx12BoxNode,
  decodeGfx12PrimitiveNode,
  encodeBvh8Image,
  gfx12ChildBox,
  gfx12ChildBounds,
  gfx12ChildContains,
  packPairs,
  pairTriangles,
  planGfx12PrimitiveNode,
  reorderScene,
  unitsToBinary32,
  type Bvh8,
  type Gfx12Triangle,
} from '../../src/bvh/index.ts';
import { castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { castRayBvh } from '../../src/bvh/traversal/bvhCaster.ts';
import { castRay, type Vec3 } from '../../src/golden/rayCaster.ts';
import { testTriangleWatertight } from '../../src/golden/watertight.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { bunnyInBox, icosphere, torusGrid } from '../../src/scenes/sceneLibrary.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { primaryRays } from '../../src/host/primaryRays.ts';
import { compareBvh8OnBunny, measureBvh8Memory } from '../../src/designs/bench/bvh8Bench.ts';
import { announceSeed, bits3, createRng, randomRays, randomScene, sceneOf, type P, type TestRay } from './helpers.ts';

vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('bvh8.test');

const image = (scene: Scene, opts: Parameters<typeof buildBvh8>[1] = {}): Uint32Array => encodeBvh8Image(buildBvh8(scene, opts)).words;

/** The BVH8 answer without its counters, for comparison with castRay's. */
function answer(words: Uint32Array, r: TestRay, anyHit = false): ReturnType<typeof castRay> {
  const { counters: _c, ...rest } = castRayBvh8(words, r.o, r.d, { anyHit });
  return rest;
}

/** The watertight test of ray r on triangle `tri` of the scene alone. */
function watertightOn(scene: Scene, tri: number, r: TestRay): ReturnType<typeof testTriangleWatertight> {
  const v = (k: number): Vec3 => {
    const i = scene.triangles[4 * tri + k]!;
    return [scene.vertices[3 * i]!, scene.vertices[3 * i + 1]!, scene.vertices[3 * i + 2]!];
  };
  return testTriangleWatertight(r.o, r.d, v(0), v(1), v(2));
}

/** Rays whose BVH8 answer differs from the brute-force watertight caster's (on the original scene, same triangle numbers). */
function mismatches(scene: Scene, rays: readonly TestRay[], opts: Parameters<typeof buildBvh8>[1] = {}): TestRay[] {
  const bvh = buildBvh8(scene, opts);
  const words = encodeBvh8Image(bvh).words;
  return rays.filter((r) => {
    const res = castRayBvh8(words, r.o, r.d);
    expect(res.fault).toBeUndefined();
    expect(res.counters.maxStack).toBeLessThanOrEqual(bvh.worstCaseStack);
    expect(res.counters.boxTests).toBeLessThanOrEqual(8 * res.counters.nodeTests);
    expect(res.counters.triangleTests).toBeLessThanOrEqual(16 * res.counters.primitiveNodes);
    return JSON.stringify(answer(words, r)) !== JSON.stringify(castRay(scene, r.o, r.d, testTriangleWatertight));
  });
}

describe('against the brute-force caster', () => {
  const rng = createRng(seed);
  test.each([
    [1, 8],
    [2, 1],
    [17, 4],
    [300, 1],
    [300, 8],
    [1500, 16],
  ])('random scene of %i triangles, maxLeafTriangles %i: every answer equal, bit for bit', (n, leaf) => {
    const scene = randomScene(rng, n);
    const rays = randomRays(rng, scene, 400);
    expect(mismatches(scene, rays, { maxLeafTriangles: leaf })).toEqual([]);
  });

  test('the t bits equal the BVH4 traversal\'s (watertight), and its triangle through the permutation unless tied', () => {
    const scene = randomScene(rng, 800);
    const words = image(scene);
    const bvh4 = buildBvh(scene);
    const ordered = reorderScene(scene, bvh4);
    let hits = 0;
    for (const r of randomRays(rng, scene, 600)) {
      const a = castRayBvh(bvh4, ordered, r.o, r.d, { triangleTest: testTriangleWatertight });
      const b = castRayBvh8(words, r.o, r.d);
      expect(b.t).toBe(a.t);
      expect(b.triangle < 0).toBe(a.triangle < 0);
      if (a.triangle >= 0) hits++;
    }
    expect(hits).toBeGreaterThan(300);
  });

  test('the built-in scene: every primary ray of a 32x24 frame', () => {
    const scene = defaultScene();
    const words = image(scene);
    for (const r of primaryRays(defaultCamera, 32, 24)) expect(answer(words, { o: r.origin, d: r.direction })).toEqual(castRay(scene, r.origin, r.direction, testTriangleWatertight));
  });

  test('the bunny in the box: every primary ray of a 16x12 frame', () => {
    const scene = bunnyInBox();
    const words = image(scene);
    let bunny = 0;
    for (const r of primaryRays(defaultCamera, 16, 12)) {
      const want = castRay(scene, r.origin, r.direction, testTriangleWatertight);
      expect(answer(words, { o: r.origin, d: r.direction })).toEqual(want);
      if (want.triangle >= 36) bunny++;
    }
    expect(bunny).toBeGreaterThan(0);
  });

  test.each([
    ['icosphere(3)', () => icosphere(3)],
    ['torusGrid(10)', () => torusGrid(10)],
  ])('the library scene %s: random rays', (_, make) => {
    const scene = make();
    expect(mismatches(scene, randomRays(rng, scene, 300))).toEqual([]);
  });

  test('misses, invalid rays and an empty scene', () => {
    const scene = randomScene(rng, 50);
    const words = image(scene);
    const away: TestRay = { o: bits3([5, 5, 5]), d: bits3([1, 1, 1]) };
    expect(answer(words, away).triangle).toBe(-1);
    for (const d of [bits3([0, 0, 0]), [0x7fc00000, 0, 0] as Vec3, [0x7f800000, 0, 0] as Vec3]) {
      const r = castRayBvh8(words, bits3([0, 0, -3]), d);
      expect(r.triangle).toBe(-1);
      expect(r.counters.nodeTests).toBe(0);
    }
    const empty = encodeBvh8Image(buildBvh8({ vertices: new Uint32Array(0), triangles: new Uint32Array(0) }));
    expect(empty.words.length).toBe(0);
    expect(castRayBvh8(empty.words, bits3([0, 0, 0]), bits3([0, 0, 1])).triangle).toBe(-1);
  });

  test('equal t: the lower triangle index wins, as in castRay', () => {
    // Two coincident triangles, the second listed first in space order: both hit at the same t.
    const tri: [P, P, P] = [[-1, -1, 0], [1, -1, 0], [0, 1, 0]];
    const scene = sceneOf([[...tri, 2], [[5, 5, 5], [6, 5, 5], [5, 6, 5], 1], [...tri, 3]]);
    const r: TestRay = { o: bits3([0, 0, -1]), d: bits3([0, 0, 1]) };
    expect(answer(image(scene, { maxLeafTriangles: 1 }), r)).toEqual(castRay(scene, r.o, r.d, testTriangleWatertight));
    expect(answer(image(scene, { maxLeafTriangles: 1 }), r).triangle).toBe(0);
  });
});

describe('visit order', () => {
  test('children nearest first: after a hit in the nearest leaf the seven farther ones are skipped', () => {
    // Eight triangles across the z axis at z = 1 .. 8 (listed far to near), one leaf each: the root's eight children.
    const scene = sceneOf(Array.from({ length: 8 }, (_, i): [P, P, P, number] => [[-1, -1, 8 - i], [1, -1, 8 - i], [0, 1, 8 - i], 1 + i]));
    const words = image(scene, { maxLeafTriangles: 1 });
    expect(decodeGfx12BoxNode(bvh8NodeWords(words, 0)).children.length).toBe(8);
    const r = castRayBvh8(words, bits3([0, 0, 0]), bits3([0, 0, 1]));
    expect(r.triangle).toBe(7);
    expect(r.counters).toEqual({ nodeTests: 1, boxTests: 8, primitiveNodes: 1, triangleTests: 1, maxStack: 8, instanceNodes: 0 });
    const back = castRayBvh8(words, bits3([0, 0, 9]), bits3([0, 0, -1]));
    expect(back.triangle).toBe(0);
    expect(back.counters.triangleTests).toBe(1);
  });
});

describe('any-hit', () => {
  test('answers a triangle the ray hits, misses exactly when closest-hit misses, and tests no more triangles', () => {
    const rng = createRng(seed + 1);
    const scene = randomScene(rng, 400);
    const words = image(scene);
    let earlier = 0;
    for (const r of randomRays(rng, scene, 400)) {
      const any = castRayBvh8(words, r.o, r.d, { anyHit: true });
      const closest = castRayBvh8(words, r.o, r.d);
      expect(any.triangle < 0).toBe(closest.triangle < 0);
      expect(any.counters.triangleTests).toBeLessThanOrEqual(closest.counters.triangleTests);
      if (any.triangle < 0) continue;
      expect(watertightOn(scene, any.triangle, r)).toMatchObject({ hit: true, t: any.t });
      expect(any.hit[3]).toBe(scene.triangles[4 * any.triangle + 3]);
      if (toNumber(any.t) > toNumber(closest.t)) earlier++;
    }
    // Some rays must stop at a farther hit, or the option would do nothing.
    expect(earlier).toBeGreaterThan(0);
  });
});

/** Every box node of the image against the BVH8 it came from: children, exact boxes inside the decoded ones, targets, primitive nodes. */
function checkImage(bvh: Bvh8): number {
  const img = encodeBvh8Image(bvh);
  const decoded = decodeBvh8Image(img.words);
  expect(decoded.boxNodes.size).toBe(img.boxNodes);
  expect(decoded.primitiveNodes.size).toBe(img.primitiveNodes);
  expect(decoded.worstCaseStack).toBe(bvh.worstCaseStack);
  let triangles = 0;
  bvh.nodes.forEach((node, k) => {
    const box = decodeGfx12BoxNode(bvh8NodeWords(img.words, img.nodeAt[k]!));
    expect(box.children.length).toBe(node.children.length);
    const targets = bvh8ChildTargets(box);
    node.children.forEach((c, i) => {
      expect(gfx12ChildContains(box, i, c.box)).toBe(true);
      const f = gfx12ChildBox(box, i);
      for (let a = 0; a < 3; a++) {
        expect(toNumber(f.min[a]!)).toBeLessThanOrEqual(toNumber(c.box.min[a]!));
        expect(toNumber(f.max[a]!)).toBeGreaterThanOrEqual(toNumber(c.box.max[a]!));
      }
      if (c.kind === 'node') {
        expect(targets[i]).toEqual({ kind: 'box', node: img.nodeAt[c.index], size: 1 });
        return;
      }
      expect(targets[i]!.kind).toBe('primitive');
      expect(targets[i]!.size).toBe(c.groups.length);
      c.groups.forEach((g, j) => {
        const p = decodeGfx12PrimitiveNode(bvh8NodeWords(img.words, targets[i]!.node + j));
        expect(p.rangeStop).toBe(j === c.groups.length - 1);
        expect(p.triangles.map((t) => [t.vertices, t.primitiveIndex, t.geometryIndex])).toEqual(g.map((t) => [t.vertices, t.primitiveIndex, t.geometryIndex]));
        triangles += g.length;
      });
    });
  });
  return triangles;
}

describe('the image', () => {
  test('the bunny: every node round-trips, every exact box inside its decoded box, every triangle once', () => {
    const scene = bunnyInBox();
    const bvh = buildBvh8(scene);
    expect(checkImage(bvh)).toBe(triangleCount(scene));
    const ids = bvh.nodes.flatMap((n) => n.children.flatMap((c) => (c.kind === 'leaf' ? c.groups.flat().map((t) => t.primitiveIndex) : [])));
    expect(new Set(ids).size).toBe(triangleCount(scene));
  });

  test('random scenes at scales from 1e-30 to 1e30: conservative boxes and round trips', () => {
    const rng = createRng(seed + 2);
    for (const scale of [1e-30, 1e-3, 1, 1e3, 1e30]) {
      const base = randomScene(rng, 200);
      const scene = { ...base, vertices: base.vertices.map((b) => fromNumber(toNumber(b) * scale)) };
      const bvh = buildBvh8(scene, { maxLeafTriangles: 1 + rng.int(16) });
      expect(bvh.dropped).toEqual([]);
      expect(checkImage(bvh)).toBe(200);
    }
  });

  test('far from the coordinate origin the decoded bounds must round, and they round outward', () => {
    // Triangles of size ~10^-3 around x = y = z = 3000: origin + q·unit needs more than 24 bits.
    const rng = createRng(seed + 8);
    const base = randomScene(rng, 300, 0.3);
    const scene = { ...base, vertices: base.vertices.map((b) => fromNumber(toNumber(b) * 0.001 + 3000)) };
    const bvh = buildBvh8(scene, { maxLeafTriangles: 2 });
    expect(checkImage(bvh)).toBe(300 - bvh.dropped.length);
    const words = encodeBvh8Image(bvh).words;
    const decoded = decodeBvh8Image(words);
    let rounded = 0;
    for (const node of decoded.boxNodes.values())
      node.children.forEach((_, i) => {
        const exact = gfx12ChildBounds(node, i);
        const f = gfx12ChildBox(node, i);
        for (let a = 0; a < 3; a++) if (toNumber(f.min[a]!) !== exact.min[a] || toNumber(f.max[a]!) !== exact.max[a]) rounded++;
      });
    expect(rounded).toBeGreaterThan(0);
    // Here the sheared vertices round by about a triangle's size, so castRay's hit can lie outside the triangle's box
    // (docs/bvh.md, "When it differs"): the BVH8 may answer a farther hit or a miss, never a nearer or a false one.
    let same = 0;
    for (const r of randomRays(rng, scene, 300)) {
      const got = answer(words, r);
      const want = castRay(scene, r.o, r.d, testTriangleWatertight);
      if (JSON.stringify(got) === JSON.stringify(want)) same++;
      else if (got.triangle >= 0) {
        expect(toNumber(got.t)).toBeGreaterThanOrEqual(toNumber(want.t));
        expect(watertightOn(scene, got.triangle, r)).toMatchObject({ hit: true, t: got.t });
      }
    }
    expect(same).toBeGreaterThan(200);
  });

  test('the root is node 0, box children follow internal_child_offset and primitive children primitive_child_offset', () => {
    const scene = randomScene(createRng(seed + 3), 120);
    const img = encodeBvh8Image(buildBvh8(scene, { maxLeafTriangles: 2 }));
    expect(img.nodeAt[0]).toBe(0);
    const root = decodeGfx12BoxNode(bvh8NodeWords(img.words, 0));
    expect(root.children.length).toBe(8);
    const targets = bvh8ChildTargets(root);
    const boxes = targets.filter((t) => t.kind === 'box');
    expect(boxes.length).toBeGreaterThan(0);
    expect(boxes[0]!.node * 16).toBe(root.internalChildOffset);
    // Box children are consecutive nodes.
    boxes.forEach((t, i) => expect(t.node).toBe(boxes[0]!.node + i));
  });

  test('a leaf too big for one primitive node is split over consecutive nodes, prim_range_stop on the last', () => {
    const rng = createRng(seed + 4);
    // 16 small triangles of unrelated full-precision vertices in one spot: one leaf (cheap triangles), 48 vertices.
    const scene = randomScene(rng, 16, 0.001);
    const small = { ...scene, vertices: scene.vertices.map((b) => fromNumber(toNumber(b) * 0.01 + 0.3)) };
    const bvh = buildBvh8(small, { maxLeafTriangles: 16, triangleCost: 0.001 });
    const leaves = bvh.nodes.flatMap((n) => n.children.filter((c) => c.kind === 'leaf'));
    expect(leaves.length).toBe(1);
    const leaf = leaves[0]!;
    if (leaf.kind !== 'leaf') throw new Error('unreachable');
    expect(leaf.groups.length).toBeGreaterThan(1);
    expect(() => planGfx12PrimitiveNode({ triangles: leaf.groups.flat() })).toThrow(Gfx12Error);
    expect(checkImage(bvh)).toBe(16);
    const words = encodeBvh8Image(bvh).words;
    for (const r of randomRays(rng, small, 200)) expect(answer(words, r)).toEqual(castRay(small, r.o, r.d, testTriangleWatertight));
  });

  test('packPairs keeps pair order and fills each node as far as it fits', () => {
    const rng = createRng(seed + 5);
    const tris: Gfx12Triangle[] = Array.from({ length: 16 }, (_, i) => ({
      vertices: [0, 1, 2].map(() => bits3([rng() * 2 - 1, rng() * 2 - 1, rng() * 2 - 1])) as unknown as Gfx12Triangle['vertices'],
      primitiveIndex: i,
    }));
    const pairs = pairTriangles(tris);
    const groups = packPairs(pairs);
    expect(groups.flat()).toEqual(pairs.flat());
    for (let g = 0; g + 1 < groups.length; g++) {
      expect(() => planGfx12PrimitiveNode({ triangles: groups[g]! })).not.toThrow();
      // The next pair would not have fitted.
      expect(() => planGfx12PrimitiveNode({ triangles: [...groups[g]!, ...groups[g + 1]!.slice(0, 2)] })).toThrow(Gfx12Error);
    }
  });

  test('pairTriangles pairs triangles sharing an edge when there are some', () => {
    // A 4x2 grid of quads, two triangles each, listed in a scrambled order.
    const tris: Gfx12Triangle[] = [];
    for (let x = 0; x < 4; x++)
      for (let y = 0; y < 2; y++) {
        const p = (i: number, j: number) => bits3([x + i, y + j, 0]);
        tris.push({ vertices: [p(0, 0), p(1, 0), p(1, 1)], primitiveIndex: tris.length }, { vertices: [p(0, 0), p(1, 1), p(0, 1)], primitiveIndex: tris.length + 1 });
      }
    const scrambled = tris.map((_, i) => tris[(i * 7) % tris.length]!);
    const shared = (a: Gfx12Triangle, b: Gfx12Triangle) => a.vertices.filter((v) => b.vertices.some((w) => w.join() === v.join())).length;
    const edgePairs = (pairs: Gfx12Triangle[][]) => pairs.filter(([a, b]) => b !== undefined && shared(a!, b) === 2).length;
    const pairs = pairTriangles(scrambled);
    expect(pairs.length).toBe(8);
    expect(pairs.flat().map((t) => t.primitiveIndex).sort((a, b) => a - b)).toEqual(tris.map((t) => t.primitiveIndex));
    // In list order the scrambled triangles would share edges in fewer pairs; greedily at least 6 of the 8 do.
    const inOrder = Array.from({ length: 8 }, (_, i) => scrambled.slice(2 * i, 2 * i + 2));
    expect(edgePairs(pairs)).toBeGreaterThanOrEqual(6);
    expect(edgePairs(pairs)).toBeGreaterThan(edgePairs(inOrder));
    // A partner sharing an edge is preferred to a nearer one in the list sharing nothing.
    const far: Gfx12Triangle = { vertices: [bits3([9, 9, 9]), bits3([10, 9, 9]), bits3([9, 10, 9])], primitiveIndex: 99 };
    expect(pairTriangles([tris[0]!, far, tris[1]!]).map((p) => p.map((t) => t.primitiveIndex))).toEqual([[0, 1], [99]]);
    expect(pairTriangles(tris.slice(0, 3)).map((p) => p.length)).toEqual([2, 1]);
  });

  test('unitsToBinary32 rounds toward −∞ and +∞', () => {
    const rng = createRng(seed + 6);
    const up = (b: number) => (b >>> 31 ? (b === 0x80000000 ? 1 : b - 1) : b + 1);
    for (let i = 0; i < 2000; i++) {
      const mag = BigInt(Math.floor(rng() * 2 ** 52)) >> BigInt(rng.int(52));
      const u = rng() < 0.5 ? -mag : mag;
      const x = Number(u) * 2 ** -149;
      const down = unitsToBinary32(u, 'down');
      const upward = unitsToBinary32(u, 'up');
      expect(toNumber(down)).toBeLessThanOrEqual(x);
      expect(toNumber(upward)).toBeGreaterThanOrEqual(x);
      if (toNumber(down) !== x) expect(toNumber(up(down) >>> 0)).toBeGreaterThan(x);
      if (toNumber(down) === x) expect(upward).toBe(down);
    }
    expect(unitsToBinary32(1n << 300n, 'up')).toBe(0x7f800000);
    expect(unitsToBinary32(1n << 300n, 'down')).toBe(0x7f7fffff);
    expect(unitsToBinary32(-(1n << 300n), 'down')).toBe(0xff800000);
    expect(unitsToBinary32(-(1n << 300n), 'up')).toBe(0xff7fffff);
  });
});

describe('bad input', () => {
  const tri: [P, P, P, number] = [[0, 0, 0], [1, 0, 0], [0, 1, 0], 1];
  test('scenes and options the builder refuses', () => {
    const scene = sceneOf([tri]);
    expect(() => buildBvh8({ ...scene, triangles: Uint32Array.from([0, 1, 7, 1]) })).toThrow(/names vertex 7, but the scene has 3 vertices/);
    expect(() => buildBvh8({ ...scene, vertices: scene.vertices.map((v, i) => (i === 4 ? 0x7fc00000 : v)) })).toThrow(BvhBuildError);
    expect(() => buildBvh8(scene, { maxLeafTriangles: 17 })).toThrow(/maxLeafTriangles must be a whole number from 1 to 16, got 17/);
    expect(() => buildBvh8(scene, { maxLeafTriangles: 0 })).toThrow(BvhBuildError);
    expect(() => buildBvh8(scene, { triangleCost: 0 })).toThrow(/triangleCost must be a number above 0/);
    expect(() => buildBvh8({ ...scene, triangles: Uint32Array.from([0, 1, 2, 2 ** 30]) })).toThrow(/shader id 1073741824; the BVH8 stores it as the 30-bit geometry index/);
  });

  test('triangles that are one point are left out (they cannot be hit)', () => {
    const scene = sceneOf([[[2, 2, 2], [2, 2, 2], [2, 2, 2], 1], tri, [[0, 0, 0], [0, 0, 0], [0, 0, 0], 1]]);
    const bvh = buildBvh8(scene);
    expect(bvh.dropped).toEqual([0, 2]);
    expect(checkImage(bvh)).toBe(1);
    expect(encodeBvh8Image(buildBvh8(sceneOf([[[2, 2, 2], [2, 2, 2], [2, 2, 2], 1]]))).words.length).toBe(0);
  });

  /** A valid image of a few nodes to corrupt: root with box and leaf children. */
  const valid = (): Uint32Array => image(randomScene(createRng(seed + 7), 60), { maxLeafTriangles: 2 });
  const ray: TestRay = { o: bits3([0, 0, -3]), d: bits3([0.01, 0.02, 1]) };
  const setField = (words: Uint32Array, node: number, bit: number, width: number, value: number): void => {
    for (let i = 0; i < width; i++) {
      const at = node * 1024 + bit + i;
      const mask = 1 << (at & 31);
      if ((value >>> i) & 1) words[at >>> 5]! |= mask;
      else words[at >>> 5]! &= ~mask;
    }
  };

  test('images the checker refuses, naming the place', () => {
    const cases: [string, (w: Uint32Array) => Uint32Array, RegExp][] = [
      ['length', (w) => w.subarray(0, w.length - 1), /whole 128-byte nodes/],
      ['node type', (w) => (setField(w, 0, 256 + 88, 4, 3), w), /box node 0: child 0 has node_type 3/],
      ['offset', (w) => (setField(w, 0, 0, 32, decodeGfx12BoxNode(bvh8NodeWords(w, 0)).internalChildOffset + 8), w), /box node 0: internal_child_offset \d+ is not a whole 128-byte node/],
      ['past the end', (w) => (setField(w, 0, 0, 32, 16 * (w.length / 32)), w), /points at node \d+, past the image's \d+ nodes/],
      ['obb', (w) => (setField(w, 0, 224, 32, 104), w), /box node 0: obb_matrix_index is 104; it selects a matrix 0–103 or is 127 \(off\)/],
      ['unreached', (w) => Uint32Array.from([...w, ...w.subarray(0, 32)]), /1 of the image's \d+ nodes are not reached/],
      ['twice', (w) => (setField(w, 0, 0, 32, 0), w), /node 0 is reached twice/],
    ];
    for (const [, corrupt, message] of cases) expect(() => decodeBvh8Image(corrupt(valid()))).toThrow(message);
    expect(() => castRayBvh8(new Uint32Array(33), ray.o, ray.d)).toThrow(Gfx12Error);
  });

  test('the traversal marks a fault where it cannot read, and never loops', () => {
    // The root cut down to one child of the given type whose box is the whole quantization range (the ray from the
    // scene's middle enters it), at the given node.
    const oneChild = (type: number, node: number): Uint32Array => {
      const w = valid();
      setField(w, 0, 0, 32, 16 * node);
      setField(w, 0, 32, 32, 16 * node);
      setField(w, 0, 220, 4, 0);
      for (const [bit, width, value] of [[0, 12, 0], [12, 12, 0], [32, 12, 0], [44, 12, 4095], [64, 12, 4095], [76, 12, 4095], [88, 4, type], [92, 4, 1]] as const)
        setField(w, 0, 256 + bit, width, value);
      return w;
    };
    const o = bits3([0, 0, 0]);
    const d = bits3([0.01, 0.02, 1]);
    // A cycle: the root's child is the root.
    expect(castRayBvh8(oneChild(5, 0), o, d)).toMatchObject({ fault: true, triangle: -1 });
    // Past the image, as a box node and as a primitive node.
    expect(castRayBvh8(oneChild(5, 100000), o, d).fault).toBe(true);
    expect(castRayBvh8(oneChild(0, 100000), o, d).fault).toBe(true);
    // An unknown node type.
    expect(castRayBvh8(oneChild(3, 1), o, d).fault).toBe(true);
    // The same root with a valid child is no fault: the cases above fail for the reason given.
    expect(castRayBvh8(oneChild(5, 1), o, d).fault).toBeUndefined();
    const obb = valid();
    // An OBB matrix index that is neither 0–103 nor 0x7F.
    setField(obb, 0, 224, 32, 104);
    expect(castRayBvh8(obb, ray.o, ray.d)).toMatchObject({ fault: true, triangle: -1 });
  });
});

describe('random corruption', () => {
  test('every corrupted image decodes or fails with a Gfx12Error, and every ray through it ends (a fault at worst)', () => {
    const rng = createRng(seed + 9);
    const scene = randomScene(rng, 80);
    const clean = image(scene, { maxLeafTriangles: 4 });
    const rays = randomRays(rng, scene, 8);
    const outcome = { decoded: 0, refused: 0, faults: 0 };
    for (let k = 0; k < 300; k++) {
      const w = clean.slice();
      // A few flipped bits, or a word of noise.
      if (rng() < 0.5) for (let f = 1 + rng.int(4); f > 0; f--) w[rng.int(w.length)]! ^= 1 << rng.int(32);
      else w[rng.int(w.length)] = Math.floor(rng() * 2 ** 32);
      try {
        decodeBvh8Image(w);
        outcome.decoded++;
      } catch (e) {
        expect(e).toBeInstanceOf(Gfx12Error);
        outcome.refused++;
      }
      for (const r of rays) if (castRayBvh8(w, r.o, r.d).fault) outcome.faults++;
    }
    console.log(`bvh8.test seed=${seed}: corrupted images`, outcome);
    expect(outcome.refused).toBeGreaterThan(0);
    expect(outcome.decoded).toBeGreaterThan(0);
  });
});

describe('figures (the bunny in the box, 64x48 primary rays)', () => {
  test('memory and tests per ray, BVH8 against BVH4', () => {
    const c = compareBvh8OnBunny();
    const { bvh8MemoryRatio } = measureBvh8Memory();
    const f = (x: number) => x.toFixed(2);
    console.log(
      `bvh8MemoryRatio ${bvh8MemoryRatio.toFixed(3)} (${c.bvh8Bytes} / ${c.bvh4Bytes} bytes; BVH4 nodes + TriRanges ${c.bvh4NodeBytes}); ` +
        `${c.bvh8BoxNodes} box + ${c.bvh8PrimitiveNodes} primitive nodes; per ray BVH4 node ${f(c.bvh4.nodeTests)} box ${f(c.bvh4.boxTests)} tri ${f(c.bvh4.triangleTests)}, ` +
        `BVH8 node ${f(c.bvh8.nodeTests)} box ${f(c.bvh8.boxTests)} primitive nodes ${f(c.bvh8.primitiveNodes)} tri ${f(c.bvh8.triangleTests)}, stack ${c.bvh4.maxStack} / ${c.bvh8.maxStack}`,
    );
    expect(c.rays).toBe(3072);
    expect(c.differences).toBe(0);
    expect(bvh8MemoryRatio).toBeCloseTo(c.bvh8Bytes / c.bvh4Bytes, 12);
    expect(bvh8MemoryRatio).toBeLessThanOrEqual(0.5);
    expect(c.bvh8.nodeTests).toBeLessThan(c.bvh4.nodeTests);
  });
});
