// Scenes of instances: meshes placed by 3×4 object-to-world matrices, the binary32 world-to-object matrices of their instance nodes, and the flattened one-level scene.
import { fromNumber, toNumber } from '../golden/float32.ts';
import type { Mat3x4 } from '../golden/rayTransform.ts';
import { triangleCount, type Scene } from '../golden/scene.ts';
import { mergeScenes } from './sceneLibrary.ts';

/** A 3×4 affine matrix in double precision, row major (column 3 the translation). */
export type Affine = readonly number[];

export const IDENTITY: Affine = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** One placement of a mesh. */
export interface Instance {
  /** Index into `InstancedScene.meshes`. */
  readonly mesh: number;
  /** Object space to world space. */
  readonly objectToWorld: Affine;
  /** Shader id of all its triangles; 0 or absent: each triangle's own. */
  readonly shaderId?: number;
  /** The instance mask (0–255, docs/rays.md; 0: no ray enters it): a ray whose mask shares no bit with it does not enter it; absent: 0xFF. */
  readonly mask?: number;
}

export interface InstancedScene {
  readonly meshes: readonly Scene[];
  /** Instance i has instance id i (the user_data of its instance node). */
  readonly instances: readonly Instance[];
}

/** A matrix that has no inverse, or is not finite. */
export class InstanceError extends Error {
  override name = 'InstanceError';
}

/** a·b of two affine maps (apply b, then a). */
export function composeAffine(a: Affine, b: Affine): Affine {
  const out: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 4; c++) out.push(a[4 * r]! * b[c]! + a[4 * r + 1]! * b[4 + c]! + a[4 * r + 2]! * b[8 + c]! + (c === 3 ? a[4 * r + 3]! : 0));
  return out;
}

/** The inverse affine map, in double precision; refuses a singular or non-finite matrix. */
export function invertAffine(m: Affine): Affine {
  if (m.length !== 12 || !m.every(Number.isFinite)) throw new InstanceError(`a 3×4 matrix needs 12 finite numbers, got ${m.join(' ')}`);
  const [a, b, c, , d, e, f, , g, h, i] = m as number[];
  const det = a! * (e! * i! - f! * h!) - b! * (d! * i! - f! * g!) + c! * (d! * h! - e! * g!);
  const scale = Math.max(...[a, b, c, d, e, f, g, h, i].map((x) => Math.abs(x!)));
  if (!(Math.abs(det) > 1e-12 * scale ** 3)) throw new InstanceError(`the matrix has no inverse (its 3×3 part has determinant ${det})`);
  const inv3 = [e! * i! - f! * h!, c! * h! - b! * i!, b! * f! - c! * e!, f! * g! - d! * i!, a! * i! - c! * g!, c! * d! - a! * f!, d! * h! - e! * g!, b! * g! - a! * h!, a! * e! - b! * d!].map((x) => x / det);
  const t = [m[3]!, m[7]!, m[11]!];
  const out: number[] = [];
  for (let r = 0; r < 3; r++) out.push(inv3[3 * r]!, inv3[3 * r + 1]!, inv3[3 * r + 2]!, -(inv3[3 * r]! * t[0]! + inv3[3 * r + 1]! * t[1]! + inv3[3 * r + 2]! * t[2]!));
  return out;
}

/** The instance node's world_to_object: the inverse of objectToWorld, each entry rounded to binary32; refuses one that overflows. */
export function worldToObjectBits(objectToWorld: Affine): Mat3x4 {
  const inv = invertAffine(objectToWorld);
  const bits = inv.map(fromNumber);
  if (bits.some((b) => (b & 0x7f800000) === 0x7f800000)) throw new InstanceError(`the inverse matrix is out of binary32 range (${inv.join(' ')})`);
  return bits;
}

/** A point (binary32 bits) through an affine map in double precision, rounded to binary32 once per coordinate. */
export const transformPoint = (m: Affine, p: readonly number[]): number[] =>
  [0, 1, 2].map((r) => fromNumber(m[4 * r]! * toNumber(p[0]!) + m[4 * r + 1]! * toNumber(p[1]!) + m[4 * r + 2]! * toNumber(p[2]!) + m[4 * r + 3]!));

