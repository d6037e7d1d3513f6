// Constant memory of the `textured` kernel: shade's, then per material its txd handle, then per triangle the rows mapping a point to (s, t).
import { SceneError, TEXCOORD_WORDS, triangleCount, type Scene } from '../golden/scene.ts';
import { toNumber } from '../golden/float32.ts';
import { CONSTANT_WORDS } from '../golden/iss/memory.ts';
import type { Material } from '../golden/materials.ts';

/**
 * Words after SHADE_LAYOUT's materials (M = the material count, SHADE_LAYOUT.materialCount), word offsets
 * from 0x20000000. src/host/kernels/textured.s computes these addresses from M.
 */
export const TEXTURED_LAYOUT = {
  /** shader id s at handles(M) + s − 1: the txd handle of its texture (RVa.z), 0 for none (header 0 is invalid anyway) */
  handles: (materialCount: number): number => 64 + 4 * materialCount,
  /** triangle i (the traversal's order) at rows(M) + 8 i: A x y z w, B x y z w (binary32) */
  rows: (materialCount: number): number => 64 + 5 * materialCount,
  rowWords: 8,
} as const;

type Dvec3 = [number, number, number];
const sub = (a: Dvec3, b: Dvec3): Dvec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Dvec3, b: Dvec3): Dvec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Dvec3, b: Dvec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/**
 * Triangle t's two rows (binary32 words): s = dot(A.xyz, p) + A.w, t = dot(B.xyz, p) + B.w give the
 * interpolated texture coordinates for every point p of its plane (the affine extension of the corner
 * values, constant along the normal). Computed in double from the binary32 corners and rounded once per
 * word. A triangle of zero area, one without texture coordinates, or a row that is not finite in
 * binary32 gives zero rows (s = t = 0).
 */
export function textureRows(scene: Scene, t: number): number[] {
  const zero = [0, 0, 0, 0, 0, 0, 0, 0];
  const uv = scene.texcoords;
  if (uv === undefined) return zero;
  const corner = (k: number): Dvec3 => {
    const v = scene.triangles[4 * t + k]!;
    return [0, 1, 2].map((i) => toNumber(scene.vertices[3 * v + i]!)) as Dvec3;
  };
  const [p0, p1, p2] = [corner(0), corner(1), corner(2)];
  const e1 = sub(p1, p0);
  const e2 = sub(p2, p0);
  const n = cross(e1, e2);
  const nn = dot(n, n);
  if (!(nn > 0) || !Number.isFinite(nn)) return zero;
  // The in-plane gradient g with dot(g, e1) = Δ1 and dot(g, e2) = Δ2: (Δ1 (e2 × n) + Δ2 (n × e1)) / |n|².
  const [a, b] = [cross(e2, n), cross(n, e1)];
  const row = (c: number): number[] => {
    const at = (k: number) => toNumber(uv[TEXCOORD_WORDS * t + 2 * k + c]!);
    const [d1, d2] = [at(1) - at(0), at(2) - at(0)];
    const g = [0, 1, 2].map((i) => (d1 * a[i]! + d2 * b[i]!) / nn) as Dvec3;
    return [...g, at(0) - dot(g, p0)];
  };
  const rows = [...row(0), ...row(1)];
  return rows.every((x) => Number.isFinite(Math.fround(x))) ? rows.map(bits) : zero;
}

/**
 * The words the textured kernel reads after `shade` (shadeConstants: camera, lights, materials): the
 * materials' handles (`handles[s − 1]`, 0 without a texture) and the rows of triangles 0 … k − 1 of
 * `scene` in the traversal's order, k = 1 + the last triangle whose material has a texture (untextured
 * ones among them get zero rows: the kernel never reads them). Throws a SceneError when they do not fit
 * constant memory.
 */
export function texturedConstants(shade: Uint32Array, scene: Scene, materials: readonly Material[], handles: readonly number[], file: string): Uint32Array {
  const m = materials.length;
  if (shade.length !== TEXTURED_LAYOUT.handles(m)) throw new Error(`texturedConstants: shade's constants end at word ${shade.length}, not ${TEXTURED_LAYOUT.handles(m)} (${m} materials)`);
  let rows = 0;
  for (let t = 0; t < triangleCount(scene); t++) if (handles[scene.triangles[4 * t + 3]! - 1]) rows = t + 1;
  const total = TEXTURED_LAYOUT.rows(m) + TEXTURED_LAYOUT.rowWords * rows;
  if (total > CONSTANT_WORDS)
    throw new SceneError(file, undefined, `the textured kernel needs ${total} words of constant memory (${TEXTURED_LAYOUT.rows(m)} for the camera, lights, ${m} materials and their textures, ${TEXTURED_LAYOUT.rowWords} per triangle up to the last textured one, triangle ${rows - 1}); it holds ${CONSTANT_WORDS} (the shade kernel draws the scene with flat colours)`);
  const words = new Uint32Array(total);
  words.set(shade, 0);
  words.set(handles, TEXTURED_LAYOUT.handles(m));
  for (let t = 0; t < rows; t++) if (handles[scene.triangles[4 * t + 3]! - 1]) words.set(textureRows(scene, t), TEXTURED_LAYOUT.rows(m) + TEXTURED_LAYOUT.rowWords * t);
  return words;
}
