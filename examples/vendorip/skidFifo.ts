// The vendor FIFO (skid_fifo.v) as a black box, with an eDSL model the TS simulator runs in its place.
import { Bool, UInt, defineBlackBox, defineModule, input, mux, output } from 'rtgpu/hdl';

export interface SkidFifoParams {
  readonly width: number;
}

/** skid_fifo.v's ports, but for its clock and reset (named in defineBlackBox's options). */
const skidFifoPorts = (p: SkidFifoParams) => ({
  s_data: input(UInt(p.width)),
  s_valid: input(Bool),
  s_ready: output(Bool),
  m_data: output(UInt(p.width)),
  m_valid: output(Bool),
  m_ready: input(Bool),
  overflow: output(Bool),
});

/** What skid_fifo.v does. Its data registers have no reset in the Verilog: here they power on at 0, which lockstep ignores while m_valid is low. */
export const SkidFifoModel = defineModule('SkidFifoModel', skidFifoPorts, (m, io, p) => {
  const mem0 = m.reg(UInt(p.width));
  const mem1 = m.reg(UInt(p.width));
  const head = m.reg(Bool, { reset: 0 });
  const tail = m.reg(Bool, { reset: 0 });
  const count = m.reg(UInt(2), { reset: 0 });
  const push = io.s_valid.and(io.s_ready);
  const pop = io.m_valid.and(io.m_ready);
  io.s_ready.set(count.ne(2));
  io.m_valid.set(count.ne(0));
  io.m_data.set(mux(head, mem1, mem0));
  io.overflow.set(false);
  m.when(push, () => tail.set(tail.not()));
  m.when(pop, () => head.set(head.not()));
  count.set(count.add(push.zext(2)).sub(pop.zext(2)));
  m.when(push.and(tail.not()), () => mem0.set(io.s_data));
  m.when(push.and(tail), () => mem1.set(io.s_data));
});

export const SkidFifo = defineBlackBox('skid_fifo', skidFifoPorts, {
  sources: ['./skid_fifo.v'],
  parameters: (p) => ({ DATA_WIDTH: p.width }),
  clock: 'clk',
  // Active high, as most vendor IP: the instance gets !rst_n.
  reset: 'rst',
  resetActive: 'high',
  model: SkidFifoModel,
  // Findings of skid_fifo.v itself, waived in that file only (our generated SystemVerilog is still linted in full).
  lintWaivers: { verilator: ['UNUSEDSIGNAL'] },
});
