// The built-in instanced scene `--scene bunnies`: the Cornell box and six bunnies placed from one shared mesh, each in its own colour.
import { defaultMaterials, defaultScene } from './defaultScene.ts';
import { IDENTITY, affineFrom, type Placement, type InstancedScene } from './instancedScene.ts';
import type { Material, Rgb } from './materials.ts';
import { bunnyMesh } from './sceneLibrary.ts';

/** Each bunny: where it stands (on the floor, the tall box, the short box) and its colour. */
const BUNNIES: readonly (Placement & { readonly name: string; readonly kd: Rgb })[] = [
  { name: 'clay bunny', kd: [0.8, 0.76, 0.62], scale: [0.35, 0.35, 0.35], rotateDegrees: [0, 30, 0], translate: [-0.44, 1.25, -0.19] },
  { name: 'blue bunny', kd: [0.2, 0.35, 0.8], scale: [0.3, 0.3, 0.3], rotateDegrees: [0, -60, 0], translate: [0.5, 0.5, -0.5] },
  { name: 'pink bunny', kd: [0.85, 0.45, 0.55], scale: [0.3, 0.3, 0.3], translate: [-0.62, 0, 0.55] },
  { name: 'gold bunny', kd: [0.85, 0.65, 0.2], scale: [0.25, 0.25, 0.25], rotateDegrees: [0, 90, 0], translate: [-0.12, 0, 0.62] },
  { name: 'white bunny', kd: [0.9, 0.9, 0.88], scale: [0.28, 0.28, 0.28], rotateDegrees: [0, 180, 0], translate: [0.05, 0, 0.25] },
  { name: 'teal bunny', kd: [0.15, 0.6, 0.55], scale: [0.4, 0.4, 0.4], rotateDegrees: [0, 200, 0], translate: [-0.05, 0, -0.62] },
];

/** The Cornell box (mesh 0, its own materials) and six instances of one bunny mesh (mesh 1), each with a material of its own. */
export function bunniesInBox(): { scene: InstancedScene; materials: Material[] } {
  const materials = defaultMaterials();
  const bunny = bunnyMesh({ x: 0, z: 0, height: 1 }, 1);
  const instances = BUNNIES.map((b, i) => ({ mesh: 1, objectToWorld: affineFrom(b), shaderId: materials.length + 1 + i }));
  return { scene: { meshes: [defaultScene(), bunny], instances: [{ mesh: 0, objectToWorld: IDENTITY }, ...instances] }, materials: [...materials, ...BUNNIES.map((b) => ({ name: b.name, kd: b.kd }))] };
}
