// The RT core as a co-simulation design: random instruction words, memory answers and dispatcher
// traffic, compared every cycle on the TS simulator, Verilator and Icarus (`rtgpu cosim rtcore`).
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../hdl/testbench/index.ts';
import { INSTRUCTIONS } from '../../isa/instructions.ts';
import { RtCore, defaultRtCoreParams } from './rtCore.ts';

/** A random instruction word: mostly a real opcode with random fields, sometimes any 32 bits. */
function randomWord(rng: Rng): bigint {
  if (rng.int(16) === 0) return BigInt(rng.u32());
  const spec = INSTRUCTIONS[rng.int(INSTRUCTIONS.length)]!;
  // Small register numbers make dependences (and so forwarding and stalls) frequent.
  const reg = () => BigInt(rng.int(4) === 0 ? rng.int(32) : rng.int(6));
  const imm = rng.int(2) === 0 ? BigInt(rng.int(64) * 4) : BigInt(rng.u32() & 0xffff);
  return (BigInt(spec.opcode) << 26n) | (reg() << 21n) | (reg() << 16n) | (rng.int(2) === 0 ? reg() << 11n : imm);
}

export const rtCoreCosimDesign: CosimDesign = {
  name: 'rtcore',
  description: 'RT core: 5-stage pipeline, random instruction stream, memory answers and dispatcher traffic',
  elaborate: () => elaborate(RtCore, defaultRtCoreParams).design,
  stimulus: (cycle, rng) => {
    const kernel = rng.int(64) === 0;
    return {
      rst_n: cycle < 2 ? 0n : 1n,
      kernel_mode: kernel ? 1n : 0n,
      pd_clear: kernel && rng.int(4) === 0 ? 1n : 0n,
      pd_scalar_wen: BigInt(rng.int(2)),
      pd_scalar_wb_address: BigInt(rng.int(32)),
      pd_scalar_wb_data: BigInt(rng.u32()),
      pd_vector_wen: BigInt(rng.int(2)),
      pd_vector_wb_address: BigInt(rng.int(16)),
      pd_vector_wb_data: rng.bits(128),
      pd_scalar_read_address1: BigInt(rng.int(32)),
      pd_scalar_read_address2: BigInt(rng.int(32)),
      pd_vector_read_address1: BigInt(rng.int(16)),
      pd_vector_read_address2: BigInt(rng.int(16)),
      pd_start: rng.int(8) === 0 ? 1n : 0n,
      pd_pc: BigInt(rng.int(4) === 0 ? rng.u32() : rng.int(1024) * 4),
      thread_id: BigInt(rng.int(32)),
      imem_data: randomWord(rng),
      cmem_data: BigInt(rng.u32()),
      mem_data_read: rng.bits(128),
      mem_done: rng.int(3) === 0 ? 1n : 0n,
    };
  },
};
