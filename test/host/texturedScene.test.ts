// The built-in textured scene: the checker texture, the floor's shader and texture coordinates, its registration for `--scene textured`, and its flat render.
import { describe, expect, test } from 'vitest';
import { checkerTexture, CHECKER, texturedMaterials, texturedScene, TEXTURED_SHADERS } from '../../src/scenes/texturedScene.ts';
import { defaultMaterials, defaultScene, DEFAULT_SHADERS } from '../../src/scenes/defaultScene.ts';
import { TEXCOORD_WORDS, triangleCount } from '../../src/golden/scene.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { Machine } from '../../src/iss/index.ts';
import { buildFrame, pixelsToImage, type FrameSpec } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { BUILT_IN_SCENES } from '../../src/cli/commands/renderArgs.ts';

const word = ([r, g, b]: readonly number[]): number => (r! | (g! << 8) | (b! << 16) | (255 << 24)) >>> 0;

describe('checkerTexture', () => {
  test('squares of size / squares texels, light at (0, 0), alternating along both axes', () => {
    const t = checkerTexture();
    expect([t.width, t.height, t.format, t.texels.length]).toEqual([64, 64, 'rgba8', 4096]);
    const at = (x: number, y: number) => t.texels[y * 64 + x];
    const [L, D] = [word(CHECKER.light), word(CHECKER.dark)];
    expect([at(0, 0), at(7, 7), at(8, 0), at(0, 8), at(8, 8), at(63, 0), at(63, 63), at(15, 16), at(16, 16)]).toEqual([L, L, D, D, L, D, L, D, L]);
    expect(t.texels.filter((w) => w === L).length).toBe(2048);
  });

  test('other sizes, and a clear error when size is not a multiple of squares', () => {
    expect(Array.from(checkerTexture(2, 2, [1, 2, 3], [4, 5, 6]).texels)).toEqual([word([1, 2, 3]), word([4, 5, 6]), word([4, 5, 6]), word([1, 2, 3])]);
    expect(() => checkerTexture(10, 4)).toThrow('checkerTexture: size must be a positive multiple of squares, got size 10, squares 4');
  });
});

describe('texturedScene', () => {
  const scene = texturedScene();
  const box = defaultScene();

  test('the Cornell box geometry; only the floor changes shader', () => {
    expect(Array.from(scene.vertices)).toEqual(Array.from(box.vertices));
    expect(triangleCount(scene)).toBe(36);
    const shaders = (s: typeof scene) => Array.from(s.triangles.filter((_, i) => i % 4 === 3));
    expect(shaders(scene).slice(0, 2)).toEqual([TEXTURED_SHADERS.floor, TEXTURED_SHADERS.floor]);
    expect(shaders(scene).slice(2)).toEqual(shaders(box).slice(2));
    expect(shaders(box).slice(0, 2)).toEqual([DEFAULT_SHADERS.white, DEFAULT_SHADERS.white]);
  });

  test('floor texture coordinates span 0 … repeats in x and z; other triangles zeros', () => {
    const uv = scene.texcoords!;
    expect(uv.length).toBe(36 * TEXCOORD_WORDS);
    // Each floor corner's (u, v) = ((x + 1) / 2, (1 − z) / 2) · repeats.
    for (let t = 0; t < 2; t++)
      for (let k = 0; k < 3; k++) {
        const v = scene.triangles[4 * t + k]!;
        const [x, z] = [toNumber(scene.vertices[3 * v]!), toNumber(scene.vertices[3 * v + 2]!)];
        expect([uv[TEXCOORD_WORDS * t + 2 * k], uv[TEXCOORD_WORDS * t + 2 * k + 1]]).toEqual([fromNumber(((x + 1) / 2) * CHECKER.repeats), fromNumber(((1 - z) / 2) * CHECKER.repeats)]);
      }
    expect(uv.subarray(2 * TEXCOORD_WORDS).every((w) => w === 0)).toBe(true);
    expect(CHECKER.repeats).toBeGreaterThan(1);
  });

  test('materials: the Cornell box\'s, then the floor with the Cornell white and the checker texture', () => {
    const m = texturedMaterials();
    expect(m.length).toBe(TEXTURED_SHADERS.floor);
    expect(m.slice(0, 6)).toEqual(defaultMaterials());
    expect(m[6]!.kd).toEqual(defaultMaterials()[DEFAULT_SHADERS.white - 1]!.kd);
    expect(Array.from(m[6]!.texture!.image.texels)).toEqual(Array.from(checkerTexture().texels));
  });

  test('registered as `--scene textured` with its own materials', () => {
    const builtIn = BUILT_IN_SCENES.textured!;
    expect(Array.from(builtIn.scene().texcoords!)).toEqual(Array.from(scene.texcoords!));
    expect(builtIn.materials!().length).toBe(7);
    expect(BUILT_IN_SCENES.cornell!.materials).toBeUndefined();
  });

  test('until a kernel samples textures, the shade kernel draws it exactly as the Cornell box (ISA simulator, 16×12)', () => {
    const render = (s: FrameSpec) => {
      const job = buildFrame(s);
      const r = new Machine({ program: job.program, constants: job.constants, scene: s.scene }).run(job.pixels);
      expect(r.faults).toEqual([]);
      return pixelsToImage(s, r.pixels);
    };
    const base = { kernel: 'shade', camera: defaultCamera, width: 16, height: 12 } as const;
    const flat = render({ ...base, scene, materials: texturedMaterials() });
    expect(Array.from(flat)).toEqual(Array.from(render({ ...base, scene: box })));
    // The id kernel shows the floor's own shader id, so the floor is in view.
    const ids = buildFrame({ ...base, kernel: 'id', scene, materials: texturedMaterials() });
    const r = new Machine({ program: ids.program, constants: ids.constants, scene }).run(ids.pixels);
    expect(r.pixels.some((p) => p.ret[3] === TEXTURED_SHADERS.floor)).toBe(true);
  });
});
