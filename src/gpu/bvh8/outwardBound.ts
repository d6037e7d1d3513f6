// A GFX12 child-box bound in binary32: origin + Q · 2^(e − 127) rounded outward (toward −∞ for a minimum, +∞ for a maximum), in three pipeline steps.
import { cat, hideFromSourceLocations, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';

// The registers and logic carry the line of the decoder that builds them.
hideFromSourceLocations(import.meta.url);

/**
 * Everything about one axis that the node's 8 children share, from the origin and the exponent. Values
 * are integers times 2^base in units of 2^−149: the origin is M · 2^so (M the 24-bit significand), the
 * bound's offset Q · 2^sa with sa = e + 22. Within a 64-bit window the sum is exact when the two
 * scales are near (−48 ≤ so − sa ≤ 13); farther apart the smaller term only tells which side of the
 * larger one the sum lies, and is replaced by one unit below the window (a sticky 1), which rounds the
 * same (docs/bvh-hardware.md, "GFX12 node decoders").
 */
export interface AxisSetup {
  readonly negative: BoolValue;
  /** The origin's magnitude in window units (M shifted left, or 1 for a sticky origin). */
  readonly mterm: UIntValue;
  /** Q is shifted left by this much in the window … */
  readonly qShift: UIntValue;
  /** … or, when the origin dominates, stands only as a sticky 1. */
  readonly qSticky: BoolValue;
  /** The window's scale: one window unit is 2^base units of 2^−149. */
  readonly base: UIntValue;
  /** The origin's bits (the bound when Q is 0). An infinite or NaN origin is the decoder's error, so its bounds mean nothing. */
  readonly origin: UIntValue;
}

const MTERM_BITS = 38;
const WINDOW_BITS = 64;
/** so − sa + OFFSET is never negative (so ≥ 0, sa ≤ 277). */
const OFFSET = 300;

/** The per-axis setup, combinational, from the origin's bits and the 8-bit exponent. */
export function axisSetup(origin: UIntValue, exponent: UIntValue): AxisSetup {
  const exp = origin.bits(30, 23);
  const m = cat(exp.ne(0), origin.bits(22, 0));
  const so = mux(exp.eq(0), lit(1, 8), exp).sub(1).zext(10);
  const sa = exponent.zext(10).add(22);
  const t = so.add(OFFSET).sub(sa);
  const originFar = t.ge(OFFSET + 14); // so − sa ≥ 14
  const near = t.ge(OFFSET); // 0 ≤ so − sa ≤ 13
  const below = t.ge(OFFSET - 48); // −48 ≤ so − sa < 0
  const mShift = mux(originFar, lit(14, 4), mux(near, t.sub(OFFSET).trunc(4), lit(0, 4)));
  const mterm = mux(below, m.zext(MTERM_BITS).shl(mShift), m.ne(0).zext(MTERM_BITS));
  const qShift = mux(originFar.or(near), lit(0, 6), mux(below, lit(OFFSET, 10).sub(t).trunc(6), lit(49, 6)));
  const base = mux(originFar, so.sub(14), mux(near, sa, mux(below, so, sa.sub(49)))).trunc(9);
  return { negative: origin.bit(31), mterm, qShift, qSticky: originFar, base, origin };
}

/** The registered setup of one axis (one cycle). */
export function registerSetup(m: ModuleBuilder, s: AxisSetup, name: string): AxisSetup {
  return {
    negative: m.regNext(s.negative, { name: `${name}_neg` }),
    mterm: m.regNext(s.mterm, { name: `${name}_mterm` }),
    qShift: m.regNext(s.qShift, { name: `${name}_qshift` }),
    qSticky: m.regNext(s.qSticky, { name: `${name}_qsticky` }),
    base: m.regNext(s.base, { name: `${name}_base` }),
    origin: m.regNext(s.origin, { name: `${name}_origin` }),
  };
}

const POS_INF = 0x7f800000;
const MAX_FINITE = 0x7f7fffff;

/**
 * One bound from the registered setup and its 13-bit Q (qmin, or qmax + 1): the exact window sum
 * (registered), normalized (registered), rounded outward and packed (registered): 3 cycles.
 */
export function outwardBound(m: ModuleBuilder, s: AxisSetup, q: UIntValue, up: boolean, name: string): UIntValue {
  // ---- step 1: the signed sum in the window, as sign and magnitude
  const qterm = mux(s.qSticky, q.ne(0).zext(WINDOW_BITS), q.zext(WINDOW_BITS).shl(s.qShift));
  const mterm = s.mterm.zext(WINDOW_BITS);
  const sumNeg = s.negative.and(mterm.gt(qterm));
  const mag = mux(s.negative, mux(sumNeg, mterm.sub(qterm), qterm.sub(mterm)), qterm.add(mterm));
  // Q = 0 adds nothing (the sticky stand-in would): the sum is the origin, −0 becoming +0.
  const pass = q.eq(0);
  const passValue = mux(s.origin.ne(0x80000000), s.origin, lit(0, 32));
  const r1 = {
    mag: m.regNext(mag, { name: `${name}_mag` }),
    neg: m.regNext(sumNeg, { name: `${name}_neg` }),
    base: m.regNext(s.base, { name: `${name}_base` }),
    pass: m.regNext(pass, { name: `${name}_pass` }),
    passValue: m.regNext(passValue, { name: `${name}_pass_value` }),
  };

  // ---- step 2: normalize (leading one to bit 63) and find the value's top bit P = base + 63 − zeros
  let norm = r1.mag;
  let zeros: UIntValue = lit(0, 7);
  for (const k of [32, 16, 8, 4, 2, 1]) {
    const top = norm.bits(WINDOW_BITS - 1, WINDOW_BITS - k).eq(0);
    norm = mux(top, norm.shl(k), norm);
    zeros = zeros.or(mux(top, lit(k, 7), lit(0, 7)));
  }
  const isZero = r1.mag.eq(0);
  const top = r1.base.zext(10).add(63).sub(zeros.zext(10));
  // Below 2^23 units (P < 23) the value is a subnormal whose bits are the integer itself: mag < 2^23 and base < 23.
  const small = isZero.or(top.lt(23));
  const smallBits = r1.mag.trunc(23).shl(r1.base.trunc(5));
  const r2 = {
    mant: m.regNext(norm.bits(63, 40), { name: `${name}_mant` }),
    sticky: m.regNext(norm.bits(39, 0).ne(0), { name: `${name}_sticky` }),
    shift: m.regNext(top.sub(23).trunc(9), { name: `${name}_shift` }),
    small: m.regNext(small, { name: `${name}_small` }),
    smallBits: m.regNext(smallBits, { name: `${name}_small_bits` }),
    neg: m.regNext(r1.neg, { name: `${name}_neg2` }),
    pass: m.regNext(r1.pass, { name: `${name}_pass2` }),
    passValue: m.regNext(r1.passValue, { name: `${name}_pass_value2` }),
  };

  // ---- step 3: round away from zero when inexact and the direction points away; overflow to inf or the largest finite
  const away: BoolValue = up ? r2.neg.not() : r2.neg;
  const wide = cat(r2.shift, lit(0, 23)).zext(34).add(r2.mant.zext(34)).add(r2.sticky.and(away).zext(34));
  const overflow = wide.ge(POS_INF);
  const magBits = mux(r2.small, r2.smallBits.zext(31), mux(overflow, mux(away, lit(POS_INF, 31), lit(MAX_FINITE, 31)), wide.trunc(31)));
  // A negative sum is never zero, so the sign is the sum's.
  const bits = mux(r2.pass, r2.passValue, cat(r2.neg, magBits));
  return m.regNext(bits, { name });
}
