// Floating-point divide (binary32, round to nearest even, subnormals): a radix-2 restoring digit
// recurrence unrolled into one step per quotient bit, so it pipelines to one division per cycle.
import { cat, defineModule, lit, mux, type Bits, type BoolValue, type ModuleBuilder, type SIntValue, type UIntValue } from '../../index.ts';
import { binaryPorts, denormalizeAndRound, normalizeSig, selectSpecial, unpack, type BinaryIo } from './common.ts';
import { Pipeline, pick, type FloatUnitParams } from './pipeline.ts';

/** Quotient bits computed: 24 significand bits and the round bit (the remainder gives the sticky bit). */
export const FDIV_QUOTIENT_BITS = 25;

/**
 * Steps and estimated delays: normalize the inputs and pre-scale the dividend, one step per quotient
 * bit (a 26-bit subtract and a select each), the denormalizing shift, round and pack.
 */
export const FDIV_STEPS: readonly number[] = [4, ...new Array<number>(FDIV_QUOTIENT_BITS).fill(1.5), 3, 3];
/** The depth at which every quotient bit has its own stage (28). */
export const FDIV_NATURAL_STAGES = FDIV_STEPS.length;
export const fdivLatency = (p: FloatUnitParams): number => p.stages;

/**
 * Both significands are normalized to [2^23, 2^24). If the dividend's is smaller than the divisor's
 * it is doubled (and the exponent lowered), so the quotient lies in [1, 2) and its first bit is 1.
 * Each recurrence step compares the partial remainder with the divisor, subtracts it when it fits
 * (quotient bit 1), and doubles it. After 25 steps the quotient holds 24 significand bits and the
 * round bit, and a nonzero remainder is the sticky bit; the exact quotient is never a tie, but a
 * subnormal result's shift can create one, which the shared rounding handles.
 */
interface DivState {
  readonly divisor: UIntValue;
  /** Partial remainder, below twice the divisor (25 bits). */
  readonly remainder: UIntValue;
  /** Quotient bits so far, most significant first (absent before the first step). */
  readonly quotient?: UIntValue;
  readonly quotientExp: SIntValue;
  readonly resultSign: BoolValue;
  readonly resultIsNaN: BoolValue;
  readonly resultIsInf: BoolValue;
  readonly resultIsZero: BoolValue;
}

/** One recurrence step: subtract the divisor if it fits; the kept remainder is below the divisor (24 bits). */
function divStep(st: DivState): { kept: UIntValue; quotient: UIntValue } {
  const trial = st.remainder.zext(26).sub(st.divisor.zext(26));
  const fits = trial.bit(25).not();
  const kept = mux(fits, trial.trunc(24), st.remainder.trunc(24));
  const quotient = st.quotient ? cat(st.quotient, fits) : fits;
  return { kept, quotient };
}

function divBody(m: ModuleBuilder, io: BinaryIo, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'FDiv', p.stages, FDIV_STEPS);
  const cut = (st: DivState): DivState => pipe.cut(st as unknown as Record<string, Bits>) as unknown as DivState;

  // ---- step 1: classify, normalize, pre-scale the dividend
  const a = unpack(io.a, 'a');
  const b = unpack(io.b, 'b');
  const aNorm = normalizeSig(a, 'a');
  const bNorm = normalizeSig(b, 'b');
  const dividendSmaller = aNorm.sig.lt(bNorm.sig);
  const dividend = mux(dividendSmaller, cat(aNorm.sig, lit(0, 1)), aNorm.sig.zext(25));
  // Biased exponent of the quotient in [1, 2) (range -150..403).
  const quotientExp = aNorm.exp.sub(bNorm.exp).add(127).sub(dividendSmaller.zext(10).asSInt());
  let st = cut({
    divisor: bNorm.sig,
    remainder: dividend,
    quotientExp,
    resultSign: a.sign.xor(b.sign),
    resultIsNaN: a.isNaN.or(b.isNaN).or(a.isZero.and(b.isZero)).or(a.isInf.and(b.isInf)),
    resultIsInf: a.isInf.or(b.isZero),
    resultIsZero: a.isZero.or(b.isInf),
  });

  // ---- steps 2..26: one quotient bit each
  for (let i = 0; i < FDIV_QUOTIENT_BITS - 1; i++) {
    const next = divStep(st);
    st = cut({ ...st, remainder: cat(next.kept, lit(0, 1)), quotient: next.quotient });
  }
  // The last step keeps only whether the remainder is nonzero: the sticky bit.
  const last = divStep(st);
  const done = pipe.cut({ ...pick(st, 'quotientExp', 'resultSign', 'resultIsNaN', 'resultIsInf', 'resultIsZero'), quotient: last.quotient, sticky: last.kept.orR() });

  // ---- steps 27 and 28: subnormal shift, round, pack; special cases
  const value = cat(done.quotient, done.sticky);
  const flags = pick(done, 'resultSign', 'resultIsNaN', 'resultIsInf', 'resultIsZero');
  const { rounded, carried } = denormalizeAndRound(pipe, done.resultSign, done.quotientExp, value, flags);
  const result = selectSpecial(rounded, { isNaN: carried.resultIsNaN, isInf: carried.resultIsInf, infSign: carried.resultSign, isZero: carried.resultIsZero, zeroSign: carried.resultSign });
  const out = pipe.finish({ result });
  io.result.set(out.result);
  io.out_valid.set(pipe.valid);
}

/** a / b. Ports: in_valid, a, b -> out_valid, result. Latency: `stages` cycles (natural depth 28). */
export const FDiv = defineModule('FDiv', (_p: FloatUnitParams) => binaryPorts(), divBody);
