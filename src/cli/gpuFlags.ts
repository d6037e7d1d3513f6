// The whole-GPU flags: RT and IC core counts, the texture unit and the cycle limit (`rtgpu run`, `rtgpu render`),
// and the configuration `rtgpu rtl` generates (core counts plus the triangle memories' capacity).
import { intFlag } from './args.ts';
import { MAX_MAIN_MEMORY_WORDS, defaultBvh8GpuParams, defaultBvhGpuParams, defaultGpuParams, type GpuParams } from '../gpu/top/gpuTop.ts';
import { DEFAULT_MAX_CYCLES, GPU_SIMS, LOCKSTEP_SIMS, type GpuSim, type LockstepSim } from '../host/runtime/index.ts';
import { verilatorBuildFlag } from './verilatorBuildFlag.ts';
import { CliError } from './cliError.ts';

/** RT cores and IC cores the GPU can be built with (src/host/runtime/gpuJob.ts); the runtime's defaults are 4 and 2. */
export const RT_CORES = { min: 1, max: 4, default: 4 } as const;
export const IC_CORES = { min: 1, max: 32, default: 2 } as const;
/** Triangles and vertices each triangle memory holds (src/gpu/memory/triangleMemory.ts). */
export const TRIANGLE_MEMORY_CAPACITY = { min: 2, max: 1 << 20 } as const;
export { DEFAULT_MAX_CYCLES };
/**
 * The default cycle limit per pixel of the frame: a 64x48 shade frame takes 186 cycles a pixel (Cornell
 * box) and 228 (the bunny through a BVH) on the default GPU, 683 and 759 with one RT and one IC core.
 */
export const MAX_CYCLES_PER_PIXEL = 4096;

/** The usage error of --obb without --bvh8: oriented boxes are a feature of the BVH8 image only. */
export const obbNeedsBvh8 = (given?: '--bvh' | '--brute-force'): string =>
  `--obb builds the BVH8 with oriented boxes: add --bvh8${given === undefined ? '' : ` instead of ${given} (${given === '--bvh' ? 'its BVH4' : 'brute force'} has no oriented boxes)`}`;

/** The default --max-cycles of a frame of `pixels` pixels: MAX_CYCLES_PER_PIXEL each, at least DEFAULT_MAX_CYCLES. */
export const defaultMaxCycles = (pixels: number): number => Math.max(DEFAULT_MAX_CYCLES, MAX_CYCLES_PER_PIXEL * pixels);

const coreFlagOptions = {
  'rt-cores': { type: 'string' },
  'ic-cores': { type: 'string' },
  'texture-unit': { type: 'boolean' },
} as const;

export const gpuFlagOptions = { ...coreFlagOptions, 'max-cycles': { type: 'string' } } as const;

export interface GpuFlags {
  /** Undefined: the runtime's default. */
  readonly rtCores?: number;
  readonly icCores?: number;
  /** `--texture-unit`: rtgpu_top with a texture unit (GpuRunOptions.textureUnit). */
  readonly textureUnit: boolean;
  readonly maxCycles: number;
}

type CoreFlagValues = { 'rt-cores'?: string; 'ic-cores'?: string; 'texture-unit'?: boolean };

function coreCount(values: CoreFlagValues, name: 'rt-cores' | 'ic-cores', range: typeof RT_CORES | typeof IC_CORES): number | undefined {
  return values[name] === undefined ? undefined : intFlag(name, values[name], range.default, range.min, range.max);
}

/** The flags' values; `pixels` scales the default cycle limit (defaultMaxCycles; omitted: the floor). */
export function gpuFlags(values: CoreFlagValues & { 'max-cycles'?: string }, pixels = 0): GpuFlags {
  return {
    rtCores: coreCount(values, 'rt-cores', RT_CORES),
    icCores: coreCount(values, 'ic-cores', IC_CORES),
    textureUnit: values['texture-unit'] ?? false,
    maxCycles: intFlag('max-cycles', values['max-cycles'], defaultMaxCycles(pixels), 1),
  };
}

const coreFlagsUsage = `  --rt-cores N          RT cores of the GPU, ${RT_CORES.min}-${RT_CORES.max} (default ${RT_CORES.default})
  --ic-cores N          intersection cores, ${IC_CORES.min}-${IC_CORES.max} (default ${IC_CORES.default})
  --texture-unit        a GPU with a texture unit (txd; its texture memory loaded by LOAD_TEXTURE,
                        docs/texture.md); without it txd is an illegal instruction`;

