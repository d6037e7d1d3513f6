// The instanced scene file (`.scene`): `instance MESH [translate|rotate|scale|matrix …] [color R G B] [mask M]` lines placing OBJ files or built-in meshes, parsed and loaded with their materials (docs/bvh.md "Instances").
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { DEFAULT_SHADERS, defaultMaterials, defaultScene } from './defaultScene.ts';
import { affineFrom, invertAffine, InstanceError, type Affine, type Instance, type InstancedScene } from './instancedScene.ts';
import { loadObjFile, type Material, type Rgb } from './materials.ts';
import { SceneError, type Scene } from '../golden/scene.ts';
import { bunnyMesh } from './sceneLibrary.ts';

/** Built-in meshes a scene file can place by name. */
export const BUILT_IN_MESHES: Readonly<Record<string, () => { scene: Scene; materials: Material[] }>> = {
  /** The Cornell box of `--scene cornell`, with its materials. */
  '@cornell': () => ({ scene: defaultScene(), materials: defaultMaterials() }),
  /** The Stanford bunny, 1 unit tall, its footprint centred on the origin, feet at y = 0, one clay-coloured material. */
  '@bunny': () => ({ scene: bunnyMesh({ x: 0, z: 0, height: 1 }, 1), materials: [defaultMaterials()[DEFAULT_SHADERS.box - 1]!] }),
};

