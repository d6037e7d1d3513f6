// Reference models that check the hardware (never feed it): binary32 arithmetic, single-ray casting and intersection, the scene format, texture sampling.
export * as float32 from './float32.ts';
export { castRay, testTriangle, rayIsValid, type Vec3, type Vec4, type TraceResult, type TriangleTestFn } from './rayCaster.ts';
export { testTriangleWatertight, watertightRay } from './watertight.ts';
export { slabTest, childOrder, type Box } from './rayBox.ts';
export { parseObj, parseObjWithMaterials, sceneToImage, imageToScene, triangleCount, vertexCount, SceneError, TEXCOORD_WORDS, type Scene } from './scene.ts';
export * from './texture/index.ts';
