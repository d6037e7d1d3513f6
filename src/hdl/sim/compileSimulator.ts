// compileSimulator: one entry point for every engine (docs/hdl-guide.md, "Simulators").
import type { Design } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { compileNetlist, type CompiledSimulator, type CompiledSimulatorOptions } from './compiled/compiledSimulator.ts';
import { compileVerilatorSimulator, type VerilatorOptions } from './verilator/verilatorSimulator.ts';
import { compileIcarusSimulator, type IcarusOptions } from './icarus/icarusSimulator.ts';
import { compileLockstepSimulator, type LockstepOptions } from './lockstep/lockstepSimulator.ts';
import { simulatorBackends, type Simulator } from './simulator.ts';

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
  const backend = (opts as { backend?: unknown }).backend;
  if (backend !== undefined && !(simulatorBackends as readonly unknown[]).includes(backend)) {
    throw new Error(`unknown simulator back end ${JSON.stringify(backend)}: choose one of ${simulatorBackends.join(', ')}`);
  }
  switch (opts.backend) {
    case 'verilator':
      return compileVerilatorSimulator(design, opts);
    case 'icarus':
      return compileIcarusSimulator(design, opts);
    case 'lockstep':
      return compileLockstepSimulator(design, opts);
    default:
      return compileNetlist(flattenDesign(design), opts);
  }
}
