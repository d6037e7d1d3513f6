// The elaborated `rtgpu_top` per configuration, and one compiled TS simulator per design (elaborating
// and compiling the whole GPU take seconds; a process renders many frames).
import { elaborate, type Design } from '../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../hdl/sim/index.ts';
import { GPU_TOP_NAME, GpuTop, defaultGpuParams, type GpuParams } from './gpuTop.ts';

const designs = new Map<string, Design>();
const simulators = new WeakMap<Design, Simulator>();

export function gpuDesign(params: Partial<GpuParams> = {}): Design {
  const p: GpuParams = { ...defaultGpuParams, ...params };
  const key = JSON.stringify(p);
  let d = designs.get(key);
  if (!d) designs.set(key, (d = elaborate(GpuTop, p, { topName: GPU_TOP_NAME }).design));
  return d;
}

/** The design's simulator at power-on (compiled on first use). */
export function gpuSimulator(design: Design): Simulator {
  let sim = simulators.get(design);
  if (!sim) simulators.set(design, (sim = compileSimulator(design)));
  else sim.powerOn();
  return sim;
}
