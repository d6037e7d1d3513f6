// The command line of `rtgpu render`: its flags, their checks, and the plan of the render they describe.
import { parseFlags, intFlag } from '../args.ts';
import { verilatorBuildUsage } from '../verilatorBuildFlag.ts';
import { CliError, FAULT_EXIT_STATUS } from '../cliError.ts';
import { HELP, type HelpPlan } from '../command.ts';
import { checkSceneFileKind, isInstancedSceneFile, isTriangleImage } from '../inputFiles.ts';
import { DEFAULT_MAX_CYCLES, gpuFlagOptions, gpuFlags, gpuFlagsUsage, obbNeedsBvh8, gpuSimFlag, gpuSimUsage, type GpuFlags, type GpuSimChoice } from '../gpuFlags.ts';
import type { Scene } from '../../golden/scene.ts';
import { defaultScene } from '../../scenes/defaultScene.ts';
import { bunnyInBox } from '../../scenes/sceneLibrary.ts';
import { texturedMaterials, texturedScene } from '../../scenes/texturedScene.ts';
import { bunniesInBox } from '../../scenes/bunniesScene.ts';
import { thinRodsInBox } from '../../scenes/thinRodsScene.ts';
import { flattenInstances, type InstancedScene } from '../../scenes/instancedScene.ts';
import type { Material } from '../../scenes/materials.ts';
import type { Traversal } from '../../iss/sceneTracer.ts';
import { DEFAULT_FRAME_SIZE, SHADE_LAYOUT } from '../../host/frame.ts';
import { FilterMode, type FilterModeName } from '../../golden/texture/index.ts';
import { TEXTURED_CAMERA, cameraConstants, defaultCamera, type Camera, type Vec3 } from '../../host/camera.ts';
import { KERNELS, type KernelName } from '../../host/kernels/index.ts';
import { defaultRenderJobs } from '../../host/runtime/index.ts';

/** A scene `--scene NAME` selects: its triangles and, unless it uses the built-in ones, its materials. */
export interface BuiltInScene {
  readonly scene: () => Scene;
  readonly materials?: () => Material[];
  /** A scene of instances: `scene` is their flattening, which every traversal but --bvh8 renders (docs/bvh.md "Instances"). */
  readonly instanced?: () => InstancedScene;
  /** Its camera where it differs from defaultCamera (each of --eye, --look, --up, --fov replaces its part). */
  readonly camera?: Camera;
}

export { TEXTURED_CAMERA };

/** Scenes `--scene NAME` selects; all use the built-in lights, cornell and bunny the built-in materials. */
export const BUILT_IN_SCENES: Readonly<Record<string, BuiltInScene>> = {
  cornell: { scene: defaultScene },
  bunny: { scene: bunnyInBox },
  textured: { scene: texturedScene, materials: texturedMaterials, camera: TEXTURED_CAMERA },
  // Instances of one bunny mesh: a two-level BVH8 image with --bvh8, else flattened into one triangle list.
  bunnies: { scene: () => flattenInstances(bunniesInBox().scene), instanced: () => bunniesInBox().scene, materials: () => bunniesInBox().materials },
  // Thin rods at three tilts, where oriented boxes pay (--bvh8 --obb; docs/performance.md "Oriented boxes").
  rods: { scene: thinRodsInBox },
};

const FILTERS = Object.keys(FilterMode) as FilterModeName[];
const DEFAULT_KERNEL: KernelName = ((KERNELS as readonly string[]).includes('shade') ? 'shade' : 'id') as KernelName;
const MAX_SIZE = 4096;
/**
 * Above this many triangles a scene is traced through a BVH unless --brute-force: the brute-force IC
 * core tests every triangle for every ray (the built-in Cornell box has 36), the BVH core a few nodes
 * and leaves.
 */
export const AUTO_BVH_TRIANGLES = 64;
export const vec = (v: Vec3): string => v.join(',');

