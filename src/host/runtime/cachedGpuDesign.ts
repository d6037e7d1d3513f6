// The elaborated rtgpu_top per configuration, from the build cache when rtgpu's code has not changed since it was stored (elaborating the GPU takes seconds).
import type { Design } from '../../hdl/index.ts';
import { codeFingerprint, contentHash, readCachedValue, writeCachedValue } from '../../hdl/tools/index.ts';
import { gpuDesign } from '../../gpu/top/gpuDesign.ts';
import { defaultGpuParams, type GpuParams } from '../../gpu/top/gpuTop.ts';

const designs = new Map<string, Design>();

/**
 * gpuDesign(params), read back from the build cache (kind `gpu-design`) when one was stored for the same
 * parameters and the same code of rtgpu (codeFingerprint: any change to any of its files elaborates again).
 * The design read back is equal to a fresh elaboration: every module, name and source location.
 */
export function cachedGpuDesign(params: Partial<GpuParams> = {}): Design {
  const key = contentHash([codeFingerprint(), JSON.stringify({ ...defaultGpuParams, ...params })]);
  let design = designs.get(key) ?? (readCachedValue('gpu-design', key) as Design | undefined);
  if (design === undefined) {
    design = gpuDesign(params);
    writeCachedValue('gpu-design', key, design);
  }
  designs.set(key, design);
  return design;
}
