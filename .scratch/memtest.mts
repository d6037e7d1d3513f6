import { assemble } from '/work/main/src/isa/assembler.ts';
import { elaborate } from '/work/main/src/hdl/index.ts';
import { compileSimulator } from '/work/main/src/hdl/sim/index.ts';
import { RtCore, defaultRtCoreParams } from '/work/main/src/gpu/rtCore/rtCore.ts';
const program = assemble('s_load_4byte R2, R29, #8\n ii_addi R3, R2, 1\n fin', 'no-answer.s').words;
const s = compileSimulator(elaborate(RtCore, defaultRtCoreParams).design);
s.reset();
s.poke('event_ready', 1); s.poke('mem_resp_done', 0); s.poke('launch_valid', 1); s.poke('launch_bits_thread', 3); s.poke('launch_bits_sp', 0x80030000);
for (let cycle = 0; cycle < 30; cycle++) {
  const names = ['launch_ready', 'issued', 'imem_addr', 'mem_read', 'mem_addr', 'retire_valid', 'retire_pc', 'event_valid', 'busy'];
  console.log(cycle, names.map((n) => `${n}=${s.peek(n)}`).join(' '));
  if (s.peek('launch_ready') === 1n) { s.step(); s.poke('launch_valid', 0); continue; }
  const addr = Number(s.peek('imem_addr'));
  s.step();
  s.poke('imem_data', program[addr >> 2] ?? 0);
}
