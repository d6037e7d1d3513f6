// What a co-simulation design provides: the hardware, a random stimulus, and optionally a golden model.
import type { Design } from '../ir/netlist.ts';
import type { Rng } from '../../util/seededRandom.ts';

export interface GoldenModel {
  /**
   * Called once per cycle with the inputs applied that cycle and the outputs sampled before the clock
   * edge (from the TS simulator). Returns a description of the disagreement, or null.
   */
  check(cycle: number, inputs: Readonly<Record<string, bigint>>, outputs: Readonly<Record<string, bigint>>): string | null;
}

export interface CosimDesign {
  /** Short lowercase name used on the command line (`rtgpu cosim fifo`). */
  readonly name: string;
  readonly description: string;
  readonly elaborate: () => Design;
  /**
   * Values for every input port (clk excluded; rst_n included) for one cycle. Hold rst_n low for the
   * first cycles. Must be a function of (cycle, rng) only, so a seed reproduces the run.
   */
  readonly stimulus: (cycle: number, rng: Rng) => Record<string, bigint>;
  /** A fresh golden model for one run (independent of the hardware description). */
  readonly golden?: () => GoldenModel;
}
