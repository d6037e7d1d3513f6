// A frame: kernel, camera, scene and materials as the GPU's memory images, and its results as an RGB image.
import { defaultBvhIcSystemParams } from '../gpu/bvh/bvhIcSystem.ts';
import { defaultBvh8IcSystemParams } from '../gpu/bvh8/bvh8IcSystem.ts';
import { assemble } from '../isa/assembler.ts';
import { sceneToImage, SceneError, triangleCount, vertexCount, type Scene } from '../golden/scene.ts';
import { toNumber } from '../golden/float32.ts';
import { isEmissive, type Light, type Material, type Rgb } from '../scenes/materials.ts';
import { defaultLights, defaultMaterials } from '../scenes/defaultScene.ts';
import { CONSTANT_WORDS } from '../iss/memory.ts';
import { defaultTriangleMemoryParams, type TriangleMemoryParams } from '../gpu/memory/triangleMemory.ts';
import { GFX12_NODE_WORDS, bvh8InstancedSceneImage, bvh8SceneImage, bvhSceneImage, encodeBvhSceneImage, type Bvh4, type Bvh8BuildOptions } from '../bvh/index.ts';
import type { InstancedScene } from '../scenes/instancedScene.ts';
import type { Traversal } from '../iss/sceneTracer.ts';
import { cameraConstants, type Camera } from './camera.ts';
import { kernelSource, type KernelName } from './kernels/index.ts';
import { DEFAULT_TEXTURE_SAMPLER, textureMemoryImage } from './textureMemory.ts';
import { texturedConstants } from './texturedConstants.ts';
import { TextureError, type FilterModeName } from '../golden/texture/index.ts';
import type { GpuJob } from './runtime/gpuJob.ts';
import { RAY_FLAG_ANY_HIT, RAY_FLAG_CULL_BACK, RAY_MASK_SHIFT, SHADOW_CASTER_MASK, type RayQuery } from '../golden/rayQuery.ts';
import type { RunPixel } from './runtime/gpuJob.ts';

export interface FrameSpec {
  readonly kernel: KernelName;
  readonly camera: Camera;
  readonly width: number;
  readonly height: number;
  readonly scene: Scene;
  /**
   * How the IC cores find hits (default 'brute-force', or 'bvh' when `bvh` is given): 'bvh' loads the
   * BVH scene image (src/bvh/sceneImage.ts) instead of the triangle-memory image.
   */
  readonly traversal?: Traversal;
  /** A prebuilt BVH of `scene` (e.g. from a loaded BVH scene image), `scene` then in its order; default: built by buildFrame. */
  readonly bvh?: Bvh4;
  /**
   * The instances `scene` is the flattening of: a 'bvh8' frame (but a `textured` one, whose constants follow the flattened
   * triangle order) loads their two-level image (TLAS, instance nodes, one BLAS per mesh; bvh8InstancedSceneImage).
   */
  readonly instanced?: InstancedScene;
  /** 'bvh8' only: build the BVH8 with oriented boxes (buildBvh8's `obb`, docs/bvh.md "Oriented boxes"; default off). */
  readonly obb?: boolean;
  /** The scene's file, for messages (default `<scene>`). */
  readonly sceneFile?: string;
  /** `shade`: materials by shader id − 1 (default: the built-in scene's, `defaultMaterials`). */
  readonly materials?: readonly Material[];
  /** `shade`: up to SHADE_LAYOUT.maxLights point lights (default: the built-in scene's, `defaultLights`). */
  readonly lights?: readonly Light[];
  /** `shade`: the colour of a pixel whose ray hits nothing. */
  readonly sky?: Rgb;
  /** `shade`: ambient light (every surface gets Kd · ambient, shadowed or not). */
  readonly ambient?: Rgb;
  /** `textured`: the filter of the one sampler every texture gets (default trilinear, DEFAULT_TEXTURE_SAMPLER). */
  readonly textureFilter?: FilterModeName;
}

/** The frame `rtgpu render` draws unless told otherwise (and whose constants `rtgpu run` loads without --const). */
export const DEFAULT_FRAME_SIZE = { width: 64, height: 48 } as const;

export const DEFAULT_SKY: Rgb = [0.3, 0.45, 0.7];
export const DEFAULT_AMBIENT: Rgb = [0.28, 0.28, 0.3];

/**
 * The query of the shade and textured kernels' shadow rays (lighting.s builds it in RV3 for `trace RV3`; docs/rays.md):
 * t in [+0, 1) since the shadow ray's direction is light − origin, the first hit will do, a one-sided triangle seen from
 * behind lets light through, and only geometry whose mask has bit 0 (SHADOW_CASTER_MASK) casts a shadow.
 */
