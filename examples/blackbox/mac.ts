// The Verilog multiply-accumulate (mac.v) declared as a black box, with an eDSL model the TS simulator runs in its place.
import { Bool, UInt, defineBlackBox, defineModule, input, mux, output } from 'rtgpu/hdl';

export interface MacParams {
  readonly width: number;
  /** More than 2 × width: mac.v zero-extends the product by accWidth − 2 × width bits. */
  readonly accWidth: number;
}

/** The ports of mac.v, but for its clock and reset (named in defineBlackBox's options). */
const macPorts = (p: MacParams) => ({
  en: input(Bool),
  clear: input(Bool),
  a: input(UInt(p.width)),
  b: input(UInt(p.width)),
  acc: output(UInt(p.accWidth)),
});

/** What mac.v does, in the eDSL: lockstep simulation checks one against the other every cycle. */
export const MacModel = defineModule('MacModel', macPorts, (m, io, p) => {
  const acc = m.reg(UInt(p.accWidth), { reset: 0 });
  const product = io.a.mulw(io.b).zext(p.accWidth);
  acc.set(mux(io.clear, 0, acc).add(mux(io.en, product, 0)));
  io.acc.set(acc);
});

export const Mac = defineBlackBox('mac', macPorts, {
  sources: ['./mac.v'], // relative to this file
  parameters: (p) => ({ WIDTH: p.width, ACC_WIDTH: p.accWidth }),
  clock: 'clk',
  reset: 'reset_n',
  model: MacModel,
});
