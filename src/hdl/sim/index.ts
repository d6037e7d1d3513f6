// Simulation of a design: the TypeScript simulator (js, wasm), live Verilator and Icarus, lockstep comparison, VCD.
export { engineOptions, type OpenOptions } from './compileEngine.ts';
export { compileSimulator, prepareSimulator, simulatorOptions, type SimulatorOptions, type ExternalSimulatorOptions, type CompiledSimulatorOptions, type VerilatorOptions, type IcarusOptions, type LockstepOptions } from './compileSimulator.ts';
export type { Simulator, PortHandle, PortInfo, VectorOptions } from './simulator.ts';
export {
  simulators,
  simulatorBackends,
  liveSimulatorNames,
  vectorSimulatorNames,
  gateLevelSimulatorNames,
  isSimulatorId,
  isGateLevel,
  type SimulatorId,
  type SimulatorKind,
  type SimulatorBackend,
  type EngineName,
  type LiveSimulatorName,
  type VectorSimulatorName,
  type ExternalSimulatorName,
  type GateLevelSimulatorName,
} from './simulators.ts';
export type { CompiledSimulator } from './compiled/compiledSimulator.ts';
export { LockstepMismatchError, type LockstepSimulator } from './lockstep/lockstepSimulator.ts';
export { VcdWriter } from './vcd.ts';
export { resetInputs } from './signals.ts';
export { resetAtPowerOn } from './external/resetAtPowerOn.ts';
export { PropertyFailedError } from './propertyCheck.ts';
export { CoverageRecorder, mergeCoverage, formatCoverage, type CoverageReport } from './coverage.ts';
export { ClockSchedule, ClockDriver, type ClockTiming, type ClockLevels } from './clockSchedule.ts';