/** One `instance` line: the mesh as written, its placement, and its own colour if given. */
export interface SceneFileInstance {
  readonly line: number;
  readonly mesh: string;
  readonly objectToWorld: Affine;
  readonly color?: Rgb;
  /** The instance mask (0–255, docs/rays.md); absent: 0xFF. */
  readonly mask?: number;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Words each keyword takes (scale: 1 or 3). */
const KEYWORD_WORDS: Readonly<Record<string, number>> = { translate: 3, rotate: 3, scale: 3, matrix: 12, color: 3, mask: 1 };

const usage = "a scene file has lines 'instance MESH [translate X Y Z] [rotate X Y Z] [scale S | scale X Y Z] [matrix M00 … M23] [color R G B] [mask M]' and # comments";

/** Parse a scene file's text: every instance line, each error as `file:line: error: …`. */
export function parseInstancedSceneFile(text: string, file: string): SceneFileInstance[] {
  const out: SceneFileInstance[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const words = raw.replace(/#.*/, '').trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0) return;
    const fail = (msg: string): never => {
      throw new SceneError(file, line, msg);
    };
    if (words[0] !== 'instance') fail(`unknown keyword '${words[0]}' (${usage})`);
    if (words.length < 2) fail("'instance' needs a mesh: an OBJ file (relative to the scene file) or @cornell, @bunny");
    const mesh = words[1]!;
    const parts: Record<string, number[]> = {};
    for (let k = 2; k < words.length; ) {
      const key = words[k]!;
      if (!Object.hasOwn(KEYWORD_WORDS, key)) fail(`unknown word '${key}' after the mesh (${usage})`);
      if (parts[key] !== undefined) fail(`'${key}' given twice`);
      const nums: number[] = [];
      for (k++; k < words.length && DECIMAL.test(words[k]!); k++) nums.push(Number(words[k]));
      const want = key === 'scale' && nums.length === 1 ? 1 : KEYWORD_WORDS[key]!;
      if (nums.length !== want) fail(`'${key}' takes ${key === 'scale' ? '1 or 3 numbers' : want === 1 ? 'a number' : `${want} numbers`}, got ${nums.length}${k < words.length && !Object.hasOwn(KEYWORD_WORDS, words[k]!) ? ` ('${words[k]}' is not a number)` : ''}`);
      if (nums.some((x) => !Number.isFinite(Math.fround(x)))) fail(`'${key}': a number is out of binary32 range`);
      parts[key] = nums;
    }
    if (parts.matrix && (parts.translate || parts.rotate || parts.scale)) fail("give 'matrix' or translate/rotate/scale, not both");
    const three = (v: number[] | undefined) => (v === undefined ? undefined : (v as unknown as [number, number, number]));
    const scale = parts.scale?.length === 1 ? ([parts.scale[0]!, parts.scale[0]!, parts.scale[0]!] as const) : three(parts.scale);
    const objectToWorld = parts.matrix ?? affineFrom({ scale, rotateDegrees: three(parts.rotate), translate: three(parts.translate) });
    try {
      invertAffine(objectToWorld);
    } catch (e) {
      if (e instanceof InstanceError) fail(`the placement cannot be inverted: ${e.message}`);
      throw e;
    }
    const color = three(parts.color);
    if (color && color.some((c) => c < 0 || c > 1)) fail(`'color' channels are 0 to 1, got ${color.join(' ')}`);
    const mask = parts.mask?.[0];
    if (mask !== undefined && !(Number.isInteger(mask) && mask >= 0 && mask <= 0xff)) fail(`'mask' is an integer from 0 to 255 (the instance mask, docs/rays.md), got ${mask}`);
    out.push({ line, mesh, objectToWorld, ...(color ? { color } : {}), ...(mask !== undefined ? { mask } : {}) });
  });
  if (out.length === 0) throw new SceneError(file, undefined, `no instances (${usage})`);
  return out;
}

/**
 * Load a scene file: each distinct mesh once (an OBJ file relative to the scene file's directory, with its mtllib
 * materials; or a built-in mesh), the meshes' materials in one table (mesh k's shader ids moved past the earlier
 * meshes'), and each `color` as a material of its own that the instance uses for all its triangles.
 */
export function loadInstancedSceneFile(path: string): { scene: InstancedScene; materials: Material[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new SceneError(path, undefined, `cannot read the scene: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const lines = parseInstancedSceneFile(text, path);
  const meshes: Scene[] = [];
  const materials: Material[] = [];
  const meshIndex = new Map<string, number>();
  const instances: Instance[] = lines.map((l) => {
    let mesh = meshIndex.get(l.mesh);
    if (mesh === undefined) {
      const loaded = loadMesh(l, path);
      const offset = materials.length;
      materials.push(...loaded.materials);
      meshes.push({ ...loaded.scene, triangles: Uint32Array.from(loaded.scene.triangles, (w, i) => (i % 4 === 3 ? w + offset : w)) });
      mesh = meshes.length - 1;
      meshIndex.set(l.mesh, mesh);
    }
    const placed = { mesh, objectToWorld: l.objectToWorld, ...(l.mask !== undefined ? { mask: l.mask } : {}) };
    if (l.color === undefined) return placed;
    materials.push({ name: `instance at line ${l.line}`, kd: l.color });
    return { ...placed, shaderId: materials.length };
  });
  return { scene: { meshes, instances }, materials };
}

function loadMesh(l: SceneFileInstance, sceneFile: string): { scene: Scene; materials: Material[] } {
  if (l.mesh.startsWith('@')) {
    const builtIn = BUILT_IN_MESHES[l.mesh];
    if (builtIn === undefined) throw new SceneError(sceneFile, l.line, `unknown built-in mesh '${l.mesh}' (choose from ${Object.keys(BUILT_IN_MESHES).join(', ')})`);
    return builtIn();
  }
  if (!/\.obj$/i.test(l.mesh)) throw new SceneError(sceneFile, l.line, `'${l.mesh}': an instance places a Wavefront OBJ file (.obj) or a built-in mesh (@cornell, @bunny)`);
  const objPath = isAbsolute(l.mesh) ? l.mesh : join(dirname(sceneFile), l.mesh);
  try {
    return loadObjFile(objPath);
  } catch (e) {
    if (e instanceof SceneError) throw new SceneError(sceneFile, l.line, `instance '${l.mesh}': ${e.message}`);
    throw e;
  }
}
