// What an external simulator backend needs to know about a design, and what it returns.
import type { ExternalSimulatorName } from '../sim/index.ts';
export interface HarnessPort {
  readonly name: string;
  readonly width: number;
  readonly dir: 'input' | 'output';
}

export interface HarnessDesign {
  readonly top: string;
  /** Every .sv and .hex file; written side by side, simulators run with that directory as cwd. */
  readonly svFiles: readonly { readonly path: string; readonly text: string }[];
  /** The .sv paths in compile order. */
  readonly fileList: readonly string[];
  /** The top has an `input logic clk` (not listed in ports). */
  readonly clocked: boolean;
  /** In declaration order, clk excluded. */
  readonly ports: readonly HarnessPort[];
  /**
   * Internal signals to record after the outputs, each row: instance path and signal name as SV
   * identifiers (`['fifo', 'count_1']`). Verilator then builds with --public-flat-rw.
   */
  readonly probes?: readonly { readonly path: readonly string[]; readonly width: number }[];
  /**
   * Cycles at the start whose outputs may be X or Z (read as 0): the initial reset of a design simulated
   * without power-on values. Past them an X or Z output is an error.
   */
  readonly unknownBefore?: number;
  /** Verilator evaluates the model on this many threads (`--threads N`; default 1). Icarus has one. */
  readonly threads?: number;
}

export interface ExternalRunResult {
  /** cycles × (sum of ceil(width/32) over outputs) words, outputs in port order. */
  readonly outputs: Uint32Array;
  readonly cycles: number;
  /** Time of the stepping loop alone, measured inside the harness. */
  readonly seconds: number;
}

export interface PreparedSimulation {
  /**
   * `repeat` (Verilator only; default 1): the stimulus is run that many times over, the design running on, all
   * in the timed loop (`seconds`), and the outputs are the last pass's: a benchmark's window of seconds without a
   * stimulus file to match.
   */
  run(stimulus: Uint32Array, cycles: number, repeat?: number): Promise<ExternalRunResult>;
}

export interface ExternalSimulator {
  readonly name: ExternalSimulatorName;
  /** Builds (or takes from the cache) a simulation of the design; `log` gets a line per long step. */
  prepare(design: HarnessDesign, log?: (line: string) => void): Promise<PreparedSimulation>;
}

export const wordsOf = (w: number): number => Math.ceil(w / 32);

export function inputsOf(d: HarnessDesign): HarnessPort[] {
  return d.ports.filter((p) => p.dir === 'input');
}

export function outputsOf(d: HarnessDesign): HarnessPort[] {
  return d.ports.filter((p) => p.dir === 'output');
}

export const rowWords = (ports: readonly { readonly width: number }[]): number => ports.reduce((s, p) => s + wordsOf(p.width), 0);

/** Words of one output row: the outputs, then the probes. */
export const outputRowWords = (d: HarnessDesign): number => rowWords(outputsOf(d)) + rowWords(d.probes ?? []);
