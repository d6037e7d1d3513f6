// Floating-point multiply (binary32, round to nearest even, subnormals, fully pipelined).
import { cat, defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { binaryPorts, denormalizeAndRound, normalizeSig, selectSpecial, unpack, type BinaryIo } from './common.ts';
import { Pipeline, pick, type FloatUnitParams } from './pipeline.ts';

/**
 * Steps and estimated delays (LUT levels on Xilinx 7 series): normalize subnormal inputs, partial
 * products (24x12 each, in DSP blocks), sum of the partial products (a carry chain), product
 * normalization, denormalizing shift, round and pack. The DSP step weighs as much as the heaviest
 * LUT step, so from 5 stages on it has registers on both sides (a DSP block without them is slower
 * than a 200 MHz cycle).
 */
export const FMUL_STEPS = [4, 4, 1, 2, 4, 4] as const;
export const FMUL_NATURAL_STAGES = FMUL_STEPS.length;
export const fmulLatency = (p: FloatUnitParams): number => p.stages;

/**
 * Subnormal inputs are normalized first (24-bit leading-zero count and shift), so the 48-bit product
 * of two significands in [2^23, 2^24) has its leading one at bit 47 or 46 and needs at most a 1-bit
 * normalization. The product is reduced to 24 bits + round + sticky, and only a result below the
 * normal range takes a right shift (with sticky) into the subnormal format.
 */
function mulBody(m: ModuleBuilder, io: BinaryIo, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'FMul', p.stages, FMUL_STEPS);

  // ---- step 1: classify, normalize subnormal significands, exponent sum
  const a = unpack(io.a, 'a');
  const b = unpack(io.b, 'b');
  const aNorm = normalizeSig(a, 'a');
  const bNorm = normalizeSig(b, 'b');
  // Biased exponent of the product when its leading one is at bit 46 (range -171..381).
  const productExp = aNorm.exp.add(bNorm.exp).sub(127);
  const resultSign = a.sign.xor(b.sign);
  const resultIsNaN = a.isNaN.or(b.isNaN).or(a.isInf.and(b.isZero)).or(a.isZero.and(b.isInf));
  const resultIsInf = a.isInf.or(b.isInf);
  const resultIsZero = a.isZero.or(b.isZero);
  const aSig = aNorm.sig;
  const bSig = bNorm.sig;
  const s1 = pipe.cut({ aSig, bSig, productExp, resultSign, resultIsNaN, resultIsInf, resultIsZero });
  const flags = (s: Pick<typeof s1, 'productExp' | 'resultSign' | 'resultIsNaN' | 'resultIsInf' | 'resultIsZero'>) => pick(s, 'productExp', 'resultSign', 'resultIsNaN', 'resultIsInf', 'resultIsZero');

  // ---- step 2: two 24x12 partial products
  const productLow = s1.aSig.mulw(s1.bSig.bits(11, 0));
  const productHigh = s1.aSig.mulw(s1.bSig.bits(23, 12));
  const s2 = pipe.cut({ ...flags(s1), productLow, productHigh });

  // ---- step 3: the 48-bit product
  const product = cat(s2.productHigh, lit(0, 12)).add(s2.productLow.zext(48));
  const s3 = pipe.cut({ ...flags(s2), product });

  // ---- step 4: leading one to bit 47; keep 24 bits, round bit and a sticky bit
  const carry = s3.product.bit(47);
  const normalized = mux(carry, s3.product, s3.product.shl(1));
  const productSticky = normalized.bits(22, 0).orR();
  const rounding = cat(normalized.bits(47, 23), productSticky);
  const resultExp = s3.productExp.add(carry.zext(10).asSInt());
  const s4 = pipe.cut({ ...pick(s3, 'resultSign', 'resultIsNaN', 'resultIsInf', 'resultIsZero'), rounding, resultExp });

  // ---- steps 5 and 6: subnormal shift, round, pack; then the special cases
  const { rounded, carried } = denormalizeAndRound(pipe, s4.resultSign, s4.resultExp, s4.rounding, pick(s4, 'resultSign', 'resultIsNaN', 'resultIsInf', 'resultIsZero'));
  const result = selectSpecial(rounded, { isNaN: carried.resultIsNaN, isInf: carried.resultIsInf, infSign: carried.resultSign, isZero: carried.resultIsZero, zeroSign: carried.resultSign });
  const out = pipe.finish({ result });
  io.result.set(out.result);
  io.out_valid.set(pipe.valid);
}

/** a * b. Ports: in_valid, a, b -> out_valid, result. Latency: `stages` cycles. */
export const FMul = defineModule('FMul', (_p: FloatUnitParams) => binaryPorts(), mulBody);
