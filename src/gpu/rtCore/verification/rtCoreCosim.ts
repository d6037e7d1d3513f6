// The RT core as a co-simulation design: random instruction words, memory answers, thread launches and
// event backpressure, compared every cycle on the TS simulator, Verilator and Icarus (`rtgpu cosim rtcore`).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { INSTRUCTIONS, threadBase } from '../../../isa/instructions.ts';
import { RtCore, defaultRtCoreParams } from '../rtCore.ts';

/** A random instruction word: mostly a real opcode with random fields, sometimes any 32 bits. */
function randomWord(rng: Rng): bigint {
  if (rng.int(16) === 0) return BigInt(rng.u32());
  const spec = INSTRUCTIONS[rng.int(INSTRUCTIONS.length)]!;
  // Small register numbers make dependences frequent.
  const reg = () => BigInt(rng.int(4) === 0 ? rng.int(32) : rng.int(6));
  const imm = rng.int(2) === 0 ? BigInt(rng.int(64) * 4) : BigInt(rng.u32() & 0xffff);
  return (BigInt(spec.opcode) << 26n) | (reg() << 21n) | (reg() << 16n) | (rng.int(2) === 0 ? reg() << 11n : imm);
}

export const rtCoreCosimDesign: CosimDesign = {
  name: 'rtcore',
  description: 'RT core: multithreaded pipeline, random instruction stream, thread launches, memory answers and event backpressure',
  elaborate: () => elaborate(RtCore, defaultRtCoreParams).design,
  stimulus: (cycle, rng) => ({
    rst_n: cycle < 2 ? 0n : 1n,
    dispatch_launch_valid: rng.int(6) === 0 ? 1n : 0n,
    dispatch_launch_bits_thread: BigInt(rng.int(32)),
    dispatch_launch_bits_pc: BigInt(rng.int(4) === 0 ? rng.u32() : rng.int(1024) * 4),
    dispatch_launch_bits_pixel: BigInt(rng.u32()),
    // Mostly the thread's own memory base, so that loads and stores reach main memory.
    dispatch_launch_bits_sp: BigInt(rng.int(4) === 0 ? rng.u32() : threadBase(rng.int(32))),
    dispatch_launch_bits_hit: rng.bits(128),
    dispatch_launch_bits_normal: rng.bits(128),
    dispatch_launch_bits_parameters: rng.bits(128),
    dispatch_launch_bits_queried: BigInt(rng.int(2)),
    dispatch_event_ready: rng.int(3) === 0 ? 0n : 1n,
    status_context: BigInt(rng.int(defaultRtCoreParams.contexts)),
    imem_data: randomWord(rng),
    cmem_data: BigInt(rng.u32()),
    mem_resp_data: rng.bits(128),
    // Usually answered; a missing answer faults the access and sets mem_error.
    mem_resp_done: rng.int(50) === 0 ? 0n : 1n,
  }),
};
