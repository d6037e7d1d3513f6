import { elaborate } from '/work/main/src/hdl/index.ts';
import { compileSimulator } from '/work/main/src/hdl/sim/index.ts';
import { CommandPatcher } from '/work/main/src/gpu/commandPatcher/commandPatcher.ts';
const s = compileSimulator(elaborate(CommandPatcher, {}).design);
s.reset(); s.poke('pixel_count', 100); s.poke('first_pixel', 1000); s.poke('start', 1); s.step(); s.poke('start', 0);
let handed = 0, written = 0;
const run = (cycles: number, free = true) => { for (let c = 0; c < cycles; c++) { if (s.peek('pixel_valid') === 1n) handed++; const f = free && written < handed; s.poke('thread_written', f ? 1 : 0); s.poke('written_thread', written % 32); if (f) written++; s.step(); } s.poke('thread_written', 0); };
run(40, false); console.log(handed, written, s.peek('patch_base'));
run(200); console.log(handed, written, s.peek('patch_base'));
for (let i = 0; i < 3; i++) { s.poke('patch_written', 1); s.step(); console.log('pw', s.peek('patch_base'), s.peek('busy')); }
s.poke('patch_written', 0);
run(200); console.log(handed, written, s.peek('patch_base'));
console.log('holding', s.peek('holding').toString(2), 'next', s.peek('next'), 'valid', s.peek('pixel_valid'), 'tid', s.peek('thread_id'));
