// The host-side BVH: the builder, the in-memory BVH4, its memory image, and GFX12 node export (docs/bvh.md).
export { buildBvh, buildBinaryBvh, wideChildren, BvhBuildError, type BuildOptions, type BinaryBuildOptions, type BinaryBvh, type BinaryNode } from './builder.ts';
export {
  BVH_WIDTH,
  STACK_DEPTH,
  EMPTY_CHILD,
  reorderScene,
  worstCaseStack,
  bvhDepth,
  bvhProblems,
  boxContains,
  triangleBox,
  type Bvh4,
  type Bvh4Child,
  type Bvh4Node,
  type ChildKind,
  type TriRange,
} from './bvh4.ts';
export { encodeBvh4, decodeBvh4, Bvh4FormatError, NODE_WORDS, TRI_RANGE_WORDS, NODE_LAYOUT, CHILD_FLAG, type Bvh4Image, type Bvh4Place } from './node4.ts';
export * from './gfx12.ts';
export { bvhSceneImage, encodeBvhSceneImage, parseBvhSceneImage, bvhSceneImageLayout, type BvhScene, type BvhSceneImage, type BvhSceneImageLayout } from './sceneImage.ts';