export const gpuFlagsUsage = `${coreFlagsUsage}
  --max-cycles N        clock cycles the frame may take before it is stopped (default ${MAX_CYCLES_PER_PIXEL} per
                        pixel, at least ${DEFAULT_MAX_CYCLES})`;

// ---------------------------------------------------------------- the simulator (rtgpu run, rtgpu render)

export interface GpuSimChoice {
  readonly sim: GpuSim;
  /** With 'lockstep': the simulators compared. */
  readonly lockstep?: readonly LockstepSim[];
  /** `--verilator-build`: VerilatorOptions.hierarchical. */
  readonly hierarchical?: boolean | 'auto';
}

/** `--sim` (one simulator, `lockstep` (all three of the RTL), or a comma list of them run in lockstep) and `--verilator-build`. */
export function gpuSimFlag(value: string | undefined, fallback: GpuSim, build?: string): GpuSimChoice {
  const choice = gpuSims(value ?? fallback);
  const verilator = choice.sim === 'verilator' || (choice.lockstep ?? []).includes('verilator');
  return { ...choice, hierarchical: verilatorBuildFlag(build, verilator) };
}

function gpuSims(text: string): GpuSimChoice {
  if (!text.includes(',')) {
    if (!(GPU_SIMS as readonly string[]).includes(text)) throw new CliError(`--sim: unknown simulator '${text}' (choose from ${GPU_SIMS.join(', ')}, or a comma list of ${LOCKSTEP_SIMS.join(', ')})`);
    return text === 'lockstep' ? { sim: 'lockstep', lockstep: LOCKSTEP_SIMS } : { sim: text as GpuSim };
  }
  const list = text.split(',').map((s) => s.trim());
  for (const s of list) {
    if (!(LOCKSTEP_SIMS as readonly string[]).includes(s)) throw new CliError(`--sim ${text}: '${s}' cannot run in lockstep (choose from ${LOCKSTEP_SIMS.join(', ')})`);
  }
  if (new Set(list).size !== list.length) throw new CliError(`--sim ${text}: a simulator is listed twice`);
  return { sim: 'lockstep', lockstep: list as LockstepSim[] };
}

export const gpuSimUsage = (fallback: string) => `  --sim S               ts, verilator or icarus: rtgpu_top live on that simulator of the RTL; lockstep:
                        all three side by side, every output compared every cycle (or a comma list,
                        e.g. ts,verilator); iss: the ISA simulator, no cycle-level figures (default ${fallback})`;

// ---------------------------------------------------------------- the hardware configuration (rtgpu rtl)

export const gpuConfigFlagOptions = {
  ...coreFlagOptions,
  triangles: { type: 'string' },
  vertices: { type: 'string' },
  bvh: { type: 'boolean' },
  bvh8: { type: 'boolean' },
  'ic-rays': { type: 'string' },
  nodes: { type: 'string' },
  'tri-ranges': { type: 'string' },
  'main-words': { type: 'string' },
} as const;

/** Ray slots a BVH IC core can have (src/gpu/bvh/bvhIcCore.ts). */
const IC_RAY_SLOTS = [2, 4, 8, 16, 32] as const;

type ConfigFlagValues = CoreFlagValues & { triangles?: string; vertices?: string; bvh?: boolean; bvh8?: boolean; 'ic-rays'?: string; nodes?: string; 'tri-ranges'?: string; 'main-words'?: string };

/** `--main-words`: main memory words per thread, a power of two (absent: the ISA's 64 KiB, no parameter). */
function mainWords(value: string | undefined): Pick<GpuParams, 'mainMemoryWords'> {
  if (value === undefined) return {};
  const w = intFlag('main-words', value, MAX_MAIN_MEMORY_WORDS, 8, MAX_MAIN_MEMORY_WORDS);
  if ((w & (w - 1)) !== 0) throw new CliError(`--main-words must be a power of two, got ${w}`);
  return w === MAX_MAIN_MEMORY_WORDS ? {} : { mainMemoryWords: w };
}

