// The whole-GPU flags `rtgpu run` and `rtgpu render` share: RT and IC core counts and the cycle limit.
import { intFlag } from './args.ts';

/** RT cores and IC cores the GPU can be built with (src/host/runtime/gpuJob.ts); the runtime's defaults are 4 and 2. */
export const RT_CORES = { min: 1, max: 4, default: 4 } as const;
export const IC_CORES = { min: 1, max: 32, default: 2 } as const;
export const DEFAULT_MAX_CYCLES = 50_000_000;

export const gpuFlagOptions = {
  'rt-cores': { type: 'string' },
  'ic-cores': { type: 'string' },
  'max-cycles': { type: 'string' },
} as const;

export interface GpuFlags {
  /** Undefined: the runtime's default. */
  readonly rtCores?: number;
  readonly icCores?: number;
  readonly maxCycles: number;
}

export function gpuFlags(values: { 'rt-cores'?: string; 'ic-cores'?: string; 'max-cycles'?: string }): GpuFlags {
  const count = (name: 'rt-cores' | 'ic-cores', range: typeof RT_CORES | typeof IC_CORES) =>
    values[name] === undefined ? undefined : intFlag(name, values[name], range.default, range.min, range.max);
  return {
    rtCores: count('rt-cores', RT_CORES),
    icCores: count('ic-cores', IC_CORES),
    maxCycles: intFlag('max-cycles', values['max-cycles'], DEFAULT_MAX_CYCLES, 1),
  };
}

export const gpuFlagsUsage = `  --rt-cores N          RT cores of the GPU, ${RT_CORES.min}-${RT_CORES.max} (default ${RT_CORES.default})
  --ic-cores N          intersection cores, ${IC_CORES.min}-${IC_CORES.max} (default ${IC_CORES.default})
  --max-cycles N        clock cycles the frame may take before it is stopped (default ${DEFAULT_MAX_CYCLES})`;
