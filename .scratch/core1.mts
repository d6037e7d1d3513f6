import { assemble } from '/work/main/src/isa/assembler.ts';
import { checkCoreAgainstIss } from '/work/main/src/gpu/rtCore/lockstep.ts';
import { defaultScene } from '/work/main/src/golden/defaultScene.ts';
import { FLOAT_KERNEL, INTEGER_KERNEL } from '/work/main/src/designs/coreCpi.ts';
const resultAddress = 's_mov R7, R29\n s_write_low R7, #0xfff0';
const src = `ii_addi R2, R0, 10\nloop:\n ii_add R3, R3, R2\n ii_subi R2, R2, 1\n cmp_i R2, R0\n bg loop\n ${resultAddress}\n s_store_4byte R3, R7, 0\n s_store_4byte R1, R7, 4\n fin`;
for (const [name, s, n] of [['loop', src, 3], ['int', INTEGER_KERNEL, 16], ['float', FLOAT_KERNEL, 16]] as const) {
  const t0 = Date.now();
  const r = checkCoreAgainstIss({ program: assemble(s, 'x.s').words, scene: defaultScene(), pixels: n });
  console.log(name, r.difference, 'instr', r.instructions, 'cycles', r.core.cycles, 'core', r.core.coreCycles, 'issue', r.core.issueCycles, 'cpi', (r.core.coreCycles / r.core.instructions).toFixed(3), Date.now() - t0, 'ms');
  if (name === 'loop') console.log(r.core.pixels);
}
