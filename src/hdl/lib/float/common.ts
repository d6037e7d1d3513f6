// Datapath pieces shared by the float units: field decoding, leading-zero count, right shift with
// sticky ("jamming") and the final round-to-nearest-even and pack.
import { Bool, UInt, cat, hideFromSourceLocations, input, lit, mux, output, type Bits, type BoolValue, type PortsValue, type SIntValue, type UIntValue } from '../../index.ts';
import type { Pipeline } from './pipeline.ts';

// What these pieces build carries the line of the unit that uses them (a leading-zero count in FAdd, in FMul…).
hideFromSourceLocations(import.meta.url);

/** Ports of the two-operand units: raw binary32 bits in and out, a valid bit alongside. */
export const binaryPorts = () => ({
  in_valid: input(Bool),
  a: input(UInt(32)),
  b: input(UInt(32)),
  out_valid: output(Bool),
  result: output(UInt(32)),
});
export type BinaryIo = PortsValue<ReturnType<typeof binaryPorts>>;

/** Ports of the one-operand units. */
export const unaryPorts = () => ({
  in_valid: input(Bool),
  a: input(UInt(32)),
  out_valid: output(Bool),
  result: output(UInt(32)),
});
export type UnaryIo = PortsValue<ReturnType<typeof unaryPorts>>;

export const CANONICAL_NAN = 0x7fc00000;
export const INF_BITS = 0x7f800000;

/** The fields and classes of one binary32 operand. */
export interface Unpacked {
  readonly sign: BoolValue;
  readonly exp: UIntValue;
  readonly frac: UIntValue;
  /** Exponent field of 0: zero or subnormal. */
  readonly expIsZero: BoolValue;
  readonly isZero: BoolValue;
  readonly isInf: BoolValue;
  readonly isNaN: BoolValue;
  /** 24-bit significand with the hidden bit (0 for subnormals). */
  readonly sig: UIntValue;
  /** Exponent of the significand's units: the field, or 1 for subnormals (8 bits). */
  readonly expEff: UIntValue;
}

export function unpack(x: UIntValue, name: string): Unpacked {
  const sign = x.bit(31).named(`${name}_sign`);
  const exp = x.bits(30, 23).named(`${name}_exp`);
  const frac = x.bits(22, 0).named(`${name}_frac`);
  const expIsZero = exp.eq(0).named(`${name}_exp_is_zero`);
  const expIsMax = exp.eq(255).named(`${name}_exp_is_max`);
  const fracIsZero = frac.eq(0).named(`${name}_frac_is_zero`);
  return {
    sign,
    exp,
    frac,
    expIsZero,
    isZero: expIsZero.and(fracIsZero).named(`${name}_is_zero`),
    isInf: expIsMax.and(fracIsZero).named(`${name}_is_inf`),
    isNaN: expIsMax.and(fracIsZero.not()).named(`${name}_is_nan`),
    sig: cat(expIsZero.not(), frac).named(`${name}_sig`),
    expEff: mux(expIsZero, lit(1, 8), exp).named(`${name}_exp_eff`),
  };
}

const clog2 = (n: number) => Math.max(0, Math.ceil(Math.log2(n)));

/**
 * Leading-zero count as a tree: each node of 2^k bits merges its halves' counts (the upper count if
 * the upper half has a one, else 2^(k-1) + the lower count). The input is padded below with ones to a
 * power of two, so an all-zero input counts `width`. Result width: clog2(width + 1).
 */
export function leadingZeros(x: UIntValue, name: string): UIntValue {
  const w = x.width;
  const padded = 1 << clog2(w);
  const bits = padded === w ? x : cat(x, lit((1 << (padded - w)) - 1, padded - w));
  // A node covers 2^level bits: `zero` if they are all zero, `count` (level bits) their leading zeros
  // when they are not; a node merges its halves: {hi.zero, hi.zero ? lo.count : hi.count}.
  let nodes: { zero: BoolValue; count: UIntValue | null }[] = [];
  for (let i = padded - 1; i >= 0; i--) nodes.push({ zero: bits.bit(i).not(), count: null });
  for (let level = 1; nodes.length > 1; level++) {
    const next: typeof nodes = [];
    for (let i = 0; i < nodes.length; i += 2) {
      const hi = nodes[i]!;
      const lo = nodes[i + 1]!;
      const node = `${name}_l${level}_${i / 2}`;
      const zero = hi.zero.and(lo.zero).named(`${node}_zero`);
      const count = hi.count === null ? hi.zero : cat(hi.zero, mux(hi.zero, lo.count!, hi.count)).named(`${node}_count`);
      next.push({ zero, count });
    }
    nodes = next;
  }
  const root = nodes[0]!;
  const count = root.count!;
  const outWidth = clog2(w + 1);
  // With ones padded below, the word is never all zero and the tree's count is at most w. Without
  // padding (w a power of two) an all-zero input gives count = w: the top bit, lower bits cleared.
  if (padded === w) return cat(root.zero, mux(root.zero, lit(0, count.width), count)).named(name);
  return count.trunc(outWidth).named(name);
}

/**
 * Logical right shift by `amount` where every bit shifted out is ORed into the result's lowest bit
 * (the sticky bit). Built as log2 stages; each stage ORs the bits it drops into a running sticky.
 * Shifts of `width` or more leave only the sticky bit.
 */
