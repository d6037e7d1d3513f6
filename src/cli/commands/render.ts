// `rtgpu render`: render a scene through the simulated GPU to a PNG and print the run's statistics.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseFlags, intFlag } from '../args.ts';
import { CliError, FAULT_EXIT_STATUS } from '../cliError.ts';
import { checkSceneFileKind, isTriangleImage, loadTriangles, parseInput, sameFile } from '../inputFiles.ts';
import { DEFAULT_MAX_CYCLES, gpuFlagOptions, gpuFlags, gpuFlagsUsage, gpuSimFlag, gpuSimUsage, type GpuSimChoice } from '../gpuFlags.ts';
import { ProgressBar, buildLog } from '../progress.ts';
import { faultNote, formatRunJson, someIds } from './run.ts';
import { writeOutput } from './asm.ts';
import { SceneError, triangleCount, type Scene } from '../../golden/scene.ts';
import { loadObjFile, type Light, type Material } from '../../golden/materials.ts';
import { defaultScene } from '../../golden/defaultScene.ts';
import { bunnyInBox } from '../../golden/sceneLibrary.ts';
import type { Traversal } from '../../golden/iss/sceneTracer.ts';
import type { Bvh4 } from '../../bvh/index.ts';
import { DEFAULT_FRAME_SIZE, SHADE_LAYOUT, buildFrame, checkSceneFits, defaultBvhCapacity, pixelsToImage, type FrameSpec } from '../../host/frame.ts';
import { autoCamera, autoLights, lightsAt, sceneBounds } from '../../host/autoFrame.ts';
import { cameraConstants, defaultCamera, type Camera, type Vec3 } from '../../host/camera.ts';
import { encodePng } from '../../host/png.ts';
import { KERNELS, type KernelName } from '../../host/kernels/index.ts';
import { GpuRunError, defaultRenderJobs, runGpu, type GpuRunResult, type PartialRun } from '../../host/runtime/index.ts';

/** Scenes `--scene NAME` selects; both use the built-in materials and lights. */
const BUILT_IN_SCENES: Readonly<Record<string, () => Scene>> = { cornell: defaultScene, bunny: bunnyInBox };

const DEFAULT_KERNEL: KernelName = ((KERNELS as readonly string[]).includes('shade') ? 'shade' : 'id') as KernelName;
const MAX_SIZE = 4096;
/**
 * Above this many triangles a scene is traced through a BVH unless --brute-force: the brute-force IC
 * core tests every triangle for every ray (the built-in Cornell box has 36), the BVH core a few nodes
 * and leaves.
 */
export const AUTO_BVH_TRIANGLES = 64;
const vec = (v: Vec3): string => v.join(',');

