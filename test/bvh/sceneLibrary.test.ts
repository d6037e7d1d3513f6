// The BVH scenes: the bunny package, the bunny standing in the Cornell box, procedural meshes up to and past 65,536 triangles.
import { describe, expect, test, vi } from 'vitest';
import bunny from 'bunny';
import { bunnyInBox, bunnyMesh, BUNNY_PLACEMENT, BUNNY_SHADER, icosphere, mergeScenes, torusGrid } from '../../src/scenes/sceneLibrary.ts';
import { defaultScene, DEFAULT_SHADERS } from '../../src/scenes/defaultScene.ts';
import { triangleCount, vertexCount, type Scene } from '../../src/golden/scene.ts';
import { toNumber } from '../../src/golden/float32.ts';

// Random and large-scene tests take seconds; under load on the shared machine more than vitest's default 5 s.
vi.setConfig({ testTimeout: 120_000 });

/** Per axis the smallest and largest vertex coordinate used by triangles from..to−1. */
function bounds(s: Scene, from = 0, to = triangleCount(s)): { lo: number[]; hi: number[] } {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let t = from; t < to; t++)
    for (let k = 0; k < 3; k++)
      for (let a = 0; a < 3; a++) {
        const x = toNumber(s.vertices[3 * s.triangles[4 * t + k]! + a]!);
        lo[a] = Math.min(lo[a]!, x);
        hi[a] = Math.max(hi[a]!, x);
      }
  return { lo, hi };
}

describe('the bunny', () => {
  test('the npm package holds 1,839 vertices and 3,674 triangles', () => {
    expect(bunny.positions.length).toBe(1839);
    expect(bunny.cells.length).toBe(3674);
    const m = bunnyMesh();
    expect([vertexCount(m), triangleCount(m)]).toEqual([1839, 3674]);
  });

  test('in the box: the 36 room triangles first, then the bunny standing on the floor, clear of the boxes and walls', () => {
    const s = bunnyInBox();
    expect(triangleCount(s)).toBe(36 + 3674);
    expect(Array.from(s.triangles.subarray(0, 36 * 4))).toEqual(Array.from(defaultScene().triangles));
    const b = bounds(s, 36);
    expect(b.lo[1]).toBe(0);
    expect(b.hi[1]).toBeCloseTo(BUNNY_PLACEMENT.height, 6);
    expect(b.lo[0]).toBeGreaterThan(-1);
    expect(b.hi[0]).toBeLessThan(0.25); // left of the short box and the tetrahedron
    expect(b.lo[2]).toBeGreaterThan(0.125); // in front of the tall box
    expect(b.hi[2]).toBeLessThan(1);
    for (let t = 36; t < triangleCount(s); t++) expect(s.triangles[4 * t + 3]).toBe(BUNNY_SHADER);
    expect(BUNNY_SHADER).toBe(DEFAULT_SHADERS.box);
  });
});

describe('procedural meshes', () => {
  test('icosphere(s) has 20·4^s triangles on a sphere; s = 6 passes 65,536', () => {
    for (const s of [0, 1, 3]) {
      const m = icosphere(s, { centre: [0, 0, 0], radius: 2 });
      expect(triangleCount(m)).toBe(20 * 4 ** s);
      for (let v = 0; v < vertexCount(m); v++) {
        const p = [0, 1, 2].map((a) => toNumber(m.vertices[3 * v + a]!));
        expect(Math.hypot(p[0]!, p[1]!, p[2]!)).toBeCloseTo(2, 5);
      }
    }
    expect(triangleCount(icosphere(6))).toBe(81_920);
  });

  test('torusGrid(n) has 2n² triangles within its radii; n = 182 passes 65,536', () => {
    const t = torusGrid(8, { centre: [0, 0, 0], major: 1, minor: 0.25 });
    expect(triangleCount(t)).toBe(128);
    const b = bounds(t);
    expect(b.hi[1]).toBeCloseTo(0.25, 6);
    expect(b.hi[0]).toBeCloseTo(1.25, 6);
    expect(triangleCount(torusGrid(182))).toBe(66_248);
  });

  test('mergeScenes shifts vertex indices and keeps shader ids', () => {
    const a = icosphere(0, { shader: 3 });
    const m = mergeScenes(a, a);
    expect(triangleCount(m)).toBe(40);
    expect(m.triangles[4 * 20]).toBe(a.triangles[0]! + 12);
    expect(m.triangles[4 * 20 + 3]).toBe(3);
  });

  test('sizes out of range', () => {
    expect(() => icosphere(9)).toThrow('subdivisions must be a whole number from 0 to 8, got 9');
    expect(() => torusGrid(2)).toThrow('n must be a whole number from 3 to 2048, got 2');
  });
});
