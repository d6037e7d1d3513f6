// The elaborated `rtgpu_top` per configuration (elaborating the whole GPU takes seconds; a process renders many frames).
import { elaborate, type Design } from '../../hdl/index.ts';
import { GPU_TOP_NAME, GpuTop, defaultGpuParams, type GpuParams } from './gpuTop.ts';

const designs = new Map<string, Design>();

export function gpuDesign(params: Partial<GpuParams> = {}): Design {
  const p: GpuParams = { ...defaultGpuParams, ...params };
  const key = JSON.stringify(p);
  let d = designs.get(key);
  if (!d) designs.set(key, (d = elaborate(GpuTop, p, { topName: GPU_TOP_NAME }).design));
  return d;
}
