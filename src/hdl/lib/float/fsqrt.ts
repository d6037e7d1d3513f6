// Floating-point square root (binary32, round to nearest even, subnormal inputs): a radix-2
// restoring digit recurrence unrolled into one step per result bit, fully pipelined.
import { False, cat, defineModule, lit, mux, type Bits, type BoolValue, type ModuleBuilder, type UIntValue } from '../../index.ts';
import { normalizeSig, roundPack, selectSpecial, unaryPorts, unpack, type UnaryIo } from './common.ts';
import { Pipeline, type FloatUnitParams } from './pipeline.ts';

/** Result bits computed: 24 significand bits and the round bit (the remainder gives the sticky bit). */
export const FSQRT_ROOT_BITS = 25;

/**
 * Steps and estimated delays: normalize the input and make the exponent even, one step per root bit
 * (a subtract of up to 28 bits and a select), round and pack.
 */
export const FSQRT_STEPS: readonly number[] = [4, ...new Array<number>(FSQRT_ROOT_BITS).fill(1.5), 3];
/** The depth at which every root bit has its own stage (27). */
export const FSQRT_NATURAL_STAGES = FSQRT_STEPS.length;
export const fsqrtLatency = (p: FloatUnitParams): number => p.stages;

interface SqrtState {
  /** The radicand bits not yet brought down (26 bits at first, two per step; absent once used up). */
  readonly radicand?: UIntValue;
  /** Partial remainder: radicand prefix minus root^2, at most 2 * root. */
  readonly remainder?: UIntValue;
  readonly root?: UIntValue;
  readonly resultExp: UIntValue;
  readonly resultSign: BoolValue;
  readonly resultIsNaN: BoolValue;
  readonly resultIsInf: BoolValue;
  readonly resultIsZero: BoolValue;
}

/**
 * One step: bring down the next two radicand bits, try to subtract 4 * root + 1 (the growth of
 * (2 * root + 1)^2 over (2 * root)^2); the root gains a 1 if it fits, else a 0. Widths grow with the
 * root: after step i the root has i + 1 bits and the remainder at most i + 2.
 */
function sqrtStep(pair: UIntValue, remainder: UIntValue | undefined, root: UIntValue | undefined): { remainder: UIntValue; root: UIntValue } {
  const brought = remainder ? cat(remainder, pair) : pair;
  const trial = root ? cat(root, lit(1, 2)) : lit(1, 1);
  const width = Math.max(brought.width, trial.width) + 1;
  const difference = brought.zext(width).sub(trial.zext(width));
  const fits = difference.bit(width - 1).not();
  const remWidth = (root ? root.width : 0) + 2;
  const nextRemainder = mux(fits, difference.trunc(remWidth), brought.zext(Math.max(brought.width, remWidth)).trunc(remWidth));
  const nextRoot = root ? cat(root, fits) : fits;
  return { remainder: nextRemainder, root: nextRoot };
}

/**
 * The normalized significand m in [2^23, 2^24) with unbiased exponent e: for even e the radicand is
 * m * 2^25, for odd e it is m * 2^26 (the exponent made even), so the 25-bit integer root lies in
 * [2^24, 2^25): 24 significand bits and a round bit. The result exponent is floor(e / 2) + 127,
 * always normal (the root of the smallest subnormal is 2^-74.5), so no subnormal shift is needed.
 */
function sqrtBody(m: ModuleBuilder, io: UnaryIo, p: FloatUnitParams): void {
  const pipe = new Pipeline(m, io.in_valid, 'FSqrt', p.stages, FSQRT_STEPS);
  const cut = (st: SqrtState): SqrtState => pipe.cut(st as unknown as Record<string, Bits>) as unknown as SqrtState;

  // ---- step 1: classify, normalize, even exponent
  const a = unpack(io.a, 'a');
  const aNorm = normalizeSig(a, 'a');
  // Biased exponent E' = e + 127, so e is odd exactly when E' is even.
  const expIsOdd = aNorm.exp.asUInt().bit(0).not();
  const radicand = mux(expIsOdd, cat(aNorm.sig, lit(0, 2)), cat(lit(0, 1), aNorm.sig, lit(0, 1)));
  // floor(e / 2) + 127 = floor((E' + 127) / 2); E' + 127 is 105..381, positive.
  const resultExp = aNorm.exp.add(127).asUInt().shr(1).trunc(8);
  let st = cut({
    radicand,
    resultExp,
    resultSign: a.sign,
    resultIsNaN: a.isNaN.or(a.sign.and(a.isZero.not())),
    resultIsInf: a.isInf,
    resultIsZero: a.isZero,
  });

  // ---- steps 2..26: one root bit each; radicand bits run out after 13 steps, then zeros come down
  for (let i = 0; i < FSQRT_ROOT_BITS; i++) {
    const { radicand: left, ...others } = st;
    const pair = left ? left.bits(left.width - 1, left.width - 2) : lit(0, 2);
    const rest = left && left.width > 2 ? { radicand: left.bits(left.width - 3, 0) } : {};
    const next = sqrtStep(pair, st.remainder, st.root);
    st = cut({ ...others, ...rest, remainder: next.remainder, root: next.root });
  }

  // ---- step 27: round (a root is never a tie: the sticky bit decides), pack, special cases
  const root = st.root!;
  const sig = root.bits(24, 1);
  const roundBit = root.bit(0);
  const stickyBit = st.remainder!.orR();
  const rounded = roundPack(st.resultSign, st.resultExp.sub(1), sig, roundBit, stickyBit, False());
  const result = selectSpecial(rounded, { isNaN: st.resultIsNaN, isInf: st.resultIsInf, infSign: st.resultSign, isZero: st.resultIsZero, zeroSign: st.resultSign });
  const out = pipe.finish({ result });
  io.result.set(out.result);
  io.out_valid.set(pipe.valid);
}

/** sqrt(a). Ports: in_valid, a -> out_valid, result. Latency: `stages` cycles (natural depth 27). */
export const FSqrt = defineModule('FSqrt', (_p: FloatUnitParams) => unaryPorts(), sqrtBody);
