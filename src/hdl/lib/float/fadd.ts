// Floating-point add and subtract (binary32, round to nearest even, subnormals, fully pipelined).
import { False, cat, defineModule, lit, mux, type ModuleBuilder } from '../../index.ts';
import { binaryPorts, leadingZeros, roundPack, selectSpecial, shiftRightJam, unpack, type BinaryIo } from './common.ts';
import { Pipeline, pick, type FloatUnitParams } from './pipeline.ts';

/**
 * Steps of the datapath and their estimated delays (in units of roughly a 8-bit adder):
 * swap, align, add, count leading zeros, normalize, round and pack.
 */
export const FADD_STEPS = [3, 3, 3, 2, 3, 3] as const;
/** Number of steps: the largest `stages` that adds a register between every pair of steps. */
export const FADD_NATURAL_STAGES = FADD_STEPS.length;
export const faddLatency = (p: FloatUnitParams): number => p.stages;
export const fsubLatency = faddLatency;


/**
 * a + b (or a - b): single path. The operand of larger magnitude is `big`; the other is aligned by a
 * right shift that jams the bits it drops into a sticky bit, added or subtracted in a 28-bit adder
 * (carry, 24 significand bits, guard, round, sticky), normalized by a left shift of the leading-zero
 * count, limited so that the exponent does not fall below the minimum (which yields subnormals
 * directly), then rounded. When the alignment dropped bits, cancellation is at most one bit, so the
 * three extra bits keep the rounding exact; when it dropped none, the sum is exact.
 */
function addBody(subtract: boolean) {
  return (m: ModuleBuilder, io: BinaryIo, p: FloatUnitParams): void => {
    const unit = subtract ? 'FSub' : 'FAdd';
    const pipe = new Pipeline(m, io.in_valid, unit, p.stages, FADD_STEPS);

    // ---- step 1: classify, order by magnitude, exponent difference
    const bEffective = subtract ? cat(io.b.bit(31).not(), io.b.bits(30, 0)) : io.b;
    const a = unpack(io.a, 'a');
    const b = unpack(bEffective, 'b');
    const aIsBig = io.a.bits(30, 0).ge(bEffective.bits(30, 0));
    const bigSign = mux(aIsBig, a.sign, b.sign);
    const bigExp = mux(aIsBig, a.expEff, b.expEff);
    const bigSig = mux(aIsBig, a.sig, b.sig);
    const smallExp = mux(aIsBig, b.expEff, a.expEff);
    const smallSig = mux(aIsBig, b.sig, a.sig);
    const expDiff = bigExp.sub(smallExp);
    // Shifts of 27 or more leave only the sticky bit; 31 stands for all of them.
    const alignShift = mux(expDiff.bits(7, 5).orR(), lit(31, 5), expDiff.bits(4, 0));
    const effectiveSub = a.sign.xor(b.sign);
    const resultIsNaN = a.isNaN.or(b.isNaN).or(a.isInf.and(b.isInf).and(effectiveSub));
    const resultIsInf = a.isInf.or(b.isInf);
    const infSign = mux(a.isInf, a.sign, b.sign);
    // An exact zero sum is +0 in round to nearest unless both operands are -0.
    const zeroSign = a.sign.and(b.sign);
    const s1 = pipe.cut({ bigSign, bigExp, bigSig, smallSig, alignShift, effectiveSub, resultIsNaN, resultIsInf, infSign, zeroSign });

    // ---- step 2: align the smaller significand (24 bits + guard, round, sticky)
    const smallAligned = shiftRightJam(cat(s1.smallSig, lit(0, 3)), s1.alignShift, 'small_aligned');
    const s2 = pipe.cut({ ...pick(s1, 'bigSign', 'bigExp', 'bigSig', 'effectiveSub', 'resultIsNaN', 'resultIsInf', 'infSign', 'zeroSign'), smallAligned });

    // ---- step 3: add or subtract magnitudes (|big| >= |small|, so the difference is not negative)
    const bigExt = cat(lit(0, 1), s2.bigSig, lit(0, 3));
    const smallInv = s2.smallAligned.zext(28).xor(mux(s2.effectiveSub, lit(0xfffffff, 28), lit(0, 28)));
    const sum = bigExt.add(smallInv).add(s2.effectiveSub);
    const s3 = pipe.cut({ ...pick(s2, 'bigSign', 'bigExp', 'resultIsNaN', 'resultIsInf', 'infSign', 'zeroSign'), sum });

    // ---- step 4: leading zeros, limited by the exponent (a smaller shift leaves a subnormal)
    const sumZeros = leadingZeros(s3.sum, 'sum_zeros');
    const normShift = mux(s3.bigExp.lt(sumZeros.zext(8)), s3.bigExp.trunc(5), sumZeros);
    const sumIsZero = s3.sum.eq(0);
    const s4 = pipe.cut({ ...pick(s3, 'bigSign', 'bigExp', 'sum', 'resultIsNaN', 'resultIsInf', 'infSign', 'zeroSign'), normShift, sumIsZero });

    // ---- step 5: normalize: leading one to bit 27 (carry position), or as far as the exponent allows
    const normalized = s4.sum.shl(s4.normShift);
    // Biased exponent minus one; 0 exactly when the shift was limited (subnormal or exponent 1).
    const expBase = s4.bigExp.sub(s4.normShift.zext(8));
    const s5 = pipe.cut({ ...pick(s4, 'bigSign', 'sumIsZero', 'resultIsNaN', 'resultIsInf', 'infSign', 'zeroSign'), normalized, expBase });

    // ---- step 6: round to nearest even, pack, special cases
    const sig = s5.normalized.bits(27, 4);
    const roundBit = s5.normalized.bit(3);
    const stickyBit = s5.normalized.bits(2, 0).orR();
    const rounded = roundPack(s5.bigSign, s5.expBase, sig, roundBit, stickyBit, False());
    const result = selectSpecial(rounded, { isNaN: s5.resultIsNaN, isInf: s5.resultIsInf, infSign: s5.infSign, isZero: s5.sumIsZero, zeroSign: s5.zeroSign });
    const out = pipe.finish({ result });
    io.result.set(out.result);
    io.out_valid.set(pipe.valid);
  };
}

/** a + b. Ports: in_valid, a, b -> out_valid, result (raw binary32 bits). Latency: `stages` cycles. */
export const FAdd = defineModule('FAdd', (_p: FloatUnitParams) => binaryPorts(), addBody(false));
/** a - b (a + b with b's sign flipped; a NaN stays NaN). Same ports and latency as FAdd. */
export const FSub = defineModule('FSub', (_p: FloatUnitParams) => binaryPorts(), addBody(true));
