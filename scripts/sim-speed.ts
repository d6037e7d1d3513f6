// TS simulator against Verilator on catalogue designs, alternating runs in one process: same-run ratios and their median.
// npx tsx scripts/sim-speed.ts [--cycles N] [--rounds R] [design ...]   (default: bench rtcore ic_core)
import { topModule } from '../src/hdl/ir/netlist.ts';
import { compileSimulator } from '../src/hdl/sim/index.ts';
import { findDesign } from '../src/designs/index.ts';
import { buildStimulus, harnessDesign } from '../src/hdl/cosim/runCosim.ts';
import { externalSimulator } from '../src/hdl/cosim/backends.ts';

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  if (i < 0) return dflt;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const cycles = flag('--cycles', 400_000);
const rounds = flag('--rounds', 5);
const names = args.length ? args : ['bench', 'rtcore', 'ic_core'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

for (const name of names) {
  const d = await findDesign(name);
  const design = d.elaborate();
  const top = topModule(design);
  const stim = buildStimulus(d, top, cycles, 1);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  const ins = stim.inputs.map((p) => p.net.name);
  const t0 = performance.now();
  const s = compileSimulator(design);
  const compileMs = performance.now() - t0;
  const warm = Math.min(cycles, 20_000);
  s.runVectors(ins, outs, stim.data.subarray(0, warm * stim.rowWords), warm);
  const prepared = await externalSimulator('verilator').prepare(harnessDesign(design).harness);
  const ratios: number[] = [];
  const tsRates: number[] = [];
  const vRates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    s.powerOn();
    const t = performance.now();
    s.runVectors(ins, outs, stim.data, cycles);
    const ts = cycles / ((performance.now() - t) / 1000);
    const v = cycles / (await prepared.run(stim.data, cycles)).seconds;
    tsRates.push(ts);
    vRates.push(v);
    ratios.push(ts / v);
  }
  console.log(
    `${name.padEnd(8)} compile ${compileMs.toFixed(0)} ms  ts ${(median(tsRates) / 1e3).toFixed(0)} k/s  verilator ${(median(vRates) / 1e3).toFixed(0)} k/s  ratio median ${median(ratios).toFixed(3)}  [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
}
