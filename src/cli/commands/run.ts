// `rtgpu run`: assemble a kernel, run it for N pixels on the whole GPU (or the ISA simulator) and print each result.
import { parseFlags, intFlag } from '../args.ts';
import { verilatorBuildUsage } from '../verilatorBuildFlag.ts';
import { CliError, FAULT_EXIT_STATUS } from '../cliError.ts';
import { buildLog } from '../progress.ts';
import { HELP, defineCommand, type HelpPlan } from '../command.ts';
import { loadConstants, loadProgram, loadTriangles, loadWords } from '../inputFiles.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { gpuFlagOptions, gpuFlags, obbNeedsBvh8, gpuFlagsUsage, gpuSimFlag, gpuSimUsage, type GpuFlags, type GpuSimChoice } from '../gpuFlags.ts';
import { SceneError, type Scene } from '../../golden/scene.ts';
import type { Traversal } from '../../iss/sceneTracer.ts';
import type { GpuJob } from '../../host/runtime/gpuJob.ts';
import { DEFAULT_MAX_INSTRUCTIONS } from '../../iss/index.ts';
import { DEFAULT_FRAME_SIZE, shadeConstants } from '../../host/frame.ts';
import { cameraConstants, defaultCamera } from '../../host/camera.ts';
import { GpuRunError, runGpu, type GpuRunResult, type PartialRun, type RunPixel, type TextureStats } from '../../host/runtime/index.ts';
import { textureStatsLines } from './textureStatsText.ts';


const usage = `usage: rtgpu run PROGRAM [--const FILE] [--scene FILE] [--bvh | --bvh8 [--obb]] [--texture FILE] [--pixels N] [--sim S] [--json] [options]
       rtgpu run --program FILE [--const FILE] [--triangles FILE] … (raw images: .hex or .bin words)

Runs the kernel PROGRAM (assembly; hex words if the name ends in .hex; raw little-endian 32-bit
words if it ends in .bin) for pixels 0 .. N-1 and prints each pixel's returned vector (the 4 words
at 0x80(TID)FFF0 when it ended) in hex, then the instruction and cycle counts. A pixel whose thread
faulted is marked 'fault', and the exit status is then ${FAULT_EXIT_STATUS} (the results are still printed).
A run stopped at --max-instructions (iss) or --max-cycles prints the pixels that finished and
'stopped: K of N pixels finished' (with --json: {"stopped": true, …}), then the reason; exit status 1.

Without --const the constant memory holds what 'rtgpu render' writes for its default frame: the
default camera for ${DEFAULT_FRAME_SIZE.width}x${DEFAULT_FRAME_SIZE.height} pixels and the shade kernel's sky, lights and built-in materials
(only the camera when the scene has more shader ids than those materials), so the built-in kernels
(src/host/kernels/shade.s, id.s) return render's pixels 0 .. N-1.

  --program FILE        the kernel, instead of the PROGRAM argument
  --const FILE          constant memory from 0x20000000: hex words (or .bin little-endian words);
                        default: the default frame's (above)
  --scene FILE          triangles for trace: a Wavefront OBJ file, an instanced scene file (.scene:
                        a two-level BVH8 image with --bvh8, else its instances flattened), or a
                        triangle-memory image (.hex words or .bin little-endian words,
                        docs/triangle-memory-and-ic-buffer.md); default: the built-in Cornell box
  --triangles FILE      the same as --scene
  --bvh                 trace through a BVH: an OBJ file (or the Cornell box) gets its BVH built;
                        a .hex/.bin file must be a BVH scene image (docs/host.md)
  --bvh8                trace through a GFX12 BVH8 (the BVH8 IC cores on the GPU): the BVH8 of the
                        OBJ file, the triangle-memory image's triangles or the Cornell box is built
  --obb                 with --bvh8: build the BVH8 with oriented boxes (box nodes in a rotated frame
                        where that lowers the SAH cost; docs/bvh.md "Oriented boxes")
  --texture FILE        texture memory from word 0 for txd: hex words (or .bin little-endian words), at
                        most ${MEMORY_MAP.textureWords} (docs/texture.md); the GPU gets a texture unit (--texture-unit)
  --pixels N            pixels to run (default 1)
${gpuSimUsage('iss')}
                        (on the RTL, cycles are GPU clock cycles; on the ISS, instructions)
${verilatorBuildUsage(24)}
  --json                print {"cycles","instructions","pixels":[{"pixel","ret"}],"faults"} instead
  --max-instructions N  iss: instructions one thread may run before the run is abandoned (default ${DEFAULT_MAX_INSTRUCTIONS})
${gpuFlagsUsage}
                        (the GPU simulators; see docs/host.md)`;

const MAX_PIXELS = 1 << 24;