const usage = `usage: rtgpu render [SCENE | --scene NAME] [--bvh | --bvh8 [--obb] | --brute-force] [--width W] [--height H] [--out FILE] [options]

Renders SCENE (a Wavefront OBJ file .obj with its mtllib materials, an instanced scene file .scene, or a
triangle-memory image .hex/.bin; default: the built-in Cornell box) through the simulated GPU to a PNG, then prints the cycles, rays, triangle tests and
how busy each core was. Pixel id = y * width + x, from the top left.

  --scene NAME          a built-in scene instead of a file: ${Object.keys(BUILT_IN_SCENES).join('|')} (bunny: the
                        Stanford bunny in the Cornell box, 3,710 triangles; textured: the Cornell box
                        with a mip-mapped checkerboard texture on its floor (the textured kernel: the
                        GPU gets a texture unit without being asked);
                        bunnies: six instances of one bunny mesh in the Cornell box, 22,080 triangles;
                        rods: 36 chains of thin links in three sets at their own tilts in the Cornell box, 6,948
                        triangles, the scene for --bvh8 --obb)
  --bvh                 trace through a BVH (the IC cores' BVH traversal): the scene's BVH is built, or
                        a .hex/.bin SCENE must be a BVH scene image (docs/host.md)
  --bvh8                trace through a GFX12 BVH8 (the BVH8 IC cores): the scene's BVH8 is built
                        (a .hex/.bin SCENE is a triangle-memory image; a .scene file and --scene
                        bunnies become a two-level image of instance nodes over one BLAS per mesh)
  --obb                 with --bvh8: build the BVH8 with oriented boxes (a box node's children in a
                        rotated frame where that lowers the SAH cost; docs/bvh.md "Oriented boxes")
  --brute-force         test every triangle (the brute-force IC cores). Default for an OBJ or built-in
                        scene: a BVH above ${AUTO_BVH_TRIANGLES} triangles, brute force up to it; a .hex/.bin image
                        is brute force unless --bvh

  --width W             image width, 1-${MAX_SIZE} (default ${DEFAULT_FRAME_SIZE.width})
  --height H            image height, 1-${MAX_SIZE} (default ${DEFAULT_FRAME_SIZE.height})
  --out FILE            the PNG to write (default render.png)
  --kernel K            ${KERNELS.join('|')} (default ${DEFAULT_KERNEL}; textured for --scene textured and for a
                        scene whose materials have map_Kd textures)
  --filter F            the textured kernel's texture filter: ${FILTERS.join('|')} (default trilinear)
  --eye X,Y,Z           camera position
  --look X,Y,Z          the point the camera looks at
  --up X,Y,Z            the up direction
  --fov DEG             vertical field of view in degrees, between 0 and 180
                        Defaults: for a SCENE file, auto-framed from its bounds (look at their centre
                        from the +z side, the bounding sphere fitting the view, up +y, fov ${defaultCamera.fov}; printed
                        as a 'camera:' line); each flag given replaces only its part (--fov also sets
                        how far the auto eye stands). Built-in scenes: eye ${vec(defaultCamera.eye)}, look
                        ${vec(defaultCamera.look)}, up ${vec(defaultCamera.up)}, fov ${defaultCamera.fov}; textured: eye
                        ${vec(TEXTURED_CAMERA.eye)}, look ${vec(TEXTURED_CAMERA.look)}, fov ${TEXTURED_CAMERA.fov}.
  --light X,Y,Z         a point light of the shade kernel; repeat for more, up to ${SHADE_LAYOUT.maxLights} (N lights share the
                        built-in lights' warm white equally). Default: a SCENE file gets two lights
                        above and in front of its bounds' centre (printed as a 'lights:' line), a
                        built-in scene its own two lights
${gpuSimUsage('ts')}
${verilatorBuildUsage(24)}
${gpuFlagsUsage}
  --jobs N              GPU instances in worker threads, each rendering whole patches of the frame
                        (TS simulator only; default: one per core for frames of 8 patches a core or more,
                        else 1); the image is the same whatever N, the counters add up over the instances
  --dump FILE           also write every pixel's returned vector as JSON (as 'rtgpu run --json')
  --vcd FILE            write a VCD waveform of the whole run (not with --sim iss; with lockstep, one
                        file per simulator: FILE with .ts, .verilator or .icarus before .vcd)

With --sim iss the --max-cycles limit is per thread (instructions; default ${DEFAULT_MAX_CYCLES}).
A run stopped at --max-cycles (or at the ISS's limit) still writes the PNG, the unfinished pixels
magenta (255,0,255), reports the stuck threads and exits with status 1. If pixels faulted, the PNG
and statistics are written and the exit status is ${FAULT_EXIT_STATUS}.`;

