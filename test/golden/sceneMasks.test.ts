// Geometry masks and one-sided triangles in scenes (docs/rays.md): the triangle memory's shader word, the BVH scene
// image, the BVH4 reorder, and `rt_mask` / `rt_one_sided` in MTL files.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBvh, buildBvh8, encodeBvh8Image, reorderScene } from '../../src/bvh/index.ts';
import { fromNumber } from '../../src/golden/float32.ts';
import { bvhSceneImage, parseBvhSceneImage } from '../../src/bvh/sceneImage.ts';
import { loadObjFile, parseMtl } from '../../src/scenes/materials.ts';
import { castRay, type Vec3 } from '../../src/golden/rayCaster.ts';
import { castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { imageToScene, sceneToImage, shaderWord, splitShaderWord, triangleMask, triangleOneSided, type Scene } from '../../src/golden/scene.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { bits3, randomScene } from '../bvh/helpers.ts';
import { sceneErrorOf } from './sceneErrorOf.ts';
import { tempDir } from '../tempDir.ts';

const seed = seedFromEnv();
console.log(`sceneMasks.test seed=${seed} (rerun with SEED=${seed})`);

/** A random scene with random masks and sides, shader ids up to 0xFFFF. */
function attributed(n: number): Scene {
  const rng = createRng(seed);
  const s = randomScene(rng, n);
  const triangles = s.triangles.slice();
  for (let t = 0; t < n; t++) triangles[4 * t + 3] = 1 + rng.int(0xffff);
  return { ...s, triangles, masks: Uint8Array.from({ length: n }, () => 1 + rng.int(255)), oneSided: Uint8Array.from({ length: n }, () => rng.int(2)) };
}

describe('the shader word', () => {
  test('bits [15:0] shader id, [23:16] the mask inverted, bit 24 one-sided', () => {
    expect(shaderWord(7, 0xff, false)).toBe(7);
    expect(shaderWord(7, 0x00, false)).toBe(0x00ff0007);
    expect(shaderWord(0xffff, 0x0f, true)).toBe(0x01f0ffff);
    expect(splitShaderWord(0x01f0ffff)).toEqual({ shader: 0xffff, mask: 0x0f, oneSided: true, reserved: 0 });
  });

  test('sceneToImage / imageToScene round trip masks and sides; a scene without them writes the words it always did', () => {
    const scene = attributed(50);
    const back = imageToScene(sceneToImage(scene));
    expect(back.triangles).toEqual(scene.triangles);
    expect(back.masks).toEqual(scene.masks);
    expect(back.oneSided).toEqual(scene.oneSided);
    const plain: Scene = { vertices: scene.vertices, triangles: scene.triangles };
    const image = sceneToImage(plain);
    for (let t = 0; t < 50; t++) expect(image[4 * t + 3]).toBe(scene.triangles[4 * t + 3]);
    // An old image reads back without the optional arrays (mask 0xFF, double-sided).
    expect(imageToScene(image)).toEqual(plain);
  });

  test('a shader id above 0xFFFF is refused where the image is written; bits [31:25] are refused where it is read', () => {
    const scene: Scene = { vertices: bits3([0, 0, 0]).concat(bits3([1, 0, 0]), bits3([0, 1, 0])) as unknown as Uint32Array, triangles: Uint32Array.of(0, 1, 2, 0x10000) };
    const s2: Scene = { vertices: Uint32Array.from(scene.vertices), triangles: scene.triangles };
    expect(sceneErrorOf(() => sceneToImage(s2))).toMatch(/triangle 0 has shader id 65536; .*up to 65535/);
    const image = sceneToImage({ ...s2, triangles: Uint32Array.of(0, 1, 2, 3) });
    image[3] = 0x02000003;
    expect(sceneErrorOf(() => imageToScene(image, 'x.bin'))).toMatch(/x\.bin: error: triangle 0's shader word 0x2000003 has bits \[31:25\] set/);
  });

  test('the BVH4 reorder and the BVH scene image keep each triangle\'s mask and side', () => {
    const scene = attributed(40);
    const bvh = buildBvh(scene);
    const ordered = reorderScene(scene, bvh);
    bvh.perm.forEach((from, i) => {
      expect(triangleMask(ordered, i)).toBe(triangleMask(scene, from));
      expect(triangleOneSided(ordered, i)).toBe(triangleOneSided(scene, from));
    });
    const parsed = parseBvhSceneImage(bvhSceneImage(scene).image);
    expect(parsed.ordered.masks).toEqual(ordered.masks);
    expect(parsed.ordered.oneSided).toEqual(ordered.oneSided);
    expect(parsed.ordered.triangles).toEqual(ordered.triangles);
  });
});

describe('MTL rt_mask and rt_one_sided', () => {
  test('parsed per material; applied to the material\'s triangles by loadObjFile; scenes without them unchanged', () => {
    const m = parseMtl(['newmtl a', 'rt_mask 5', 'newmtl b', 'rt_one_sided', 'newmtl c', 'Kd 0.5'].join('\n'), 'm.mtl');
    expect([m.get('a')!.mask, m.get('a')!.oneSided, m.get('b')!.mask, m.get('b')!.oneSided, m.get('c')!.mask]).toEqual([5, undefined, undefined, true, undefined]);
    const dir = tempDir('masks');
    writeFileSync(join(dir, 'm.mtl'), ['newmtl a', 'rt_mask 5', 'newmtl b', 'rt_one_sided', 'newmtl c', 'Kd 0.5'].join('\n'));
    const obj = ['mtllib m.mtl', 'v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'usemtl a', 'f 1 2 3', 'usemtl b', 'f 1 2 3', 'usemtl c', 'f 1 2 3', 'usemtl none', 'f 1 2 3'].join('\n');
    writeFileSync(join(dir, 's.obj'), obj);
    const { scene } = loadObjFile(join(dir, 's.obj'));
    expect(Array.from(scene.masks!)).toEqual([5, 0xff, 0xff, 0xff]);
    expect(Array.from(scene.oneSided!)).toEqual([0, 1, 0, 0]);
    // A ray with mask 0x02 passes triangle 0 (mask 5) by and answers triangle 1.
    const r = castRay(scene, bits3([0.2, 0.2, 1]), bits3([0, 0, -1]), undefined, { tmin: 0, tmax: 0x7f800000, flags: 0x0200 });
    expect(r.triangle).toBe(1);
    writeFileSync(join(dir, 'p.mtl'), 'newmtl c\nKd 0.5\n');
    writeFileSync(join(dir, 'p.obj'), obj.replace('m.mtl', 'p.mtl'));
    const plain = loadObjFile(join(dir, 'p.obj')).scene;
    expect([plain.masks, plain.oneSided]).toEqual([undefined, undefined]);
  });

  test('bad values are errors with file:line', () => {
    const err = (text: string) => sceneErrorOf(() => parseMtl(text, 'm.mtl'));
    expect(err('rt_mask 3')).toBe('m.mtl:1: error: rt_mask before any newmtl');
    expect(err('newmtl a\nrt_mask 256')).toBe("m.mtl:2: error: bad rt_mask '256' (an integer from 0 to 255)");
    expect(err('newmtl a\nrt_mask -1')).toBe("m.mtl:2: error: bad rt_mask '-1' (an integer from 0 to 255)");
    expect(err('newmtl a\nrt_mask 0x10')).toBe("m.mtl:2: error: bad rt_mask '0x10' (an integer from 0 to 255)");
    expect(err('newmtl a\n\nrt_mask')).toBe('m.mtl:3: error: rt_mask needs one mask (an integer from 0 to 255), got 0 values');
    expect(err('newmtl a\nrt_one_sided yes')).toBe('m.mtl:2: error: rt_one_sided takes no values, got 1');
    expect(err('rt_one_sided')).toBe('m.mtl:1: error: rt_one_sided before any newmtl');
  });
});

describe('a geometry or instance mask of 0: no ray meets it, plain trace included (docs/rays.md)', () => {
  test('an MTL, a scene image and back, the BVH8 builder and an instance take it; every caster passes it by', () => {
    expect(parseMtl('newmtl a\nrt_mask 0', 'm.mtl').get('a')!.mask).toBe(0);
    const tri: Scene = { vertices: Uint32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0].map(fromNumber)), triangles: Uint32Array.of(0, 1, 2, 1), masks: Uint8Array.of(0) };
    const image = sceneToImage(tri);
    expect(image[3]).toBe((1 | (0xff << 16)) >>> 0); // inverted mask 0xff = mask 0
    expect(imageToScene(image, 'x.hex').masks).toEqual(Uint8Array.of(0));
    const o: Vec3 = [fromNumber(0.25), fromNumber(0.25), fromNumber(1)];
    const d: Vec3 = [0, 0, fromNumber(-1)];
    expect(castRay({ ...tri, masks: undefined }, o, d).triangle).toBe(0);
    expect(castRay(tri, o, d).triangle).toBe(-1);
    expect(castRayBvh8(encodeBvh8Image(buildBvh8(tri)).words, o, d).triangle).toBe(-1);
    image[3] = (0x7 << 16) >>> 0; // mask bits but shader id 0
    expect(() => imageToScene(image, 'x.hex')).toThrow(/has shader id 0 in bits \[15:0\]/);
  });
});
