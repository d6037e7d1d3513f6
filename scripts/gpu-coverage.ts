// The coverage of the GPU blocks' state machines (registers of an enum type) and cover points over the cosim suite's stimuli, as the table of docs/reliability.md.
// Run: node --import tsx scripts/gpu-coverage.ts [--cycles N] [--seeds K]
import { parseArgs } from 'node:util';
import { findDesign } from '../src/designs/catalogue/index.ts';
import { runCosim } from '../src/hdl/cosim/index.ts';
import { mergeCoverage, type CoverageReport } from '../src/hdl/sim/index.ts';

const GPU_DESIGNS = ['rtcore', 'ic_core', 'ray_box4', 'ray_box8', 'triangle_pair', 'texture_arbiter', 'texture_unit', 'bvh_ic', 'bvh8_ic', 'triangle_memory', 'ic_buffer', 'main_memory', 'command_patcher', 'memory_controller'];

const { values } = parseArgs({ options: { cycles: { type: 'string', default: '10000' }, seeds: { type: 'string', default: '3' } } });
const cycles = Number(values.cycles);
const seeds = Number(values.seeds);

console.log(`| design | cycles × seeds | enum registers | states visited | transitions | cover points hit | never visited |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const name of GPU_DESIGNS) {
  let merged: CoverageReport | undefined;
  for (let seed = 1; seed <= seeds; seed++) {
    const report = await runCosim(await findDesign(name), { cycles, seed, sims: ['ts'], coverage: true });
    if (report.mismatch || report.golden) throw new Error(`${name} seed ${seed}: the cosim run failed`);
    merged = merged ? mergeCoverage(merged, report.coverage!) : report.coverage!;
  }
  const fsms = Object.entries(merged!.fsms);
  const states = fsms.flatMap(([, f]) => Object.values(f.states));
  const visited = states.filter((n) => n > 0).length;
  const transitions = fsms.reduce((n, [, f]) => n + Object.keys(f.transitions).length, 0);
  const covers = Object.values(merged!.covers);
  // Per enum type (pipeline slots repeat one type many times), the members no register of it visited.
  const byType = new Map<string, Set<string>>();
  const seen = new Map<string, Set<string>>();
  for (const [, f] of fsms) {
    for (const [s, n] of Object.entries(f.states)) {
      (byType.get(f.type) ?? byType.set(f.type, new Set()).get(f.type)!).add(s);
      if (n > 0) (seen.get(f.type) ?? seen.set(f.type, new Set()).get(f.type)!).add(s);
    }
  }
  const never = [...byType].flatMap(([t, all]) => [...all].filter((s) => !seen.get(t)?.has(s)).map((s) => `${t}.${s}`));
  console.log(`| ${name} | ${cycles} × ${seeds} | ${fsms.length} | ${visited} of ${states.length} | ${transitions} | ${covers.filter((c) => c.hits > 0).length} of ${covers.length} | ${never.join(', ') || '—'} |`);
}
