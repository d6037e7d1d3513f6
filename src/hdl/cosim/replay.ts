// Lockstep co-simulation of a recorded stimulus: a reactive testbench ran on the TS simulator and
// recorded every cycle's inputs; the same rows run on the other simulators and every output is compared.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { compileSimulator, type Simulator } from '../sim/index.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';
import { firstMismatch, harnessDesign, portLayout, svLocation, type CosimMismatch } from './runCosim.ts';
import { checkRecording, type Recording } from './recording.ts';

export interface ReplayReport {
  readonly mismatch: CosimMismatch | null;
  readonly seconds: Readonly<Record<string, number>>;
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
