// FPGA devices and their capacities (vendor datasheet figures), and the block RAMs a memory of some shape needs on one.
import type { SynthTarget } from './targets.ts';

/** One shape a block RAM can take: `depth` words of `width` bits. */
export interface BramShape {
  readonly depth: number;
  readonly width: number;
}

export interface FpgaDevice {
  /** The orderable part number, as the vendor tool takes it. */
  readonly part: string;
  readonly family: string;
  /** The Yosys target that maps to it (src/hdl/synth/targets.ts). */
  readonly target: Exclude<SynthTarget, 'generic' | 'ice40'>;
  /** Logic: LUT6s (Xilinx), ALMs (Intel), LUT4s (ECP5). */
  readonly logic: number;
  readonly logicUnit: string;
  readonly ffs: number;
  /** Block RAMs, in the unit Yosys's statistics count (RAMB36 tiles, M10Ks, DP16KDs). */
  readonly brams: number;
  readonly bramUnit: string;
  /** The shapes of one block RAM unit (simple dual port: one write, one read port). */
  readonly bramShapes: readonly BramShape[];
  /** Multiplier blocks, in the unit Yosys counts (DSP48E1s, Cyclone V multiplier cells, MULT18X18Ds). */
  readonly dsps: number;
  readonly dspUnit: string;
  /** Where the figures come from. */
  readonly source: string;
}

const ds180 = 'Xilinx DS180, 7 Series FPGAs Data Sheet: Overview, Table 2 (Artix-7) and Table 4 (Kintex-7)';
const cv51001 = 'Intel CV-51001, Cyclone V Device Overview, Tables 11-14 (resources of the GX/GT and SE/SX variants)';
const ecp5ds = 'Lattice FPGA-DS-02012, ECP5 and ECP5-5G Family Data Sheet, Table 1.1';

// A RAMB36 tile, simple dual port (UG473): 32K x 1 ... 512 x 72.
const ramb36: readonly BramShape[] = [
  { depth: 32768, width: 1 },
  { depth: 16384, width: 2 },
  { depth: 8192, width: 4 },
  { depth: 4096, width: 9 },
  { depth: 2048, width: 18 },
  { depth: 1024, width: 36 },
  { depth: 512, width: 72 },
];
// An M10K (Cyclone V Embedded Memory User Guide): 8K x 1 ... 256 x 40.
const m10k: readonly BramShape[] = [
  { depth: 8192, width: 1 },
  { depth: 4096, width: 2 },
  { depth: 2048, width: 5 },
  { depth: 1024, width: 10 },
  { depth: 512, width: 20 },
  { depth: 256, width: 40 },
];
// A DP16KD (ECP5 sysMEM, pseudo dual port): 16K x 1 ... 512 x 36.
const dp16kd: readonly BramShape[] = [
  { depth: 16384, width: 1 },
  { depth: 8192, width: 2 },
  { depth: 4096, width: 4 },
  { depth: 2048, width: 9 },
  { depth: 1024, width: 18 },
  { depth: 512, width: 36 },
];

const xilinx = { family: 'Xilinx 7 series', target: 'xilinx', logicUnit: 'LUTs', bramUnit: 'RAMB36', bramShapes: ramb36, dspUnit: 'DSP48E1', source: ds180 } as const;
const cycloneV = { family: 'Intel Cyclone V', target: 'intel', logicUnit: 'ALMs', bramUnit: 'M10K', bramShapes: m10k, dspUnit: 'DSP blocks', source: cv51001 } as const;

/** The devices the board presets use (src/designs/synth/boards.ts), by part number. */
export const fpgaDevices = {
  xc7a100t: { ...xilinx, part: 'xc7a100tcsg324-1', logic: 63_400, ffs: 126_800, brams: 135, dsps: 240 },
  xc7a200t: { ...xilinx, part: 'xc7a200tsbg484-1', logic: 133_800, ffs: 267_600, brams: 365, dsps: 740 },
  xc7k325t: { ...xilinx, part: 'xc7k325tffg900-2', logic: 203_800, ffs: 407_600, brams: 445, dsps: 840 },
  // A variable-precision DSP block holds one 27x27 or two 18x19 multipliers; each Yosys multiplier cell is counted as a whole block.
  '5csema5': { ...cycloneV, part: '5CSEMA5F31C6', logic: 32_070, ffs: 128_280, brams: 397, dsps: 87 },
  '5cseba6': { ...cycloneV, part: '5CSEBA6U23I7', logic: 41_910, ffs: 166_036, brams: 553, dsps: 112 },
  '5cgtfd9': { ...cycloneV, part: '5CGTFD9E5F35C7', logic: 113_560, ffs: 454_240, brams: 1_220, dsps: 342 },
  lfe5u85f: { family: 'Lattice ECP5', target: 'ecp5', part: 'LFE5U-85F-6BG381C', logic: 83_640, logicUnit: 'LUT4s', ffs: 83_640, brams: 208, bramUnit: 'DP16KD', bramShapes: dp16kd, dsps: 156, dspUnit: 'MULT18X18D', source: ecp5ds },
} as const satisfies Record<string, FpgaDevice>;

export type FpgaDeviceName = keyof typeof fpgaDevices;

/** Block RAM units a `depth` x `width` memory with `readPorts` read ports needs: the best shape, one copy per read port. */
export function bramsFor(device: Pick<FpgaDevice, 'bramShapes'>, depth: number, width: number, readPorts = 1): number {
  const one = Math.min(...device.bramShapes.map((s) => Math.ceil(depth / s.depth) * Math.ceil(width / s.width)));
  return one * Math.max(1, readPorts);
}
