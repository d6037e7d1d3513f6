// Simulation of a design: the TypeScript simulator (js, wasm), live Verilator and Icarus, lockstep comparison, VCD.
export { compileSimulator, prepareSimulator, type SimulatorOptions, type ExternalSimulatorOptions, type CompiledSimulatorOptions, type VerilatorOptions, type IcarusOptions, type LockstepOptions } from './compileSimulator.ts';
export { simulatorBackends, type Simulator, type SimulatorBackend, type PortHandle, type PortInfo, type VectorOptions } from './simulator.ts';
export type { CompiledSimulator } from './compiled/compiledSimulator.ts';
export { LockstepMismatchError } from './lockstep/lockstepSimulator.ts';
export { VcdWriter } from './vcd.ts';
export { resetInputs } from './signals.ts';
export { resetAtPowerOn } from './external/resetAtPowerOn.ts';
export { PropertyFailedError } from './propertyCheck.ts';
export { CoverageRecorder, mergeCoverage, formatCoverage, type CoverageReport } from './coverage.ts';
export { ClockSchedule, ClockDriver, type ClockTiming, type ClockLevels } from './clockSchedule.ts';
