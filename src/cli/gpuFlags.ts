// The whole-GPU flags: RT and IC core counts and the cycle limit (`rtgpu run`, `rtgpu render`), and the
// configuration `rtgpu rtl` generates (core counts plus the triangle memories' capacity).
import { intFlag } from './args.ts';
import { defaultGpuParams, type GpuParams } from '../gpu/top/gpuTop.ts';

/** RT cores and IC cores the GPU can be built with (src/host/runtime/gpuJob.ts); the runtime's defaults are 4 and 2. */
export const RT_CORES = { min: 1, max: 4, default: 4 } as const;
export const IC_CORES = { min: 1, max: 32, default: 2 } as const;
/** Triangles and vertices each triangle memory holds (src/gpu/memory/triangleMemory.ts). */
export const TRIANGLE_MEMORY_CAPACITY = { min: 2, max: 1 << 20 } as const;
export const DEFAULT_MAX_CYCLES = 50_000_000;

const coreFlagOptions = {
  'rt-cores': { type: 'string' },
  'ic-cores': { type: 'string' },
} as const;

export const gpuFlagOptions = { ...coreFlagOptions, 'max-cycles': { type: 'string' } } as const;

export interface GpuFlags {
  /** Undefined: the runtime's default. */
  readonly rtCores?: number;
  readonly icCores?: number;
  readonly maxCycles: number;
}

type CoreFlagValues = { 'rt-cores'?: string; 'ic-cores'?: string };

function coreCount(values: CoreFlagValues, name: keyof CoreFlagValues, range: typeof RT_CORES | typeof IC_CORES): number | undefined {
  return values[name] === undefined ? undefined : intFlag(name, values[name], range.default, range.min, range.max);
}

export function gpuFlags(values: CoreFlagValues & { 'max-cycles'?: string }): GpuFlags {
  return {
    rtCores: coreCount(values, 'rt-cores', RT_CORES),
    icCores: coreCount(values, 'ic-cores', IC_CORES),
    maxCycles: intFlag('max-cycles', values['max-cycles'], DEFAULT_MAX_CYCLES, 1),
  };
}

const coreFlagsUsage = `  --rt-cores N          RT cores of the GPU, ${RT_CORES.min}-${RT_CORES.max} (default ${RT_CORES.default})
  --ic-cores N          intersection cores, ${IC_CORES.min}-${IC_CORES.max} (default ${IC_CORES.default})`;

export const gpuFlagsUsage = `${coreFlagsUsage}
  --max-cycles N        clock cycles the frame may take before it is stopped (default ${DEFAULT_MAX_CYCLES})`;

// ---------------------------------------------------------------- the hardware configuration (rtgpu rtl)

export const gpuConfigFlagOptions = { ...coreFlagOptions, triangles: { type: 'string' }, vertices: { type: 'string' } } as const;

/** The GpuParams the flags select; an absent flag keeps GpuTop's default. */
export function gpuConfig(values: CoreFlagValues & { triangles?: string; vertices?: string }): GpuParams {
  const { min, max } = TRIANGLE_MEMORY_CAPACITY;
  return {
    rtCores: coreCount(values, 'rt-cores', RT_CORES) ?? defaultGpuParams.rtCores,
    icCores: coreCount(values, 'ic-cores', IC_CORES) ?? defaultGpuParams.icCores,
    triangles: intFlag('triangles', values.triangles, defaultGpuParams.triangles, min, max),
    vertices: intFlag('vertices', values.vertices, defaultGpuParams.vertices, min, max),
  };
}

export const gpuConfigFlagsUsage = `${coreFlagsUsage}
  --triangles K         triangles each IC core's triangle memory holds, ${TRIANGLE_MEMORY_CAPACITY.min}-${TRIANGLE_MEMORY_CAPACITY.max} (default ${defaultGpuParams.triangles})
  --vertices V          vertices it holds, ${TRIANGLE_MEMORY_CAPACITY.min}-${TRIANGLE_MEMORY_CAPACITY.max} (default ${defaultGpuParams.vertices})`;
