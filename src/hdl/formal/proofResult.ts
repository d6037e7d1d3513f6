// What `prove` is asked and what it answers: the modes, the options, the result with its counterexample and covers.

/**
 * - `bmc`: bounded model checking: no assertion fails in the first `depth` cycles from power-on.
 * - `prove`: bmc, then k-induction of depth `depth`: `proven` when induction closes, else `bounded`.
 * - `cover`: a trace from power-on to each cover point within `depth` cycles (assertions checked on the way).
 */
export type ProofMode = 'bmc' | 'prove' | 'cover';

export const proofModes: readonly ProofMode[] = ['bmc', 'prove', 'cover'];

/** The design file a counterexample testbench imports the design from (the CLI knows it; an API caller may give it). */
export interface DesignSource {
  /** The design file's path. */
  readonly file: string;
  /** The export that holds the module (`default` for a default export). */
  readonly exportName: string;
  /**
   * Parameters written into the testbench (numbers, bigints, booleans, strings, arrays and plain objects of
   * those): all of them, or with `fileParams` those that override the file's.
   */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Start from the `params` the design file exports (as the CLI elaborates a design file). */
  readonly fileParams?: boolean;
}

export interface ProofOptions {
  /** Default `prove`. */
  readonly mode?: ProofMode;
  /** Clock cycles (instants, with several clocks) from power-on the bounded check covers, and the induction length (default 20). */
  readonly depth?: number;
  /** Where the SystemVerilog, the Yosys script and log, the traces and the testbench go (default: a new temporary directory). */
  readonly dir?: string;
  /** Progress lines: each step started, the tools' conclusions. */
  readonly log?: (line: string) => void;
  /** With it, a counterexample is also written as a testbench file `rtgpu sim` replays. */
  readonly source?: DesignSource;
  /** The solver is stopped after this long (default: no limit). */
  readonly timeoutSeconds?: number;
}

export type PropertyKind = 'assert' | 'assume' | 'cover';

/** An eDSL property, as the simulators name it. */
export interface PropertyRef {
  /** Its hierarchical name from the top (`Top.u_fifo.assert_12`), as PropertyFailedError names it. */
  readonly name: string;
  /** Its name below the top (`u_fifo.assert_12`), as coverCounts() names a cover. */
  readonly path: string;
  readonly kind: PropertyKind;
  /** The TypeScript `file:line` that declared it. */
  readonly where: string;
  readonly message?: string;
}

/**
 * What one step of a trace is. `cycle`: one clock cycle of a design clocked by one rising edge (the edge
 * that ends it). `instant`: with several clocks or a falling edge, the clocks are inputs the solver drives;
 * an instant sets their levels (every register whose clock made its edge there updates, from the values
 * before it), as `Simulator.setClocks` does. Every clock is low at power-on.
 */
export type StepUnit = 'cycle' | 'instant';

/** The top's input values for each step from power-on, as the solver chose them. */
export interface InputTrace {
  readonly unit: StepUnit;
  /** The top's input ports (clocks excluded). */
  readonly inputs: readonly string[];
  /** `values[k][i]` is input `inputs[i]` during step k (instants: after the clocks of instant k changed). */
  readonly values: readonly (readonly bigint[])[];
  /** Instants: the clock inputs and their levels at each step (all 0 at step 0). */
  readonly clocks?: { readonly names: readonly string[]; readonly levels: readonly (readonly (0 | 1)[])[] };
}

export interface Counterexample {
  readonly unit: StepUnit;
  /**
   * Cycles: the cycles from power-on to the failing edge, which ends cycle `steps - 1`. Instants: the
   * instants from power-on, the last of which fails the property.
   */
  readonly steps: number;
  /** The cycle whose ending edge fails the property (as PropertyFailedError counts it), or the failing instant. */
  readonly failingStep: number;
  readonly trace: InputTrace;
  /** The solver's waveform (every named signal, one step per cycle or instant). */
  readonly vcd: string;
  /** The testbench file that replays the inputs (`rtgpu sim FILE --sim ts|verilator|icarus|lockstep`), when a source was given. */
  readonly testbench?: string;
}

export interface CoverResult {
  readonly property: PropertyRef;
  readonly reached: boolean;
  /** Where it is first reached: the edge ending this cycle (as the TS simulator counts it), or this instant. */
  readonly step?: number;
  /** A trace from power-on to it. */
  readonly vcd?: string;
}

export type ProofStatus = 'proven' | 'bounded' | 'failed' | 'covered' | 'unreachable';

export interface ProofResult {
  /**
   * - `proven`: every assertion holds in every reachable state (induction closed).
   * - `bounded`: no assertion fails within `depth` cycles; nothing is known beyond.
   * - `failed`: an assertion fails: `property` and `counterexample` say which and how.
   * - `covered`: every cover point is reached within `depth` cycles.
   * - `unreachable`: some cover point is not reached within `depth` cycles (`covers`).
   */
  readonly status: ProofStatus;
  readonly mode: ProofMode;
  /** Cycles (or instants) from power-on checked, and the induction length. */
  readonly depth: number;
  readonly unit: StepUnit;
  readonly top: string;
  /** The failing assertion. */
  readonly property?: PropertyRef;
  readonly counterexample?: Counterexample;
  /** Cover mode: every cover point. */
  readonly covers?: readonly CoverResult[];
  /** Prove mode, when induction does not close: the assertion induction could not show, and the solver's induction trace (states that need not be reachable). */
  readonly induction?: { readonly property?: PropertyRef; readonly vcd: string };
  /** The directory of the sources, script, logs and traces. */
  readonly dir: string;
  readonly seconds: number;
}
