// Synthesizes a design in both SystemVerilog styles (readable and netlist) and compares Yosys's resource counts
// per target: the readable emitter must not cost hardware. Usage: npx tsx scripts/emitter-synth-compare.ts
// [--design rtgpu_top] [--module NAME] [--targets xilinx,intel,ecp5,generic] [--limit PERCENT]
// (exit 1 when the readable style needs more than PERCENT more of any resource on any target)
import { parseArgs } from 'node:util';
import { designByName } from '../src/designs/synthSource.ts';
import { emitSystemVerilog } from '../src/hdl/index.ts';
import { isSynthTarget, subDesign, synthesize, type Resources, type SynthTarget } from '../src/hdl/synth/index.ts';

function flags() {
  try {
    return parseArgs({ options: { design: { type: 'string', default: 'rtgpu_top' }, module: { type: 'string' }, targets: { type: 'string', default: 'xilinx,intel,ecp5,generic' }, limit: { type: 'string', default: '2' } } }).values;
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
  for (const style of ['netlist', 'readable'] as const) {
    const e = emitSystemVerilog(design, { style });
    const t0 = performance.now();
    const r = await synthesize({ top: design.top, files: e.files, fileList: e.fileList }, target, { depth: 'none' });
    total[style] = r.total;
    own[style] = new Map(r.modules.map((m) => [m.module, m.own.luts * m.instances]));
    console.error(`  ${target} ${style}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const row = keys.map((k) => {
    const a = total.netlist![k];
    const b = total.readable![k];
    const pct = a === 0 ? (b === 0 ? 0 : Infinity) : ((b - a) / a) * 100;
    // Fewer resources are welcome; more than `limit` percent more fails.
    if (pct > limit) over++;
    return `${k} ${a} -> ${b} (${pct >= 0 ? '+' : ''}${pct.toFixed(2)} %)`;
  });
  console.log(`${target}\t${row.join('\t')}`);
  // Where the logic moved: modules whose LUTs (times their instances) changed most.
  const moved = [...own.netlist!].map(([m, a]) => ({ m, a, b: own.readable!.get(m) ?? 0 })).sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  for (const { m, a, b } of moved.slice(0, 6)) console.log(`  ${m}: ${a} -> ${b} (${b - a >= 0 ? '+' : ''}${b - a})`);
}
process.exit(over ? 1 : 0);
