// The BVH scene image: the triangle-memory image of the scene in BVH order, then the BVH4's nodes and TriRanges, in one
// image for the BVH IC cores' triangle port (TRI_ADDR / TRI_WORDS; docs/host.md).
import { imageToScene, sceneToImage, SceneError, triangleCount, type Scene } from '../golden/scene.ts';
import { buildBvh, type BuildOptions } from './builder.ts';
import { bvhProblems, reorderScene, type Bvh4 } from './bvh4.ts';
import { Bvh4FormatError, decodeBvh4, encodeBvh4, NODE_WORDS, TRI_RANGE_WORDS } from './node4.ts';

/** A scene and its BVH as the BVH IC cores load them. */
export interface BvhScene {
  readonly bvh: Bvh4;
  /** The scene in BVH order (`reorderScene`): the triangle indices of TriRanges and results refer to it. */
  readonly ordered: Scene;
}

export interface BvhSceneImage extends BvhScene {
  readonly image: Uint32Array;
}

/** Where the sections of a BVH scene image lie (word offsets; every section's length is the count before it). */
export interface BvhSceneImageLayout {
  /** T: words of the triangle section (word 0), which is words 1 .. T. */
  readonly triangleWords: number;
  /** N (word T + 1): BVHNode4 nodes, from word `nodesAt`, NODE_WORDS each. */
  readonly nodes: number;
  readonly nodesAt: number;
  /** L (word nodesAt + 32·N): TriRanges, from word `triRangesAt`, TRI_RANGE_WORDS each. */
  readonly triRanges: number;
  readonly triRangesAt: number;
}

/** The image of a scene already in BVH order and its BVH (the inverse of parseBvhSceneImage). */
export function encodeBvhSceneImage(ordered: Scene, bvh: Pick<Bvh4, 'nodes' | 'triRanges'>): Uint32Array {
  const triangles = sceneToImage(ordered);
  const { nodes, triRanges } = encodeBvh4(bvh);
  const out = new Uint32Array(3 + triangles.length + nodes.length + triRanges.length);
  const nodesAt = 2 + triangles.length;
  const triRangesAt = nodesAt + nodes.length + 1;
  out[0] = triangles.length;
  out.set(triangles, 1);
  out[nodesAt - 1] = bvh.nodes.length;
  out.set(nodes, nodesAt);
  out[triRangesAt - 1] = bvh.triRanges.length;
  out.set(triRanges, triRangesAt);
  return out;
}

/** Build the BVH of a scene (binned SAH, `buildBvh`), put the scene in its order and encode both. */
export function bvhSceneImage(scene: Scene, opts?: BuildOptions): BvhSceneImage {
  const bvh = buildBvh(scene, opts);
  const ordered = reorderScene(scene, bvh);
  return { image: encodeBvhSceneImage(ordered, bvh), bvh, ordered };
}

const wordCount = (n: number): string => `${n} word${n === 1 ? '' : 's'}`;

/** The sections of a BVH scene image from its three counts; throws unless the lengths add up exactly. */
export function bvhSceneImageLayout(image: Uint32Array, file = '<image>'): BvhSceneImageLayout {
  const length = image.length;
  const sceneError = (detail: string): never => {
    throw new SceneError(file, undefined, detail);
  };
  const bvhError = (detail: string): never => {
    throw new Bvh4FormatError(`${file}: error: ${detail}`);
  };
  if (length === 0) sceneError('the BVH scene image is empty (word 0 must give the length of the triangle section)');
  const triangleWords = image[0]!;
  // Counts are read as numbers (no 32-bit overflow) and checked against the words left before anything is allocated.
  if (2 + triangleWords > length) sceneError(`word 0 gives a triangle section of ${wordCount(triangleWords)}, but the image has ${wordCount(length)} (it needs at least ${triangleWords + 2} before the node count)`);
  if (triangleWords % 4 !== 0) sceneError(`word 0 gives a triangle section of ${wordCount(triangleWords)}, not a multiple of 4 (a triangle-memory image is 4-word records)`);
  const nodes = image[1 + triangleWords]!;
  const nodesAt = 2 + triangleWords;
  if (nodes === 0) bvhError(`word ${nodesAt - 1}: the node count is 0 (node 0 is the root, so there is at least one node)`);
  if (nodesAt + NODE_WORDS * nodes + 1 > length) bvhError(`word ${nodesAt - 1} gives ${nodes} nodes (${NODE_WORDS * nodes} words from word ${nodesAt}), but the image ends at word ${length - 1}, before the TriRange count`);
  const countAt = nodesAt + NODE_WORDS * nodes;
  const triRanges = image[countAt]!;
  const triRangesAt = countAt + 1;
  const end = triRangesAt + TRI_RANGE_WORDS * triRanges;
  if (end > length) bvhError(`word ${countAt} gives ${triRanges} TriRanges (${TRI_RANGE_WORDS * triRanges} words from word ${triRangesAt}), but the image ends at word ${length - 1}`);
  if (end < length) bvhError(`the image has ${wordCount(length - end)} after the last TriRange (from word ${end}; nothing follows the TriRanges)`);
  return { triangleWords, nodes, nodesAt, triRanges, triRangesAt };
}

/**
 * The BVH and the ordered scene of a BVH scene image. Everything is checked: the section lengths, the
 * triangle section (`imageToScene`), the BVH (`decodeBvh4` over that many triangles), and that the
 * BVH fits its triangles (every triangle in exactly one leaf, every box containing its triangles and
 * subtrees: `bvhProblems`). Throws a SceneError (the triangle section, its length) or a Bvh4FormatError
 * (the BVH), both reading `file: error: …` and naming the word or node.
 */
export function parseBvhSceneImage(words: Uint32Array, file = '<image>'): BvhScene {
  const layout = bvhSceneImageLayout(words, file);
  const { triangleWords: t, nodesAt, triRangesAt } = layout;
  let ordered: Scene;
  try {
    ordered = imageToScene(words.subarray(1, 1 + t), file);
  } catch (e) {
    if (e instanceof SceneError) throw new SceneError(file, undefined, `the triangle section (${t === 0 ? 'empty' : `words 1 .. ${t}`}): ${e.detail}`);
    throw e;
  }
  let bvh: Bvh4;
  try {
    bvh = decodeBvh4({ nodes: words.subarray(nodesAt, nodesAt + NODE_WORDS * layout.nodes), triRanges: words.subarray(triRangesAt) }, triangleCount(ordered));
  } catch (e) {
    if (!(e instanceof Bvh4FormatError)) throw e;
    const { node, triRange } = e.place;
    const where = node !== undefined ? ` (node ${node} is words ${nodesAt + NODE_WORDS * node} .. ${nodesAt + NODE_WORDS * (node + 1) - 1})` : triRange !== undefined ? ` (TriRange ${triRange} is words ${triRangesAt + TRI_RANGE_WORDS * triRange} .. ${triRangesAt + TRI_RANGE_WORDS * (triRange + 1) - 1})` : '';
    throw new Bvh4FormatError(`${file}: error: ${e.message}${where}`, e.place);
  }
  const problems = bvhProblems(bvh, ordered);
  const more = problems.length - 1;
  if (problems.length > 0) throw new Bvh4FormatError(`${file}: error: the BVH does not fit the triangles: ${problems[0]}${more > 0 ? ` (and ${more} more problem${more === 1 ? '' : 's'})` : ''}`);
  return { bvh, ordered };
}