export const SHADOW_RAY_QUERY: RayQuery = { tmin: 0, tmax: 0x3f7fffff, flags: RAY_FLAG_ANY_HIT | RAY_FLAG_CULL_BACK | (SHADOW_CASTER_MASK << RAY_MASK_SHIFT) };

/**
 * Constant-memory words of the `shade` kernel after the camera's (CAMERA_LAYOUT, words 0–19), word
 * offsets from 0x20000000, binary32 unless noted. src/host/kernels/shade.s uses these offsets (× 4).
 */
export const SHADE_LAYOUT = {
  /** sky r, g, b, 0 */
  sky: 20,
  /** ambient r, g, b, 0 */
  ambient: 24,
  /** the number of lights (int32, 0 to maxLights) */
  lightCount: 28,
  /** how far shadow rays start off the surface, along the normal (scene size / 1024) */
  shadowOffset: 29,
  /** the number of materials (int32; for readers of the image, the kernel does not need it) */
  materialCount: 30,
  /** light i at lights + 8 i: position x, y, z, 0, colour r, g, b, 0 */
  lights: 32,
  lightWords: 8,
  maxLights: 4,
  /** shader id s at materials + 4 (s − 1): r, g, b (Kd, or Ke if emissive), emissive flag (int32 0 or 1) */
  materials: 64,
  materialWords: 4,
  /** what fits in constant memory: (8192 − 64) / 4 */
  maxMaterials: (CONSTANT_WORDS - 64) / 4,
} as const;

const bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/** What the BVH IC cores hold: triangles and vertices, and the BVH's nodes and TriRanges. */
export interface BvhCapacity extends TriangleMemoryParams {
  readonly nodes: number;
  readonly triRanges: number;
}

/** The capacity `buildFrame` checks BVH frames against. */
/** The BVH IC systems' memories in the GPU's BVH configuration (defaultBvhGpuParams). */
export const defaultBvhCapacity: BvhCapacity = { triangles: defaultBvhIcSystemParams.triangles, vertices: defaultBvhIcSystemParams.vertices, nodes: defaultBvhIcSystemParams.nodes, triRanges: defaultBvhIcSystemParams.triRanges };

/**
 * Throws a SceneError (`file: error: …`) if the scene does not fit the triangle memory. Besides the
 * vertices the image holds the vertex list's all-zero terminator, which the memory accepts as the record
 * one past a full bank, so `vertices` vertices still fit (docs/triangle-memory-and-ic-buffer.md).
 * With `bvh` (a BVH frame) the BVH's nodes and TriRanges are checked against `capacity` too.
 */
export function checkSceneFits(scene: Scene, file: string, capacity: TriangleMemoryParams | BvhCapacity = defaultTriangleMemoryParams, bvh?: Pick<Bvh4, 'nodes' | 'triRanges'>): void {
  const fail = (count: number, what: string, holds: number, memory: string): never => {
    throw new SceneError(file, undefined, `the scene has ${count} ${what}; the ${memory} holds ${holds}`);
  };
  const nt = triangleCount(scene);
  const nv = vertexCount(scene);
  if (nt > capacity.triangles) fail(nt, 'triangles', capacity.triangles, 'triangle memory');
  if (nv > capacity.vertices) fail(nv, 'vertices', capacity.vertices, 'triangle memory');
  if (bvh === undefined) return;
  if (!('nodes' in capacity)) throw new Error('checkSceneFits: a BVH frame needs a BvhCapacity (nodes and TriRanges)');
  if (bvh.nodes.length > capacity.nodes) fail(bvh.nodes.length, 'BVH nodes', capacity.nodes, 'BVH memory');
  if (bvh.triRanges.length > capacity.triRanges) fail(bvh.triRanges.length, 'TriRanges', capacity.triRanges, 'BVH memory');
}

/** The largest shader id of the scene (0 for an empty scene). */
function maxShader(scene: Scene): number {
  let max = 0;
  for (let t = 3; t < scene.triangles.length; t += 4) max = Math.max(max, scene.triangles[t]!);
  return max;
}

/** The largest extent of the scene's bounding box (1 for an empty or flat-point scene). */
function sceneSize(scene: Scene): number {
  if (scene.vertices.length === 0) return 1;
  let size = 0;
  for (let k = 0; k < 3; k++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = k; i < scene.vertices.length; i += 3) {
      const x = toNumber(scene.vertices[i]!);
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    size = Math.max(size, hi - lo);
  }
  return size > 0 ? size : 1;
}

