// Measures simulated cycles per second of each simulator on one design with the same stimulus.
import { topModule } from '../ir/netlist.ts';
import { compileSimulator } from '../sim/index.ts';
import type { CosimDesign } from './design.ts';
import { buildStimulus, harnessDesign } from './runCosim.ts';
import { externalSimulator, type SimulatorName } from './backends.ts';

export interface BenchRow {
  readonly design: string;
  readonly sim: SimulatorName;
  readonly cycles: number;
  readonly seconds: number;
  readonly cyclesPerSecond: number;
}

/** Runs each simulator for its own cycle count (Icarus is far slower), all from one stimulus. */
export async function benchmarkDesign(d: CosimDesign, cycles: Partial<Record<SimulatorName, number>>, seed: number): Promise<BenchRow[]> {
  const design = d.elaborate();
  const top = topModule(design);
  const max = Math.max(...Object.values(cycles));
  const stim = buildStimulus(d, top, max, seed);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  const rows: BenchRow[] = [];
  const row = (sim: SimulatorName, n: number, seconds: number) =>
    rows.push({ design: d.name, sim, cycles: n, seconds, cyclesPerSecond: n / seconds });
  for (const [sim, n] of Object.entries(cycles) as [SimulatorName, number][]) {
    const data = stim.data.subarray(0, n * stim.rowWords);
    if (sim === 'ts') {
      // Warm up the JIT on the same instance (its generated functions are its own), then measure.
      const s = compileSimulator(design);
      const ins = stim.inputs.map((p) => p.net.name);
      const warm = Math.min(n, 20_000);
      s.runVectors(ins, outs, data.subarray(0, warm * stim.rowWords), warm);
      const t0 = performance.now();
      s.runVectors(ins, outs, data, n);
      row(sim, n, (performance.now() - t0) / 1000);
    } else {
      const prepared = await externalSimulator(sim).prepare(harnessDesign(design).harness);
      const r = await prepared.run(data, n);
      row(sim, n, r.seconds);
    }
  }
  return rows;
}