/** One instance's triangles in world space (vertices transformed on the host), with its shader id if it has one. */
export function placeInstance(mesh: Scene, inst: Instance): Scene {
  const vertices = new Uint32Array(mesh.vertices.length);
  for (let v = 0; v < mesh.vertices.length; v += 3) vertices.set(transformPoint(inst.objectToWorld, [...mesh.vertices.subarray(v, v + 3)]), v);
  const triangles = Uint32Array.from(mesh.triangles, (w, i) => (i % 4 === 3 && inst.shaderId ? inst.shaderId : w));
  return mesh.texcoords ? { vertices, triangles, texcoords: mesh.texcoords } : { vertices, triangles };
}

/**
 * The one-level scene: every instance's triangles transformed into world space, instance by instance in order. Triangle
 * k of instance i is triangle firstTriangle[i] + k; the GPU paths that do not read instance nodes render this.
 */
export function flattenInstances(scene: InstancedScene): Scene & { readonly firstTriangle: readonly number[] } {
  checkInstances(scene);
  const firstTriangle: number[] = [];
  let n = 0;
  for (const inst of scene.instances) {
    firstTriangle.push(n);
    n += triangleCount(scene.meshes[inst.mesh]!);
  }
  return { ...mergeScenes(...scene.instances.map((inst) => placeInstance(scene.meshes[inst.mesh]!, inst))), firstTriangle };
}

/** Every instance names a mesh that exists. */
export function checkInstances(scene: InstancedScene): void {
  scene.instances.forEach((inst, i) => {
    if (!Number.isInteger(inst.mesh) || inst.mesh < 0 || inst.mesh >= scene.meshes.length) throw new InstanceError(`instance ${i} names mesh ${inst.mesh}, but the scene has ${scene.meshes.length} meshes`);
    if (inst.mask !== undefined && !(Number.isInteger(inst.mask) && inst.mask >= 0 && inst.mask <= 0xff)) throw new InstanceError(`instance ${i} has mask ${inst.mask}; a mask is an integer 0–255`);
  });
}

/** A placement in parts: scale first, then rotations about x, y, z (degrees, in that order), then the translation. */
export interface Placement {
  readonly scale?: readonly [number, number, number];
  readonly rotateDegrees?: readonly [number, number, number];
  readonly translate?: readonly [number, number, number];
}

/** T · Rz · Ry · Rx · S as a 3×4 matrix (exact for the axis angles 0, 90, 180, 270). */
export function affineFrom(p: Placement): Affine {
  const [sx, sy, sz] = p.scale ?? [1, 1, 1];
  // cos/sin exactly 0, ±1 on quarter turns, so axis-aligned placements stay exact.
  const cs = (p.rotateDegrees ?? [0, 0, 0]).map((deg): [number, number] => {
    const q = ((deg % 360) + 360) % 360;
    if (q === 0) return [1, 0];
    if (q === 90) return [0, 1];
    if (q === 180) return [-1, 0];
    if (q === 270) return [0, -1];
    return [Math.cos((q * Math.PI) / 180), Math.sin((q * Math.PI) / 180)];
  });
  const [[cx, sxn], [cy, syn], [cz, szn]] = cs as [[number, number], [number, number], [number, number]];
  const rx: Affine = [1, 0, 0, 0, 0, cx, -sxn, 0, 0, sxn, cx, 0];
  const ry: Affine = [cy, 0, syn, 0, 0, 1, 0, 0, -syn, 0, cy, 0];
  const rz: Affine = [cz, -szn, 0, 0, szn, cz, 0, 0, 0, 0, 1, 0];
  const [tx, ty, tz] = p.translate ?? [0, 0, 0];
  const t: Affine = [1, 0, 0, tx, 0, 1, 0, ty, 0, 0, 1, tz];
  return composeAffine(t, composeAffine(rz, composeAffine(ry, composeAffine(rx, [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0]))));
}