export function shiftRightJam(x: UIntValue, amount: UIntValue, name: string): UIntValue {
  const w = x.width;
  let value = x;
  let sticky: BoolValue | null = null;
  for (let k = amount.width - 1; k >= 0; k--) {
    const dist = 2 ** k;
    const take = amount.bit(k);
    const dropped = (dist >= w ? value.orR() : value.bits(dist - 1, 0).orR()).named(`${name}_dropped${dist}`);
    const shifted = dist >= w ? lit(0, w) : value.shr(dist);
    value = mux(take, shifted, value).named(`${name}_shift${dist}`);
    const lost = take.and(dropped);
    sticky = (sticky === null ? lost : sticky.or(lost)).named(`${name}_sticky${dist}`);
  }
  if (sticky === null) return x;
  return value.or(sticky.zext(w)).named(name);
}

/**
 * Round to nearest even and pack. `expBase` (8 bits) is the biased exponent minus one for a normal
 * result and 0 for a subnormal one; `sig` is the 24-bit significand with the hidden bit at 23 (0 when
 * subnormal). The hidden bit and the rounding increment are added to the exponent field by the same
 * carry chain, so a significand that rounds up to 2^24 (or a subnormal that rounds up to the smallest
 * normal) bumps the exponent, and a result reaching exponent 255 becomes infinity.
 */
export function roundPack(sign: BoolValue, expBase: UIntValue, sig: UIntValue, roundBit: BoolValue, sticky: BoolValue, overflow: BoolValue): UIntValue {
  const roundUp = roundBit.and(sticky.or(sig.bit(0)));
  const expField = expBase.addw(sig.bit(23));
  const packed = cat(expField, sig.bits(22, 0));
  const rounded = packed.add(roundUp);
  const isInf = overflow.or(rounded.ge(INF_BITS));
  const magnitude = mux(isInf, lit(INF_BITS, 31), rounded.trunc(31));
  return cat(sign, magnitude);
}

/** The result with special cases applied: canonical NaN, signed infinity, signed zero, else `normal`. */
export function selectSpecial(
  normal: UIntValue,
  cases: { isNaN: BoolValue; isInf: BoolValue; infSign: BoolValue; isZero: BoolValue; zeroSign: BoolValue },
): UIntValue {
  const inf = cat(cases.infSign, lit(INF_BITS, 31));
  const zero = cat(cases.zeroSign, lit(0, 31));
  return mux(cases.isNaN, lit(CANONICAL_NAN, 32), mux(cases.isInf, inf, mux(cases.isZero, zero, normal)));
}

/**
 * A significand with its leading one moved to bit 23 (subnormals shifted left by their leading-zero
 * count) and its exponent lowered to match: a signed 10-bit biased exponent, -22..254. Zero inputs
 * give garbage here; the units select their special result for them.
 */
export function normalizeSig(x: Unpacked, name: string): { sig: UIntValue; exp: SIntValue } {
  const zeros = leadingZeros(x.sig, `${name}_sig_zeros`);
  const sig = x.sig.shl(zeros).named(`${name}_sig_norm`);
  const exp = x.expEff.zext(10).asSInt().sub(zeros.zext(10).asSInt()).named(`${name}_exp_norm`);
  return { sig, exp };
}

/**
 * The last two steps of multiply and divide: (1) a result below the normal range is shifted right
 * into the subnormal format, jamming the dropped bits into the sticky bit; (2) round and pack. `exp`
 * is the signed biased exponent of `value`, whose top 24 bits are the significand (leading one at the
 * top), the next bit the round bit and the rest sticky bits. `carry` fields pass the cut between the
 * two steps. Returns the rounded result (before special cases) and the carried fields.
 */
export function denormalizeAndRound<T extends Record<string, Bits>>(pipe: Pipeline, sign: BoolValue, exp: SIntValue, value: UIntValue, carry: T): { rounded: UIntValue; carried: T } {
  const n = value.width;
  const isNormal = exp.gt(0);
  const overflow = exp.ge(255);
  // 1 - exp for exp <= 0; shifts of `n` or more leave only the sticky bit, 31 stands for all of them.
  const denormDistance = lit(1, 10).asSInt().sub(exp).asUInt();
  const denormShift = mux(isNormal, lit(0, 5), mux(denormDistance.gt(31), lit(31, 5), denormDistance.trunc(5)));
  const denormalized = shiftRightJam(value, denormShift, 'denormalized');
  const expBase = mux(isNormal, exp.asUInt().trunc(8).sub(1), lit(0, 8));
  const s = pipe.cut({ ...carry, resultSign: sign, denormalized, expBase, overflow } as T & Record<string, Bits>);
  const r = s.denormalized as UIntValue;
  const sig = r.bits(n - 1, n - 24);
  const roundBit = r.bit(n - 25);
  const stickyBit = r.bits(n - 26, 0).orR();
  const rounded = roundPack(s.resultSign as BoolValue, s.expBase as UIntValue, sig, roundBit, stickyBit, s.overflow as BoolValue);
  const carried = {} as Record<string, Bits>;
  for (const k of Object.keys(carry)) carried[k] = s[k]!;
  return { rounded, carried: carried as T };
}
