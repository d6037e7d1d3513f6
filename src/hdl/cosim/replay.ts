// Lockstep co-simulation of a recorded stimulus: a reactive testbench ran on the TS simulator and
// recorded every cycle's inputs; the same rows run on the other simulators and every output is compared.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { compileSimulator, type Simulator } from '../sim/index.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';
import { firstMismatch, harnessDesign, portLayout, svLocation, type CosimMismatch } from './runCosim.ts';

export interface Recording {
  /** Every input of the design's top except clk, in port order (each row holds them in this order). */
  readonly inputs: readonly string[];
  readonly rows: Uint32Array;
  readonly cycles: number;
}

export interface ReplayReport {
  readonly mismatch: CosimMismatch | null;
  readonly seconds: Readonly<Record<string, number>>;
}

/** Throws unless the recording's columns are the design's inputs and its rows hold `cycles` cycles of them. */
export function checkRecording(design: Design, rec: Recording): void {
  const top = topModule(design);
  const inputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input' && n.name !== 'clk');
  if (inputs.map((n) => n.name).join() !== rec.inputs.join()) throw new Error(`the recording's inputs (${rec.inputs.join(', ')}) are not the inputs of ${top.name} (${inputs.map((n) => n.name).join(', ')})`);
  const rowWords = inputs.reduce((s, n) => s + Math.ceil(n.width / 32), 0);
  if (rec.rows.length !== rowWords * rec.cycles) throw new Error(`the recording has ${rec.rows.length} words; ${rec.cycles} cycles of ${top.name}'s inputs are ${rowWords * rec.cycles}`);
}

/** `tsSimulator`: a compiled simulator of `design` to reuse for the 'ts' trace (it is powered on first). */
export async function replayRecording(design: Design, rec: Recording, sims: readonly SimulatorName[], log: (line: string) => void = () => {}, tsSimulator?: Simulator): Promise<ReplayReport> {
  const top = topModule(design);
  checkRecording(design, rec);
  const outNets = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output');
  const out = portLayout(outNets);
  const sv = sims.some((s) => s !== 'ts') ? harnessDesign(design) : undefined;
  const traces: Record<string, Uint32Array> = {};
  const seconds: Record<string, number> = {};
  for (const sim of sims) {
    const t0 = performance.now();
    if (sim === 'ts') {
      const sim = tsSimulator ?? compileSimulator(design);
      sim.powerOn();
      traces.ts = sim.runVectors(rec.inputs, outNets.map((n) => n.name), rec.rows, rec.cycles);
      seconds.ts = (performance.now() - t0) / 1000;
      continue;
    }
    log(`${sim}: preparing ${top.name}`);
    const prepared = await externalSimulator(sim).prepare(sv!.harness);
    log(`${sim}: running ${rec.cycles} cycles`);
    const r = await prepared.run(rec.rows, rec.cycles);
    traces[sim] = r.outputs;
    seconds[sim] = r.seconds;
  }
  const mismatch = firstMismatch(sims, traces, out.ports, out.rowWords, rec.cycles, (name) => (sv ? svLocation(design, sv.lines, name) : '?'), top.name);
  return { mismatch, seconds };
}
