// The layout of the FPGA handoff in rtl-out/ (directories, script paths, targets) and the shape of its manifest, shared by the files that write it and its README.
import type { ManifestModule } from '../../hdl/index.ts';
import type { QuartusDevice, SynthTarget } from '../../hdl/synth/index.ts';
import { GPU_TOP_NAME, type GpuParams } from '../../gpu/top/gpuTop.ts';

/** A cosim design's RTL as rtl-out holds it: `<name>/<file>` for each file of its list (dependency order). */
export interface BlockRtl {
  readonly name: string;
  readonly fileList: readonly string[];
}

/** Where things are in rtl-out/ and what the scripts target; the README describes the same. */
export const handoffLayout = {
  topDir: GPU_TOP_NAME,
  fileList: 'rtgpu.f',
  manifest: 'manifest.json',
  /** rtgpu_top's self-checking testbench and its vectors (the blocks' are in their own directories). */
  testbenchDir: 'tb',
  clockMhz: 200,
  gpuTargets: ['generic', 'xilinx', 'intel', 'ecp5'] as const satisfies readonly SynthTarget[],
  quartus: { dir: 'synth/quartus', name: 'rtgpu', device: { family: 'Cyclone V', device: '5CSEMA5F31C6' } satisfies QuartusDevice },
  // Kintex-7, the mid-range 7 series: its 795 RAMB36 hold the 2 MiB main memory, an Artix-7 200T's 365 do not.
  vivado: { dir: 'synth/vivado', name: 'rtgpu', part: 'xc7k410tffg900-2' },
} as const;

export const yosysScriptPath = (target: SynthTarget, block?: string): string => `synth/yosys_${target}${block ? `_${block}` : ''}.ys`;

export interface HandoffManifest {
  readonly generator: { readonly name: string; readonly version: string };
  readonly top: string;
  readonly configuration: GpuParams;
  readonly fileList: string;
  readonly clock: { readonly port: string; readonly mhz: number };
  readonly reset: { readonly port: string; readonly activeLow: true; readonly synchronous: boolean };
  readonly modules: readonly ManifestModule[];
}
