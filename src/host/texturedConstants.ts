// Constant memory of the `textured` kernel: shade's, then per material its txd handle, then per triangle its texture coordinates in barycentric form and their gradients.
import { SceneError, TEXCOORD_WORDS, triangleCount, type Scene } from '../golden/scene.ts';
import { toNumber } from '../golden/float32.ts';
import { CONSTANT_WORDS } from '../iss/memory.ts';
import type { Material } from '../scenes/materials.ts';

/**
 * Words after SHADE_LAYOUT's materials (M = the material count, SHADE_LAYOUT.materialCount), word offsets
 * from 0x20000000. src/host/kernels/textured.s computes these addresses from M.
 */
export const TEXTURED_LAYOUT = {
  /** shader id s at handles(M) + s − 1: the txd handle of its texture (RVa.z), 0 for none (header 0 is invalid anyway) */
  handles: (materialCount: number): number => 64 + 4 * materialCount,
  /** triangle i (the traversal's order) at rows(M) + 12 i: textureRows' words (binary32) */
  rows: (materialCount: number): number => 64 + 5 * materialCount,
  rowWords: 12,
} as const;

type Dvec3 = [number, number, number];
const sub = (a: Dvec3, b: Dvec3): Dvec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Dvec3, b: Dvec3): Dvec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Dvec3, b: Dvec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/**
 * Triangle t's twelve words (binary32), what the kernel needs for its texel:
 *
 *   A = (∂s/∂p x y z, s0) | B = (∂t/∂p x y z, t0) | s1 − s0, s2 − s0, t1 − t0, t2 − t0
 *
 * The kernel interpolates s = s0 + u·(s1 − s0) + v·(s2 − s0) (t likewise) from the hit's barycentrics
 * (u, v: the weights of corners 1 and 2, RV13 of `trace RVa`), and takes the derivatives ds/dx =
 * dot(A.xyz, dp/dx) from the gradients in the triangle's plane. The corners are scene.texcoords' binary32
 * words; the differences and gradients are computed in double from the binary32 corners and rounded once
 * per word. A triangle of zero area (never hit) or a gradient that is not finite in binary32 gets zero
 * gradients (derivatives 0: level 0); a scene without texture coordinates, or a corner or difference that
 * is not finite in binary32, gives all zeros (s = t = 0).
 */
export function textureRows(scene: Scene, t: number): number[] {
  const zero = new Array<number>(TEXTURED_LAYOUT.rowWords).fill(0);
  const uv = scene.texcoords;
  if (uv === undefined) return zero;
  const at = (k: number, c: number) => toNumber(uv[TEXCOORD_WORDS * t + 2 * k + c]!);
  const corners = [0, 1].map((c) => [at(0, c), at(1, c) - at(0, c), at(2, c) - at(0, c)]);
  if (!corners.flat().every((x) => Number.isFinite(Math.fround(x)))) return zero;
  const corner = (k: number): Dvec3 => {
    const v = scene.triangles[4 * t + k]!;
    return [0, 1, 2].map((i) => toNumber(scene.vertices[3 * v + i]!)) as Dvec3;
  };
  const [p0, p1, p2] = [corner(0), corner(1), corner(2)];
  const e1 = sub(p1, p0);
  const e2 = sub(p2, p0);
  const n = cross(e1, e2);
  const nn = dot(n, n);
  // The in-plane gradient g with dot(g, e1) = Δ1 and dot(g, e2) = Δ2: (Δ1 (e2 × n) + Δ2 (n × e1)) / |n|².
  const [a, b] = [cross(e2, n), cross(n, e1)];
  const gradients = corners.map(([, d1, d2]) => [0, 1, 2].map((i) => (d1! * a[i]! + d2! * b[i]!) / nn));
  const flat = nn > 0 && Number.isFinite(nn) && gradients.flat().every((x) => Number.isFinite(Math.fround(x)));
  const [gs, gt] = flat ? gradients : [[0, 0, 0], [0, 0, 0]];
  const [s, tc] = corners as [number[], number[]];
  return [...gs!, s[0]!, ...gt!, tc[0]!, s[1]!, s[2]!, tc[1]!, tc[2]!].map(bits);
}

/**
 * The words the textured kernel reads after `shade` (shadeConstants: camera, lights, materials): the
 * materials' handles (`handles[s − 1]`, 0 without a texture) and the `textureRows` of triangles 0 … k − 1 of
 * `scene` in the traversal's order, k = 1 + the last triangle whose material has a texture (untextured
 * ones among them get zeros: the kernel never reads them). Throws a SceneError when they do not fit
 * constant memory.
 */
export function texturedConstants(shade: Uint32Array, scene: Scene, materials: readonly Material[], handles: readonly number[], file: string): Uint32Array {
  const m = materials.length;
  if (shade.length !== TEXTURED_LAYOUT.handles(m)) throw new Error(`texturedConstants: shade's constants end at word ${shade.length}, not ${TEXTURED_LAYOUT.handles(m)} (${m} materials)`);
  let rows = 0;
  for (let t = 0; t < triangleCount(scene); t++) if (handles[scene.triangles[4 * t + 3]! - 1]) rows = t + 1;
  const total = TEXTURED_LAYOUT.rows(m) + TEXTURED_LAYOUT.rowWords * rows;
  if (total > CONSTANT_WORDS)
    throw new SceneError(file, undefined, `the textured kernel needs ${total} words of constant memory (${TEXTURED_LAYOUT.rows(m)} for the camera, lights, ${m} materials and their textures, ${TEXTURED_LAYOUT.rowWords} per triangle (texture coordinates and their gradients) up to the last textured one, triangle ${rows - 1}); it holds ${CONSTANT_WORDS} (the shade kernel draws the scene with flat colours)`);
  const words = new Uint32Array(total);
  words.set(shade, 0);
  words.set(handles, TEXTURED_LAYOUT.handles(m));
  for (let t = 0; t < rows; t++) if (handles[scene.triangles[4 * t + 3]! - 1]) words.set(textureRows(scene, t), TEXTURED_LAYOUT.rows(m) + TEXTURED_LAYOUT.rowWords * t);
  return words;
}
