// Runtime helpers for values wider than 32 bits: little-endian 32-bit words inside the state array.
// Words are int32 bit patterns; the top word of a value is masked to the value's width (`tm`).

/** The number of 32-bit words a width needs. */
export const wordsOf = (w: number): number => Math.ceil(w / 32);

/** Mask of the top word of a `w`-bit value, as an int32 bit pattern. */
export const topMask = (w: number): number => (w % 32 === 0 ? -1 : 2 ** (w % 32) - 1);

/** Word i of a value of `n` words at `a`, 0 past its end. */
const word = (s: Int32Array, a: number, n: number, i: number): number => (i < n ? s[a + i]! : 0);

const limbs = new Float64Array(1 << 12);

export const W = {
  copy(s: Int32Array, o: number, a: number, n: number): void {
    for (let i = 0; i < n; i++) s[o + i] = s[a + i]!;
  },
  zext(s: Int32Array, o: number, n: number, a: number, an: number): void {
    for (let i = 0; i < n; i++) s[o + i] = i < an ? s[a + i]! : 0;
  },
  sext(s: Int32Array, o: number, n: number, a: number, aw: number, tm: number): void {
    const an = wordsOf(aw);
    const tb = aw - 32 * (an - 1);
    const top = (s[a + an - 1]! << (32 - tb)) >> (32 - tb);
    const fill = top >> 31;
    for (let i = 0; i < n; i++) s[o + i] = i < an - 1 ? s[a + i]! : i === an - 1 ? top : fill;
    s[o + n - 1]! &= tm;
  },
  and(s: Int32Array, o: number, a: number, b: number, n: number): void {
    for (let i = 0; i < n; i++) s[o + i] = s[a + i]! & s[b + i]!;
  },
  or(s: Int32Array, o: number, a: number, b: number, n: number): void {
    for (let i = 0; i < n; i++) s[o + i] = s[a + i]! | s[b + i]!;
  },
  xor(s: Int32Array, o: number, a: number, b: number, n: number): void {
    for (let i = 0; i < n; i++) s[o + i] = s[a + i]! ^ s[b + i]!;
  },
  not(s: Int32Array, o: number, a: number, n: number, tm: number): void {
    for (let i = 0; i < n; i++) s[o + i] = ~s[a + i]!;
    s[o + n - 1]! &= tm;
  },
  add(s: Int32Array, o: number, a: number, b: number, n: number, tm: number): void {
    let carry = 0;
    for (let i = 0; i < n; i++) {
      const t = (s[a + i]! >>> 0) + (s[b + i]! >>> 0) + carry;
      s[o + i] = t | 0;
      carry = t > 0xffffffff ? 1 : 0;
    }
    s[o + n - 1]! &= tm;
  },
  sub(s: Int32Array, o: number, a: number, b: number, n: number, tm: number): void {
    let borrow = 0;
    for (let i = 0; i < n; i++) {
      const t = (s[a + i]! >>> 0) - (s[b + i]! >>> 0) - borrow;
      s[o + i] = t | 0;
      borrow = t < 0 ? 1 : 0;
    }
    s[o + n - 1]! &= tm;
  },
  /** Low n words of the product, by 16-bit limbs (every partial sum stays exact in a double). */
  mul(s: Int32Array, o: number, a: number, b: number, n: number, tm: number): void {
    const m = 2 * n;
    limbs.fill(0, 0, m);
    for (let i = 0; i < m; i++) {
      const ai = (s[a + (i >> 1)]! >>> ((i & 1) * 16)) & 0xffff;
      if (ai === 0) continue;
      for (let j = 0; i + j < m; j++) limbs[i + j]! += ai * ((s[b + (j >> 1)]! >>> ((j & 1) * 16)) & 0xffff);
    }
    let carry = 0;
    for (let k = 0; k < m; k++) {
      const t = limbs[k]! + carry;
      const lo = t % 65536;
      carry = (t - lo) / 65536;
      limbs[k] = lo;
    }
    for (let i = 0; i < n; i++) s[o + i] = limbs[2 * i]! | (limbs[2 * i + 1]! << 16);
    s[o + n - 1]! &= tm;
  },
  eq(s: Int32Array, a: number, b: number, n: number): number {
    for (let i = 0; i < n; i++) if (s[a + i] !== s[b + i]) return 0;
    return 1;
  },
  /** Unsigned a < b (orEqual: a <= b). */
  ult(s: Int32Array, a: number, b: number, n: number, orEqual: number): number {
    for (let i = n - 1; i >= 0; i--) {
      const x = s[a + i]! >>> 0;
      const y = s[b + i]! >>> 0;
      if (x !== y) return x < y ? 1 : 0;
    }
    return orEqual;
  },
  /** Signed a < b for a w-bit value (orEqual: a <= b). */
  slt(s: Int32Array, a: number, b: number, w: number, orEqual: number): number {
    const n = wordsOf(w);
    const tb = w - 32 * (n - 1);
    const x = (s[a + n - 1]! << (32 - tb)) >> (32 - tb);
    const y = (s[b + n - 1]! << (32 - tb)) >> (32 - tb);
    if (x !== y) return x < y ? 1 : 0;
    return W.ult(s, a, b, n - 1, orEqual);
  },
  /** The unsigned value of a shift amount (Infinity when it does not fit 2^31). */
  amount(s: Int32Array, a: number, n: number): number {
    for (let i = 1; i < n; i++) if (s[a + i] !== 0) return Infinity;
    const v = s[a]! >>> 0;
    return v > 0x7fffffff ? Infinity : v;
  },
  shl(s: Int32Array, o: number, a: number, n: number, sh: number, tm: number): void {
    const ws = Math.min(n, Math.floor(sh / 32));
    const bs = sh % 32;
    for (let i = n - 1; i >= 0; i--) {
      const j = i - ws;
      const hi = j >= 0 ? s[a + j]! : 0;
      const lo = j - 1 >= 0 ? s[a + j - 1]! : 0;
      s[o + i] = bs === 0 ? hi : (hi << bs) | (lo >>> (32 - bs));
    }
    s[o + n - 1]! &= tm;
  },
  /** Logical (fill 0) or arithmetic (fill with the sign of the w-bit value) right shift. */
  shr(s: Int32Array, o: number, a: number, w: number, sh: number, arith: number): void {
    const n = wordsOf(w);
    const tb = w - 32 * (n - 1);
    const fill = arith ? ((s[a + n - 1]! << (32 - tb)) >> (32 - tb)) >> 31 : 0;
    const get = (k: number) => (k < n - 1 ? s[a + k]! : k === n - 1 ? (arith ? (s[a + k]! << (32 - tb)) >> (32 - tb) : s[a + k]!) : fill);
    const ws = Math.min(n + 1, Math.floor(sh / 32));
    const bs = sh % 32;
    for (let i = 0; i < n; i++) {
      const j = i + ws;
      const lo = get(j);
      const hi = get(j + 1);
      s[o + i] = bs === 0 ? lo : (lo >>> bs) | (hi << (32 - bs));
    }
    s[o + n - 1]! &= topMask(w);
  },
  redand(s: Int32Array, a: number, n: number, tm: number): number {
    for (let i = 0; i < n - 1; i++) if (s[a + i] !== -1) return 0;
    return s[a + n - 1] === tm ? 1 : 0;
  },
  redor(s: Int32Array, a: number, n: number): number {
    for (let i = 0; i < n; i++) if (s[a + i] !== 0) return 1;
    return 0;
  },
  redxor(s: Int32Array, a: number, n: number): number {
    let x = 0;
    for (let i = 0; i < n; i++) x ^= s[a + i]!;
    return parity(x);
  },
  /** Bits [lo, lo + w) of the value at a (an words) as a canonical narrow value (w <= 32). */
  extract(s: Int32Array, a: number, an: number, lo: number, w: number): number {
    const i = lo >> 5;
    const b = lo & 31;
    let v = word(s, a, an, i) >>> b;
    if (b !== 0 && b + w > 32) v |= word(s, a, an, i + 1) << (32 - b);
    return w === 32 ? v | 0 : v & (2 ** w - 1);
  },
  /** Bits [lo, lo + w) of the value at a into the wide value at o (n words). */
  extractTo(s: Int32Array, o: number, n: number, a: number, an: number, lo: number, tm: number): void {
    for (let k = 0; k < n; k++) s[o + k] = W.extract(s, a, an, lo + 32 * k, 32);
    s[o + n - 1]! &= tm;
  },
  /** OR the w-bit value at a into o at bit position pos (o was cleared by the caller). */
  insert(s: Int32Array, o: number, pos: number, a: number, w: number): void {
    const an = wordsOf(w);
    for (let k = 0; k < an; k++) {
      const v = s[a + k]!;
      const bit = pos + 32 * k;
      const i = bit >> 5;
      const b = bit & 31;
      s[o + i]! |= v << b;
      if (b !== 0) {
        const spill = v >>> (32 - b);
        if (spill !== 0) s[o + i + 1]! |= spill;
      }
    }
  },
  clear(s: Int32Array, o: number, n: number): void {
    for (let i = 0; i < n; i++) s[o + i] = 0;
  },
};

export function parity(x: number): number {
  x ^= x >>> 16;
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
}
