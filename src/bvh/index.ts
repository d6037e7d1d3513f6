// The host-side BVH: the builder, the in-memory BVH4 and its memory image, the BVH8 and its GFX12 memory image, and the golden traversals of both (docs/bvh.md).
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
export { buildBvh8, pairTriangles, packPairs, BVH8_MAX_LEAF_TRIANGLES, BVH8_DEFAULT_LEAF_TRIANGLES, BVH8_DEFAULT_TRIANGLE_COST, BVH8_MAX_SHADER_ID, type Bvh8, type Bvh8Node, type Bvh8Child, type Bvh8BuildOptions } from './bvh8.ts';
export {
  encodeBvh8Image,
  decodeBvh8Image,
  bvh8ChildTargets,
  bvh8NodeWords,
  BVH8_BOX_TYPE,
  BVH8_TRIANGLE_TYPE,
  BVH8_MAX_LEAF_NODES,
  OFFSET_UNITS_PER_NODE,
  type Bvh8Image,
  type Bvh8ChildTarget,
  type DecodedBvh8Image,
} from './bvh8Image.ts';
export {
  OBB_MATRIX_COUNT,
  OBB_VALUE_COUNT,
  OBB_INDEX_BITS,
  OBB_DISTINCT_ROTATIONS,
  OBB_VALUES,
  OBB_MATRIX_INDICES,
  obbMatrix,
  obbIndexIsValid,
} from './obbMatrices.ts';
export { bvh8SahCost } from './bvh8Sah.ts';
export {
  encodeGfx12InstanceNode,
  decodeGfx12InstanceNode,
  BVH8_INSTANCE_TYPE,
  GFX12_INSTANCE_MAX_CHILDREN,
  GFX12_MAX_USER_DATA,
  type Gfx12InstanceNode,
  type Gfx12InstanceNodeInput,
} from './gfx12Instance.ts';
export { buildBvh8Instanced, decodeBvh8InstancedImage, worldBox, BVH_ADDR_UNITS_PER_NODE, type Bvh8InstancedImage, type DecodedBvh8InstancedImage, type PlacedBlas } from './bvh8Instanced.ts';
export { bvh8SceneImage, bvh8InstancedSceneImage, encodeBvh8SceneImage, parseBvh8SceneImage, BVH8_SCENE_HEADER_WORDS, type Bvh8SceneImage, type ParsedBvh8SceneImage } from './bvh8SceneImage.ts';
export { castRayBvh, type BvhTraceResult, type BvhCastOptions } from './traversal/bvhCaster.ts';
export { castRayBvh8, BVH8_CORE_FEATURES, type Bvh8TraceResult, type Bvh8CastOptions, type Bvh8Counters } from './traversal/bvh8Caster.ts';
