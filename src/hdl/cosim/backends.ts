// The simulators co-simulation can run: the TypeScript simulator and one back end per external tool.
import type { ExternalSimulator } from './harness.ts';
import { verilator } from './verilator.ts';
import { icarus } from './icarus.ts';

export const simulatorNames = ['ts', 'verilator', 'icarus'] as const;
export type SimulatorName = (typeof simulatorNames)[number];

export function externalSimulator(name: Exclude<SimulatorName, 'ts'> | SimulatorName): ExternalSimulator {
  if (name === 'verilator') return verilator;
  if (name === 'icarus') return icarus;
  throw new Error(`'${name}' is not an external simulator`);
}
