// How much of a device a design takes: Yosys's cell counts turned into the device's units, and the block RAM its memories need.
import type { Design } from '../ir/netlist.ts';
import { bramsFor, type FpgaDevice } from './devices.ts';
import type { SynthReport } from './report.ts';

/** What a design uses, in the device's units (FpgaDevice: logic, ffs, brams, dsps). */
export interface DeviceUse {
  readonly logic: number;
  readonly ffs: number;
  readonly brams: number;
  readonly dsps: number;
}

export const deviceResources = ['logic', 'ffs', 'brams', 'dsps'] as const satisfies readonly (keyof DeviceUse)[];

/** Cells of the whole design by type: each module's own cells times its instances. */
export function cellTotals(report: Pick<SynthReport, 'modules'>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of report.modules) for (const [type, n] of Object.entries(m.cells)) out[type] = (out[type] ?? 0) + n * m.instances;
  return out;
}

// LUTs a Xilinx LUT-RAM or shift-register cell occupies (UG474).
const xilinxLutramLuts: Readonly<Record<string, number>> = { RAM32M: 4, RAM64M: 4, RAM32X1D: 2, RAM64X1D: 2, RAM128X1D: 4, RAM32X1S: 1, RAM64X1S: 1, RAM128X1S: 2, RAM256X1S: 4, SRL16E: 1, SRLC32E: 1 };
const halfAlm = ['MISTRAL_ALUT4', 'MISTRAL_ALUT3', 'MISTRAL_ALUT2', 'MISTRAL_NOT', 'MISTRAL_BUF', 'MISTRAL_ALUT_ARITH', 'MISTRAL_MLAB'];

/**
 * Logic in the device's unit. Xilinx: LUTs, LUT-RAM included. ECP5: LUT4s (a CCU2C is two), a 16x4
 * distributed RAM six. Cyclone V: ALMs, conservatively: a 5- or 6-input ALUT takes a whole ALM, smaller ones,
 * an adder bit and a 32x1 MLAB cell half of one (an ALM has two outputs and two adder bits; an MLAB is 10 ALMs of 64 bits).
 */
export function logicUse(device: Pick<FpgaDevice, 'target'>, cells: Readonly<Record<string, number>>): number {
  const n = (t: string) => cells[t] ?? 0;
  switch (device.target) {
    case 'xilinx':
      return ['LUT1', 'LUT2', 'LUT3', 'LUT4', 'LUT5', 'LUT6', 'INV'].reduce((s, t) => s + n(t), 0) + Object.entries(xilinxLutramLuts).reduce((s, [t, luts]) => s + luts * n(t), 0);
    case 'intel':
      return Math.ceil(n('MISTRAL_ALUT6') + n('MISTRAL_ALUT5') + halfAlm.reduce((s, t) => s + n(t), 0) / 2);
    case 'ecp5':
      return n('LUT4') + 2 * n('CCU2C') + 6 * (n('TRELLIS_DPR16X4') + n('DPR16X4'));
  }
}

/** The design's use of the device from a Yosys report of it (synthesized for the device's target). */
export function deviceUse(report: SynthReport, device: FpgaDevice): DeviceUse {
  if (report.target !== device.target) throw new Error(`a ${report.target} report cannot measure a ${device.family} device`);
  return { logic: logicUse(device, cellTotals(report)), ffs: report.total.ffs, brams: report.total.brams, dsps: report.total.dsps };
}

/** Each resource's use as a fraction of the device's capacity. */
export function utilization(use: DeviceUse, device: FpgaDevice): Record<keyof DeviceUse, number> {
  return { logic: use.logic / device.logic, ffs: use.ffs / device.ffs, brams: use.brams / device.brams, dsps: use.dsps / device.dsps };
}

/**
 * The block RAM units every memory of the design would take if each went to block RAM (one copy per read
 * port, the best shape each): an upper bound read from the netlist, without synthesis (Yosys puts small
 * memories in LUT-RAM instead).
 */
export function memoryBrams(design: Design, device: Pick<FpgaDevice, 'bramShapes'>): number {
  // Modules are listed children first: walk from the top down, multiplying instance counts.
  const instances = new Map<string, number>([[design.top, 1]]);
  for (const mod of [...design.modules].reverse()) {
    for (const inst of mod.instances) instances.set(inst.module, (instances.get(inst.module) ?? 0) + (instances.get(mod.name) ?? 0));
  }
  let total = 0;
  for (const mod of design.modules) {
    const copies = instances.get(mod.name) ?? 0;
    for (const mem of mod.memories) total += copies * bramsFor(device, mem.depth, mem.width, mem.readPorts.length);
  }
  return total;
}