/** Constant memory of the `shade` kernel: the camera words, then SHADE_LAYOUT. */
export function shadeConstants(spec: FrameSpec): Uint32Array {
  const file = spec.sceneFile ?? '<scene>';
  const materials = spec.materials ?? defaultMaterials();
  const lights = spec.lights ?? defaultLights();
  const L = SHADE_LAYOUT;
  if (lights.length > L.maxLights) throw new Error(`the shade kernel takes at most ${L.maxLights} point lights, got ${lights.length}`);
  if (materials.length > L.maxMaterials) throw new SceneError(file, undefined, `the scene has ${materials.length} materials; constant memory holds ${L.maxMaterials}`);
  const top = maxShader(spec.scene);
  if (top > materials.length) throw new SceneError(file, undefined, `shader id ${top} has no material (${materials.length} given)`);
  const words = new Uint32Array(L.materials + L.materialWords * materials.length);
  words.set(cameraConstants(spec.camera, spec.width, spec.height), 0);
  const put = (at: number, v: readonly number[]) => words.set(v.map(bits), at);
  put(L.sky, spec.sky ?? DEFAULT_SKY);
  put(L.ambient, spec.ambient ?? DEFAULT_AMBIENT);
  words[L.lightCount] = lights.length;
  put(L.shadowOffset, [sceneSize(spec.scene) / 1024]);
  words[L.materialCount] = materials.length;
  lights.forEach((l, i) => {
    put(L.lights + L.lightWords * i, l.position);
    put(L.lights + L.lightWords * i + 4, l.colour);
  });
  materials.forEach((m, i) => {
    const at = L.materials + L.materialWords * i;
    put(at, isEmissive(m) ? m.ke! : m.kd);
    words[at + 3] = isEmissive(m) ? 1 : 0;
  });
  return words;
}

/**
 * The image the IC cores load: the triangle-memory image, or for BVH frames the BVH scene image (the BVH
 * built unless given); and the scene in the order of the triangle indices trace returns (RV15.w): the
 * scene's own, or for 'bvh' the BVH's (a BVH8's primitive indices are the scene's own order).
 */
function triangleImage(spec: FrameSpec, traversal: Traversal): { image: Uint32Array; ordered: Scene } {
  const file = spec.sceneFile ?? '<scene>';
  if (traversal === 'brute-force') {
    if (spec.bvh !== undefined) throw new Error("buildFrame: a BVH was given for a 'brute-force' frame");
    checkSceneFits(spec.scene, file);
    return { image: sceneToImage(spec.scene), ordered: spec.scene };
  }
  // Triangles and vertices first: no BVH is built for a scene that cannot fit anyway.
  checkSceneFits(spec.scene, file, defaultBvhCapacity);
  if (traversal === 'bvh8') {
    if (spec.bvh !== undefined) throw new Error("buildFrame: a BVH4 was given for a 'bvh8' frame");
    const opts = { obb: spec.obb ?? false };
    const { image, words } = usesInstances(spec) ? instancedImage(spec.instanced, opts) : flatImage(spec.scene, opts);
    const nodes = words.length / GFX12_NODE_WORDS;
    if (nodes > defaultBvh8IcSystemParams.nodes) throw new SceneError(file, undefined, `the scene has ${nodes} BVH8 nodes; the BVH8 node memory holds ${defaultBvh8IcSystemParams.nodes}`);
    return { image, ordered: spec.scene };
  }
  const { image, bvh, ordered } = spec.bvh === undefined ? bvhSceneImage(spec.scene) : { image: encodeBvhSceneImage(spec.scene, spec.bvh), bvh: spec.bvh, ordered: spec.scene };
  checkSceneFits(spec.scene, file, defaultBvhCapacity, bvh);
  return { image, ordered };
}

/** A 'bvh8' frame of instances loads their two-level image, unless its kernel needs the flattened triangle order. */
export const usesInstances = (spec: FrameSpec): spec is FrameSpec & { instanced: InstancedScene } => spec.instanced !== undefined && spec.kernel !== 'textured';
const instancedImage = (scene: InstancedScene, opts: Bvh8BuildOptions) => {
  const { image, bvh8 } = bvh8InstancedSceneImage(scene, opts);
  return { image, words: bvh8.words };
};
const flatImage = (scene: Scene, opts: Bvh8BuildOptions) => {
  const { image, bvh8 } = bvh8SceneImage(scene, opts);
  return { image, words: bvh8.words };
};

