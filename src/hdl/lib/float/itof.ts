// int32 to binary32 conversion, round to nearest even.
import { False, defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { leadingZeros, roundPack, unaryPorts, type UnaryIo } from './common.ts';
import { Pipeline, type FloatUnitParams } from './pipeline.ts';

/** Steps and estimated delays: magnitude (negate), leading zeros, normalize, round and pack. */
export const ITOF_STEPS = [3, 2, 3, 3] as const;
export const ITOF_NATURAL_STAGES = ITOF_STEPS.length;
export const itofLatency = (p: FloatUnitParams): number => p.stages;

/**
 * The magnitude (2^31 for -2^31 fits 32 unsigned bits) is shifted left by its leading-zero count so
 * its leading one is bit 31: bits 31..8 are the significand, bit 7 the round bit, bits 6..0 sticky.
 * The exponent is 158 - count; rounding may carry into it (e.g. 2^31 - 1 rounds to 2^31). Zero
 * converts to +0.
 */
function itofBody(m: ModuleBuilder, io: UnaryIo, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'IToF', p.stages, ITOF_STEPS);

  // ---- step 1: sign and magnitude
  const sign = io.a.bit(31);
  const magnitude = mux(sign, lit(0, 32).sub(io.a), io.a);
  const s1 = pipe.cut({ sign, magnitude });

  // ---- step 2: leading zeros
  const zeros = leadingZeros(s1.magnitude, 'magnitude_zeros');
  const isZero = zeros.bit(5);
  const s2 = pipe.cut({ sign: s1.sign, magnitude: s1.magnitude, zeros, isZero });

  // ---- step 3: normalize; exponent field minus one is 157 - count
  const normalized = s2.magnitude.shl(s2.zeros);
  const expBase = lit(157, 8).sub(s2.zeros.zext(8));
  const s3 = pipe.cut({ sign: s2.sign, isZero: s2.isZero, normalized, expBase });

  // ---- step 4: round and pack
  const rounded = roundPack(s3.sign, s3.expBase, s3.normalized.bits(31, 8), s3.normalized.bit(7), s3.normalized.bits(6, 0).orR(), False());
  const result = mux(s3.isZero, lit(0, 32), rounded);
  const out = pipe.finish({ result });
  io.result.set(out.result);
  io.out_valid.set(pipe.valid);
}

/** int32 (two's complement in `a`) to binary32. Ports: in_valid, a -> out_valid, result. Latency: `stages`. */
export const IToF = defineModule('IToF', (_p: FloatUnitParams) => unaryPorts(), itofBody);


