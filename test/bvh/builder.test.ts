// The BVH builder: root shapes for tiny scenes, exact boxes, leaf sizes, determinism, the stack bound and bad input.
import { describe, expect, test, vi } from 'vitest';
import {
  buildBvh,
  bvhDepth,
  bvhProblems,
  EMPTY_CHILD,
  reorderScene,
  STACK_DEPTH,
  triangleBox,
  worstCaseStack,
  type Bvh4,
  type Bvh4Child,
} from '../../src/bvh/index.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { bunnyInBox, torusGrid } from '../../src/scenes/sceneLibrary.ts';
import { toNumber } from '../../src/golden/float32.ts';
import type { Box } from '../../src/golden/rayBox.ts';
import { announceSeed, bits3, createRng, randomScene, sceneOf } from './helpers.ts';

// Random and large-scene tests take seconds; under load on the shared machine more than vitest's default 5 s.
vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('builder.test');
const empty: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
const one = sceneOf([[[0, 0, 0], [1, 0, 0], [0, 1, 0.5], 3]]);

/** The smallest box around boxes (as binary32 values). */
function union(boxes: readonly Box[]): number[] {
  const f = (b: number) => toNumber(b);
  return [0, 1, 2].flatMap((a) => [Math.min(...boxes.map((b) => f(b.min[a]!))), Math.max(...boxes.map((b) => f(b.max[a]!)))]);
}
const boxValues = (b: Box): number[] => [0, 1, 2].flatMap((a) => [toNumber(b.min[a]!), toNumber(b.max[a]!)]);

/** Every child box is exactly (not just conservatively) the box of what is under it. */
function expectTightBoxes(bvh: Bvh4, ordered: Scene): void {
  const under = (c: Bvh4Child): Box[] =>
    c.kind === 'leaf'
      ? Array.from({ length: bvh.triRanges[c.index]!.count }, (_, k) => triangleBox(ordered, bvh.triRanges[c.index]!.first + k))
      : bvh.nodes[c.index]!.children.filter((g) => g.kind !== 'empty').map((g) => g.box);
  for (const node of bvh.nodes) for (const c of node.children) if (c.kind !== 'empty') expect(boxValues(c.box)).toEqual(union(under(c)));
}

