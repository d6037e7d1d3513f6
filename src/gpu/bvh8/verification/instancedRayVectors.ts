// Instanced test scenes for the BVH8 core: a small directed one and seeded random ones (meshes placed 2 to 4 times by
// scales, rotations and translations, sometimes twice in one place), their two-level BVH8 scene images, world rays
// toward their triangles, and instance nodes broken the ways castRayBvh8 faults on.
import type { Rng } from '../../../util/seededRandom.ts';
import { affineFrom, flattenInstances, type InstancedScene, type Placement } from '../../../scenes/instancedScene.ts';
import { icosphere } from '../../../scenes/sceneLibrary.ts';
import { triangleCount, type Scene } from '../../../golden/scene.ts';
import { BvhBuildError, GFX12_NODE_WORDS, bvh8InstancedSceneImage, decodeBvh8InstancedImage } from '../../../bvh/index.ts';
import { withRandomMasks, type Ray } from '../../icCore/verification/rayVectors.ts';
import { mixedRay, randomBvhScene } from '../../bvh/verification/bvhRayVectors.ts';

export interface InstancedTestScene {
  readonly scene: InstancedScene;
  /** The BVH8 scene image (header, TLAS, instance nodes, BLASes): bvh8InstancedSceneImage. */
  readonly image: Uint32Array;
  /** The nodes' words alone. */
  readonly words: Uint32Array;
  readonly ray: (rng: Rng) => Ray;
  readonly what: string;
}

/** The scene's two-level image and world rays toward its placed triangles (mixedRay of the flattened scene). */
export function instancedTestScene(scene: InstancedScene, what: string): InstancedTestScene {
  const flat: Scene = flattenInstances(scene);
  const { image, bvh8 } = bvh8InstancedSceneImage(scene);
  return { scene, image, words: bvh8.words, ray: mixedRay(flat), what };
}

/** One small mesh (an icosphere of 20 triangles) three times: scaled, rotated, translated, one with a shader id of its own. */
export function threeSpheres(): InstancedTestScene {
  const mesh = icosphere(0, { centre: [0, 0, 0], radius: 0.5, shader: 2 });
  const placements: Placement[] = [
    { scale: [1, 1, 1], translate: [-0.6, 1, 0] },
    { scale: [0.5, 1.5, 0.75], rotateDegrees: [30, 45, 10], translate: [0.5, 1.2, 0.3] },
    { scale: [0.8, 0.8, 0.8], rotateDegrees: [0, 90, 0], translate: [0.1, 0.4, -0.5] },
  ];
  return instancedTestScene({ meshes: [mesh], instances: placements.map((p, i) => ({ mesh: 0, objectToWorld: affineFrom(p), shaderId: i === 1 ? 9 : 0 })) }, 'three placed icospheres');
}

const uniform = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();

function randomPlacement(rng: Rng): Placement {
  const s = uniform(rng, 0.3, 2.5);
  const scale: [number, number, number] = rng.int(3) === 0 ? [uniform(rng, 0.3, 2.5), uniform(rng, 0.3, 2.5), uniform(rng, 0.3, 2.5)] : [s, s, s];
  const angle = () => (rng.int(3) === 0 ? 90 * rng.int(4) : uniform(rng, 0, 360));
  return { scale, rotateDegrees: [angle(), angle(), angle()], translate: [uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3)] };
}

/** An instance mask (docs/rays.md): every bit, one bit, or any nonzero mask. */
const randomMask = (rng: Rng): number => [0xff, 1 << rng.int(8), 1 + rng.int(255)][rng.int(3)]!;

/**
 * A random instanced scene: one or two meshes (randomBvhScene: tricky or random triangles, closed meshes, the default
 * scene) placed 2 to 4 times; one time in four an instance is placed exactly where the one before it is (equal t: the
 * lower instance id wins). Instance shader ids 0 (the triangles' own) or their own. At most `maxNodes` nodes. With
 * `masks`, the meshes' triangles have random geometry masks and sides (withRandomMasks) and the instances random masks.
 */
export function randomInstancedScene(rng: Rng, maxTriangles: number, maxNodes: number, opts: { readonly masks?: boolean } = {}): InstancedTestScene {
  for (;;) {
    const meshes = Array.from({ length: 1 + rng.int(2) }, () => {
      const mesh = randomBvhScene(rng, maxTriangles).scene;
      return opts.masks ? withRandomMasks(rng, mesh) : mesh;
    });
    const instances = Array.from({ length: 2 + rng.int(3) }, () => ({
      mesh: rng.int(meshes.length),
      objectToWorld: affineFrom(randomPlacement(rng)),
      shaderId: rng.int(2) === 0 ? 0 : 1 + rng.int(200),
      ...(opts.masks && { mask: randomMask(rng) }),
    }));
    if (rng.int(4) === 0) instances[1] = { ...instances[0]!, shaderId: instances[1]!.shaderId };
    try {
      const s = instancedTestScene({ meshes, instances }, `${instances.length} instances of ${meshes.map((m) => triangleCount(m)).join(' and ')} triangles`);
      if (s.words.length / GFX12_NODE_WORDS <= maxNodes && s.words.length > 0) return s;
    } catch (e) {
      // A placement that reaches past binary32, or a mesh with nothing to hit: draw again.
      if (!(e instanceof BvhBuildError)) throw e;
    }
  }
}

/** The ways an instance node is broken: castRayBvh8 (enterInstance) faults a ray that reads it. */
export const INSTANCE_MALFORMATIONS = ['blasPastEnd', 'blasNotWhole', 'childCount', 'boxOrigin'] as const;
export type InstanceMalformation = (typeof INSTANCE_MALFORMATIONS)[number];

/**
 * A copy of a two-level image's words with one instance node broken: its bvh_addr past the image (`blasPastEnd`) or not a
 * whole node (`blasNotWhole`), child_count_minus_one above 3 (`childCount`), or its boxes' origin infinite (`boxOrigin`: a
 * fault only when the object-space ray is traceable, as enterInstance decodes the boxes after the transform).
 */
export function malformInstanceNode(words: Uint32Array, how: InstanceMalformation, rng: Rng): Uint32Array {
  const nodes = [...decodeBvh8InstancedImage(words).instances.keys()];
  const node = nodes[rng.int(nodes.length)]!;
  const out = words.slice();
  const at = (word: number) => node * GFX12_NODE_WORDS + word;
  const count = words.length / GFX12_NODE_WORDS;
  if (how === 'blasPastEnd') out[at(12)] = 32 * (count + rng.int(1000));
  else if (how === 'blasNotWhole') out[at(12)] = (out[at(12)]! & ~31) | (1 + rng.int(31));
  else if (how === 'childCount') out[at(19)] = (out[at(19)]! & 0x0fffffff) | ((4 + rng.int(12)) << 28);
  else out[at(16 + rng.int(3))] = rng.int(2) === 0 ? 0x7f800000 : 0x7fc00000;
  return out;
}
