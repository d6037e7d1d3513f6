// The Simulator interface: what a testbench sees of a design, whichever engine runs it.

/** Options of a vector run. */
export interface VectorOptions {
  readonly unknownAsZero?: ReadonlySet<string>;
}

/** The engines behind `compileSimulator` (docs/hdl-guide.md, "Simulators"). */
export const simulatorBackends = ['js', 'wasm', 'verilator', 'icarus', 'lockstep'] as const;
export type SimulatorBackend = (typeof simulatorBackends)[number];

export interface PortInfo {
  readonly name: string;
  readonly width: number;
  readonly direction: 'input' | 'output';
}

export interface PortHandle {
  readonly width: number;
  /** For ports up to 32 bits: the value as an unsigned number. */
  get(): number;
  set(v: number): void;
}

/**
 * One simulated instance of a design. Every engine keeps the same cycle convention: `poke` applies an
 * input at once, `peek` sees the combinational result of the inputs applied so far, `step` is one
 * rising clock edge (outputs are then those of the new state). Values are unsigned bigints of any width.
 */
export interface Simulator {
  /** Which engine runs the design. */
  readonly backend: SimulatorBackend;
  /** The design's top module. */
  readonly top: string;
  /** Rising clock edges since power-on. */
  readonly cycle: number;
  /** The top's ports in declaration order (the clock excluded). */
  readonly ports: readonly PortInfo[];
  poke(name: string, value: bigint | number): void;
  /** A port, or (where the engine can see it) a register or any net by hierarchical name (`fifo.count`). */
  peek(name: string): bigint;
  step(cycles?: number): void;
  /** `resetName` low for `cycles` edges, then high. */
  reset(cycles?: number, resetName?: string): void;
  /** Back to the power-on state: every register, input and memory as at construction, cycle 0. */
  powerOn(): void;
  /** Steps until `pred` holds (checked before each edge); returns the edges taken, throws past `maxCycles`. */
  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): number;
  loadMemory(path: string, words: readonly (bigint | number)[], offset?: number): void;
  dumpMemory(path: string): bigint[];
  port(name: string): PortHandle;
  /**
   * Runs `cycles` cycles from a table of input words (each row: the named inputs, ceil(width/32) words
   * each, in the order given) and returns the named outputs sampled before each edge, as rows of words.
   * Inputs not named keep their values; the named ones keep the last row's. The fastest way to drive a
   * design: one loop inside the engine, no call per cycle. `opts.unknownAsZero`: outputs whose X or Z
   * bits a four-state engine (Icarus) reads as 0 instead of failing the run (don't-care values).
   */
  runVectors(inputs: readonly string[], outputs: readonly string[], stimulus: Uint32Array, cycles: number, opts?: VectorOptions): Uint32Array;
  /** Starts a VCD waveform of the design (10 time units per cycle, clk rising at 10c + 5). */
  traceVcd(path: string): void;
  /** Ends the waveform and releases the engine (a child process, a loaded library). */
  close(): void;
}
