// OBJ texture coordinates: `vt` lines, every face form with texture indices, negative indices, errors with file:line, and texcoords through mergeScenes and BVH order.
import { describe, expect, test } from 'vitest';
import { parseObj, SceneError, TEXCOORD_WORDS, type Scene } from '../../src/golden/scene.ts';
import { mergeScenes } from '../../src/scenes/sceneLibrary.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { reorderScene } from '../../src/bvh/bvh4.ts';
import { f32 } from './encode.ts';

/** Per triangle its six texcoords as numbers. */
const uvs = (s: Scene): number[][] => Array.from({ length: s.texcoords!.length / TEXCOORD_WORDS }, (_, i) => Array.from(s.texcoords!.subarray(TEXCOORD_WORDS * i, TEXCOORD_WORDS * (i + 1))));
const U = (...xs: number[]): number[] => xs.map(f32);
const square = ['v 0 0 0', 'v 1 0 0', 'v 1 1 0', 'v 0 1 0', 'vt 0 0', 'vt 0.5 0', 'vt 0.5 0.25', 'vt 0 0.25', 'vn 0 0 1'];

describe('OBJ vt', () => {
  test('no face with texture indices: no texcoords field (as before)', () => {
    expect(parseObj(['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'vt 0.5 0.5', 'f 1 2 3'].join('\n'), 'a.obj').texcoords).toBeUndefined();
  });

  test.each([
    ['v/vt', 'f 1/1 2/2 3/3 4/4'],
    ['v/vt/vn', 'f 1/1/1 2/2/1 3/3/1 4/4/1'],
    ['negative v/vt', 'f -4/-4 -3/-3 -2/-2 -1/-1'],
    ['negative v/vt/vn', 'f -4/-4/-1 -3/-3/-1 -2/-2/-1 -1/-1/-1'],
  ])('%s: (u, v) per corner, fan-triangulated with the vertices', (_, face) => {
    const s = parseObj([...square, face].join('\n'), 'a.obj');
    expect(Array.from(s.triangles)).toEqual([0, 1, 2, 1, 0, 2, 3, 1]);
    expect(uvs(s)).toEqual([U(0, 0, 0.5, 0, 0.5, 0.25), U(0, 0, 0.5, 0.25, 0, 0.25)]);
  });

  test('vt with one value has v = 0; a third value (w) is ignored; values are rounded to binary32', () => {
    const s = parseObj(['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'vt 0.75', 'vt 0.1 0.2 0.3', 'vt -2.5 1e3', 'f 1/1 2/2 3/3'].join('\n'), 'a.obj');
    expect(uvs(s)).toEqual([[f32(0.75), 0, 0x3dcccccd, 0x3e4ccccd, f32(-2.5), f32(1000)]]);
  });

  test('faces without texture indices get zeros beside textured ones; v//vn counts as without', () => {
    const s = parseObj([...square, 'f 1 2 3', 'f 1/4 3/3 4/2', 'f 1//1 3//1 4//1'].join('\n'), 'a.obj');
    expect(uvs(s)).toEqual([U(0, 0, 0, 0, 0, 0), U(0, 0.25, 0.5, 0.25, 0.5, 0), U(0, 0, 0, 0, 0, 0)]);
  });

  test('a negative vt index counts back from the vt lines above the face', () => {
    const s = parseObj([...square, 'f 1/-1 2/-1 3/-1', 'vt 0.125 0.625', 'f 1/-1 2/-2 3/-5'].join('\n'), 'a.obj');
    expect(uvs(s)).toEqual([U(0, 0.25, 0, 0.25, 0, 0.25), U(0.125, 0.625, 0, 0.25, 0, 0)]);
  });

  const error = (lines: readonly string[]): string => {
    try {
      parseObj(lines.join('\n'), 'scene.obj');
    } catch (e) {
      expect(e).toBeInstanceOf(SceneError);
      return (e as Error).message;
    }
    throw new Error('no error');
  };

  test('errors name file and line', () => {
    const at = `scene.obj:${square.length + 1}: error:`;
    expect(error([...square, 'f 1/5 2/1 3/1'])).toBe(`${at} texture coordinate index 5 out of range (4 texture coordinates defined so far)`);
    expect(error([...square, 'f 1/0 2/1 3/1'])).toBe(`${at} texture coordinate index 0 out of range (4 texture coordinates defined so far)`);
    expect(error([...square, 'f 1/-5 2/1 3/1'])).toBe(`${at} texture coordinate index -5 out of range (4 texture coordinates defined so far)`);
    expect(error(['v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'f 1/1 2/1 3/1'])).toBe('scene.obj:4: error: texture coordinate index 1 out of range (0 texture coordinates defined so far)');
    expect(error(['v 0 0 0', 'vt 0 0', 'f 1/1 1/2 1/1'])).toBe('scene.obj:3: error: texture coordinate index 2 out of range (1 texture coordinate defined so far)');
    expect(error(['v 0 0 0', 'f 1 2 1'])).toBe('scene.obj:2: error: vertex index 2 out of range (1 vertex defined so far)');
    expect(error([...square, 'f 1/x 2/1 3/1'])).toBe(`${at} bad texture coordinate index '1/x'`);
    expect(error([...square, 'f 1/1 2/1/1/1 3/1'])).toBe(`${at} bad face corner '2/1/1/1' (v, v/vt, v/vt/vn or v//vn)`);
    expect(error([...square, 'f 1/1/z 2/1/1 3/1/1'])).toBe(`${at} bad face corner '1/1/z' (v, v/vt, v/vt/vn or v//vn)`);
    expect(error([...square, 'f 1/1 2 3/1'])).toBe(`${at} a face must give texture coordinates at every corner or at none`);
    expect(error(['vt 0 x'])).toBe("scene.obj:1: error: bad number 'x'");
    expect(error(['vt nan 0'])).toBe("scene.obj:1: error: bad number 'nan'");
    expect(error(['vt 1e39'])).toBe("scene.obj:1: error: '1e39' is out of binary32 range");
    expect(error(['vt'])).toBe('scene.obj:1: error: a texture coordinate needs u (and optionally v and w), got 0 values');
    expect(error(['vt 0 0 0 0'])).toBe('scene.obj:1: error: a texture coordinate needs u (and optionally v and w), got 4 values');
  });
});

describe('texcoords through scene operations', () => {
  const textured = parseObj([...square, 'f 1/1 2/2 3/3', 'f 1/1 3/3 4/4'].join('\n'), 'a.obj');

  test('mergeScenes keeps them, zeros for a scene without; none when no scene has them', () => {
    expect(mergeScenes(defaultScene(), defaultScene()).texcoords).toBeUndefined();
    const merged = mergeScenes(defaultScene(), textured);
    const n = defaultScene().triangles.length / 4;
    expect(merged.texcoords!.length).toBe((n + 2) * TEXCOORD_WORDS);
    expect(merged.texcoords!.subarray(0, n * TEXCOORD_WORDS).every((w) => w === 0)).toBe(true);
    expect(Array.from(merged.texcoords!.subarray(n * TEXCOORD_WORDS))).toEqual(Array.from(textured.texcoords!));
  });

  test('reorderScene (BVH order) moves each triangle with its texcoords', () => {
    const r = reorderScene(textured, { perm: Uint32Array.of(1, 0) });
    expect(Array.from(r.triangles)).toEqual([0, 2, 3, 1, 0, 1, 2, 1]);
    expect(uvs(r)).toEqual([uvs(textured)[1], uvs(textured)[0]]);
  });
});
