// compileSimulator: one entry point for every engine (docs/hdl-guide.md, "Simulators").
import type { Design } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { compileNetlist, type CompiledSimulator, type CompiledSimulatorOptions } from './compiled/compiledSimulator.ts';
import { buildVerilatorModel, compileVerilatorSimulator, type VerilatorOptions } from './verilator/verilatorSimulator.ts';
import { buildIcarusDesign, compileIcarusSimulator, type IcarusOptions } from './icarus/icarusSimulator.ts';
import { externalDesign } from './external/externalDesign.ts';
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
      // Black boxes run as their TypeScript models (an error names one without).
      return compileNetlist(flattenDesign(design, { blackBoxes: 'model' }), opts);
  }
}

/**
 * Builds what an external back end runs (or finds it in the build cache) without starting it: to build
 * ahead of a run (a CI step, a benchmark that times only the start).
 */
export async function prepareSimulator(design: Design, opts: VerilatorOptions | IcarusOptions): Promise<void> {
  const x = externalDesign(design, { registers: opts.registers ?? false });
  if (opts.backend === 'verilator') await buildVerilatorModel(x, opts.trace ?? false, opts.log);
  else await buildIcarusDesign(x, opts.log ?? (() => {}));
}
