// IEEE-754 binary32 reference on raw uint32 bit patterns: checks the float units, never feeds them.
//
// add/sub/mul/div/sqrt compute in double precision and round once to binary32 with Math.fround.
// The double result is itself rounded, so the value is rounded twice; for these five operations that
// is innocuous because double has 53 >= 2 * 24 + 2 significand bits (Figueroa, "When is double
// rounding innocuous?", 1995), including results in binary32's subnormal range (fewer bits there).
// Every NaN result is the canonical quiet NaN 0x7fc00000. compare, itof, ftoi, min, max, abs and neg
// are written directly on the bits.

export const CANONICAL_NAN = 0x7fc00000;
export const POS_INF = 0x7f800000;
export const NEG_INF = 0xff800000;
export const SIGN_BIT = 0x80000000;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The number a bit pattern encodes (NaN payloads are lost). */
export function toNumber(bits: number): number {
  u32[0] = bits >>> 0;
  return f32[0]!;
}

/** The bit pattern of Math.fround(x), with NaN made canonical. */
export function fromNumber(x: number): number {
  if (Number.isNaN(x)) return CANONICAL_NAN;
  f32[0] = x;
  return u32[0]!;
}

export const isNaN32 = (a: number): boolean => (a & 0x7fffffff) >>> 0 > 0x7f800000;
const isZero32 = (a: number): boolean => (a & 0x7fffffff) === 0;

export const fadd = (a: number, b: number): number => fromNumber(toNumber(a) + toNumber(b));
export const fsub = (a: number, b: number): number => fromNumber(toNumber(a) - toNumber(b));
export const fmul = (a: number, b: number): number => fromNumber(toNumber(a) * toNumber(b));
export const fdiv = (a: number, b: number): number => fromNumber(toNumber(a) / toNumber(b));
/** sqrt(-0) = -0, sqrt(x < 0) = NaN (JavaScript's Math.sqrt agrees). */
export const fsqrt = (a: number): number => fromNumber(Math.sqrt(toNumber(a)));

/** The ISA's 2-bit condition flag of `a - b`. */
export const FLAG_ZERO = 0b00;
export const FLAG_UNORDERED = 0b01;
export const FLAG_POSITIVE = 0b10;
export const FLAG_NEGATIVE = 0b11;

/** Order of non-NaN values as a signed key: -0 and +0 map to the same key. */
function orderKey(a: number): number {
  const mag = a & 0x7fffffff;
  return a >>> 31 ? -mag : mag;
}

export interface CompareResult {
  readonly flags: number;
  readonly lt: boolean;
  readonly eq: boolean;
  readonly gt: boolean;
  readonly unordered: boolean;
}

export function fcmp(a: number, b: number): CompareResult {
  if (isNaN32(a) || isNaN32(b)) return { flags: FLAG_UNORDERED, lt: false, eq: false, gt: false, unordered: true };
  const ka = orderKey(a);
  const kb = orderKey(b);
  const lt = ka < kb;
  const gt = ka > kb;
  return { flags: lt ? FLAG_NEGATIVE : gt ? FLAG_POSITIVE : FLAG_ZERO, lt, eq: ka === kb, gt, unordered: false };
}

/** int32 (given as its 32-bit pattern) to binary32, round to nearest even. */
export function itof(a: number): number {
  a >>>= 0;
  if (a === 0) return 0;
  const sign = a >>> 31;
  let mag = sign ? (-a >>> 0) : a; // -2^31 stays 2^31 as an unsigned magnitude
  let exp = 158; // biased exponent when the leading one is bit 31
  while (mag < 0x80000000) {
    mag = (mag << 1) >>> 0;
    exp--;
  }
  // Leading one at bit 31: significand is bits 31..8, bit 7 the round bit, bits 6..0 the sticky bits.
  let sig = mag >>> 8;
  const round = (mag >>> 7) & 1;
  const sticky = (mag & 0x7f) !== 0;
  if (round && (sticky || sig & 1)) sig++;
  // A carry out of the significand (sig = 2^24) bumps the exponent through the addition.
  return ((sign << 31) | (((exp - 1) << 23) + sig)) >>> 0;
}

/**
 * binary32 to int32, truncating toward zero. Saturates: NaN -> 0, >= 2^31 (and +inf) -> 0x7fffffff,
 * < -2^31 (and -inf) -> 0x80000000. Returns the 32-bit pattern (unsigned number).
 */
export function ftoi(a: number): number {
  a >>>= 0;
  if (isNaN32(a)) return 0;
  const sign = a >>> 31;
  const exp = (a >>> 23) & 0xff;
  if (exp < 127) return 0;
  if (exp >= 158) return sign ? 0x80000000 : 0x7fffffff;
  const sig = (a & 0x7fffff) | 0x800000;
  const mag = exp >= 150 ? sig * 2 ** (exp - 150) : sig >>> (150 - exp);
  return sign ? (-mag >>> 0) : mag;
}

/** Total order with -0 < +0, for min/max. */
function lessForMinMax(a: number, b: number): boolean {
  const sa = a >>> 31;
  const sb = b >>> 31;
  if (sa !== sb) return sa === 1;
  const ma = a & 0x7fffffff;
  const mb = b & 0x7fffffff;
  return sa ? ma > mb : ma < mb;
}

/** IEEE 754-2019 minimumNumber (RISC-V fmin.s): a NaN operand yields the other; two NaNs the canonical NaN; -0 < +0. */
export function fmin(a: number, b: number): number {
  a >>>= 0;
  b >>>= 0;
  if (isNaN32(a)) return isNaN32(b) ? CANONICAL_NAN : b;
  if (isNaN32(b)) return a;
  return lessForMinMax(a, b) ? a : b;
}

/** IEEE 754-2019 maximumNumber (RISC-V fmax.s). */
export function fmax(a: number, b: number): number {
  a >>>= 0;
  b >>>= 0;
  if (isNaN32(a)) return isNaN32(b) ? CANONICAL_NAN : b;
  if (isNaN32(b)) return a;
  return lessForMinMax(a, b) ? b : a;
}

/** Clears the sign; a NaN becomes the canonical NaN. */
export const fabs = (a: number): number => (isNaN32(a) ? CANONICAL_NAN : (a & 0x7fffffff) >>> 0);
/** Flips the sign; a NaN becomes the canonical NaN. */
export const fneg = (a: number): number => (isNaN32(a) ? CANONICAL_NAN : (a ^ SIGN_BIT) >>> 0);

export { isZero32 as isZero };

/** The 2-bit compare flag alone. */
export const fcmpFlags = (a: number, b: number): number => fcmp(a, b).flags;

// Aliases.
export const canonicalNaN = CANONICAL_NAN;
export const toFloat = toNumber;
export const toBits = fromNumber;
export const isNaNBits = isNaN32;