/** The input files of a run and its pixel count. */
export interface RunInputs {
  readonly program: string;
  readonly constants?: string;
  /** OBJ file or triangle-memory image; undefined: the built-in Cornell box. */
  readonly triangles?: string;
  /** Default 'brute-force'; 'bvh': the triangles as a BVH scene image (built for an OBJ file); 'bvh8': as a BVH8 scene image, built. */
  readonly traversal?: Traversal;
  /** 'bvh8': build the BVH8 with oriented boxes (default off). */
  readonly obb?: boolean;
  /** Texture memory's image (hex or .bin words); undefined: none. */
  readonly texture?: string;
  readonly pixels: number;
}

/** A whole-GPU job (memory images) plus the scene those triangles decode to (in BVH order for BVH traversal). */
export interface RunJobImages extends GpuJob {
  readonly scene: Scene;
}

/** Load the program, constants and triangles of a run: the job for `runGpu`, errors as clean CliErrors. */
export function buildRunJob(inputs: RunInputs): RunJobImages {
  const program = loadProgram(inputs.program);
  const traversal = inputs.traversal ?? 'brute-force';
  if (inputs.obb && traversal !== 'bvh8') throw new CliError(obbNeedsBvh8(traversal === 'bvh' ? '--bvh' : undefined));
  const { scene, image } = loadTriangles(inputs.triangles, traversal, inputs.obb ?? false);
  const constants = inputs.constants === undefined ? defaultFrameConstants(scene) : loadConstants(inputs.constants);
  const texture = inputs.texture === undefined ? {} : { texture: loadTexture(inputs.texture) };
  return { program: program.words, sourceFile: inputs.program, sourceLines: program.sourceLines, includedFiles: program.files, sourceFileOf: program.sourceFiles, constants, triangles: image, traversal, scene, pixels: inputs.pixels, ...texture };
}

/** A texture-memory image: its words, at most texture memory's. */
function loadTexture(file: string): Uint32Array {
  const words = loadWords(file);
  if (words.length > MEMORY_MAP.textureWords) throw new CliError(`${file}: ${words.length} words; texture memory holds ${MEMORY_MAP.textureWords}`, 1);
  return words;
}

/** The constants of render's default frame over `scene` (the default camera and size, the built-in lights and materials). */
function defaultFrameConstants(scene: Scene): Uint32Array {
  const { width, height } = DEFAULT_FRAME_SIZE;
  try {
    return shadeConstants({ kernel: 'shade', camera: defaultCamera, width, height, scene });
  } catch (e) {
    // More shader ids than built-in materials: a scene of the user's own kernel, which gets the camera.
    if (e instanceof SceneError) return cameraConstants(defaultCamera, width, height);
    throw e;
  }
}

const hex8 = (x: number): string => (x >>> 0).toString(16).padStart(8, '0');

/** What the formatters print: the counts, each pixel's returned vector and the faulted pixels. */
export interface RunOutput {
  readonly cycles: number;
  readonly instructions: number;
  readonly pixels: readonly RunPixel[];
  readonly faults: readonly number[];
  /** The texture unit's counters (a GPU simulator with a texture unit). */
  readonly texture?: TextureStats;
}

export function formatRunText(r: RunOutput): string {
  const faulted = new Set(r.faults);
  const lines = r.pixels.map((p) => `pixel ${p.pixel}: ${p.ret.map(hex8).join(' ')}${faulted.has(p.pixel) ? ' fault' : ''}`);
  lines.push(`instructions: ${r.instructions}`, `cycles: ${r.cycles}`);
  if (r.texture) lines.push(...textureStatsLines(r.texture));
  if (r.faults.length) lines.push(`faults: ${r.faults.length} (pixels ${r.faults.join(' ')})`);
  return lines.join('\n') + '\n';
}

/** A few pixel ids for a one-line message: the first 8, then '…'. */
export const someIds = (ids: readonly number[]): string => `${ids.slice(0, 8).join(' ')}${ids.length > 8 ? ' …' : ''}`;

/** The stderr line of a run or render whose output was written but some pixels faulted (exit status FAULT_EXIT_STATUS). */
export function faultNote(faults: readonly number[], wrote?: string): string {
  const one = faults.length === 1;
  return `rtgpu: ${faults.length} pixel${one ? '' : 's'} faulted (pixel${one ? '' : 's'} ${someIds(faults)})${wrote === undefined ? '' : `; ${wrote}`}; exit status ${FAULT_EXIT_STATUS}\n`;
}

/** `rtgpu run --json` (and `rtgpu render --dump`): {"cycles","instructions","pixels":[{"pixel","ret":[hex8 …]}],"faults"}. */
export function formatRunJson(r: RunOutput): string {
  const pixels = r.pixels.map((p) => ({ pixel: p.pixel, ret: p.ret.map(hex8) }));
  return JSON.stringify({ cycles: r.cycles, instructions: r.instructions, pixels, faults: r.faults, ...(r.texture ? { texture: r.texture } : {}) }) + '\n';
}

const flags = {
  program: { type: 'string' },
  const: { type: 'string' },
  scene: { type: 'string' },
  triangles: { type: 'string' },
  bvh: { type: 'boolean' },
  bvh8: { type: 'boolean' },
  obb: { type: 'boolean' },
  texture: { type: 'string' },
  pixels: { type: 'string' },
  sim: { type: 'string' },
  'verilator-build': { type: 'string' },
  json: { type: 'boolean' },
  'max-instructions': { type: 'string' },
  ...gpuFlagOptions,
  help: { type: 'boolean', short: 'h' },
} as const;

