// Two-entry skid buffer: registers both directions, so enq.ready does not depend combinationally on deq.ready.
import { Bool, Decoupled, Irrevocable, UInt, defineModule, input, output } from '../index.ts';

export const SkidBuffer = defineModule(
  'SkidBuffer',
  (p: { width: number }) => ({
    enq: input(Decoupled(UInt(p.width))),
    deq: output(Irrevocable(UInt(p.width))),
  }),
  (m, io, p) => {
    const mainValid = m.reg(Bool, { reset: 0 });
    const mainData = m.reg(UInt(p.width));
    const skidValid = m.reg(Bool, { reset: 0 });
    const skidData = m.reg(UInt(p.width));
    io.enq.ready.set(skidValid.not());
    io.deq.valid.set(mainValid);
    io.deq.bits.set(mainData);
    // The main slot frees up when it is empty or its word leaves this cycle.
    const mainFree = mainValid.not().or(io.deq.ready);
    m.when(mainFree, () => {
      m.when(skidValid, () => {
        mainData.set(skidData);
        mainValid.set(true);
        skidValid.set(false);
      })
        .elsewhen(io.enq.valid, () => {
          mainData.set(io.enq.bits);
          mainValid.set(true);
        })
        .otherwise(() => mainValid.set(false));
    }).otherwise(() => {
      m.when(io.enq.fire, () => {
        skidData.set(io.enq.bits);
        skidValid.set(true);
      });
    });
    m.assert(m.implies(skidValid, mainValid), 'the skid slot holds a word only behind a full main slot', { name: 'skid_behind_main' });
  },
);
