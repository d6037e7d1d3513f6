// Every simulator by name, in one table (as cocotb's runners): what it is, how it opens, and its description for help and errors.

/**
 * built-in: the TypeScript simulator, in this process; external: a tool's live engine (Verilator, Icarus);
 * lockstep: several engines compared every cycle; gate-level: Yosys' gate netlist on Icarus, from vector files only.
 */
export type SimulatorKind = 'built-in' | 'external' | 'lockstep' | 'gate-level';

interface SimulatorEntry {
  readonly kind: SimulatorKind;
  /**
   * How it opens live: the `backend` option of compileSimulator (undefined: no option, the TS simulator's
   * default choice of JavaScript or WebAssembly; null: it does not run live).
   */
  readonly backend: string | undefined | null;
  /** Runs a design's stimulus rows as a whole (co-simulation, benchmarks, replay of recordings). */
  readonly vectors: boolean;
  /** lockstep: the engines it compares unless told otherwise (the first is the reference). */
  readonly members?: readonly string[];
  /** What it is, for help and errors. */
  readonly description: string;
}

export const simulators = {
  ts: { kind: 'built-in', backend: undefined, vectors: true, description: 'the TS simulator: WebAssembly where it can run the design, else JavaScript' },
  js: { kind: 'built-in', backend: 'js', vectors: false, description: 'the TS simulator on its generated JavaScript' },
  wasm: { kind: 'built-in', backend: 'wasm', vectors: false, description: 'the TS simulator on WebAssembly (an error where it cannot run the design)' },
  verilator: { kind: 'external', backend: 'verilator', vectors: true, description: 'Verilator, live (a C++ model built and cached per design)' },
  icarus: { kind: 'external', backend: 'icarus', vectors: true, description: 'Icarus Verilog, live (vvp through a VPI module)' },
  lockstep: { kind: 'lockstep', backend: 'lockstep', vectors: false, members: ['ts', 'verilator', 'icarus'], description: 'the TS simulator, Verilator and Icarus side by side, every output compared every cycle' },
  'icarus-gate': { kind: 'gate-level', backend: null, vectors: true, description: "Icarus on Yosys' gate-level netlist of the design (post-synthesis simulation)" },
  'icarus-gate-reset': { kind: 'gate-level', backend: null, vectors: true, description: 'the gate-level netlist without power-on values: only the reset defines a register' },
} as const satisfies Record<string, SimulatorEntry>;

type Table = typeof simulators;
/** Any simulator's name. */
export type SimulatorId = keyof Table;
type IdsWhere<Match> = { [N in SimulatorId]: Table[N] extends Match ? N : never }[SimulatorId];

/** The `backend` options of compileSimulator (Simulator.backend: the engine that runs). */
export type SimulatorBackend = NonNullable<Table[SimulatorId]['backend']>;
/** The simulators that run stimulus rows as a whole: co-simulation (`rtgpu cosim --sim`), `rtgpu fp --sim`, replay. */
export type VectorSimulatorName = IdsWhere<{ readonly vectors: true }>;
/** The simulators outside this process that run vector files (cosim's harnesses, backends.ts). */
export type ExternalSimulatorName = IdsWhere<{ readonly kind: 'external' | 'gate-level' }>;
/** The simulators that replay a recorded run afterwards instead of running live. */
export type GateLevelSimulatorName = IdsWhere<{ readonly kind: 'gate-level' }>;

const ids = Object.keys(simulators) as SimulatorId[];

/** The simulators that run a testbench live, one engine each. */
export type EngineName = Exclude<IdsWhere<{ readonly backend: string | undefined }>, 'lockstep'>;
/** Any simulator that runs a testbench live: an engine, or lockstep. */
export type LiveSimulatorName = EngineName | 'lockstep';

/** In the table's order: js, wasm, verilator, icarus, lockstep. */
export const simulatorBackends: readonly SimulatorBackend[] = ids.flatMap((n) => simulators[n].backend ?? []);
/** In the table's order: ts, verilator, icarus, icarus-gate, icarus-gate-reset. */
export const vectorSimulatorNames = ids.filter((n): n is VectorSimulatorName => simulators[n].vectors);
/** In the table's order: ts, js, wasm, verilator, icarus, lockstep. */
export const liveSimulatorNames = ids.filter((n): n is LiveSimulatorName => simulators[n].backend !== null);
export const gateLevelSimulatorNames = ids.filter((n): n is GateLevelSimulatorName => simulators[n].kind === 'gate-level');

export const isSimulatorId = (s: string): s is SimulatorId => Object.hasOwn(simulators, s);
export const isGateLevel = (s: string): s is GateLevelSimulatorName => isSimulatorId(s) && simulators[s].kind === 'gate-level';
