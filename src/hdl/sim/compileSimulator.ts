// compileSimulator: one entry point for every engine (docs/hdl-guide.md, "Simulators").
import type { Design } from '../ir/netlist.ts';
import type { CompiledSimulator, CompiledSimulatorOptions } from './compiled/compiledSimulator.ts';
import { buildVerilatorModel, type VerilatorOptions } from './verilator/verilatorSimulator.ts';
import { buildIcarusDesign, type IcarusOptions } from './icarus/icarusSimulator.ts';
import { externalDesign } from './external/externalDesign.ts';
import { compileLockstepSimulator, type LockstepOptions } from './lockstep/lockstepSimulator.ts';
import { checkBackendName, compileEngine, engineOptions, type OpenOptions } from './compileEngine.ts';
import { simulators, type LiveSimulatorName } from './simulators.ts';
import type { Simulator } from './simulator.ts';

export type { CompiledSimulatorOptions, VerilatorOptions, IcarusOptions, LockstepOptions };
export type ExternalSimulatorOptions = VerilatorOptions | IcarusOptions | LockstepOptions;
export type SimulatorOptions = CompiledSimulatorOptions | ExternalSimulatorOptions;

/**
 * A simulator of `design`. The TypeScript simulator (`js`, `wasm`, or the default: wasm where it can run
 * the netlist) is returned at once; `verilator`, `icarus` and `lockstep` build or start an external tool
 * and return a Promise. `await compileSimulator(…)` works for every back end.
 */
export function compileSimulator(design: Design, opts?: CompiledSimulatorOptions): CompiledSimulator;
export function compileSimulator(design: Design, opts: ExternalSimulatorOptions): Promise<Simulator>;
export function compileSimulator(design: Design, opts: SimulatorOptions): Simulator | Promise<Simulator>;
export function compileSimulator(design: Design, opts: SimulatorOptions = {}): Simulator | Promise<Simulator> {
  checkBackendName(opts);
  return opts.backend === 'lockstep' ? compileLockstepSimulator(design, opts) : compileEngine(design, opts);
}

/**
 * Builds what an external back end runs (or finds it in the build cache) without starting it: to build
 * ahead of a run (a CI step, a benchmark that times only the start).
 */
export async function prepareSimulator(design: Design, opts: VerilatorOptions | IcarusOptions): Promise<void> {
  const x = externalDesign(design, { registers: opts.registers ?? false, resetCheckSeed: opts.resetCheckSeed });
  if (opts.backend === 'verilator') await buildVerilatorModel(x, opts, opts.log);
  else await buildIcarusDesign(x, opts.log ?? (() => {}));
}

/** The options that open a live simulator of the table (simulators.ts) by name: lockstep compares the engines its entry lists. */
export function simulatorOptions(name: LiveSimulatorName, o: OpenOptions = {}): SimulatorOptions {
  if (name !== 'lockstep') return engineOptions(name, o);
  return { backend: 'lockstep', backends: simulators.lockstep.members.map((m) => engineOptions(m, o)), log: o.log };
}
