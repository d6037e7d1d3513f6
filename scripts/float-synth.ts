// Yosys generic synthesis of every float unit at the latencies we offer: cell count, flip-flops, logic depth.
// Usage: npx tsx scripts/float-synth.ts [--op add,div] [--stages 0,3]   (prints a Markdown table)
import { parseArgs } from 'node:util';
import { elaborate } from '../src/hdl/index.ts';
import { emitSystemVerilog } from '../src/hdl/emit/index.ts';
import { synthesize } from '../src/hdl/synth/synthesize.ts';
import { floatUnit, floatUnits } from '../src/designs/catalogue/floatVectors.ts';


const { values } = parseArgs({ options: { op: { type: 'string' }, stages: { type: 'string' } } });
const specs = values.op ? values.op.split(',').map(floatUnit) : floatUnits.filter((u) => u.op !== 'sub');
const fixed = values.stages?.split(',').map(Number);

console.log('| unit | stages | cells | flip-flops | logic depth |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const spec of specs) {
  const latencies = fixed ?? [...new Set([0, 1, spec.stages, spec.natural])].sort((a, b) => a - b);
  for (const stages of latencies) {
    const design = elaborate(spec.def, { stages }).design;
    const e = emitSystemVerilog(design);
    const s = await synthesize({ top: design.top, files: e.files, fileList: e.fileList }, 'generic', { depth: 'top' });
    console.log(`| ${spec.op} | ${stages} | ${s.total.luts + s.total.ffs} | ${s.total.ffs} | ${s.modules[0]!.depth!.levels} |`);
  }
}
