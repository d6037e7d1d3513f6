// Measures simulated cycles per second of each simulator on one design with the same stimulus.
import { topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
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

/** TS simulator cycles per second with the design's properties checked and without, measured alternately on one stimulus. */
export function benchmarkPropertyCost(d: CosimDesign, cycles: number, seed: number): { readonly properties: number; readonly checkedCyclesPerSecond: number; readonly uncheckedCyclesPerSecond: number } {
  const design = d.elaborate();
  const top = topModule(design);
  const stim = buildStimulus(d, top, cycles, seed);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  const ins = stim.inputs.map((p) => p.net.name);
  const sims = [true, false].map((checkProperties) => compileSimulator(design, { checkProperties }));
  const warm = Math.min(cycles, 20_000);
  for (const s of sims) s.runVectors(ins, outs, stim.data.subarray(0, warm * stim.rowWords), warm);
  // Alternating rounds: the machine's noise falls on both alike.
  const seconds = [0, 0];
  for (let round = 0; round < 3; round++) {
    sims.forEach((s, k) => {
      const t0 = performance.now();
      s.runVectors(ins, outs, stim.data, cycles);
      seconds[k]! += (performance.now() - t0) / 1000;
    });
  }
  const properties = flattenDesign(design).properties?.length ?? 0;
  return { properties, checkedCyclesPerSecond: (3 * cycles) / seconds[0]!, uncheckedCyclesPerSecond: (3 * cycles) / seconds[1]! };
}
