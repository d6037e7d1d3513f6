// TS simulator against Verilator, alternating runs in one process: per-round ratios and their median.
//
//   npx tsx scripts/sim-speed.ts [--cycles N] [--rounds R] [--base DIR] [design ...]
//
// Designs are catalogue names (default: bench rtcore ic_core) or `gpu` (the recorded 16x12 `shade`
// frame replayed). --base DIR adds the TS simulator of another checkout's src/ directory (for
// example `git archive <commit> | tar -x -C DIR` with a node_modules link), run in the same rounds:
// before/after ratios measured under the same load.
import { existsSync } from 'node:fs';
import { topModule } from '../src/hdl/ir/netlist.ts';
import { compileSimulator } from '../src/hdl/sim/index.ts';
import { findDesign } from '../src/designs/catalogue/index.ts';
import { buildStimulus, harnessDesign } from '../src/hdl/cosim/runCosim.ts';
import { externalSimulator } from '../src/hdl/cosim/backends.ts';
import { buildFrame } from '../src/host/frame.ts';
import { defaultCamera } from '../src/host/camera.ts';
import { defaultScene } from '../src/scenes/defaultScene.ts';
import { gpuParamsFor, runFrame } from '../src/host/runtime/index.ts';
import type { Simulator } from '../src/hdl/sim/index.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const cyclesOption = option('--cycles');
const rounds = Number(option('--rounds') ?? 5);
const baseDir = option('--base');
const names = args.length ? args : ['bench', 'rtcore', 'ic_core'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** The other checkout's modules (its copy of the eDSL registers itself as well: allowed here). */
async function baseTree(dir: string) {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('rtgpu.hdl.loadedFrom')];
  return {
    compileSimulator: (await import(`${dir}/hdl/sim/index.ts`)).compileSimulator as (d: unknown) => Simulator,
    // The catalogue moved to designs/catalogue/ (issue 43); a base checkout from before has it at designs/index.ts.
    findDesign: (await import(existsSync(`${dir}/designs/catalogue/index.ts`) ? `${dir}/designs/catalogue/index.ts` : `${dir}/designs/index.ts`)).findDesign as (n: string) => Promise<{ elaborate(): unknown }>,
    gpuDesign: (await import(`${dir}/gpu/top/gpuDesign.ts`)).gpuDesign as (p: unknown) => unknown,
  };
}
const base = baseDir ? await baseTree(baseDir) : undefined;

interface Case {
  sims: { label: string; sim: Simulator; compileMs: number; rates: number[] }[];
  run(sim: Simulator): number;
  verilator(): Promise<number>;
}

async function catalogueCase(name: string): Promise<Case> {
  const cycles = Number(cyclesOption ?? 400_000);
  const d = await findDesign(name);
  const design = d.elaborate();
  const top = topModule(design);
  const stim = buildStimulus(d, top, cycles, 1);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  const ins = stim.inputs.map((p) => p.net.name);
  const warm = Math.min(cycles, 20_000);
  const make = (label: string, compile: () => Simulator) => {
    const t0 = performance.now();
    const sim = compile();
    const compileMs = performance.now() - t0;
    sim.runVectors(ins, outs, stim.data.subarray(0, warm * stim.rowWords), warm);
    return { label, sim, compileMs, rates: [] as number[] };
  };
  const sims = [];
  if (base) {
    const other = (await base.findDesign(name)).elaborate();
    sims.push(make('base', () => base.compileSimulator(other)));
  }
  sims.push(make('ts', () => compileSimulator(design)));
  const prepared = await externalSimulator('verilator').prepare(harnessDesign(design).harness);
  return {
    sims,
    run(sim) {
      sim.powerOn();
      const t = performance.now();
      sim.runVectors(ins, outs, stim.data, cycles);
      return cycles / ((performance.now() - t) / 1000);
    },
    async verilator() {
      return cycles / (await prepared.run(stim.data, cycles)).seconds;
    },
  };
}

async function gpuCase(): Promise<Case> {
  const job = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() });
  const run = await runFrame(job, { sim: 'ts', record: true });
  const rec = run.recording!;
  const top = topModule(run.design);
  const outs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'output').map((n) => n.name);
  const replay = (sim: Simulator) => {
    sim.powerOn();
    const t = performance.now();
    sim.runVectors(rec.inputs, outs, rec.rows, rec.cycles);
    return rec.cycles / ((performance.now() - t) / 1000);
  };
  const make = (label: string, compile: () => Simulator) => {
    const t0 = performance.now();
    const sim = compile();
    const compileMs = performance.now() - t0;
    // The first pass includes V8 optimizing the loop: left out of the rounds.
    replay(sim);
    return { label, sim, compileMs, rates: [] as number[] };
  };
  const sims = [];
  if (base) {
    const other = base.gpuDesign(gpuParamsFor(job, { sim: 'ts' }));
    sims.push(make('base', () => base.compileSimulator(other)));
  }
  sims.push(make('ts', () => compileSimulator(run.design)));
  const prepared = await externalSimulator('verilator').prepare(harnessDesign(run.design).harness);
  return { sims, run: replay, verilator: async () => rec.cycles / (await prepared.run(rec.rows, rec.cycles)).seconds };
}

for (const name of names) {
  const c = name === 'gpu' ? await gpuCase() : await catalogueCase(name);
  const v: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const s of c.sims) s.rates.push(c.run(s.sim));
    v.push(await c.verilator());
  }
  console.log(`${name}: verilator ${(median(v) / 1e3).toFixed(0)} k cycles/s`);
  for (const s of c.sims) {
    const ratios = s.rates.map((x, i) => x / v[i]!);
    console.log(`  ${s.label.padEnd(5)} compile ${s.compileMs.toFixed(0).padStart(5)} ms  ${(median(s.rates) / 1e3).toFixed(0).padStart(6)} k cycles/s  x Verilator: median ${median(ratios).toFixed(3)} [${ratios.map((x) => x.toFixed(2)).join(' ')}]`);
  }
}
