// The host side of the render job: frames (camera, kernel, scene images), the runtime that runs them on any simulator, PNG output.
export * from './runtime/index.ts';
export { buildFrame, pixelsToImage, shadeConstants, checkSceneFits, defaultBvhCapacity, type FrameSpec, type BvhCapacity } from './frame.ts';
export { cameraConstants, defaultCamera, type Camera } from './camera.ts';
export { primaryRays } from './primaryRays.ts';
export { encodePng } from './png.ts';
export { textureMemoryImage, DEFAULT_TEXTURE_SAMPLER, TEXTURE_SAMPLER_INDEX, FIRST_HEADER_INDEX, type TextureMemoryImage, type TextureMemoryOptions, type TextureSlot } from './textureMemory.ts';
export { KERNELS, kernelSource, type KernelName } from './kernels/index.ts';
