// Proves every module rtl-out hands off equal in its readable SystemVerilog and its netlist-style SystemVerilog,
// one module at a time (submodules as black boxes, or flattened in when that fails), with Yosys. Usage: npx tsx scripts/rtl-equivalence.ts
// [--timeout SECONDS] [--only NAME_PREFIX[,NAME_PREFIX…]] [--list]. A module Yosys cannot finish in time is listed as too large;
// any module not proven otherwise fails the run (exit 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { allDesigns } from '../src/designs/catalogue/index.ts';
import { gpuDesign } from '../src/gpu/top/gpuDesign.ts';
import type { Design, ModuleIR } from '../src/hdl/ir/netlist.ts';
import { checkEmitterEquivalence, subDesign } from '../src/hdl/synth/index.ts';

function flags() {
  try {
    return parseArgs({ options: { timeout: { type: 'string', default: '300' }, only: { type: 'string' }, list: { type: 'boolean' } } }).values;
  } catch (e) {
    console.error(`rtl-equivalence: ${(e as Error).message}`);
    process.exit(2);
  }
}
const values = flags();
const timeoutS = Number(values.timeout);
if (!(timeoutS > 0)) {
  console.error(`rtl-equivalence: --timeout must be a positive number of seconds, got '${values.timeout}'`);
  process.exit(2);
}

// Every module of every handed-off design, once (the same parameterization appears in several designs).
const modules = new Map<string, { design: Design; module: ModuleIR }>();
const designs: Design[] = [gpuDesign(), ...(await allDesigns()).map((d) => d.elaborate())];
for (const design of designs) for (const module of design.modules) if (!module.blackBox && !modules.has(module.name)) modules.set(module.name, { design, module });
const prefixes = values.only?.split(',').filter(Boolean);
if (values.list) {
  for (const name of modules.keys()) console.log(name);
  process.exit(0);
}

let failed = 0;
let checked = 0;
const tooLarge: string[] = [];
console.log(`module\tresult\tseconds\tmemory bits`);
for (const [name, { design, module }] of modules) {
  if (prefixes && !prefixes.some((p) => name.startsWith(p))) continue;
  checked++;
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-equiv-'));
  const t0 = performance.now();
  // Alone (submodules black boxes) first; a module whose proof needs its submodules' logic is proven with them.
  let r = await checkEmitterEquivalence(subDesign(design, name), dir, { timeoutMs: timeoutS * 1000, submodules: 'opaque' });
  let how = 'alone';
  if (!r.proven && module.instances.length && !/did not finish within/.test(r.report)) {
    r = await checkEmitterEquivalence(subDesign(design, name), mkdtempSync(join(tmpdir(), 'rtgpu-equiv-')), { timeoutMs: timeoutS * 1000, submodules: 'flatten' });
    how = 'with its submodules';
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  const bits = module.memories.reduce((s, m) => s + m.width * m.depth, 0);
  const timedOut = /did not finish within/.test(r.report);
  const verdict = r.proven ? `proven ${how}` : timedOut ? 'too large' : 'NOT PROVEN';
  console.log(`${name}\t${verdict}\t${seconds}\t${bits}`);
  if (timedOut) tooLarge.push(name);
  else if (!r.proven) {
    failed++;
    console.log(r.report);
  }
  rmSync(dir, { recursive: true, force: true });
}
if (checked === 0) {
  console.error(`rtl-equivalence: no module's name starts with any of '${values.only}' (--list lists them)`);
  process.exit(2);
}
console.log(`\n${checked - failed - tooLarge.length} proven, ${tooLarge.length} too large for ${timeoutS} s${tooLarge.length ? ` (${tooLarge.join(', ')})` : ''}, ${failed} not proven`);
process.exit(failed ? 1 : 0);
