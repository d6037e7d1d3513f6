// The built-in textured scene: the Cornell box with a procedural checkerboard texture on its floor.
import { fromNumber } from '../golden/float32.ts';
import { DEFAULT_SHADERS, defaultMaterials, defaultScene } from './defaultScene.ts';
import type { Material } from './materials.ts';
import { TEXCOORD_WORDS, type Scene } from '../golden/scene.ts';
import type { TextureImage } from '../golden/texture/index.ts';

/** Shader ids of the textured scene: the Cornell box's, plus the checkerboard floor. */
export const TEXTURED_SHADERS = { ...DEFAULT_SHADERS, floor: 7 } as const;

/** The floor texture: CHECKER.size² texels of CHECKER.squares² squares; the floor repeats it CHECKER.repeats times along each axis. */
export const CHECKER = { size: 64, squares: 8, repeats: 4, light: [235, 232, 224], dark: [40, 44, 60] } as const;

/** An RGBA8 word (opaque) from r, g, b bytes. */
const rgba8 = ([r, g, b]: readonly number[]): number => (r! | (g! << 8) | (b! << 16) | (0xff << 24)) >>> 0;

/**
 * A size×size RGBA8 checkerboard of squares×squares squares (size a multiple of squares): texel (x, y) is
 * `light` when floor(x / n) + floor(y / n) is even (n = size / squares), else `dark`; both opaque.
 */
export function checkerTexture(size: number = CHECKER.size, squares: number = CHECKER.squares, light: readonly number[] = CHECKER.light, dark: readonly number[] = CHECKER.dark): TextureImage {
  if (!Number.isInteger(size) || !Number.isInteger(squares) || squares < 1 || size < squares || size % squares !== 0) {
    throw new RangeError(`checkerTexture: size must be a positive multiple of squares, got size ${size}, squares ${squares}`);
  }
  const n = size / squares;
  const [on, off] = [rgba8(light), rgba8(dark)];
  const texels = new Uint32Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) texels[y * size + x] = (Math.floor(x / n) + Math.floor(y / n)) % 2 === 0 ? on : off;
  return { width: size, height: size, format: 'rgba8', texels };
}

/**
 * The Cornell box (defaultScene) whose floor (its first two triangles) has shader TEXTURED_SHADERS.floor
 * and texture coordinates from (0, 0) at the front left corner (−1, 0, 1) to (R, R) at the back right
 * (1, 0, −1), R = CHECKER.repeats: the checker repeats R times along x and z. Every other triangle has
 * zero texture coordinates and the Cornell box's shader.
 */
export function texturedScene(): Scene {
  const box = defaultScene();
  const triangles = box.triangles.slice();
  const texcoords = new Uint32Array((triangles.length / 4) * TEXCOORD_WORDS);
  const [o, r] = [fromNumber(0), fromNumber(CHECKER.repeats)];
  // The floor quad a-b-c-d = (−1,0,1) (1,0,1) (1,0,−1) (−1,0,−1), split as a-b-c and a-c-d.
  const a = [o, o];
  const b = [r, o];
  const c = [r, r];
  const d = [o, r];
  texcoords.set([...a, ...b, ...c], 0);
  texcoords.set([...a, ...c, ...d], TEXCOORD_WORDS);
  triangles[3] = TEXTURED_SHADERS.floor;
  triangles[7] = TEXTURED_SHADERS.floor;
  return { ...box, triangles, texcoords };
}

/**
 * Materials of the textured scene, index = shader id − 1: the Cornell box's, then the floor, whose `kd`
 * is the Cornell white (so a kernel that does not sample textures draws the floor as before) and whose
 * texture is `checker` (default checkerTexture(); named `<checker>`: it is generated, not read from a file).
 */
export function texturedMaterials(checker: TextureImage = checkerTexture()): Material[] {
  const white = defaultMaterials()[DEFAULT_SHADERS.white - 1]!;
  return [...defaultMaterials(), { name: 'checker floor', kd: white.kd, texture: { file: '<checker>', image: checker } }];
}