const flags = {
  width: { type: 'string' },
  height: { type: 'string' },
  out: { type: 'string', short: 'o' },
  kernel: { type: 'string' },
  filter: { type: 'string' },
  eye: { type: 'string' },
  look: { type: 'string' },
  up: { type: 'string' },
  fov: { type: 'string' },
  light: { type: 'string', multiple: true },
  sim: { type: 'string' },
  'verilator-build': { type: 'string' },
  scene: { type: 'string' },
  bvh: { type: 'boolean' },
  bvh8: { type: 'boolean' },
  obb: { type: 'boolean' },
  'brute-force': { type: 'boolean' },
  ...gpuFlagOptions,
  dump: { type: 'string' },
  jobs: { type: 'string' },
  vcd: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

// A decimal number as people type it (no hex, inf or nan).
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function numberFlag(name: string, text: string): number {
  if (!NUMBER.test(text.trim())) throw new CliError(`--${name} expects a number, got '${text}'`);
  const x = Number(text);
  if (!Number.isFinite(Math.fround(x))) throw new CliError(`--${name}: ${text} is out of binary32 range`);
  return x;
}

/** `x,y,z`: exactly three finite numbers; undefined when not given (and no fallback). */
function vectorFlag(name: string, value: string | undefined): Vec3 | undefined;
function vectorFlag(name: string, value: string | undefined, fallback: Vec3): Vec3;
function vectorFlag(name: string, value: string | undefined, fallback?: Vec3): Vec3 | undefined {
  if (value === undefined) return fallback;
  const parts = value.split(',');
  if (parts.length !== 3) throw new CliError(`--${name} expects three numbers x,y,z, got '${value}'`);
  const bad = parts.find((p) => !NUMBER.test(p.trim()));
  if (bad !== undefined) throw new CliError(`--${name} expects three numbers x,y,z, got '${value}' ('${bad}' is not a number)`);
  return parts.map((p) => numberFlag(name, p)) as unknown as Vec3;
}

function fovFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const fov = numberFlag('fov', value);
  if (!(fov > 0 && fov < 180)) throw new CliError(`--fov must be between 0 and 180 degrees (exclusive), got ${value}`);
  return fov;
}

/** `--light X,Y,Z`, repeated: the light positions (undefined when none is given). */
function lightsFlag(values: readonly string[] | undefined, kernel: KernelName): Vec3[] | undefined {
  if (values === undefined || values.length === 0) return undefined;
  if (kernel === 'id') throw new CliError(`--light: the ${kernel} kernel draws no lighting (lights are for --kernel shade or textured)`);
  if (values.length > SHADE_LAYOUT.maxLights) throw new CliError(`--light: the shade kernel takes at most ${SHADE_LAYOUT.maxLights} lights, got ${values.length}`);
  return values.map((v) => {
    if (v.split(',').length !== 3) throw new CliError(`--light expects three numbers x,y,z (one light per --light), got '${v}'`);
    return vectorFlag('light', v);
  }) as Vec3[];
}

