import { measureCoreCpi } from '/work/main/src/designs/coreCpi.ts';
import { runOnCore } from '/work/main/src/gpu/rtCore/coreTestbench.ts';
import { assemble } from '/work/main/src/isa/assembler.ts';
import { defaultScene } from '/work/main/src/golden/defaultScene.ts';
import { FLOAT_KERNEL, INTEGER_KERNEL } from '/work/main/src/designs/coreCpi.ts';
console.log(measureCoreCpi());
for (const c of [1, 2, 4, 8]) {
  const f = runOnCore({ program: assemble(FLOAT_KERNEL, 'f.s').words, scene: defaultScene(), pixels: 32, concurrency: c });
  const i = runOnCore({ program: assemble(INTEGER_KERNEL, 'i.s').words, scene: defaultScene(), pixels: 32, concurrency: c });
  console.log('threads', c, 'float', (f.coreCycles / f.instructions).toFixed(3), 'int', (i.coreCycles / i.instructions).toFixed(3));
}
