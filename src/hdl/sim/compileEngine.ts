// compileEngine: one simulation engine (the TS simulator, Verilator or Icarus) by its options, and the options of an engine by name; lockstep runs several of these side by side.
import type { Design } from '../ir/netlist.ts';
import { resetCheckValues } from '../ir/powerOn.ts';
import { flattenDesign } from '../ir/flatten.ts';
import { simulateImage, type CompiledSimulator, type CompiledSimulatorOptions } from './compiled/compiledSimulator.ts';
import { compileImage } from './compiled/netlistImage.ts';
import { cachedImage, imageKey } from './compiled/compileCache.ts';
import { compileVerilatorSimulator, type VerilatorOptions } from './verilator/verilatorSimulator.ts';
import { compileIcarusSimulator, type IcarusOptions } from './icarus/icarusSimulator.ts';
import type { Simulator } from './simulator.ts';
import { simulatorBackends, simulators, type EngineName } from './simulators.ts';

/** The options of one engine: every back end but `lockstep`. */
export type EngineOptions = CompiledSimulatorOptions | VerilatorOptions | IcarusOptions;

/** What opening a simulator by name takes besides its name. */
export interface OpenOptions {
  /** Gets an external tool's build lines. */
  readonly log?: (line: string) => void;
  /** Build Verilator with waveform support. */
  readonly trace?: boolean;
  /** Verilator's build: flat, or repeated modules as hierarchical blocks (VerilatorOptions.hierarchical). */
  readonly hierarchical?: boolean | 'auto';
}

/** How an engine of the simulators table (simulators.ts) opens live. */
export function engineOptions(name: EngineName, o: OpenOptions = {}): EngineOptions {
  const backend = simulators[name].backend;
  if (backend === 'verilator') return { backend, trace: o.trace, hierarchical: o.hierarchical, log: o.log };
  if (backend === 'icarus') return { backend, log: o.log };
  return backend === undefined ? {} : { backend };
}

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
      return compileTsSimulator(design, opts);
  }
}

/** The TS simulator of `design`, its image from the compile cache unless `cache: false` (compileCache.ts). */
function compileTsSimulator(design: Design, opts: CompiledSimulatorOptions): CompiledSimulator {
  // Black boxes run as their TypeScript models (an error names one without).
  const make = () => compileImage(flattenDesign(design, { blackBoxes: 'model' }), opts);
  const key = opts.cache === false ? undefined : imageKey(design, opts);
  const { image, fromCache } = key === undefined ? { image: make(), fromCache: false } : cachedImage(key, make);
  return simulateImage(image, { ...opts, powerOnValues: resetCheckValues(design, opts.resetCheckSeed), cacheKey: key, fromCache });
}
