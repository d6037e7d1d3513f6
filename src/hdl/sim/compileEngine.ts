// compileEngine: one simulation engine by name (the TS simulator, Verilator or Icarus); lockstep runs several of these side by side.
import type { Design } from '../ir/netlist.ts';
import { resetCheckValues } from '../ir/powerOn.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { compileNetlist, type CompiledSimulator, type CompiledSimulatorOptions } from './compiled/compiledSimulator.ts';
import { compileVerilatorSimulator, type VerilatorOptions } from './verilator/verilatorSimulator.ts';
import { compileIcarusSimulator, type IcarusOptions } from './icarus/icarusSimulator.ts';
import { simulatorBackends, type Simulator } from './simulator.ts';

/** The options of one engine: every back end but `lockstep`. */
export type EngineOptions = CompiledSimulatorOptions | VerilatorOptions | IcarusOptions;

/** Refuses a back end name that is not one of `simulatorBackends`, naming them. */
export function checkBackendName(opts: object): void {
  const backend = (opts as { backend?: unknown }).backend;
  if (backend !== undefined && !(simulatorBackends as readonly unknown[]).includes(backend)) {
    throw new Error(`unknown simulator back end ${JSON.stringify(backend)}: choose one of ${simulatorBackends.join(', ')}`);
  }
}

/** A simulator of `design` on one engine: the TS simulator at once, Verilator and Icarus as a Promise. */
export function compileEngine(design: Design, opts?: CompiledSimulatorOptions): CompiledSimulator;
export function compileEngine(design: Design, opts: EngineOptions): Simulator | Promise<Simulator>;
export function compileEngine(design: Design, opts: EngineOptions = {}): Simulator | Promise<Simulator> {
  checkBackendName(opts);
  switch (opts.backend) {
    case 'verilator':
      return compileVerilatorSimulator(design, opts);
    case 'icarus':
      return compileIcarusSimulator(design, opts);
    default:
      // Black boxes run as their TypeScript models (an error names one without).
      return compileNetlist(flattenDesign(design, { blackBoxes: 'model' }), { ...opts, powerOnValues: resetCheckValues(design, opts.resetCheckSeed) });
  }
}
