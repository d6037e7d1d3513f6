// Two-entry skid buffer: registers both directions, so enq.ready does not depend combinationally on deq.ready.
import { Bool, Decoupled, Irrevocable, defineModule, input, output, withGenericPorts, type DecoupledType, type HType, type PortSpec, type PortsOf } from '../index.ts';
import { payloadType, type PayloadOf, type PayloadParams } from './payload.ts';
export const SkidBuffer = withGenericPorts<SkidBufferParams, SkidBufferPortsOf>(defineModule(
  'SkidBuffer',
  (p: SkidBufferParams) => ({
    enq: input(Decoupled(payloadType('SkidBuffer', p))),
    deq: output(Irrevocable(payloadType('SkidBuffer', p))),
  }),
  (m, io, p) => {
    const mainValid = m.reg(Bool, { reset: 0 });
    const mainData = m.reg(payloadType('SkidBuffer', p));
    const skidValid = m.reg(Bool, { reset: 0 });
    const skidData = m.reg(payloadType('SkidBuffer', p));
    io.enq.ready.set(skidValid.not());
    io.deq.valid.set(mainValid);
    m.connect(io.deq.bits, mainData);
    // The main slot frees up when it is empty or its word leaves this cycle.
    const mainFree = mainValid.not().or(io.deq.ready);
    m.when(mainFree, () => {
      m.when(skidValid, () => {
        m.connect(mainData, skidData);
        mainValid.set(true);
        skidValid.set(false);
      })
        .elsewhen(io.enq.valid, () => {
          m.connect(mainData, io.enq.bits);
          mainValid.set(true);
        })
        .otherwise(() => mainValid.set(false));
    }).otherwise(() => {
      m.when(io.enq.fire, () => {
        m.connect(skidData, io.enq.bits);
        skidValid.set(true);
      });
    });
    m.assert(m.implies(skidValid, mainValid), 'the skid slot holds a word only behind a full main slot', { name: 'skid_behind_main' });
  },
));

/** `payload`: the type of a word (a Bundle of the fields it holds, say), or `width`: a UInt. */
export type SkidBufferParams<T extends HType = HType> = PayloadParams<T>;

/** The ports of a SkidBuffer of words of type `T`. */
export interface SkidBufferPorts<T extends HType> {
  [port: string]: PortSpec;
  enq: PortSpec<DecoupledType<T>>;
  deq: PortSpec<DecoupledType<T>>;
}

/** An instance's ports follow its payload: `m.instance(SkidBuffer, { payload: T })` has `enq.bits` and `deq.bits` of type T. */
interface SkidBufferPortsOf extends PortsOf {
  readonly ports: SkidBufferPorts<PayloadOf<this['params']>>;
}