/** The parsed command line of `rtgpu run`. */
export interface RunCommandLine {
  readonly inputs: RunInputs;
  readonly sim: GpuSimChoice;
  readonly json: boolean;
  readonly maxInstructions: number;
  /** For the whole-GPU runtime (`runGpu` options); the per-core backends below do not use them. */
  readonly gpu: GpuFlags;
}

/** Parse and check the flags. */
export function parseRunCommandLine(argv: string[]): RunCommandLine | HelpPlan {
  const { values, positionals } = parseFlags(argv, flags, usage);
  if (values.help) return HELP;
  if (positionals.length === 1 && values.program !== undefined) throw new CliError('give the program as an argument or with --program, not both');
  if (positionals.length + (values.program === undefined ? 0 : 1) !== 1) throw new CliError(`expected one program file\n\n${usage}`);
  if (values.scene !== undefined && values.triangles !== undefined) throw new CliError('give --scene or --triangles, not both');
  // `rtgpu rtl --triangles K` sizes the triangle memories; here the flag names a scene file.
  if (values.triangles !== undefined && /^[+-]?\d+$/.test(values.triangles))
    throw new CliError(`--triangles names a scene file here (the same as --scene), got the number ${values.triangles}; the simulated GPU sizes its triangle memories to the scene (a hardware configuration: 'rtgpu rtl --triangles K')`);
  if (values.bvh && values.bvh8) throw new CliError('give --bvh or --bvh8, not both');
  if (values.obb && !values.bvh8) throw new CliError(obbNeedsBvh8(values.bvh ? '--bvh' : undefined));
  const sim = gpuSimFlag(values.sim, 'iss', values['verilator-build']);
  const pixels = intFlag('pixels', values.pixels, 1, 1, MAX_PIXELS);
  const maxInstructions = intFlag('max-instructions', values['max-instructions'], DEFAULT_MAX_INSTRUCTIONS, 1);
  const gpu = gpuFlags(values, pixels);
  const inputs: RunInputs = { program: values.program ?? positionals[0]!, constants: values.const, triangles: values.scene ?? values.triangles, traversal: values.bvh ? 'bvh' : values.bvh8 ? 'bvh8' : 'brute-force', obb: values.obb ?? false, texture: values.texture, pixels };
  return { inputs, sim, json: values.json ?? false, maxInstructions, gpu };
}

async function execute(cmd: RunCommandLine): Promise<number> {
  const job = buildRunJob(cmd.inputs);
  const maxCycles = cmd.sim.sim === 'iss' ? cmd.maxInstructions : cmd.gpu.maxCycles;
  let r: GpuRunResult;
  try {
    // A texture image needs a GPU with a texture unit.
    const textureUnit = cmd.gpu.textureUnit || job.texture !== undefined;
    r = await runGpu(job, { ...cmd.sim, log: buildLog(), rtCores: cmd.gpu.rtCores, icCores: cmd.gpu.icCores, textureUnit, maxCycles });
  } catch (e) {
    if (e instanceof GpuRunError && e.partial) printStopped(e.partial, job.pixels, cmd.json);
    throw e;
  }
  const result: RunOutput = { cycles: r.stats.cycles, instructions: r.stats.instructions, pixels: r.pixels, faults: r.faults, ...(r.stats.texture ? { texture: r.stats.texture } : {}) };
  process.stdout.write(cmd.json ? formatRunJson(result) : formatRunText(result));
  if (!r.faults.length) return 0;
  process.stderr.write(faultNote(r.faults));
  return FAULT_EXIT_STATUS;
}

/**
 * A run stopped (the cycle or instruction limit): the pixels that finished still print, so that the
 * work done is not lost; the reason follows on stderr (exit 1).
 */
function printStopped(partial: PartialRun, total: number, json: boolean): void {
  const pixels = [...partial.pixels].sort((a, b) => a.pixel - b.pixel);
  if (json) process.stdout.write(JSON.stringify({ stopped: true, finished: pixels.length, pixelCount: total, pixels: pixels.map((p) => ({ pixel: p.pixel, ret: p.ret.map(hex8) })), faults: partial.faults }) + '\n');
  else process.stdout.write([...pixels.map((p) => `pixel ${p.pixel}: ${p.ret.map(hex8).join(' ')}`), `stopped: ${pixels.length} of ${total} pixels finished`].join('\n') + '\n');
}

/** A stopped or failed run (its partial results printed) ends as a clean exit with status 1. */
async function executeCleanly(cmd: RunCommandLine): Promise<number> {
  try {
    return await execute(cmd);
  } catch (e) {
    if (e instanceof GpuRunError) throw new CliError(e.message, 1);
    throw e;
  }
}

export const runCommand = defineCommand({ summary: "run a kernel for N pixels and print each pixel's result", usage, options: flags, parse: parseRunCommandLine, execute: executeCleanly });
