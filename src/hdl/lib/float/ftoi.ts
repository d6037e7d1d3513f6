// binary32 to int32 conversion, truncating toward zero, saturating.
import { cat, defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { unaryPorts, unpack, type UnaryIo } from './common.ts';
import { Pipeline, pick, type FloatUnitParams } from './pipeline.ts';

/** Steps and estimated delays: range checks and shift distance, right shift, negate and saturate. */
export const FTOI_STEPS = [2, 3, 3] as const;
export const FTOI_NATURAL_STAGES = FTOI_STEPS.length;
export const ftoiLatency = (p: FloatUnitParams): number => p.stages;

export const INT_MAX = 0x7fffffff;
export const INT_MIN = 0x80000000;

/**
 * |a| < 1 (exponent field below 127, including zeros and subnormals) gives 0. |a| >= 2^31 (exponent
 * field 158 and up, including infinities) saturates: 0x7fffffff for positive, 0x80000000 for negative
 * (which is also the exact value of -2^31). NaN gives 0. Otherwise the significand, placed with its
 * leading one at bit 31, is shifted right by 158 - exponent (1..31), dropping the fraction, and
 * negated for a negative input.
 */
function ftoiBody(m: ModuleBuilder, io: UnaryIo, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'FToI', p.stages, FTOI_STEPS);

  // ---- step 1: classify
  const a = unpack(io.a, 'a');
  const belowOne = a.exp.lt(127);
  const saturates = a.exp.ge(158);
  const shift = lit(158, 8).sub(a.exp).trunc(5);
  const aligned = cat(lit(1, 1), a.frac, lit(0, 8));
  const s1 = pipe.cut({ sign: a.sign, isNaN: a.isNaN, belowOne, saturates, shift, aligned });

  // ---- step 2: drop the fraction bits
  const magnitude = s1.aligned.shr(s1.shift);
  const s2 = pipe.cut({ ...pick(s1, 'sign', 'isNaN', 'belowOne', 'saturates'), magnitude });

  // ---- step 3: apply the sign, saturate
  const signed = mux(s2.sign, lit(0, 32).sub(s2.magnitude), s2.magnitude);
  const saturated = mux(s2.sign, lit(INT_MIN, 32), lit(INT_MAX, 32));
  const result = mux(s2.isNaN.or(s2.belowOne), lit(0, 32), mux(s2.saturates, saturated, signed));
  const out = pipe.finish({ result });
  io.result.set(out.result);
  io.out_valid.set(pipe.valid);
}

/** binary32 to int32 (two's complement in `result`). Ports: in_valid, a -> out_valid, result. Latency: `stages`. */
export const FToI = defineModule('FToI', (_p: FloatUnitParams) => unaryPorts(), ftoiBody);
