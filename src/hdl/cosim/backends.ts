// The simulators co-simulation can run: the TypeScript simulator and one back end per external tool.
import type { ExternalSimulator } from './harness.ts';
import { verilator } from './verilatorHarness.ts';
import { icarus } from './icarusHarness.ts';
import { icarusGate, icarusGateReset } from './icarusGate.ts';

/**
 * `icarus-gate`: Icarus on Yosys' gate-level netlist of the design (post-synthesis simulation);
 * `icarus-gate-reset`: the same netlist without power-on values, where only the reset defines a register.
 */
export const simulatorNames = ['ts', 'verilator', 'icarus', 'icarus-gate', 'icarus-gate-reset'] as const;
export type SimulatorName = (typeof simulatorNames)[number];

export function externalSimulator(name: Exclude<SimulatorName, 'ts'> | SimulatorName): ExternalSimulator {
  if (name === 'verilator') return verilator;
  if (name === 'icarus') return icarus;
  if (name === 'icarus-gate') return icarusGate;
  if (name === 'icarus-gate-reset') return icarusGateReset;
  throw new Error(`'${name}' is not an external simulator`);
}
