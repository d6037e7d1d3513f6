// The simulators co-simulation runs (the simulators table's vector simulators, sim/simulators.ts), and the harness of each external one.
import { vectorSimulatorNames, type ExternalSimulatorName, type VectorSimulatorName } from '../sim/index.ts';
import type { ExternalSimulator } from './harness.ts';
import { verilator } from './verilatorHarness.ts';
import { icarus } from './icarusHarness.ts';
import { icarusGate, icarusGateReset } from './icarusGate.ts';

/** ts, verilator, icarus, icarus-gate and icarus-gate-reset (`rtgpu cosim --sim`, `rtgpu fp --sim`). */
export const simulatorNames = vectorSimulatorNames;
export type SimulatorName = VectorSimulatorName;

/** The vector-file harness of each simulator outside this process. */
const harnesses: Readonly<Record<ExternalSimulatorName, ExternalSimulator>> = {
  verilator,
  icarus,
  'icarus-gate': icarusGate,
  'icarus-gate-reset': icarusGateReset,
};

export function externalSimulator(name: ExternalSimulatorName): ExternalSimulator {
  // A name from untyped code (a JavaScript caller) is checked too.
  if (!Object.hasOwn(harnesses, name)) throw new Error(`'${name}' is not an external simulator`);
  return harnesses[name];
}
