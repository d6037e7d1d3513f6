// A shift register: `q` is `d` delayed by `length` enabled cycles.
import { Bool, UInt, defineModule, input, output } from '../index.ts';

export const ShiftRegister = defineModule(
  'ShiftRegister',
  (p: { width: number; length: number }) => ({
    d: input(UInt(p.width)),
    en: input(Bool),
    q: output(UInt(p.width)),
  }),
  (m, io, p) => {
    let prev = io.d;
    for (let i = 0; i < p.length; i++) {
      const stage = m.reg(UInt(p.width), { reset: 0, enable: io.en });
      stage.set(prev);
      prev = stage;
    }
    io.q.set(prev);
  },
);
