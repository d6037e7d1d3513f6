// The board presets of `rtgpu rtl --board NAME`: a real FPGA board, its device, and the GPU configuration that fits it.
import { fpgaDevices, type FpgaDevice, type FpgaDeviceName } from '../../hdl/synth/index.ts';
import type { GpuParams } from '../../gpu/top/gpuTop.ts';

export interface BoardPreset {
  /** The name `--board` takes. */
  readonly name: string;
  /** The board as its maker sells it. */
  readonly title: string;
  readonly device: FpgaDeviceName;
  /** The clock the constraint files ask for. */
  readonly clockMhz: number;
  /** The GPU configuration: core counts, memory sizes, brute force or BVH. */
  readonly gpu: GpuParams;
  /** Why this configuration (what limits it). */
  readonly note: string;
}

/** Utilization (Yosys figures against the device's capacity) no preset may exceed, in every resource. */
export const BOARD_UTILIZATION_LIMIT = 0.85;

/**
 * Main memory per thread on the boards: 16 KiB (4,096 words), a quarter of the ISA's 64 KiB, so that the
 * 32 threads' 512 KiB fit block RAM (the full 2 MiB fits no Cyclone V and no Artix-7). The built-in kernels
 * use far less than 16 KiB a thread; the return vector at 0xFFF0 lands at 0x3FF0.
 */
const BOARD_MAIN_MEMORY_WORDS = 4096;
const triangles = { triangles: 512, vertices: 2048 } as const;

export const boardPresets: readonly BoardPreset[] = [
  {
    name: 'nexys-video',
    title: 'Digilent Nexys Video (Artix-7 200T)',
    device: 'xc7a200t',
    clockMhz: 100,
    gpu: { rtCores: 2, icCores: 1, ...triangles, mainMemoryWords: BOARD_MAIN_MEMORY_WORDS },
    note: 'LUTs: a third RT core or a second IC core would pass 85 %',
  },
  {
    name: 'genesys2',
    title: 'Digilent Genesys 2 (Kintex-7 325T)',
    device: 'xc7k325t',
    clockMhz: 100,
    gpu: { rtCores: 4, icCores: 1, ...triangles, mainMemoryWords: BOARD_MAIN_MEMORY_WORDS },
    note: 'LUTs: the default second IC core would pass 85 %',
  },
  {
    name: 'cyclone-v-gt-devkit',
    title: 'Intel Cyclone V GT FPGA Development Kit (5CGTFD9)',
    device: '5cgtfd9',
    clockMhz: 100,
    gpu: { rtCores: 2, icCores: 1, ...triangles, mainMemoryWords: BOARD_MAIN_MEMORY_WORDS },
    note: 'ALMs, counted conservatively (every 5- and 6-input ALUT a whole ALM)',
  },
];

export const boardNames = (): string[] => boardPresets.map((b) => b.name);

/** The preset by name; an unknown name is an error that lists the known ones. */
export function boardPreset(name: string): BoardPreset {
  const b = boardPresets.find((x) => x.name === name);
  if (!b) throw new UnknownBoardError(name);
  return b;
}

export class UnknownBoardError extends Error {
  constructor(name: string) {
    super(`unknown board '${name}' (boards: ${boardNames().join(', ')})`);
    this.name = 'UnknownBoardError';
  }
}

export const boardDevice = (b: BoardPreset): FpgaDevice => fpgaDevices[b.device];
