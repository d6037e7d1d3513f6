// The instanced scene file and the built-in `--scene bunnies`: parsing, every error with its file and line, materials,
// the render command's use of them, and the bunnies' primary rays through the two-level BVH8 against the flattened scene.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildBvh8, buildBvh8Instanced, encodeBvh8Image } from '../../src/bvh/index.ts';
import { castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { bunniesInBox } from '../../src/scenes/bunniesScene.ts';
import { measureBvh8InstancedMemory } from '../../src/designs/bench/bvh8Bench.ts';
import { defaultMaterials } from '../../src/scenes/defaultScene.ts';
import { toNumber } from '../../src/golden/float32.ts';
import { affineFrom, flattenInstances } from '../../src/scenes/instancedScene.ts';
import { loadInstancedSceneFile, parseInstancedSceneFile } from '../../src/scenes/instancedSceneFile.ts';
import { triangleCount } from '../../src/golden/scene.ts';
import { BUILT_IN_SCENES, parseRenderArgs } from '../../src/cli/commands/renderArgs.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { primaryRays } from '../../src/host/primaryRays.ts';
import { tempDir } from '../tempDir.ts';

const parse = (text: string) => parseInstancedSceneFile(text, 'room.scene');

describe('parsing', () => {
  test('placements: translate, rotate, scale (one or three), matrix, color; comments and blank lines', () => {
    const got = parse(`# a room\n\ninstance @cornell\ninstance @bunny scale 0.5 rotate 0 90 0 translate 1 0 -1 color 1 0 0.5  # red\ninstance chair.obj matrix 1 0 0 2  0 1 0 0  0 0 1 3\ninstance a.OBJ scale 1 2 3\n`);
    expect(got.map((g) => [g.line, g.mesh])).toEqual([[3, '@cornell'], [4, '@bunny'], [5, 'chair.obj'], [6, 'a.OBJ']]);
    expect(got[0]!.objectToWorld).toEqual(affineFrom({}));
    expect(got[1]!.objectToWorld).toEqual(affineFrom({ scale: [0.5, 0.5, 0.5], rotateDegrees: [0, 90, 0], translate: [1, 0, -1] }));
    expect(got[1]!.color).toEqual([1, 0, 0.5]);
    expect(got[2]!.objectToWorld).toEqual([1, 0, 0, 2, 0, 1, 0, 0, 0, 0, 1, 3]);
    expect(got[3]!.objectToWorld).toEqual([1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0]);
  });

  test.each([
    ['instanc @bunny', "room.scene:1: error: unknown keyword 'instanc' (a scene file has lines 'instance MESH"],
    ['instance', "room.scene:1: error: 'instance' needs a mesh"],
    ['\ninstance @bunny translate 1 2', "room.scene:2: error: 'translate' takes 3 numbers, got 2"],
    ['instance @bunny translate 1 2 x', "room.scene:1: error: 'translate' takes 3 numbers, got 2 ('x' is not a number)"],
    ['instance @bunny scale 1 2', "room.scene:1: error: 'scale' takes 1 or 3 numbers, got 2"],
    ['instance @bunny spin 3', "room.scene:1: error: unknown word 'spin' after the mesh"],
    ['instance @bunny rotate 1 2 3 rotate 1 2 3', "room.scene:1: error: 'rotate' given twice"],
    ['instance @bunny matrix 1 0 0 0 0 1 0 0 0 0 1 0 translate 1 1 1', "room.scene:1: error: give 'matrix' or translate/rotate/scale, not both"],
    ['instance @bunny scale 0', 'room.scene:1: error: the placement cannot be inverted: the matrix has no inverse'],
    ['instance @bunny translate 1e39 0 0', "room.scene:1: error: 'translate': a number is out of binary32 range"],
    ['instance @bunny color 2 0 0', "room.scene:1: error: 'color' channels are 0 to 1, got 2 0 0"],
    ['instance @bunny mask 256', "room.scene:1: error: 'mask' is an integer from 0 to 255 (the instance mask, docs/rays.md), got 256"],
    ['instance @bunny mask 1.5', "room.scene:1: error: 'mask' is an integer from 0 to 255 (the instance mask, docs/rays.md), got 1.5"],
    ['instance @bunny mask', "room.scene:1: error: 'mask' takes a number, got 0"],
    ['# nothing\n', 'room.scene: error: no instances'],
  ])('%j is refused: %s', (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
});

describe('loading', () => {
  test('meshes loaded once, their materials in one table; a color is a material of its own', () => {
    const dir = tempDir('scene');
    writeFileSync(join(dir, 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    writeFileSync(join(dir, 'room.scene'), 'instance @cornell\ninstance tri.obj translate 0 1 0 mask 2\ninstance tri.obj translate 0 2 0 color 0.5 0.5 0.5 mask 0\n');
    const { scene, materials } = loadInstancedSceneFile(join(dir, 'room.scene'));
    expect(scene.meshes.length).toBe(2);
    expect(scene.instances.map((i) => [i.mesh, i.shaderId, i.mask])).toEqual([[0, undefined, undefined], [1, undefined, 2], [1, 8, 0]]);
    expect(materials.map((m) => m.name)).toEqual([...defaultMaterials().map((m) => m.name), 'default', 'instance at line 3']);
    // The OBJ's own shader id 1 moved past the Cornell box's 6 materials.
    expect(scene.meshes[1]!.triangles[3]).toBe(7);
    const flat = flattenInstances(scene);
    expect(triangleCount(flat)).toBe(38);
    expect(Array.from(flat.triangles.subarray(36 * 4 + 3)).filter((_, i) => i % 4 === 0)).toEqual([7, 8]);
  });

  test('a missing or unreadable mesh names the scene file line and the mesh', () => {
    const dir = tempDir('scene');
    const file = join(dir, 'room.scene');
    writeFileSync(file, 'instance @cornell\ninstance nowhere.obj\n');
    expect(() => loadInstancedSceneFile(file)).toThrow(`${file}:2: error: instance 'nowhere.obj': ${join(dir, 'nowhere.obj')}: error: cannot read the scene`);
    writeFileSync(file, 'instance @teapot\n');
    expect(() => loadInstancedSceneFile(file)).toThrow(`${file}:1: error: unknown built-in mesh '@teapot' (choose from @cornell, @bunny)`);
    writeFileSync(file, 'instance model.ply\n');
    expect(() => loadInstancedSceneFile(file)).toThrow(`${file}:1: error: 'model.ply': an instance places a Wavefront OBJ file (.obj)`);
    expect(() => loadInstancedSceneFile(join(dir, 'none.scene'))).toThrow(`${join(dir, 'none.scene')}: error: cannot read the scene: ENOENT`);
  });
});

describe('rtgpu render and --scene bunnies', () => {
  test('render takes a .scene file; --scene bunnies is the flattened instances with their materials', () => {
    expect(parseRenderArgs(['room.scene'])).toMatchObject({ sceneFile: 'room.scene' });
    const bunnies = BUILT_IN_SCENES.bunnies!;
    expect(triangleCount(bunnies.scene())).toBe(36 + 6 * 3674);
    expect(bunnies.materials!().length).toBe(6 + 6);
  });

  test('the bunnies’ primary rays (32x24) through the two-level BVH8 hit what the flattened scene’s BVH8 hits', () => {
    const { scene } = bunniesInBox();
    const flat = flattenInstances(scene);
    const inst = buildBvh8Instanced(scene);
    const flatImage = encodeBvh8Image(buildBvh8(flat)).words;
    let [hits, same] = [0, 0];
    for (const r of primaryRays(defaultCamera, 32, 24)) {
      const a = castRayBvh8(inst.words, r.origin, r.direction);
      const b = castRayBvh8(flatImage, r.origin, r.direction);
      expect(a.triangle >= 0).toBe(b.triangle >= 0);
      if (b.triangle < 0) continue;
      hits++;
      expect(a.hit[3]).toBe(b.hit[3]);
      expect(Math.abs(toNumber(a.t) - toNumber(b.t))).toBeLessThan(1e-4 * toNumber(b.t));
      if (flat.firstTriangle[a.instance!]! + a.triangle === b.triangle) same++;
    }
    expect(hits).toBeGreaterThan(500);
    expect(same).toBeGreaterThanOrEqual(hits - 3);
    // One bunny BLAS and the box's, six instance nodes and the box's; a fraction of the flattened image.
    expect(inst.instanceNodes).toBe(7);
    expect(inst.words.length).toBeLessThan(flatImage.length / 3);
    // The bench figure is exactly this ratio.
    expect(measureBvh8InstancedMemory().bvh8InstancedMemoryRatio).toBe(inst.words.length / flatImage.length);
  });
});
