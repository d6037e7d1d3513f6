// Synthesizes a design in both SystemVerilog styles (readable and netlist) and compares Yosys's resource counts
// per target: the readable emitter must not cost hardware. Usage: npx tsx scripts/emitter-synth-compare.ts
// [--design rtgpu_top] [--module NAME] [--targets xilinx,intel,ecp5,generic] [--limit PERCENT]
// [--samples N] [--seed S] (exit 1 when the readable style's median needs more than PERCENT more of any resource
// than the netlist style's on any target).
// --samples N synthesizes each style N times with its files read in different orders (as emitted, reversed, then
// shuffled from the seed): the same text, other internal names, so ABC sees its input in another order. A module
// is mapped once however many instances it has, so that noise is multiplied by its instance count; comparing the
// medians, with each style's spread beside them, tells a real difference from it.
import { parseArgs } from 'node:util';
import { designByName } from '../src/designs/synth/synthSource.ts';
import { emitSystemVerilog } from '../src/hdl/index.ts';
import { isSynthTarget, subDesign, synthesize, type Resources, type SynthTarget } from '../src/hdl/synth/index.ts';
import { createRng, seedFromEnv } from '../src/util/seededRandom.ts';

function fail(message: string): never {
  console.error(`emitter-synth-compare: ${message}`);
  process.exit(2);
}
function flags() {
  try {
    const options = {
      design: { type: 'string', default: 'rtgpu_top' },
      module: { type: 'string' },
      targets: { type: 'string', default: 'xilinx,intel,ecp5,generic' },
      limit: { type: 'string', default: '2' },
      samples: { type: 'string', default: '1' },
      seed: { type: 'string' },
    } as const;
    return parseArgs({ options }).values;
  } catch (e) {
    return fail((e as Error).message);
  }
}
const values = flags();
const targets = values.targets.split(',');
for (const t of targets) if (!isSynthTarget(t)) fail(`unknown target '${t}'`);
const limit = Number(values.limit);
const samples = Number(values.samples);
if (!Number.isFinite(limit) || limit < 0) fail(`--limit must be a percentage, got '${values.limit}'`);
if (!Number.isInteger(samples) || samples < 1) fail(`--samples must be a whole number of at least 1, got '${values.samples}'`);
const seed = values.seed === undefined ? seedFromEnv() : Number(values.seed);
if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) fail(`--seed must be an integer from 0 to 4294967295, got '${values.seed}'`);

/** The n-th file order: as emitted, reversed, then seeded shuffles. */
function fileOrder(files: readonly string[], n: number): string[] {
  if (n === 0) return [...files];
  if (n === 1) return [...files].reverse();
  const rng = createRng(seed + n);
  const out = [...files];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const change = (a: number, b: number) => (a === 0 ? (b === 0 ? 0 : Infinity) : ((b - a) / a) * 100);
const percent = (a: number, b: number) => `${change(a, b) >= 0 ? '+' : ''}${change(a, b).toFixed(2)} %`;

const whole = await designByName(values.design);
const design = (() => {
  try {
    return values.module ? subDesign(whole, values.module) : whole;
  } catch (e) {
    return fail((e as Error).message);
  }
})();
const keys: (keyof Resources)[] = ['luts', 'ffs', 'brams', 'lutram', 'dsps'];
const styles = ['netlist', 'readable'] as const;
let over = 0;
console.log(`${design.top}: resources per style and target (readable vs netlist medians over ${samples} file order(s); limit ${limit} %; seed ${seed})`);
for (const target of targets as SynthTarget[]) {
  const totals: Record<string, Resources[]> = { netlist: [], readable: [] };
  // Per module: LUTs times instances, one entry per sample.
  const own: Record<string, Map<string, number[]>> = { netlist: new Map(), readable: new Map() };
  for (let n = 0; n < samples; n++) {
    for (const style of styles) {
      const e = emitSystemVerilog(design, { style });
      const t0 = performance.now();
      const r = await synthesize({ top: design.top, files: e.files, fileList: fileOrder(e.fileList, n) }, target, { depth: 'none' });
      totals[style]!.push(r.total);
      for (const m of r.modules) own[style]!.set(m.module, [...(own[style]!.get(m.module) ?? []), m.own.luts * m.instances]);
      console.error(`  ${target} ${style} order ${n}: ${r.total.luts} ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  const columns = keys.map((k) => {
    const a = median(totals.netlist!.map((t) => t[k]));
    const b = median(totals.readable!.map((t) => t[k]));
    if (change(a, b) > limit) over++;
    const spread = (style: string) => {
      const xs = totals[style]!.map((t) => t[k]);
      return samples > 1 && Math.min(...xs) !== Math.max(...xs) ? ` [${Math.min(...xs)}..${Math.max(...xs)}]` : '';
    };
    return `${k} ${a}${spread('netlist')} -> ${b}${spread('readable')} (${percent(a, b)})`;
  });
  console.log(`${target}\t${columns.join('\t')}`);
  // Where the logic moved: modules whose LUTs (times their instances) changed most, by median.
  const moved = [...own.netlist!].map(([m, xs]) => ({ m, a: median(xs), b: median(own.readable!.get(m) ?? [0]) }));
  moved.sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  for (const { m, a, b } of moved.slice(0, 6)) {
    const range = (style: string) => (samples > 1 ? ` [${(own[style]!.get(m) ?? [0]).join(', ')}]` : '');
    console.log(`  ${m}: ${a}${range('netlist')} -> ${b}${range('readable')} (${b - a >= 0 ? '+' : ''}${b - a})`);
  }
}
process.exit(over ? 1 : 0);