/** --kernel, or by default `textured` for --scene textured (a scene file's textures are known once it is loaded: RenderPlan.kernelGiven). */
function chooseKernel(value: string | undefined, sceneName: string | undefined): KernelName {
  const kernel = value ?? (sceneName === 'textured' ? 'textured' : DEFAULT_KERNEL);
  if (!(KERNELS as readonly string[]).includes(kernel)) throw new CliError(`--kernel: unknown kernel '${kernel}' (choose from ${KERNELS.join(', ')})`);
  return kernel as KernelName;
}

/** The camera checks of cameraConstants, with messages that name the flags. */
export function checkCamera(camera: Camera, width: number, height: number): void {
  const d = [0, 1, 2].map((i) => camera.look[i]! - camera.eye[i]!);
  if (d.every((x) => x === 0)) throw new CliError(`--look must differ from --eye (both ${vec(camera.eye)})`);
  const len = Math.hypot(d[0]!, d[1]!, d[2]!);
  const f = d.map((x) => x / len);
  const u = camera.up;
  if (u.every((x) => x === 0)) throw new CliError('--up must not be 0,0,0');
  const side = Math.hypot(f[1]! * u[2] - f[2]! * u[1], f[2]! * u[0] - f[0]! * u[2], f[0]! * u[1] - f[1]! * u[0]);
  if (side < 1e-9) throw new CliError(`--up ${vec(u)} is parallel to the viewing direction (from --eye to --look)`);
  try {
    cameraConstants(camera, width, height);
  } catch (e) {
    throw new CliError(`bad camera: ${(e as Error).message}`);
  }
}

/** `--filter`: a texture filter, only for a kernel that samples textures. */
function filterFlag(value: string | undefined, kernel: KernelName, kernelGiven: boolean): FilterModeName | undefined {
  if (value === undefined) return undefined;
  if (!(FILTERS as string[]).includes(value)) throw new CliError(`--filter: unknown texture filter '${value}' (choose from ${FILTERS.join(', ')})`);
  if (kernelGiven && kernel !== 'textured') throw new CliError(`--filter: the ${kernel} kernel samples no textures (the filter is for --kernel textured)`);
  return value as FilterModeName;
}

/** `--jobs`: workers only on the TS simulator and without --vcd; the default scales with the frame. */
function jobsFlag(value: string | undefined, sim: string, pixels: number, vcd: boolean): number {
  if (value === undefined) return sim === 'ts' && !vcd ? defaultRenderJobs(pixels) : 1;
  const jobs = intFlag('jobs', value, 1, 1, 64);
  if (jobs > 1 && sim !== 'ts') throw new CliError(`--jobs ${jobs}: render workers run the TS simulator only (--sim ts), not ${sim}`);
  if (jobs > 1 && vcd) throw new CliError(`--jobs ${jobs}: --vcd records one GPU instance; use --jobs 1`);
  return jobs;
}

export interface RenderPlan {
  /** A scene file, or a built-in scene's name; neither: the built-in Cornell box. */
  readonly sceneFile?: string;
  readonly sceneName?: string;
  /** Given, or brute force for a triangle image; undefined: chosen by the scene's size. */
  readonly asked?: Traversal;
  /** --obb: the BVH8 built with oriented boxes (only with --bvh8). */
  readonly obb: boolean;
  readonly width: number;
  readonly height: number;
  readonly kernel: KernelName;
  /** --kernel was given (otherwise a scene file whose materials have textures gets the textured kernel). */
  readonly kernelGiven: boolean;
  /** --filter: the textured kernel's sampler filter (default trilinear). */
  readonly filter?: FilterModeName;
  /** The camera parts given; the rest is the built-in camera's, or for a scene file framed from its bounds. */
  readonly given: Partial<Camera>;
  /** The given parts, the built-in camera's for the rest. */
  readonly fixedCamera: Camera;
  readonly lightPositions?: Vec3[];
  readonly choice: GpuSimChoice;
  readonly gpu: GpuFlags;
  readonly out: string;
  readonly dump?: string;
  readonly vcd?: string;
  readonly jobs: number;
}

