// Reference models that check the hardware (never feed it): binary32 arithmetic, the ISA simulator, ray casting, BVH traversal, scenes, texture sampling.
export * as float32 from './float32.ts';
export * from './iss/index.ts';
export { castRay, testTriangle, rayIsValid, type Vec3, type Vec4, type TraceResult, type TriangleTestFn } from './rayCaster.ts';
export { testTriangleWatertight, watertightRay } from './watertight.ts';
export { slabTest, childOrder, type Box } from './rayBox.ts';
export { castRayBvh, type BvhTraceResult, type BvhCastOptions } from './bvh/bvhCaster.ts';
export { castRayBvh8, BVH8_CORE_FEATURES, type Bvh8TraceResult, type Bvh8CastOptions, type Bvh8Counters } from './bvh/bvh8Caster.ts';
export { parseObj, parseObjWithMaterials, sceneToImage, imageToScene, triangleCount, vertexCount, SceneError, TEXCOORD_WORDS, type Scene } from './scene.ts';
export { loadObjFile, parseMtl, defaultMaterial, pngTextureLoader, type Material, type MaterialTexture, type TextureLoader, type Light, type Rgb } from './materials.ts';
export { decodePngTexture, PngTextureError } from './pngTexture.ts';
export { defaultScene, defaultMaterials, defaultLights } from './defaultScene.ts';
export { bunnyInBox, bunnyMesh, icosphere, torusGrid, mergeScenes } from './sceneLibrary.ts';
export { texturedScene, texturedMaterials, checkerTexture, TEXTURED_SHADERS, CHECKER } from './texturedScene.ts';
export * from './texture/index.ts';
