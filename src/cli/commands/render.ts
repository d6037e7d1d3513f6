// `rtgpu render`: render a scene through the simulated GPU to a PNG and print the run's statistics.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, FAULT_EXIT_STATUS } from '../cliError.ts';
import { defineCommand } from '../command.ts';
import { isInstancedSceneFile, isTriangleImage, loadTriangles, parseInput, sameFile } from '../inputFiles.ts';
import { ProgressBar, buildLog } from '../progress.ts';
import { faultNote, formatRunJson, someIds } from './run.ts';
import { writeOutput } from './asm.ts';
import { textureStatsLines } from './textureStatsText.ts';
import { AUTO_BVH_TRIANGLES, BUILT_IN_SCENES, checkCamera, parseRenderArgs, renderOptions, renderUsage, vec, type RenderPlan } from './renderArgs.ts';
import { SceneError, triangleCount, type Scene } from '../../golden/scene.ts';
import { loadObjFile, type Light, type Material } from '../../scenes/materials.ts';
import { defaultScene } from '../../scenes/defaultScene.ts';
import { flattenInstances, type InstancedScene } from '../../scenes/instancedScene.ts';
import { loadInstancedSceneFile } from '../../scenes/instancedSceneFile.ts';
import type { Traversal } from '../../iss/sceneTracer.ts';
import type { Bvh4 } from '../../bvh/index.ts';
import { buildFrame, checkSceneFits, defaultBvhCapacity, pixelsToImage, usesInstances, type FrameSpec } from '../../host/frame.ts';
import { autoCamera, autoLights, lightsAt, sceneBounds } from '../../host/autoFrame.ts';
import type { Camera, Vec3 } from '../../host/camera.ts';
import { encodePng } from '../../host/png.ts';
import { GpuRunError, runGpu, type GpuRunResult, type PartialRun } from '../../host/runtime/index.ts';

export { AUTO_BVH_TRIANGLES };

/** An auto-framed camera or auto-placed light far out of binary32 range (a scene near the range's end). */
function checkInRange(name: string, points: readonly Vec3[], what: string, flags: string): void {
  if (points.some((p) => p.some((x) => !Number.isFinite(Math.fround(x))))) throw new CliError(`${name}: the scene is too large to place the ${what} automatically (out of binary32 range); give ${flags}`, 1);
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
  /** For an OBJ file: its materials (from its mtllib files); for a built-in scene with its own, those; otherwise the built-in ones. */
  readonly materials?: readonly Material[];
  /** A BVH scene image's BVH (`scene` then in its order). */
  readonly bvh?: Bvh4;
  /** A scene file (not a built-in scene): its default camera and lights come from its bounds. */
  readonly fromFile?: boolean;
  /** A scene of instances (`scene` their flattening): a --bvh8 render loads their two-level image. */
  readonly instanced?: InstancedScene;
}

const pickSceneAndBvh = ({ scene, bvh }: { scene: Scene; bvh?: Bvh4 }) => ({ scene, bvh });

/** The scene of a file or a built-in name; default: the built-in Cornell box. */
function loadScene(file: string | undefined, name: string | undefined, traversal: Traversal): LoadedScene {
  if (name !== undefined) {
    const builtIn = BUILT_IN_SCENES[name]!;
    return { scene: builtIn.scene(), name: `--scene ${name}`, ...(builtIn.materials ? { materials: builtIn.materials() } : {}), ...(builtIn.instanced ? { instanced: builtIn.instanced() } : {}) };
  }
  if (file === undefined) return { scene: defaultScene(), name: '<scene>' };
  if (isInstancedSceneFile(file)) return loadInstancedScene(file);
  const image = isTriangleImage(file);
  const loaded: LoadedScene = image ? { ...pickSceneAndBvh(loadTriangles(file, traversal)), name: file, fromFile: true } : { ...parseInput(() => loadObjFile(file)), name: file, fromFile: true };
  // Otherwise a file that is no scene at all (a PLY, say) renders as sky and exits 0.
  if (triangleCount(loaded.scene) === 0) throw new CliError(`${file}: no triangles${image ? '' : " (no 'f' faces)"} — nothing to render`, 1);
  return loaded;
}

