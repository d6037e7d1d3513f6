// The Simulator interface: what a testbench sees of a design, whichever engine runs it.
import type { ClockLevels, ClockTiming } from './clockSchedule.ts';
import type { SimulatorBackend } from './simulators.ts';

/** Options of a vector run. */
export interface VectorOptions {
  readonly unknownAsZero?: ReadonlySet<string>;
}


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
 * clock cycle: a rising edge, then a falling edge (outputs are then those of the new state). Values are
 * unsigned bigints of any width. A design with several clocks runs in time: each clock has a period and
 * phase (`setClockTiming`), `advance` runs every edge up to a time, and `setClocks` applies one instant.
 */
export interface Simulator {
  /** Which engine runs the design. */
  readonly backend: SimulatorBackend;
  /** The design's top module. */
  readonly top: string;
  /** Rising edges of the first clock since power-on. */
  readonly cycle: number;
  /** The top's ports in declaration order (clocks excluded). */
  readonly ports: readonly PortInfo[];
  /** The top's clock inputs: `['clk']` for a design on the implicit clock, none for a combinational one. */
  readonly clocks: readonly string[];
  /** Simulated time in ns: `advance`, `setClocks` through the schedule, and `step` (a period of the first clock). */
  readonly time: number;
  /** A clock's period, phase and high time in ns, before time moves. Default: period 10, rising at 5, 10, 15 … */
  setClockTiming(name: string, timing: ClockTiming): void;
  /** A clock's timing now, in ns (the design's period, `setClockTiming`'s, or the default). */
  clockTiming(name: string): Required<ClockTiming>;
  /** Runs every clock edge up to time `ns` in time order (simultaneous edges as one instant); time is then `ns`. */
  advance(ns: number): void;
  /**
   * One instant, outside the schedule: the named clocks take the given levels (the others keep theirs);
   * the registers and memory ports on an edge this makes (0 to 1 rising, 1 to 0 falling) update together
   * from the values before the instant, then logic settles. Every clock is low at power-on.
   */
  setClocks(levels: ClockLevels): void;
  poke(name: string, value: bigint | number): void;
  /** A port, or (where the engine can see it) a register or any net by hierarchical name (`fifo.count`). */
  peek(name: string): bigint;
  /** `cycles` rising edges of the first clock (each with its falling edge), and every edge of the other clocks on the way. */
  step(cycles?: number): void;
  /**
   * Asserts `resetName` for `cycles` cycles, then releases it. Default: `rst_n`, or the top's only reset
   * input; its polarity is the one its registers use (active low for a name no register uses).
   */
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
  /**
   * How many clock edges each cover point (`m.cover`) held at while enabled, since power-on, by
   * hierarchical name. The TS simulator counts them (lockstep: its reference's, when that is one); the
   * emitted SystemVerilog checks covers only for the formal flow, so Verilator and Icarus have none.
   */
  coverCounts?(): Record<string, number>;
  /** Starts a VCD waveform of the design (10 time units per cycle, clk rising at 10c + 5). */
  traceVcd(path: string): void;
  /** Ends the waveform and releases the engine (a child process, a loaded library). */
  close(): void;
}