const usage = `usage: rtgpu render [SCENE | --scene NAME] [--bvh | --brute-force] [--width W] [--height H] [--out FILE] [options]

Renders SCENE (a Wavefront OBJ file .obj with its mtllib materials, or a triangle-memory image .hex/.bin;
default: the built-in Cornell box) through the simulated GPU to a PNG, then prints the cycles, rays, triangle tests and
how busy each core was. Pixel id = y * width + x, from the top left.

  --scene NAME          a built-in scene instead of a file: ${Object.keys(BUILT_IN_SCENES).join('|')} (bunny: the
                        Stanford bunny in the Cornell box, 3,710 triangles)
  --bvh                 trace through a BVH (the IC cores' BVH traversal): the scene's BVH is built, or
                        a .hex/.bin SCENE must be a BVH scene image (docs/host.md)
  --brute-force         test every triangle (the brute-force IC cores). Default for an OBJ or built-in
                        scene: a BVH above ${AUTO_BVH_TRIANGLES} triangles, brute force up to it; a .hex/.bin image
                        is brute force unless --bvh

  --width W             image width, 1-${MAX_SIZE} (default ${DEFAULT_FRAME_SIZE.width})
  --height H            image height, 1-${MAX_SIZE} (default ${DEFAULT_FRAME_SIZE.height})
  --out FILE            the PNG to write (default render.png)
  --kernel K            ${KERNELS.join('|')} (default ${DEFAULT_KERNEL})
  --eye X,Y,Z           camera position
  --look X,Y,Z          the point the camera looks at
  --up X,Y,Z            the up direction
  --fov DEG             vertical field of view in degrees, between 0 and 180
                        Defaults: for a SCENE file, auto-framed from its bounds (look at their centre
                        from the +z side, the bounding sphere fitting the view, up +y, fov ${defaultCamera.fov}; printed
                        as a 'camera:' line); each flag given replaces only its part (--fov also sets
                        how far the auto eye stands). Built-in scenes: eye ${vec(defaultCamera.eye)}, look
                        ${vec(defaultCamera.look)}, up ${vec(defaultCamera.up)}, fov ${defaultCamera.fov}.
  --light X,Y,Z         a point light of the shade kernel; repeat for more, up to ${SHADE_LAYOUT.maxLights} (N lights share the
                        built-in lights' warm white equally). Default: a SCENE file gets two lights
                        above and in front of its bounds' centre (printed as a 'lights:' line), a
                        built-in scene its own two lights
${gpuSimUsage('ts')}
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
  eye: { type: 'string' },
  look: { type: 'string' },
  up: { type: 'string' },
  fov: { type: 'string' },
  light: { type: 'string', multiple: true },
  sim: { type: 'string' },
  scene: { type: 'string' },
  bvh: { type: 'boolean' },
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
  if (kernel !== 'shade') throw new CliError(`--light: the ${kernel} kernel draws no lighting (lights are for --kernel shade)`);
  if (values.length > SHADE_LAYOUT.maxLights) throw new CliError(`--light: the shade kernel takes at most ${SHADE_LAYOUT.maxLights} lights, got ${values.length}`);
  return values.map((v) => {
    if (v.split(',').length !== 3) throw new CliError(`--light expects three numbers x,y,z (one light per --light), got '${v}'`);
    return vectorFlag('light', v);
  }) as Vec3[];
}

/** An auto-framed camera or auto-placed light far out of binary32 range (a scene near the range's end). */
function checkInRange(name: string, points: readonly Vec3[], what: string, flags: string): void {
  if (points.some((p) => p.some((x) => !Number.isFinite(Math.fround(x))))) throw new CliError(`${name}: the scene is too large to place the ${what} automatically (out of binary32 range); give ${flags}`, 1);
}

function chooseKernel(value: string | undefined): KernelName {
  const kernel = value ?? DEFAULT_KERNEL;
  if (!(KERNELS as readonly string[]).includes(kernel)) throw new CliError(`--kernel: unknown kernel '${kernel}' (choose from ${KERNELS.join(', ')})`);
  return kernel as KernelName;
}

/** The camera checks of cameraConstants, with messages that name the flags. */
function checkCamera(camera: Camera, width: number, height: number): void {
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

/** Each output must be writable somewhere, must not be an input, and outputs must differ. */
function checkOutputs(outputs: readonly (readonly [flag: string, file: string | undefined])[], input: string | undefined): void {
  const given = outputs.filter((o): o is readonly [string, string] => o[1] !== undefined);
  for (const [flag, file] of given) {
    if (input !== undefined && sameFile(file, input)) throw new CliError(`${flag} ${file} is the scene file; refusing to overwrite an input`);
    if (/\.(obj|mtl)$/i.test(file)) throw new CliError(`${flag} ${file}: refusing to write over a scene file (.obj/.mtl)`);
    const dir = dirname(resolve(file));
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`${flag} ${file}: directory ${dir} does not exist`, 1);
    if (existsSync(file) && statSync(file).isDirectory()) throw new CliError(`${flag} ${file} is a directory`, 1);
  }
  for (let i = 0; i < given.length; i++)
    for (let j = i + 1; j < given.length; j++) if (sameFile(given[i]![1], given[j]![1])) throw new CliError(`${given[i]![0]} and ${given[j]![0]} name the same file ${given[j]![1]}`);
}

interface LoadedScene {
  readonly scene: Scene;
  /** The scene's name in messages. */
  readonly name: string;
  /** For an OBJ file: its materials (from its mtllib files); otherwise the built-in ones. */
  readonly materials?: readonly Material[];
  /** A BVH scene image's BVH (`scene` then in its order). */
  readonly bvh?: Bvh4;
  /** A scene file (not a built-in scene): its default camera and lights come from its bounds. */
  readonly fromFile?: boolean;
}

const pickSceneAndBvh = ({ scene, bvh }: { scene: Scene; bvh?: Bvh4 }) => ({ scene, bvh });

/** The scene of a file or a built-in name; default: the built-in Cornell box. */
function loadScene(file: string | undefined, name: string | undefined, traversal: Traversal): LoadedScene {
  if (name !== undefined) {
    const make = BUILT_IN_SCENES[name];
    if (make === undefined) throw new CliError(`--scene: unknown built-in scene '${name}' (choose from ${Object.keys(BUILT_IN_SCENES).join(', ')}; a scene file is the SCENE argument)`);
    return { scene: make(), name: `--scene ${name}` };
  }
  if (file === undefined) return { scene: defaultScene(), name: '<scene>' };
  checkSceneFileKind(file);
  const image = isTriangleImage(file);
  const loaded: LoadedScene = image ? { ...pickSceneAndBvh(loadTriangles(file, traversal)), name: file, fromFile: true } : { ...parseInput(() => loadObjFile(file)), name: file, fromFile: true };
  // Otherwise a file that is no scene at all (a PLY, say) renders as sky and exits 0.
  if (triangleCount(loaded.scene) === 0) throw new CliError(`${file}: no triangles${image ? '' : " (no 'f' faces)"} — nothing to render`, 1);
  return loaded;
}

/** Brute force: the scene must fit the triangle memory; if only the BVH IC cores hold it, say so. */
function checkBruteForceFits(scene: Scene, name: string): void {
  try {
    checkSceneFits(scene, name);
  } catch (e) {
    if (!(e instanceof SceneError)) throw e;
    const c = defaultBvhCapacity;
    try {
      checkSceneFits(scene, name, c);
    } catch {
      throw new CliError(e.message, 1);
    }
    throw new CliError(`${e.message} (without --brute-force, through a BVH: ${c.triangles} triangles and ${c.vertices} vertices)`, 1);
  }
}

/** The `camera:` and `lights:` lines of a scene file's auto-framed camera and auto-placed lights (nothing when all was given). */
export function autoFrameLines(given: Partial<Camera>, camera: Camera, autoLights: readonly Light[] | undefined): string {
  const lines: string[] = [];
  const parts = ['eye', 'look', 'up', 'fov'] as const;
  const auto = parts.filter((p) => given[p] === undefined);
  if (auto.length > 0) {
    const which = auto.length === parts.length ? 'auto-framed from the scene bounds' : `${auto.join(', ')} auto-framed from the scene bounds, the rest given`;
    lines.push(`camera: eye ${vec(camera.eye)} look ${vec(camera.look)} up ${vec(camera.up)} fov ${camera.fov} (${which}; --eye, --look, --up, --fov set each part)`);
  }
  if (autoLights !== undefined) lines.push(`lights: ${autoLights.map((l) => vec(l.position)).join(' and ')} (auto-placed from the scene bounds; --light X,Y,Z per light sets them)`);
  return lines.map((l) => l + '\n').join('');
}

const percent = (part: number, whole: number): string => `${whole > 0 ? ((100 * part) / whole).toFixed(1) : '0.0'}%`;

/** The statistics printed after a render (stdout), one `name: value` per line. */
export function formatRenderStats(opts: { width: number; height: number; out: string; kernel: string; sim: string; traversal?: Traversal; dump?: string }, r: GpuRunResult): string {
  const s = r.stats;
  const iss = opts.sim === 'iss';
  const lines = [`image: ${opts.width}x${opts.height} pixels -> ${opts.out} (kernel ${opts.kernel}${opts.traversal === 'bvh' ? ', BVH traversal' : ''})`];
  const instances = (s.gpus ?? 1) > 1 ? ` in each of ${s.gpus} GPU instances (render workers)` : '';
  if (s.rtBusyCycles.length || s.icBusyCycles.length) lines.push(`sim: ${opts.sim}, ${s.rtBusyCycles.length} RT cores, ${s.icBusyCycles.length} IC cores${instances}`);
  else lines.push(`sim: ${opts.sim}${iss ? ' (ISA simulator: cycles = instructions, no per-core figures)' : ''}`);
  const gpus = s.gpus ?? 1;
  lines.push(`cycles: ${s.cycles}${gpus > 1 ? ` (summed over ${gpus} GPU instances)` : ''}`, `instructions: ${s.instructions}`);
  if (!iss || s.rays > 0) lines.push(`rays: ${s.rays}`, `triangle tests: ${s.triangleTests}`);
  if (opts.traversal === 'bvh' || s.nodeTests > 0) lines.push(`node tests: ${s.nodeTests}`);
  // A multithreaded core is busy while it holds a thread; it is used in the cycles it issues an instruction.
  if (s.rtIssueCycles.length) lines.push(`RT core utilization (cycles issuing): ${s.rtIssueCycles.map((b) => percent(b, s.cycles)).join(' ')}`);
  if (s.icBusyCycles.length) lines.push(`IC core utilization: ${s.icBusyCycles.map((b) => percent(b, s.cycles)).join(' ')}`);
  if (r.faults.length) lines.push(`faults: ${r.faults.length} pixels (${someIds(r.faults)})`);
  const setup = s.setupSeconds >= 0.005 ? ` (${s.setupSeconds.toFixed(2)} s of it elaborating the GPU and compiling or loading the simulator)` : '';
  lines.push(`wall time: ${s.wallSeconds.toFixed(2)} s${setup}`);
  const running = s.wallSeconds - s.setupSeconds;
  const rate = running > 0 ? Math.round(s.cycles / running) : 0;
  lines.push(iss ? `speed: ${rate} instructions/s` : `speed: ${rate} simulated cycles/s`);
  if (opts.dump !== undefined) lines.push(`dump: ${opts.dump}`);
  return lines.join('\n') + '\n';
}

/** `--jobs`: workers only on the TS simulator and without --vcd; the default scales with the frame. */
function jobsFlag(value: string | undefined, sim: string, pixels: number, vcd: boolean): number {
  if (value === undefined) return sim === 'ts' && !vcd ? defaultRenderJobs(pixels) : 1;
  const jobs = intFlag('jobs', value, 1, 1, 64);
  if (jobs > 1 && sim !== 'ts') throw new CliError(`--jobs ${jobs}: render workers run the TS simulator only (--sim ts), not ${sim}`);
  if (jobs > 1 && vcd) throw new CliError(`--jobs ${jobs}: --vcd records one GPU instance; use --jobs 1`);
  return jobs;
}

async function execute(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, flags, usage);
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (positionals.length > 1) throw new CliError(`expected at most one scene file, got ${positionals.length}\n\n${usage}`);
  const sceneFile = positionals[0];
  if (sceneFile !== undefined && values.scene !== undefined) throw new CliError(`give a scene file or --scene ${values.scene}, not both`);
  if (values.bvh && values['brute-force']) throw new CliError('give --bvh or --brute-force, not both');
  // Given, or for a triangle image brute force unless --bvh; otherwise chosen by the scene's size below.
  const asked: Traversal | undefined = values.bvh ? 'bvh' : values['brute-force'] || (sceneFile !== undefined && isTriangleImage(sceneFile)) ? 'brute-force' : undefined;
  const width = intFlag('width', values.width, DEFAULT_FRAME_SIZE.width, 1, MAX_SIZE);
  const height = intFlag('height', values.height, DEFAULT_FRAME_SIZE.height, 1, MAX_SIZE);
  const kernel = chooseKernel(values.kernel);
  // The camera parts given; the rest is the built-in camera's, or for a scene file framed from its bounds.
  const given: Partial<Camera> = { eye: vectorFlag('eye', values.eye), look: vectorFlag('look', values.look), up: vectorFlag('up', values.up), fov: fovFlag(values.fov) };
  const lightPositions = lightsFlag(values.light, kernel);
  const fixedCamera: Camera = { eye: given.eye ?? defaultCamera.eye, look: given.look ?? defaultCamera.look, up: given.up ?? defaultCamera.up, fov: given.fov ?? defaultCamera.fov };
  if (sceneFile === undefined) checkCamera(fixedCamera, width, height);
  const choice: GpuSimChoice = gpuSimFlag(values.sim, 'ts');
  const sim = choice.sim;
  // The ISS's limit is per thread: it does not grow with the frame.
  const gpu = gpuFlags(values, sim === 'iss' ? 0 : width * height);
  if (values.vcd !== undefined && sim === 'iss') throw new CliError('--vcd needs a simulator of the RTL (ts, verilator, icarus or lockstep), not --sim iss');
  const out = values.out ?? 'render.png';
  checkOutputs([['--out', out], ['--dump', values.dump], ['--vcd', values.vcd]], sceneFile);
  const jobs = jobsFlag(values.jobs, sim, width * height, values.vcd !== undefined);

  const { scene, name, materials, bvh, fromFile } = loadScene(sceneFile, values.scene, asked ?? 'brute-force');
  const bounds = fromFile ? sceneBounds(scene) : undefined;
  const camera = bounds === undefined ? fixedCamera : autoCamera(bounds, given, width / height);
  checkInRange(name, [camera.eye, camera.look], 'camera', '--eye and --look');
  checkCamera(camera, width, height);
  const autoLit = lightPositions === undefined && bounds !== undefined && kernel === 'shade';
  const lights: Light[] | undefined = lightPositions !== undefined ? lightsAt(lightPositions) : autoLit ? autoLights(bounds, camera) : undefined;
  if (autoLit) checkInRange(name, lights!.map((l) => l.position), 'lights', '--light');
  const traversal: Traversal = asked ?? (triangleCount(scene) > AUTO_BVH_TRIANGLES ? 'bvh' : 'brute-force');
  if (traversal === 'brute-force') checkBruteForceFits(scene, name);
  const spec: FrameSpec = { kernel, camera, width, height, scene, sceneFile: name, materials, lights, traversal, bvh };
  const job = parseInput(() => buildFrame(spec));
  // What was placed automatically, so the user can reproduce or adjust it with flags.
  if (bounds !== undefined) process.stdout.write(autoFrameLines(given, camera, autoLit ? lights! : undefined));

  const simName = sim === 'lockstep' ? `lockstep ${choice.lockstep!.join(',')}` : sim;
  const bar = new ProgressBar(`render ${width}x${height} on ${simName}`);
  let result: GpuRunResult;
  try {
    result = await runGpu(job, {
      sim,
      lockstep: choice.lockstep,
      log: buildLog(() => bar.clear()),
      rtCores: gpu.rtCores,
      icCores: gpu.icCores,
      maxCycles: gpu.maxCycles,
      vcd: values.vcd,
      jobs,
      onProgress: (done, total, cycles) => bar.update(done, total, cycles),
    });
  } catch (e) {
    if (e instanceof GpuRunError && e.partial) throw new CliError(writePartialImage(spec, out, e.message, e.partial), 1);
    if (e instanceof GpuRunError || e instanceof SceneError) throw new CliError(e.message, 1);
    throw e;
  } finally {
    bar.clear();
  }

  writeOutput(out, encodePng(width, height, pixelsToImage(spec, result.pixels)));
  if (values.dump !== undefined) writeOutput(values.dump, formatRunJson({ cycles: result.stats.cycles, instructions: result.stats.instructions, pixels: result.pixels, faults: result.faults }));
  process.stdout.write(formatRenderStats({ width, height, out, kernel, sim: simName, traversal, dump: values.dump }, result));
  if (!result.faults.length) return 0;
  process.stderr.write(faultNote(result.faults, `wrote ${out}`));
  return FAULT_EXIT_STATUS;
}

/** The colour of the pixels a stopped render did not finish: magenta, which no lit scene is likely to show. */
export const UNFINISHED_RGB = [255, 0, 255] as const;

/** Write the PNG of what a stopped run finished (the rest UNFINISHED_RGB); returns the message saying why it stopped and what was written. */
function writePartialImage(spec: FrameSpec, out: string, why: string, partial: PartialRun): string {
  const total = spec.width * spec.height;
  const rgb = pixelsToImage(spec, partial.pixels);
  const finished = new Uint8Array(total);
  for (const p of partial.pixels) finished[p.pixel] = 1;
  finished.forEach((f, i) => f || rgb.set(UNFINISHED_RGB, 3 * i));
  writeOutput(out, encodePng(spec.width, spec.height, rgb));
  const wrote = `wrote partial image ${out} (${partial.pixels.length} of ${total} pixels; unfinished pixels are magenta)`;
  const faults = partial.faults.length ? `\nfaults: ${partial.faults.length} pixels (${someIds(partial.faults)})` : '';
  const { maxCycles } = partial;
  return maxCycles === undefined ? `${why}\n${wrote}${faults}` : `stopped after ${maxCycles} cycles (--max-cycles ${maxCycles}): ${wrote}\n${why}${faults}`;
}

export const renderCommand = {
  summary: 'render a scene through the simulated GPU to a PNG',
  run: execute,
};
