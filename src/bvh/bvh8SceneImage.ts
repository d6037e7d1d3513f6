// The BVH8 scene image: a header and the GFX12 BVH8 image's 128-byte nodes, in one image for the BVH8 IC system's load
// port (docs/host.md, "The BVH8 scene image"). The nodes hold the vertices too: nothing else is loaded.
import { triangleCount, type Scene } from '../golden/scene.ts';
import type { InstancedScene } from '../scenes/instancedScene.ts';
import { buildBvh8, type Bvh8BuildOptions } from './bvh8.ts';
import { encodeBvh8Image, type Bvh8Image } from './bvh8Image.ts';
import { buildBvh8Instanced, type Bvh8InstancedImage } from './bvh8Instanced.ts';
import { GFX12_NODE_WORDS, Gfx12Error } from './gfx12.ts';

/** Words before the nodes: T (the scene's triangles, for the load port's triangle_count), N (nodes). */
export const BVH8_SCENE_HEADER_WORDS = 2;

export interface Bvh8SceneImage {
  readonly image: Uint32Array;
  /** The BVH8 image inside it (the nodes castRayBvh8 walks). */
  readonly bvh8: Bvh8Image;
}

/** What a BVH8 scene image says: the triangle count and the nodes' words (a view into the image). */
export interface ParsedBvh8SceneImage {
  readonly triangles: number;
  readonly nodes: Uint32Array;
}

/** The image of a triangle count and a BVH8 image's nodes (the inverse of parseBvh8SceneImage). */
export function encodeBvh8SceneImage(triangles: number, nodeWords: Uint32Array): Uint32Array {
  if (nodeWords.length % GFX12_NODE_WORDS !== 0) throw new Gfx12Error(`a BVH8 image is whole 128-byte nodes (${GFX12_NODE_WORDS} words each), got ${nodeWords.length} words`);
  if (!Number.isInteger(triangles) || triangles < 0 || triangles >= 2 ** 32) throw new Gfx12Error(`the triangle count must be a 32-bit unsigned integer, got ${triangles}`);
  const out = new Uint32Array(BVH8_SCENE_HEADER_WORDS + nodeWords.length);
  out[0] = triangles;
  out[1] = nodeWords.length / GFX12_NODE_WORDS;
  out.set(nodeWords, BVH8_SCENE_HEADER_WORDS);
  return out;
}

/**
 * The two-level image of an instanced scene (buildBvh8Instanced: TLAS, instance nodes, one BLAS per mesh used) as a BVH8
 * scene image; its triangle count is the triangles stored, each used mesh's once (however many instances share it).
 */
export function bvh8InstancedSceneImage(scene: InstancedScene, opts: Bvh8BuildOptions = {}): { readonly image: Uint32Array; readonly bvh8: Bvh8InstancedImage } {
  const bvh8 = buildBvh8Instanced(scene, opts);
  const stored = [...new Set(scene.instances.map((i) => i.mesh))].reduce((n, mesh) => n + triangleCount(scene.meshes[mesh]!), 0);
  return { image: encodeBvh8SceneImage(stored, bvh8.words), bvh8 };
}

/** Build the scene's BVH8 (buildBvh8) and encode it (encodeBvh8Image) as a BVH8 scene image. */
export function bvh8SceneImage(scene: Scene, opts: Bvh8BuildOptions = {}): Bvh8SceneImage {
  const bvh8 = encodeBvh8Image(buildBvh8(scene, opts));
  return { image: encodeBvh8SceneImage(triangleCount(scene), bvh8.words), bvh8 };
}

/**
 * The header and nodes of a BVH8 scene image; the length must be exactly the header and N nodes. The nodes are not
 * decoded: a malformed node is for the traversal to meet (castRayBvh8 faults the rays that reach it).
 */
export function parseBvh8SceneImage(words: Uint32Array, file = '<image>'): ParsedBvh8SceneImage {
  const fail = (detail: string): never => {
    throw new Gfx12Error(`${file}: error: ${detail}`);
  };
  if (words.length < BVH8_SCENE_HEADER_WORDS) fail(`a BVH8 scene image starts with ${BVH8_SCENE_HEADER_WORDS} header words (triangle count, node count), got ${words.length} words`);
  const nodes = words[1]!;
  const want = BVH8_SCENE_HEADER_WORDS + GFX12_NODE_WORDS * nodes;
  if (want !== words.length) fail(`word 1 gives ${nodes} nodes (${GFX12_NODE_WORDS} words each after the ${BVH8_SCENE_HEADER_WORDS} header words: ${want} words), but the image has ${words.length}`);
  return { triangles: words[0]!, nodes: words.subarray(BVH8_SCENE_HEADER_WORDS) };
}
