// Sign operations: absolute value and negation (a NaN becomes the canonical NaN, like every NaN result).
import { cat, defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { CANONICAL_NAN, unaryPorts, unpack, type UnaryIo } from './common.ts';
import { Pipeline, type FloatUnitParams } from './pipeline.ts';

export const FSIGN_STEPS = [1] as const;
export const fabsLatency = (p: FloatUnitParams): number => p.stages;
export const fnegLatency = fabsLatency;

function signBody(negate: boolean) {
  return (m: ModuleBuilder, io: UnaryIo, p: FloatUnitParams): void => {
    const pipe = new Pipeline(m, io.in_valid, negate ? 'FNeg' : 'FAbs', p.stages, FSIGN_STEPS);
    const a = unpack(io.a, 'a');
    const newSign = negate ? a.sign.not() : lit(0, 1);
    const result = mux(a.isNaN, lit(CANONICAL_NAN, 32), cat(newSign, io.a.bits(30, 0)));
    const out = pipe.finish({ result });
    io.result.set(out.result);
    io.out_valid.set(pipe.valid);
  };
}

/** |a|. Ports: in_valid, a -> out_valid, result. Latency: `stages` cycles. */
export const FAbs = defineModule('FAbs', (_p: FloatUnitParams) => unaryPorts(), signBody(false));
/** -a. Same ports and latency as FAbs. */
export const FNeg = defineModule('FNeg', (_p: FloatUnitParams) => unaryPorts(), signBody(true));