/**
 * A `.scene` file: with --bvh8 its two-level BVH8 image (instance nodes over one BLAS per mesh, which the BVH8 IC cores
 * walk); otherwise its instances flattened into one triangle list on the host (vertices transformed, instance by
 * instance) (docs/bvh.md "Instances").
 */
function loadInstancedScene(file: string): LoadedScene {
  const { scene, materials } = parseInput(() => loadInstancedSceneFile(file));
  const flat = flattenInstances(scene);
  if (triangleCount(flat) === 0) throw new CliError(`${file}: its meshes have no triangles — nothing to render`, 1);
  return { scene: flat, materials, name: file, fromFile: true, instanced: scene };
}

/** What the GPU gets of a scene of instances. */
function instancesLine(instanced: InstancedScene, flat: Scene, asImage: boolean): string {
  const what = asImage ? 'as a two-level BVH8 image (instance nodes over one BLAS per mesh)' : `flattened to ${triangleCount(flat)} triangles`;
  return `instances: ${instanced.instances.length} of ${instanced.meshes.length} meshes, ${what} for the GPU\n`;
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
export function formatRenderStats(opts: { width: number; height: number; out: string; kernel: string; sim: string; traversal?: Traversal; obb?: boolean; dump?: string }, r: GpuRunResult): string {
  const s = r.stats;
  const iss = opts.sim === 'iss';
  const lines = [`image: ${opts.width}x${opts.height} pixels -> ${opts.out} (kernel ${opts.kernel}${opts.traversal === 'bvh' ? ', BVH traversal' : opts.traversal === 'bvh8' ? `, BVH8 traversal${opts.obb ? ' with oriented boxes' : ''}` : ''})`];
  const instances = (s.gpus ?? 1) > 1 ? ` in each of ${s.gpus} GPU instances (render workers)` : '';
  if (s.rtBusyCycles.length || s.icBusyCycles.length) lines.push(`sim: ${opts.sim}, ${s.rtBusyCycles.length} RT cores, ${s.icBusyCycles.length} IC cores${instances}`);
  else lines.push(`sim: ${opts.sim}${iss ? ' (ISA simulator: cycles = instructions, no per-core figures)' : ''}`);
  const gpus = s.gpus ?? 1;
  lines.push(`cycles: ${s.cycles}${gpus > 1 ? ` (summed over ${gpus} GPU instances)` : ''}`, `instructions: ${s.instructions}`);
  if (!iss || s.rays > 0) lines.push(`rays: ${s.rays}`, `triangle tests: ${s.triangleTests}`);
  if (opts.traversal === 'bvh' || opts.traversal === 'bvh8' || s.nodeTests > 0) lines.push(`node tests: ${s.nodeTests}`);
  // A multithreaded core is busy while it holds a thread; it is used in the cycles it issues an instruction.
  if (s.rtIssueCycles.length) lines.push(`RT core utilization (cycles issuing): ${s.rtIssueCycles.map((b) => percent(b, s.cycles)).join(' ')}`);
  if (s.icBusyCycles.length) lines.push(`IC core utilization: ${s.icBusyCycles.map((b) => percent(b, s.cycles)).join(' ')}`);
  if (s.texture) lines.push(...textureStatsLines(s.texture));
  if (r.faults.length) lines.push(`faults: ${r.faults.length} pixels (${someIds(r.faults)})`);
  const setup = s.setupSeconds >= 0.005 ? ` (${s.setupSeconds.toFixed(2)} s of it elaborating the GPU and compiling or loading the simulator)` : '';
  lines.push(`wall time: ${s.wallSeconds.toFixed(2)} s${setup}`);
  const running = s.wallSeconds - s.setupSeconds;
  const rate = running > 0 ? Math.round(s.cycles / running) : 0;
  lines.push(iss ? `speed: ${rate} instructions/s` : `speed: ${rate} simulated cycles/s`);
  if (opts.dump !== undefined) lines.push(`dump: ${opts.dump}`);
  return lines.join('\n') + '\n';
}

async function execute(plan: RenderPlan): Promise<number> {
  const { sceneFile, asked, width, height, given, fixedCamera, lightPositions, choice, gpu, out, dump, vcd, jobs } = plan;
  const sim = choice.sim;
  checkOutputs([['--out', out], ['--dump', dump], ['--vcd', vcd]], sceneFile);

  const { scene, name, materials, bvh, fromFile, instanced } = loadScene(sceneFile, plan.sceneName, asked ?? 'brute-force');
  // A scene file with map_Kd textures gets the kernel that samples them unless --kernel says otherwise.
  const kernel = !plan.kernelGiven && materials?.some((m) => m.texture !== undefined) ? 'textured' : plan.kernel;
  if (plan.filter !== undefined && kernel !== 'textured') throw new CliError(`--filter: the ${kernel} kernel samples no textures (${name} has none; the filter is for --kernel textured)`);
  const bounds = fromFile ? sceneBounds(scene) : undefined;
  const camera = bounds === undefined ? fixedCamera : autoCamera(bounds, given, width / height);
  checkInRange(name, [camera.eye, camera.look], 'camera', '--eye and --look');
  checkCamera(camera, width, height);
  const autoLit = lightPositions === undefined && bounds !== undefined && kernel !== 'id';
  const lights: Light[] | undefined = lightPositions !== undefined ? lightsAt(lightPositions) : autoLit ? autoLights(bounds, camera) : undefined;
  if (autoLit) checkInRange(name, lights!.map((l) => l.position), 'lights', '--light');
  const traversal: Traversal = asked ?? (triangleCount(scene) > AUTO_BVH_TRIANGLES ? 'bvh' : 'brute-force');
  if (traversal === 'brute-force') checkBruteForceFits(scene, name);
  const spec: FrameSpec = { kernel, camera, width, height, scene, sceneFile: name, materials, lights, traversal, bvh, obb: plan.obb, textureFilter: plan.filter, ...(instanced && traversal === 'bvh8' ? { instanced } : {}) };
  const job = parseInput(() => buildFrame(spec));
  if (instanced && fromFile) process.stdout.write(instancesLine(instanced, scene, usesInstances(spec)));
  // What was placed automatically, so the user can reproduce or adjust it with flags.
  if (bounds !== undefined) process.stdout.write(autoFrameLines(given, camera, autoLit ? lights! : undefined));

  const simName = sim === 'lockstep' ? `lockstep ${choice.lockstep!.join(',')}` : sim;
  const bar = new ProgressBar(`render ${width}x${height} on ${simName}`);
  let result: GpuRunResult;
  try {
    result = await runGpu(job, {
      sim,
      lockstep: choice.lockstep,
      hierarchical: choice.hierarchical,
      log: buildLog(() => bar.clear()),
      rtCores: gpu.rtCores,
      icCores: gpu.icCores,
      // A frame that samples textures gets a GPU with a texture unit without being asked: there is no other way to run it.
      textureUnit: gpu.textureUnit || job.texture !== undefined,
      maxCycles: gpu.maxCycles,
      vcd,
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
  if (dump !== undefined) writeOutput(dump, formatRunJson({ cycles: result.stats.cycles, instructions: result.stats.instructions, pixels: result.pixels, faults: result.faults }));
  process.stdout.write(formatRenderStats({ width, height, out, kernel, sim: simName, traversal, obb: plan.obb, dump }, result));
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

export const renderCommand = defineCommand({ summary: 'render a scene through the simulated GPU to a PNG', usage: renderUsage, options: renderOptions, parse: parseRenderArgs, execute });
