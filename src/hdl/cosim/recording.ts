// A recorded stimulus: every input of a design's top, cycle by cycle, as replay, the portable testbench and the recording simulator exchange it.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';

export interface Recording {
  /** Every input of the design's top except clk, in port order (each row holds them in this order). */
  readonly inputs: readonly string[];
  readonly rows: Uint32Array;
  readonly cycles: number;
  /** Memories the run loaded from outside (loadMemory), which the input rows do not carry: such a recording cannot be replayed. */
  readonly memoryLoads?: readonly { readonly memory: string; readonly cycle: number }[];
}

/** Throws unless the recording's columns are the design's inputs and its rows hold `cycles` cycles of them. */
export function checkRecording(design: Design, rec: Recording): void {
  const top = topModule(design);
  const inputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input' && n.name !== 'clk');
  if (inputs.map((n) => n.name).join() !== rec.inputs.join()) throw new Error(`the recording's inputs (${rec.inputs.join(', ')}) are not the inputs of ${top.name} (${inputs.map((n) => n.name).join(', ')})`);
  const rowWords = inputs.reduce((s, n) => s + Math.ceil(n.width / 32), 0);
  if (rec.rows.length !== rowWords * rec.cycles) throw new Error(`the recording has ${rec.rows.length} words; ${rec.cycles} cycles of ${top.name}'s inputs are ${rowWords * rec.cycles}`);
  const load = rec.memoryLoads?.[0];
  // Replaying the inputs alone would compare a different run: refuse rather than pass it.
  if (load) throw new Error(`the run loaded memory '${load.memory}' at cycle ${load.cycle} (loadMemory), which a recording of the inputs cannot replay; give the memory its contents with m.memory(…, { init }) instead, or run without a replay (icarus-gate, --portable)`);
}