describe('tiny scenes', () => {
  test('no triangles: node 0 with four empty children', () => {
    const bvh = buildBvh(empty);
    expect(bvh.nodes).toEqual([{ children: [EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD] }]);
    expect(bvh.triRanges).toEqual([]);
    expect(bvh.perm.length).toBe(0);
    expect(worstCaseStack(bvh)).toBe(1);
  });

  test('one triangle: the root holds one leaf in slot 0 with the triangle\'s exact box', () => {
    const bvh = buildBvh(one);
    expect(bvh.nodes.length).toBe(1);
    expect(bvh.nodes[0]!.children).toEqual([{ kind: 'leaf', index: 0, box: { min: bits3([0, 0, 0]), max: bits3([1, 1, 0.5]) } }, EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD]);
    expect(bvh.triRanges).toEqual([{ first: 0, count: 1 }]);
    expect(Array.from(bvh.perm)).toEqual([0]);
  });

  test('a few close triangles stay one leaf under the root; far apart ones are split', () => {
    const close = sceneOf([0, 1, 2].map((i) => [[0, 0, i / 64], [1, 0, i / 64], [0, 1, i / 64], 1] as const));
    expect(buildBvh(close).nodes[0]!.children.map((c) => c.kind)).toEqual(['leaf', 'empty', 'empty', 'empty']);
    const far = sceneOf([0, 1, 2].map((i) => [[10 * i, 0, 0], [10 * i + 1, 0, 0], [10 * i, 1, 0], 1] as const));
    const bvh = buildBvh(far);
    expect(bvh.nodes[0]!.children.filter((c) => c.kind === 'leaf').length).toBe(3);
    expect(bvhProblems(bvh, far)).toEqual([]);
  });

  test('identical triangles (one centroid) are split by index until leaves are small enough', () => {
    const same = sceneOf(Array.from({ length: 9 }, () => [[0, 0, 0], [1, 0, 0], [0, 1, 0], 1] as const));
    const bvh = buildBvh(same, { maxLeafTriangles: 2 });
    expect(bvhProblems(bvh, same)).toEqual([]);
    expect(Math.max(...bvh.triRanges.map((r) => r.count))).toBeLessThanOrEqual(2);
    expect(Array.from(bvh.perm)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('random scenes', () => {
  const rng = createRng(seed);
  const scenes = [1, 2, 5, 17, 64, 300, 1000].map((n) => randomScene(rng, n, n > 100 ? 0.1 : 0.4));

  test.each(scenes.map((s, i) => [i, s] as const))('scene %i: a valid tree with tight boxes, small leaves, 4 children where possible', (_, scene) => {
    for (const maxLeafTriangles of [1, 4]) {
      const bvh = buildBvh(scene, { maxLeafTriangles });
      expect(bvhProblems(bvh, scene)).toEqual([]);
      expectTightBoxes(bvh, reorderScene(scene, bvh));
      expect(Math.max(...bvh.triRanges.map((r) => r.count))).toBeLessThanOrEqual(maxLeafTriangles);
      expect(worstCaseStack(bvh)).toBeLessThanOrEqual(3 * bvhDepth(bvh) + 1);
      // A node short of four children has only leaves (nothing left to pull up).
      for (const node of bvh.nodes.slice(1)) {
        const used = node.children.filter((c) => c.kind !== 'empty');
        expect(used.length).toBeGreaterThanOrEqual(2);
        if (used.length < 4) expect(used.every((c) => c.kind === 'leaf')).toBe(true);
      }
    }
  });

  test('deterministic: the same scene and options give the same BVH', () => {
    const s = scenes[5]!;
    expect(buildBvh(s, { bins: 8 })).toEqual(buildBvh(s, { bins: 8 }));
  });

  test('the reordered scene lists triangle perm[i] at i and keeps the vertices', () => {
    const s = scenes[3]!;
    const bvh = buildBvh(s);
    const r = reorderScene(s, bvh);
    expect(r.vertices).toBe(s.vertices);
    bvh.perm.forEach((from, i) => expect(Array.from(r.triangles.subarray(4 * i, 4 * i + 4))).toEqual(Array.from(s.triangles.subarray(4 * from, 4 * from + 4))));
  });
});

describe('large scenes', () => {
  test('the bunny in the box builds a valid BVH', () => {
    const scene = bunnyInBox();
    const bvh = buildBvh(scene);
    expect(bvhProblems(bvh, scene)).toEqual([]);
    console.log(`bunny in box: ${triangleCount(scene)} triangles, ${bvh.nodes.length} nodes, ${bvh.triRanges.length} leaves, depth ${bvhDepth(bvh)}, worst-case stack ${worstCaseStack(bvh)}`);
  });

  test('a 66,248-triangle torus builds within the stack bound', () => {
    const scene = torusGrid(182);
    expect(triangleCount(scene)).toBeGreaterThanOrEqual(65_536);
    const start = performance.now();
    const bvh = buildBvh(scene);
    const seconds = (performance.now() - start) / 1000;
    console.log(`torusGrid(182): ${triangleCount(scene)} triangles built in ${seconds.toFixed(2)} s, ${bvh.nodes.length} nodes, depth ${bvhDepth(bvh)}, worst-case stack ${worstCaseStack(bvh)}`);
    expect(worstCaseStack(bvh)).toBeLessThanOrEqual(STACK_DEPTH);
    expect(bvhProblems(bvh, scene)).toEqual([]);
  });
});

describe('limits and bad input', () => {
  // Triangle k is 2^(k/2) in size and distance: SAH peels a few off at a time, so the tree is as deep as the scene is long.
  const staircase = sceneOf(Array.from({ length: 250 }, (_, k) => [[2 ** (k / 2), 0, 0], [1.5 * 2 ** (k / 2), 2 ** (k / 2), 0], [2 ** (k / 2), 0, 2 ** (k / 2)], 1] as const));

  test('a tree the 64-entry stack cannot hold is refused with the numbers', () => {
    expect(() => buildBvh(staircase)).toThrow('the BVH (39 levels) can need 118 traversal stack entries, the stack holds 64; the scene');
  });

  test('maxDepth bounds the levels of nodes', () => {
    const s = randomScene(createRng(1), 200, 0.1);
    const depth = bvhDepth(buildBvh(s));
    expect(bvhDepth(buildBvh(s, { maxDepth: depth }))).toBe(depth);
    expect(() => buildBvh(s, { maxDepth: depth - 1 })).toThrow(`the BVH has ${depth} levels of nodes, more than maxDepth ${depth - 1}`);
  });

  test('worstCaseStack: 1 + the largest sum of (children − 1) along a path', () => {
    const leaf = (index: number): Bvh4Child => ({ kind: 'leaf', box: { min: [0, 0, 0], max: [0, 0, 0] }, index });
    const node = (index: number): Bvh4Child => ({ ...leaf(0), kind: 'node', index });
    const bvh: Bvh4 = {
      // root: 4 children (+3), one inner with 2 (+1), whose inner child has 4 (+3); another inner child with 3 (+2).
      nodes: [
        { children: [node(1), leaf(0), leaf(1), node(3)] },
        { children: [leaf(2), node(2), EMPTY_CHILD, EMPTY_CHILD] },
        { children: [leaf(3), leaf(4), leaf(5), leaf(6)] },
        { children: [leaf(7), leaf(8), leaf(9), EMPTY_CHILD] },
      ],
      triRanges: [],
      perm: new Uint32Array(0),
    };
    expect(worstCaseStack(bvh)).toBe(1 + 3 + 1 + 3);
    expect(bvhDepth(bvh)).toBe(3);
  });

  test('options out of range', () => {
    expect(() => buildBvh(one, { maxLeafTriangles: 0 })).toThrow('maxLeafTriangles must be a whole number from 1 to 16777216, got 0');
    expect(() => buildBvh(one, { bins: 1 })).toThrow('bins must be a whole number from 2 to 1024, got 1');
    expect(() => buildBvh(one, { bins: 2.5 })).toThrow('bins must be a whole number from 2 to 1024, got 2.5');
    expect(() => buildBvh(one, { maxDepth: 0 })).toThrow('maxDepth must be a whole number from 1 to 1048576, got 0');
  });

  test('bad scenes: a vertex index out of range, a non-finite coordinate', () => {
    const badIndex: Scene = { vertices: one.vertices, triangles: Uint32Array.from([0, 1, 7, 1]) };
    expect(() => buildBvh(badIndex)).toThrow('triangle 0 names vertex 7, but the scene has 3 vertices');
    const inf: Scene = { vertices: Uint32Array.from([...one.vertices.subarray(0, 8), 0x7f800000]), triangles: one.triangles };
    expect(() => buildBvh(inf)).toThrow('triangle 0: vertex 2 has a non-finite coordinate (Infinity)');
  });
});
