// Floating-point minimum and maximum (IEEE 754-2019 minimumNumber / maximumNumber, as RISC-V fmin/fmax).
import { defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { CANONICAL_NAN, binaryPorts, unpack, type BinaryIo } from './common.ts';
import { totalOrderLess } from './order.ts';
import { Pipeline, type FloatUnitParams } from './pipeline.ts';

export { totalOrderLess };

/** One step: magnitude compare and select. */
export const FMINMAX_STEPS = [3] as const;
export const FMINMAX_NATURAL_STAGES = FMINMAX_STEPS.length;
export const fminLatency = (p: FloatUnitParams): number => p.stages;
export const fmaxLatency = fminLatency;

/**
 * A NaN operand yields the other operand, two NaNs the canonical NaN, and -0 orders below +0
 * (so min(-0, +0) = -0, max(-0, +0) = +0).
 */
function minMaxBody(takeMax: boolean) {
  return (m: ModuleBuilder, io: BinaryIo, p: FloatUnitParams): void => {
    const pipe = new Pipeline(m, io.in_valid, takeMax ? 'FMax' : 'FMin', p.stages, FMINMAX_STEPS);
    const a = unpack(io.a, 'a');
    const b = unpack(io.b, 'b');
    const aLess = totalOrderLess(io.a, io.b);
    const pickA = takeMax ? aLess.not() : aLess;
    const ordered = mux(pickA, io.a, io.b);
    const result = mux(a.isNaN.and(b.isNaN), lit(CANONICAL_NAN, 32), mux(a.isNaN, io.b, mux(b.isNaN, io.a, ordered)));
    const out = pipe.finish({ result });
    io.result.set(out.result);
    io.out_valid.set(pipe.valid);
  };
}

/** min(a, b). Ports: in_valid, a, b -> out_valid, result. Latency: `stages` cycles. */
export const FMin = defineModule('FMin', (_p: FloatUnitParams) => binaryPorts(), minMaxBody(false));
/** max(a, b). Same ports and latency as FMin. */
export const FMax = defineModule('FMax', (_p: FloatUnitParams) => binaryPorts(), minMaxBody(true));


