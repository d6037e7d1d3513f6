// Lockstep co-simulation of a recorded stimulus: a reactive testbench ran on the TS simulator and
// recorded every cycle's inputs; the same rows run on the other simulators and every output is compared.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import { compileSimulator, type Simulator } from '../sim/index.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';
import { firstMismatch, harnessDesign, portLayout, svLocation } from './runCosim.ts';
import { checkRecording, type Recording } from './recording.ts';
import { needsLiveReplay, replayLive, type ReplayReport } from './replayLive.ts';

export type { ReplayReport };

/** `tsSimulator`: a compiled simulator of `design` to reuse for the 'ts' trace (it is powered on first). */
export async function replayRecording(design: Design, rec: Recording, sims: readonly SimulatorName[], log: (line: string) => void = () => {}, tsSimulator?: Simulator): Promise<ReplayReport> {
  const top = topModule(design);
  checkRecording(design, rec);
  // Recorded instant by instant (no vector run drives its clocks), or an active-high asynchronous reset
  // (the standalone harnesses power 1-bit inputs on high): on live simulators.
  if (needsLiveReplay(design, rec)) return replayLive(design, rec, sims, log, tsSimulator);
  const outNets = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output');
  const out = portLayout(outNets);
  const sv = sims.some((s) => s !== 'ts') ? harnessDesign(design) : undefined;
  const traces: Record<string, Uint32Array> = {};
  const seconds: Record<string, number> = {};
  // Without power-on values (icarus-gate-reset) the outputs are defined only once the initial reset is over: not compared before.
  const from = sims.includes('icarus-gate-reset') ? initialResetCycles(design, rec) : 0;
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
    const prepared = await externalSimulator(sim).prepare({ ...sv!.harness, unknownBefore: sim === 'icarus-gate-reset' ? from : 0 }, log);
    log(`${sim}: running ${rec.cycles} cycles`);
    const r = await prepared.run(rec.rows, rec.cycles);
    traces[sim] = r.outputs;
    seconds[sim] = r.seconds;
  }
  const mismatch = firstMismatch(sims, traces, out.ports, out.rowWords, rec.cycles, (name) => (sv ? svLocation(design, sv.lines, name) : '?'), top.name, from);
  return { mismatch, seconds };
}

/** The recorded cycles from 0 while rst_n is low (0 without a reset port). */
function initialResetCycles(design: Design, rec: Recording): number {
  const top = topModule(design);
  const width = (name: string) => top.nets[top.ports.find((p) => top.nets[p]!.name === name)!]!.width;
  const rowWords = rec.inputs.reduce((s, n) => s + Math.ceil(width(n) / 32), 0);
  const i = rec.inputs.indexOf('rst_n');
  if (i < 0) return 0;
  const at = rec.inputs.slice(0, i).reduce((s, n) => s + Math.ceil(width(n) / 32), 0);
  let c = 0;
  while (c < rec.cycles && rec.rows[c * rowWords + at] === 0) c++;
  return c;
}