/** `--scene NAME`: a built-in scene (own names only: 'constructor' is none). */
function builtInSceneFlag(name: string | undefined): string | undefined {
  if (name !== undefined && !Object.hasOwn(BUILT_IN_SCENES, name)) throw new CliError(`--scene: unknown built-in scene '${name}' (choose from ${Object.keys(BUILT_IN_SCENES).join(', ')}; a scene file is the SCENE argument)`);
  return name;
}

export function parseRenderArgs(argv: string[]): RenderPlan | HelpPlan {
  const { values, positionals } = parseFlags(argv, flags, usage);
  if (values.help) return HELP;
  if (positionals.length > 1) throw new CliError(`expected at most one scene file, got ${positionals.length}\n\n${usage}`);
  const sceneFile = positionals[0];
  if (sceneFile !== undefined && values.scene !== undefined) throw new CliError(`give a scene file or --scene ${values.scene}, not both`);
  const kinds = (['bvh', 'bvh8', 'brute-force'] as const).filter((k) => values[k]).map((k) => `--${k}`);
  if (kinds.length > 1) throw new CliError(`give ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}, not ${kinds.length === 2 ? 'both' : 'all'}`);
  if (values.obb && !values.bvh8) throw new CliError(obbNeedsBvh8(values.bvh ? '--bvh' : values['brute-force'] ? '--brute-force' : undefined));
  // Given, or for a triangle image brute force unless --bvh or --bvh8; otherwise chosen by the scene's size.
  const asked: Traversal | undefined = values.bvh ? 'bvh' : values.bvh8 ? 'bvh8' : values['brute-force'] || (sceneFile !== undefined && isTriangleImage(sceneFile)) ? 'brute-force' : undefined;
  const width = intFlag('width', values.width, DEFAULT_FRAME_SIZE.width, 1, MAX_SIZE);
  const height = intFlag('height', values.height, DEFAULT_FRAME_SIZE.height, 1, MAX_SIZE);
  const sceneName = builtInSceneFlag(values.scene);
  const kernel = chooseKernel(values.kernel, sceneName);
  const kernelGiven = values.kernel !== undefined;
  const filter = filterFlag(values.filter, kernel, kernelGiven || sceneName !== undefined);
  const given: Partial<Camera> = { eye: vectorFlag('eye', values.eye), look: vectorFlag('look', values.look), up: vectorFlag('up', values.up), fov: fovFlag(values.fov) };
  const lightPositions = lightsFlag(values.light, kernel);
  const base = (sceneName !== undefined ? BUILT_IN_SCENES[sceneName]!.camera : undefined) ?? defaultCamera;
  const fixedCamera: Camera = { eye: given.eye ?? base.eye, look: given.look ?? base.look, up: given.up ?? base.up, fov: given.fov ?? base.fov };
  if (sceneFile === undefined) checkCamera(fixedCamera, width, height);
  const choice = gpuSimFlag(values.sim, 'ts', values['verilator-build']);
  // The ISS's limit is per thread: it does not grow with the frame.
  const gpu = gpuFlags(values, choice.sim === 'iss' ? 0 : width * height);
  if (values.vcd !== undefined && choice.sim === 'iss') throw new CliError('--vcd needs a simulator of the RTL (ts, verilator, icarus or lockstep), not --sim iss');
  const jobs = jobsFlag(values.jobs, choice.sim, width * height, values.vcd !== undefined);
  if (sceneFile !== undefined && !isInstancedSceneFile(sceneFile)) checkSceneFileKind(sceneFile);
  return { sceneFile, sceneName, asked, obb: values.obb ?? false, width, height, kernel, kernelGiven, filter, given, fixedCamera, lightPositions, choice, gpu, out: values.out ?? 'render.png', dump: values.dump, vcd: values.vcd, jobs };
}

export { usage as renderUsage, flags as renderOptions };
