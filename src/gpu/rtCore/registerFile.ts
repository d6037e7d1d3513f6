// A register file in flip-flops: register 0 reads as zero, asynchronous reads, a pipeline write port,
// a kernel-mode write port for the patch dispatcher, and a clear that zeroes every register at once.
import { Bool, UInt, Vec, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { clog2, selectByIndex } from '../../hdl/lib/index.ts';

export interface RegisterFileParams {
  readonly count: number;
  readonly width: number;
  readonly readPorts: number;
}

export const RegisterFile = defineModule(
  'RegisterFile',
  (p: RegisterFileParams) => ({
    raddr: input(Vec(p.readPorts, UInt(clog2(p.count)))),
    rdata: output(Vec(p.readPorts, UInt(p.width))),
    we: input(Bool),
    waddr: input(UInt(clog2(p.count))),
    wdata: input(UInt(p.width)),
    kernel_we: input(Bool),
    kernel_waddr: input(UInt(clog2(p.count))),
    kernel_wdata: input(UInt(p.width)),
    clear: input(Bool),
  }),
  (m, io, p) => {
    const regs = Array.from({ length: p.count - 1 }, (_, i) => m.reg(UInt(p.width), { reset: 0, name: `r${i + 1}` }));
    regs.forEach((r, k) => {
      const i = k + 1;
      // The kernel port wins over the pipeline; a clear wins over both.
      m.when(io.clear, () => r.set(0))
        .elsewhen(io.kernel_we.and(io.kernel_waddr.eq(i)), () => r.set(io.kernel_wdata))
        .elsewhen(io.we.and(io.waddr.eq(i)), () => r.set(io.wdata));
    });
    const values = [lit(0, p.width), ...regs];
    for (let k = 0; k < p.readPorts; k++) io.rdata.at(k).set(selectByIndex(io.raddr.at(k), values));
  },
);
