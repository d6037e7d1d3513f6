// Scenes: the OBJ parser (faces, materials, errors with file:line), the triangle-memory image, the default scene.
import { describe, expect, test } from 'vitest';
import { parseObj, sceneToImage, imageToScene, SceneError, type Scene } from '../../src/golden/scene.ts';
import { defaultScene, DEFAULT_SHADERS } from '../../src/scenes/defaultScene.ts';
import { castRay, cross, triangleVertex, type Vec3 } from '../../src/golden/rayCaster.ts';
import { fsub } from '../../src/golden/float32.ts';
import { f32 } from './encode.ts';

const V = (x: number, y: number, z: number): Vec3 => [f32(x), f32(y), f32(z)];
const tris = (s: Scene): number[][] => Array.from({ length: s.triangles.length / 4 }, (_, i) => Array.from(s.triangles.subarray(4 * i, 4 * i + 4)));

describe('OBJ parser', () => {
  test('vertices become binary32 bit patterns; faces use 1-based indices', () => {
    const s = parseObj('v 0 0 0\nv 1.5 -2 0.1\nv 0 1 0 1.0\nf 1 2 3\n', 'a.obj');
    expect(Array.from(s.vertices)).toEqual([0, 0, 0, 0x3fc00000, 0xc0000000, 0x3dcccccd, 0, 0x3f800000, 0]);
    expect(tris(s)).toEqual([[0, 1, 2, 1]]);
  });

  test('negative indices, slash forms and fan triangulation', () => {
    // (A face gives texture coordinates at every corner or none: docs/texture.md; test/golden/sceneTexcoords.test.ts.)
    const text = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'v 0.5 1.5 0', 'vt 0 0', 'vt 1 0', 'f -5 -4 -3', 'f 1/1 2/2/2 3/1/1 4/2', 'f 1 2 3 4 5'].join('\n');
    expect(tris(parseObj(text, 'a.obj'))).toEqual([
      [0, 1, 2, 1],
      [0, 1, 2, 1],
      [0, 2, 3, 1],
      [0, 1, 2, 1],
      [0, 2, 3, 1],
      [0, 3, 4, 1],
    ]);
  });

  test('usemtl: shader id = 1 + order of first appearance; 1 before any usemtl', () => {
    const text = ['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'f 1 2 3', 'usemtl red', 'f 1 2 3', 'usemtl blue', 'f 1 2 3', 'usemtl red', 'f 1 2 3', 'usemtl white', 'f 1 2 3'].join('\n');
    expect(tris(parseObj(text, 'a.obj')).map((t) => t[3])).toEqual([1, 1, 2, 1, 3]);
  });

  test('other directives, comments, blank lines and CRLF are ignored', () => {
    const text = '# a comment\r\nmtllib room.mtl\r\no room\r\ng walls\r\ns off\r\nv 0 0 0 # trailing\r\nvn 0 0 1\r\nvt 0 0\r\nv 1 0 0\r\n\r\nv 0 1 0\r\nfrobnicate 1 2\r\nf 1 2 3\r\n';
    const s = parseObj(text, 'a.obj');
    expect(s.vertices.length).toBe(9);
    expect(tris(s)).toEqual([[0, 1, 2, 1]]);
  });

  const error = (text: string): string => {
    try {
      parseObj(text, 'scene.obj');
    } catch (e) {
      expect(e).toBeInstanceOf(SceneError);
      return (e as Error).message;
    }
    throw new Error('no error');
  };

  test('errors name file and line', () => {
    const pre = 'v 0 0 0\nv 1 0 0\nv 0 1 0\n';
    expect(error('v 0 0 0\nv 1 x 0\n')).toBe("scene.obj:2: error: bad number 'x'");
    expect(error('v 0 0 inf\n')).toBe("scene.obj:1: error: bad number 'inf'");
    expect(error('v 1e39 0 0\n')).toBe("scene.obj:1: error: '1e39' is out of binary32 range");
    expect(error('v 0 0\n')).toBe('scene.obj:1: error: a vertex needs x y z (and optionally w), got 2 values');
    expect(error(`${pre}f 1 2\n`)).toBe('scene.obj:4: error: a face needs at least 3 vertices, got 2');
    expect(error(`${pre}f 1 2 4\n`)).toBe('scene.obj:4: error: vertex index 4 out of range (3 vertices defined so far)');
    expect(error(`${pre}f 0 1 2\n`)).toBe('scene.obj:4: error: vertex index 0 out of range (3 vertices defined so far)');
    expect(error(`${pre}f -4 1 2\n`)).toBe('scene.obj:4: error: vertex index -4 out of range (3 vertices defined so far)');
    expect(error(`${pre}f 1 b 2\n`)).toBe("scene.obj:4: error: bad vertex index 'b'");
    expect(error(`f 1 2 3\n${pre}`)).toBe('scene.obj:1: error: vertex index 1 out of range (0 vertices defined so far)');
    expect(error(`${pre}usemtl\n`)).toBe('scene.obj:4: error: usemtl expects one material name, got 0');
  });
});

