// Yosys generic synthesis of every float unit at the latencies we offer: cell count, flip-flops, logic depth.
// Usage: npx tsx scripts/float-synth.ts [--op add,div] [--stages 0,3]   (prints a Markdown table)
import { parseArgs } from 'node:util';
import { elaborate } from '../src/hdl/index.ts';
import { emitSystemVerilog } from '../src/hdl/emit/index.ts';
import { yosysSynthStats } from '../src/hdl/cosim/rtlChecks.ts';
import { floatUnit, floatUnits } from '../src/hdl/lib/float/vectors.ts';


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
    const s = await yosysSynthStats({ top: design.top, files: e.files, fileList: e.fileList });
    console.log(`| ${spec.op} | ${stages} | ${s.cells} | ${s.flipFlops} | ${s.depth} |`);
  }
}