/** The GpuParams the flags select; an absent flag keeps the default of GpuTop (or, with --bvh or --bvh8, of its BVH or BVH8 configuration). */
export function gpuConfig(values: ConfigFlagValues): GpuParams {
  const { min, max } = TRIANGLE_MEMORY_CAPACITY;
  // `rtgpu run --triangles FILE` names a scene; here the flag sizes the hardware.
  if (values.triangles !== undefined && !/^[+-]?\d+$/.test(values.triangles))
    throw new CliError(`--triangles sets how many triangles each triangle memory holds (a count, ${min}-${max}), got '${values.triangles}'; a scene file goes to 'rtgpu run --scene FILE' or 'rtgpu render FILE'`);
  if (values.bvh && values.bvh8) throw new CliError('--bvh and --bvh8 choose two kinds of IC core; give one');
  const base = values.bvh ? defaultBvhGpuParams : values.bvh8 ? defaultBvh8GpuParams : defaultGpuParams;
  const cores = {
    rtCores: coreCount(values, 'rt-cores', RT_CORES) ?? base.rtCores,
    icCores: coreCount(values, 'ic-cores', IC_CORES) ?? base.icCores,
    triangles: intFlag('triangles', values.triangles, base.triangles, min, max),
    vertices: intFlag('vertices', values.vertices, base.vertices, min, max),
    ...mainWords(values['main-words']),
    ...(values['texture-unit'] ? { texture: true } : {}),
  };
  if (!values.bvh && !values.bvh8) {
    const stray = (['ic-rays', 'nodes', 'tri-ranges'] as const).find((f) => values[f] !== undefined);
    if (stray) throw new CliError(`--${stray} configures the BVH IC cores: add --bvh${stray === 'tri-ranges' ? '' : ' or --bvh8'}`);
    return cores;
  }
  const icRays = intFlag('ic-rays', values['ic-rays'], base.icRays!, IC_RAY_SLOTS[0], IC_RAY_SLOTS[IC_RAY_SLOTS.length - 1]);
  if (!(IC_RAY_SLOTS as readonly number[]).includes(icRays)) throw new CliError(`--ic-rays must be one of ${IC_RAY_SLOTS.join(', ')}, got ${icRays}`);
  const nodes = intFlag('nodes', values.nodes, base.nodes!, min, max);
  if (values.bvh8) {
    if (values['tri-ranges'] !== undefined) throw new CliError('--tri-ranges sizes the BVH4 cores\' TriRange memories; a BVH8 keeps its triangles in its nodes (drop it, or use --bvh)');
    return { ...cores, traversal: 'bvh8', icRays, nodes };
  }
  return { ...cores, traversal: 'bvh', icRays, nodes, triRanges: intFlag('tri-ranges', values['tri-ranges'], base.triRanges!, min, max) };
}

export const gpuConfigFlagsUsage = `${coreFlagsUsage}
  --triangles K         triangles each IC core's triangle memory holds, ${TRIANGLE_MEMORY_CAPACITY.min}-${TRIANGLE_MEMORY_CAPACITY.max} (default ${defaultGpuParams.triangles}, ${defaultBvhGpuParams.triangles} with --bvh)
  --vertices V          vertices it holds, ${TRIANGLE_MEMORY_CAPACITY.min}-${TRIANGLE_MEMORY_CAPACITY.max} (default ${defaultGpuParams.vertices}, ${defaultBvhGpuParams.vertices} with --bvh)
  --bvh                 BVH IC cores (BVH traversal) instead of the brute-force ones
  --bvh8                BVH8 IC cores (the GFX12 BVH8 traversal core) instead
  --ic-rays N           with --bvh or --bvh8: rays in flight per IC core, ${IC_RAY_SLOTS.join(', ')} (default ${defaultBvhGpuParams.icRays})
  --nodes N             with --bvh: BVHNode4 nodes each IC core holds (default ${defaultBvhGpuParams.nodes}); with --bvh8:
                        128-byte GFX12 nodes (default ${defaultBvh8GpuParams.nodes})
  --tri-ranges N        with --bvh: TriRanges each IC core holds (default ${defaultBvhGpuParams.triRanges})
  --main-words N        32-bit words of main memory per thread, a power of two, 8-${MAX_MAIN_MEMORY_WORDS} (default ${MAX_MAIN_MEMORY_WORDS}:
                        the ISA's 64 KiB; fewer wrap addresses, for FPGAs with less block RAM)`;
