// A recorded stimulus: every input of a design's top, cycle by cycle (or instant by instant), as replay, the portable testbench and the recording simulator exchange it.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';

export interface Recording {
  /** Every input of the design's top except clocks, in port order (each row holds them in this order). */
  readonly inputs: readonly string[];
  readonly rows: Uint32Array;
  /** Rows: cycles, or instants (`instants`). */
  readonly cycles: number;
  /** Memories the run loaded from outside (loadMemory), which the input rows do not carry: such a recording cannot be replayed. */
  readonly memoryLoads?: readonly { readonly memory: string; readonly cycle: number }[];
  /**
   * A run of a design clocked otherwise than by one rising edge per cycle (several clocks, a falling edge):
   * row i holds the inputs applied before instant i, at which the clocks take `levels[i]` (bit k: the level
   * of `clocks[k]`; the same levels as before: inputs only) at `timesPs[i]`. Absent: row i is cycle i
   * (its inputs, then a rising edge of the only clock).
   */
  readonly instants?: RecordedInstants;
}

export interface RecordedInstants {
  readonly clocks: readonly string[];
  readonly levels: Uint32Array;
  /** Simulated time of each instant, ps (non-decreasing). */
  readonly timesPs: Float64Array;
}

/** Throws unless the recording's columns are the design's inputs and its rows hold `cycles` cycles of them. */
export function checkRecording(design: Design, rec: Recording): void {
  const top = topModule(design);
  const inputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input' && n.name !== 'clk');
  if (inputs.map((n) => n.name).join() !== rec.inputs.join()) throw new Error(`the recording's inputs (${rec.inputs.join(', ')}) are not the inputs of ${top.name} (${inputs.map((n) => n.name).join(', ')})`);
  const rowWords = inputs.reduce((s, n) => s + Math.ceil(n.width / 32), 0);
  if (rec.rows.length !== rowWords * rec.cycles) throw new Error(`the recording has ${rec.rows.length} words; ${rec.cycles} cycles of ${top.name}'s inputs are ${rowWords * rec.cycles}`);
  if (rec.instants && (rec.instants.levels.length !== rec.cycles || rec.instants.timesPs.length !== rec.cycles)) throw new Error(`the recording has ${rec.cycles} rows but ${rec.instants.levels.length} clock levels and ${rec.instants.timesPs.length} times`);
  const load = rec.memoryLoads?.[0];
  // Replaying the inputs alone would compare a different run: refuse rather than pass it.
  if (load) throw new Error(`the run loaded memory '${load.memory}' at cycle ${load.cycle} (loadMemory), which a recording of the inputs cannot replay; give the memory its contents with m.memory(…, { init }) instead, or run without a replay (icarus-gate, --portable)`);
}
