// The scene library: OBJ/MTL materials and PNG textures, the built-in scenes the demo, tests and benches render.
export { loadObjFile, parseMtl, defaultMaterial, pngTextureLoader, type Material, type MaterialTexture, type TextureLoader, type Light, type Rgb } from './materials.ts';
export { decodePngTexture, PngTextureError } from './pngTexture.ts';
export { defaultScene, defaultMaterials, defaultLights } from './defaultScene.ts';
export { bunnyInBox, bunnyMesh, icosphere, torusGrid, mergeScenes } from './sceneLibrary.ts';
export { texturedScene, texturedMaterials, checkerTexture, TEXTURED_SHADERS, CHECKER } from './texturedScene.ts';
