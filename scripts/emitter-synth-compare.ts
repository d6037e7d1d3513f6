// Synthesizes a design in both SystemVerilog styles (readable and netlist) and compares Yosys's resource counts
// per target: the readable emitter must not cost hardware. Usage: npx tsx scripts/emitter-synth-compare.ts
// [--design rtgpu_top] [--module NAME] [--targets xilinx,intel,ecp5,generic] [--limit PERCENT]
// [--noise] (exit 1 when the readable style needs more than PERCENT more of any resource on any target).
// --noise also synthesizes the netlist style with its files read in reverse order: the same text, other cell
// names, so ABC sees its input in another order. The difference it makes is the noise a comparison of two
// styles cannot resolve.
import { parseArgs } from 'node:util';
import { designByName } from '../src/designs/synthSource.ts';
import { emitSystemVerilog } from '../src/hdl/index.ts';
import { isSynthTarget, subDesign, synthesize, type Resources, type SynthTarget } from '../src/hdl/synth/index.ts';

function flags() {
  try {
    return parseArgs({ options: { design: { type: 'string', default: 'rtgpu_top' }, module: { type: 'string' }, targets: { type: 'string', default: 'xilinx,intel,ecp5,generic' }, limit: { type: 'string', default: '2' }, noise: { type: 'boolean', default: false } } }).values;
  } catch (e) {
    console.error(`emitter-synth-compare: ${(e as Error).message}`);
    process.exit(2);
  }
}
const values = flags();
const targets = values.targets.split(',');
for (const t of targets) {
  if (!isSynthTarget(t)) {
    console.error(`emitter-synth-compare: unknown target '${t}'`);
    process.exit(2);
  }
}
const limit = Number(values.limit);
const whole = await designByName(values.design);
const design = values.module ? subDesign(whole, values.module) : whole;
const keys: (keyof Resources)[] = ['luts', 'ffs', 'brams', 'lutram', 'dsps'];
let over = 0;
console.log(`${design.top}: resources per style and target (readable vs netlist; limit ${limit} %)`);
for (const target of targets as SynthTarget[]) {
  const total: Record<string, Resources> = {};
  const own: Record<string, Map<string, number>> = {};
  for (const run of values.noise ? (['netlist', 'readable', 'reordered'] as const) : (['netlist', 'readable'] as const)) {
    const e = emitSystemVerilog(design, { style: run === 'readable' ? 'readable' : 'netlist' });
    const t0 = performance.now();
    const fileList = run === 'reordered' ? [...e.fileList].reverse() : e.fileList;
    const r = await synthesize({ top: design.top, files: e.files, fileList }, target, { depth: 'none' });
    total[run] = r.total;
    own[run] = new Map(r.modules.map((m) => [m.module, m.own.luts * m.instances]));
    console.error(`  ${target} ${run}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const change = (a: number, b: number) => (a === 0 ? (b === 0 ? 0 : Infinity) : ((b - a) / a) * 100);
  const text = (k: string, a: number, b: number) => `${k} ${a} -> ${b} (${change(a, b) >= 0 ? '+' : ''}${change(a, b).toFixed(2)} %)`;
  // Fewer resources are welcome; more than `limit` percent more fails.
  over += keys.filter((k) => change(total.netlist![k], total.readable![k]) > limit).length;
  console.log(`${target}\t${keys.map((k) => text(k, total.netlist![k], total.readable![k])).join('\t')}`);
  if (total.reordered) console.log(`${target} noise (netlist, files reversed)\t${keys.map((k) => text(k, total.netlist![k], total.reordered![k])).join('\t')}`);
  // Where the logic moved: modules whose LUTs (times their instances) changed most.
  const moved = [...own.netlist!].map(([m, a]) => ({ m, a, b: own.readable!.get(m) ?? 0 })).sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  for (const { m, a, b } of moved.slice(0, 6)) console.log(`  ${m}: ${a} -> ${b} (${b - a >= 0 ? '+' : ''}${b - a})`);
}
process.exit(over ? 1 : 0);