/**
 * The `textured` kernel's constants and, when a material has a texture, the texture-memory image
 * (textureMemoryImage with the spec's filter); `ordered` is the scene in trace's triangle order.
 */
function texturedFrame(spec: FrameSpec, ordered: Scene): { constants: Uint32Array; texture?: Uint32Array } {
  const file = spec.sceneFile ?? '<scene>';
  const materials = spec.materials ?? defaultMaterials();
  const shade = shadeConstants(spec);
  if (!materials.some((m) => m.texture !== undefined)) return { constants: texturedConstants(shade, ordered, materials, materials.map(() => 0), file) };
  let image;
  try {
    image = textureMemoryImage(materials, { sampler: { ...DEFAULT_TEXTURE_SAMPLER, filter: spec.textureFilter ?? DEFAULT_TEXTURE_SAMPLER.filter } });
  } catch (e) {
    if (e instanceof TextureError) throw new SceneError(file, undefined, e.message);
    throw e;
  }
  const handles = image.materialSlots.map((k) => (k < 0 ? 0 : image.slots[k]!.handle));
  return { constants: texturedConstants(shade, ordered, materials, handles, file), texture: image.words };
}

/** The job of one frame: pixel id = py · width + px. Throws if the scene does not fit the GPU. */
export function buildFrame(spec: FrameSpec): GpuJob {
  const traversal = spec.traversal ?? (spec.bvh === undefined ? 'brute-force' : 'bvh');
  // Oriented boxes are a BVH8 feature: no other image has them.
  if (spec.obb && traversal !== 'bvh8') throw new Error(`buildFrame: oriented boxes (obb) need 'bvh8' traversal, not '${traversal}'`);
  const { image: triangles, ordered } = triangleImage(spec, traversal);
  const { path, source } = kernelSource(spec.kernel);
  const { words, sourceLines } = assemble(source, path);
  const job = { program: words, sourceFile: path, sourceLines, triangles, traversal, pixels: spec.width * spec.height };
  if (spec.kernel === 'textured') {
    const { constants, texture } = texturedFrame(spec, ordered);
    return { ...job, constants, ...(texture === undefined ? {} : { texture }) };
  }
  const constants = spec.kernel === 'shade' ? shadeConstants(spec) : cameraConstants(spec.camera, spec.width, spec.height);
  return { ...job, constants };
}

/** A float channel as a byte: clamped to [0, 1], × 255, rounded; NaN is 0. */
const channel = (b: number): number => {
  const x = toNumber(b >>> 0);
  return Number.isNaN(x) ? 0 : Math.round(Math.min(1, Math.max(0, x)) * 255);
};

// Tableau 10: well-separated colours for the first shader ids.
const PALETTE: readonly (readonly [number, number, number])[] = [
  [0x4e, 0x79, 0xa7], [0xf2, 0x8e, 0x2b], [0xe1, 0x57, 0x59], [0x76, 0xb7, 0xb2], [0x59, 0xa1, 0x4f],
  [0xed, 0xc9, 0x48], [0xb0, 0x7a, 0xa1], [0xff, 0x9d, 0xa7], [0x9c, 0x75, 0x5f], [0xba, 0xb0, 0xac],
];

/** A distinct colour for each shader id (a fixed palette, then golden-angle hues), black for 0 (a miss). */
export function shaderColour(id: number): [number, number, number] {
  if (id === 0) return [0, 0, 0];
  if (id <= PALETTE.length) return [...PALETTE[id - 1]!];
  const h = ((id * 137.508) % 360) / 60;
  const v = id % 2 === 0 ? 0.95 : 0.7; // alternate brightness too, so neighbouring hues differ
  const f = (n: number) => {
    const k = (n + h) % 6;
    return Math.round(255 * v * (1 - 0.6 * Math.max(0, Math.min(k, 4 - k, 1))));
  };
  return [f(5), f(3), f(1)];
}

/**
 * RGB bytes of the frame (row-major from the top-left pixel). `shade` and `textured`: the returned r, g, b floats;
 * `id`: a distinct colour per shader id, black on a miss.
 */
export function pixelsToImage(spec: Pick<FrameSpec, 'kernel' | 'width' | 'height'>, pixels: readonly RunPixel[]): Uint8Array {
  const rgb = new Uint8Array(spec.width * spec.height * 3);
  for (const p of pixels) {
    const colour = spec.kernel !== 'id' ? [channel(p.ret[0]), channel(p.ret[1]), channel(p.ret[2])] : shaderColour(p.ret[3] >>> 0);
    rgb.set(colour, 3 * p.pixel);
  }
  return rgb;
}