describe('triangle-memory image', () => {
  const small: Scene = { vertices: Uint32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]), triangles: Uint32Array.from([0, 1, 2, 3, 2, 1, 0, 1]) };

  test('layout: triangles, four zeros, vertices with an unused word, four zeros', () => {
    expect(Array.from(sceneToImage(small))).toEqual([0, 1, 2, 3, 2, 1, 0, 1, 0, 0, 0, 0, 1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 0, 0, 0, 0]);
  });

  test('round trip, including the default scene and an empty scene', () => {
    for (const s of [small, defaultScene(), { vertices: new Uint32Array(0), triangles: new Uint32Array(0) }]) {
      const back = imageToScene(sceneToImage(s));
      expect(Array.from(back.vertices)).toEqual(Array.from(s.vertices));
      expect(Array.from(back.triangles)).toEqual(Array.from(s.triangles));
    }
  });

  test('malformed images and shader id 0 are errors', () => {
    expect(() => imageToScene(Uint32Array.from([0, 1, 2, 3, 0, 0]), 'tri.hex')).toThrow('tri.hex: error: image length 6 is not a multiple of 4 words');
    expect(() => imageToScene(Uint32Array.from([0, 1, 2, 3]))).toThrow('the image ends before');
    expect(() => imageToScene(Uint32Array.from([0, 0, 5, 3, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0]))).toThrow('triangle 0 names vertex 5 of 1');
    expect(() => imageToScene(Uint32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 7]))).toThrow('does not end with four zero words');
    expect(() => sceneToImage({ vertices: new Uint32Array(3), triangles: Uint32Array.from([0, 0, 0, 0]) })).toThrow('shader id 0');
  });
});

describe('default scene', () => {
  const s = defaultScene();
  const n = s.triangles.length / 4;

  test('at most 64 well-formed triangles with shader ids ≥ 1', () => {
    expect(n).toBeLessThanOrEqual(64);
    expect(n).toBe(36);
    for (let t = 0; t < n; t++) {
      expect(s.triangles[4 * t + 3]).toBeGreaterThanOrEqual(1);
      const [v0, v1, v2] = [0, 1, 2].map((k) => triangleVertex(s, t, k));
      const edge = (v: Vec3): Vec3 => [fsub(v[0], v0![0]), fsub(v[1], v0![1]), fsub(v[2], v0![2])];
      const nrm = cross(edge(v1!), edge(v2!));
      expect(nrm.some((x) => (x & 0x7fffffff) !== 0)).toBe(true);
    }
    expect(new Set(tris(s).map((t) => t[3])).size).toBe(6);
  });

  test('rays from inside the room meet the expected surfaces', () => {
    const shader = (o: Vec3, d: Vec3) => castRay(s, o, d).hit[3];
    const S = DEFAULT_SHADERS;
    expect(castRay(s, V(0, 1, 3.5), V(0, 0, -1)).hit).toEqual([0, f32(1), f32(-1), S.white]); // back wall
    expect(shader(V(0, 1.5, 0), V(-1, 0, 0))).toBe(S.red);
    expect(shader(V(0, 1.5, 0), V(1, 0, 0))).toBe(S.green);
    expect(shader(V(0, 1, 0), V(0, 1, 0))).toBe(S.light);
    expect(shader(V(0.5, 1, 0), V(0, 1, 0))).toBe(S.white); // ceiling beside the light
    expect(shader(V(-0.5, 1.5, -0.25), V(0, -1, 0))).toBe(S.box);
    expect(shader(V(0.5, 1.5, 0.25), V(0, -1, 0))).toBe(S.tetrahedron);
    expect(castRay(s, V(0.5, 1, -0.5), V(0, -1, 0)).hit).toEqual([f32(0.5), f32(0.5), f32(-0.5), S.box]); // short box top
    expect(shader(V(0, 1, 0), V(0, -1, 0))).toBe(S.white); // floor
    expect(shader(V(0, 1, 0), V(0, 0, 1))).toBe(0); // out of the open side
  });
});
