// The RTL `rtgpu synth` synthesizes: a catalogue design or the whole GPU, optionally cut down to one module and what it instantiates.
import { emitSystemVerilog } from '../../hdl/index.ts';
import type { Design } from '../../hdl/index.ts';
import { subDesign, type RtlSource } from '../../hdl/synth/index.ts';
import { cachedGpuDesign } from '../../host/runtime/index.ts';
import { GPU_TOP_NAME, type GpuParams } from '../../gpu/top/gpuTop.ts';
import { findDesign } from '../catalogue/index.ts';

/** The default design of `rtgpu synth`. */
export const GPU_DESIGN = GPU_TOP_NAME;

/** The design by name: `rtgpu_top` (with GPU parameters) or a catalogue design (`rtgpu cosim --list`). */
export async function designByName(name: string, gpu: Partial<GpuParams> = {}): Promise<Design> {
  return name === GPU_DESIGN ? cachedGpuDesign(gpu) : (await findDesign(name)).elaborate();
}

/** The emitted SystemVerilog of a design (or of one of its modules) as a synthesis source. */
export function rtlSource(design: Design, top = design.top): RtlSource {
  const d = top === design.top ? design : subDesign(design, top);
  const e = emitSystemVerilog(d);
  return { top: d.top, files: e.files, fileList: e.fileList };
}
