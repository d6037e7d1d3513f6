// WebAssembly code for nets wider than 32 bits that are not computed as one i64 or v128 value: word by
// word in linear memory (a wide net lives only there; its words at its slot, the top one masked).
import type { Cell, NetId } from '../../ir/netlist.ts';
import { op, type Code } from './wasmEncoding.ts';

/** What the word-by-word code needs from the generator. */
export interface WordContext {
  readonly c: Code;
  /** The i64 scratch local of the current function. */
  readonly i64: number;
  root(id: NetId): NetId;
  width(id: NetId): number;
  words(id: NetId): number;
  byte(id: NetId): number;
  /** Push a net of at most 32 bits as an i32. */
  push(id: NetId): void;
  /** Push word k of any net (0 past its width). */
  pushWord(id: NetId, k: number): void;
  /** Push bits [lo, lo + n) of any net (n <= 32). */
  pushBits(id: NetId, lo: number, n: number): void;
  /** Store word k of a wide result (`value` pushes it), flagging its readers if it changed. */
  storeWord(out: NetId, k: number, value: () => void): void;
  /** A scratch i32 local of the current step. */
  temp(): number;
  /** The flags to set when `out` changes (undefined: store it plainly). */
  markedReaders(out: NetId): readonly number[] | undefined;
  /** Set `readers` when `changed` pushes a nonzero value. */
  noteChange(changed: () => void, readers: readonly number[]): void;
}

const maskOf = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);

/** A result wider than 32 bits (and not computed as one i64 or v128), word by word. */
export function wideCell(g: WordContext, c: Cell): void {
  const out = g.root(c.out);
  const n = g.words(out);
  const C = g.c;
  const each = (value: (k: number) => void) => {
    for (let k = 0; k < n; k++) g.storeWord(out, k, () => value(k));
  };
  switch (c.op) {
    case 'mux':
      return each((k) => {
        g.pushWord(c.a, k);
        g.pushWord(c.b, k);
        g.push(c.sel);
        C.emit(op.select);
      });
    case 'and':
    case 'or':
    case 'xor':
      return each((k) => {
        g.pushWord(c.a, k);
        g.pushWord(c.b, k);
        C.emit(c.op === 'and' ? op.i32And : c.op === 'or' ? op.i32Or : op.i32Xor);
      });
    case 'not':
      return each((k) => {
        g.pushWord(c.a, k);
        C.const(-1).emit(op.i32Xor);
      });
    case 'zext':
      return each((k) => g.pushWord(c.a, k));
    case 'sext':
      return each((k) => pushSignedWord(g, c.a, k));
    case 'shl':
    case 'lshr':
    case 'ashr':
      return wideShift(g, c.op, c.a, c.b, out);
    case 'slice':
      return each((k) => g.pushBits(c.a, c.lo + 32 * k, Math.min(32, g.width(out) - 32 * k)));
    case 'concat':
      return each((k) => {
        // The parts, most significant first, that overlap bits [32k, 32k + 32) of the result.
        let pos = g.width(out);
        let first = true;
        for (const part of c.parts) {
          const pw = g.width(part);
          pos -= pw;
          const lo = Math.max(pos, 32 * k);
          const hi = Math.min(pos + pw, 32 * k + 32);
          if (lo >= hi) continue;
          g.pushBits(part, lo - pos, hi - lo);
          if (lo - 32 * k > 0) C.const(lo - 32 * k).emit(op.i32Shl);
          if (!first) C.emit(op.i32Or);
          first = false;
        }
        if (first) C.const(0);
      });
    case 'add':
    case 'sub':
      return wideAddSub(g, out, c.a, c.b, c.op === 'sub');
    case 'mul':
      return wideMul(g, out, c.a, c.b);
    default:
      throw new Error(`internal: no wide wasm code for ${c.op}`);
  }
}

/** Word k of a net read as signed and extended without end: copied inside it, its sign (0 or -1) above. */
export function pushSignedWord(g: WordContext, id: NetId, k: number): void {
  const w = g.width(id);
  const fill = () => {
    g.c.const(0);
    g.pushBits(id, w - 1, 1);
    g.c.emit(op.i32Sub);
  };
  if (32 * (k + 1) <= w) return g.pushWord(id, k);
  if (32 * k >= w) return fill();
  g.pushWord(id, k);
  fill();
  g.c.const(w - 32 * k).emit(op.i32Shl, op.i32Or);
}

/** A shift amount of any width as an unsigned i32: a set bit above the low word saturates it to 2^32 − 1. */
export function pushShiftAmount(g: WordContext, b: NetId): void {
  g.pushWord(b, 0);
  if (g.words(b) === 1) return;
  g.c.const(-1);
  for (let k = 1; k < g.words(b); k++) {
    g.pushWord(b, k);
    if (k > 1) g.c.emit(op.i32Or);
  }
  g.c.emit(op.i32Eqz, op.select);
}

/**
 * A shift of a wide value by a dynamic amount: word k of the result joins two source words picked by
 * the word offset (a select over every offset the width allows; an offset past it leaves 0; ashr's
 * amount is clamped to w − 1, which gives the sign everywhere). The second half of each join shifts
 * by 1 and then 31 − r, so a bit offset r of 0 adds nothing (WebAssembly shifts count mod 32).
 */
export function wideShift(g: WordContext, kind: 'shl' | 'lshr' | 'ashr', a: NetId, b: NetId, out: NetId): void {
  const C = g.c;
  const n = g.words(out);
  const w = g.width(out);
  const s = g.temp();
  pushShiftAmount(g, b);
  C.set(s);
  if (kind === 'ashr') C.get(s).const(w - 1).get(s).const(w - 1).emit(op.i32LtU, op.select).set(s);
  const q = g.temp();
  const r = g.temp();
  C.get(s).const(5).emit(op.i32ShrU).set(q);
  C.get(s).const(31).emit(op.i32And).set(r);
  const source = (j: number) => (kind === 'ashr' ? pushSignedWord(g, a, j) : j < 0 || j >= g.words(a) ? C.const(0) : g.pushWord(a, j));
  // Word k for offset d: shl joins source k − d (shifted up) and k − d − 1 (its high bits); right shifts k + d and k + d + 1.
  const joined = (k: number, d: number) => {
    if (kind === 'shl') {
      if (k - d < 0) return void C.const(0);
      source(k - d);
      C.get(r).emit(op.i32Shl);
      if (k - d - 1 >= 0) {
        source(k - d - 1);
        C.const(1).emit(op.i32ShrU).const(31).get(r).emit(op.i32Sub, op.i32ShrU, op.i32Or);
      }
      return;
    }
    // The sign of ashr comes in from the word above (sign-extended past the top).
    source(k + d);
    C.get(r).emit(op.i32ShrU);
    source(k + d + 1);
    C.const(1).emit(op.i32Shl).const(31).get(r).emit(op.i32Sub, op.i32Shl, op.i32Or);
  };
  const acc = g.temp();
  for (let k = 0; k < n; k++) {
    // acc = the joined words of the offset q (0 when q is past the width: shl and lshr only).
    C.const(0).set(acc);
    for (let d = 0; d < n; d++) {
      joined(k, d);
      C.get(acc).get(q).const(d).emit(op.i32Eq, op.select).set(acc);
    }
    g.storeWord(out, k, () => C.get(acc));
  }
}

/** a ± b word by word with a carry (or borrow) in an i32 local. */
export function wideAddSub(g: WordContext, out: NetId, a: NetId, b: NetId, subtract: boolean): void {
  const C = g.c;
  const carry = g.temp();
  const x = g.temp();
  const y = g.temp();
  const r = g.temp();
  C.const(0).set(carry);
  for (let k = 0; k < g.words(out); k++) {
    g.pushWord(a, k);
    C.set(x);
    g.pushWord(b, k);
    C.set(y);
    // r = x ± y ± carry; the next carry is (r < x) without an incoming carry, (r <= x) with one
    // (a borrow: x < y, or x <= y).
    C.get(x).get(y).emit(subtract ? op.i32Sub : op.i32Add).get(carry).emit(subtract ? op.i32Sub : op.i32Add).set(r);
    g.storeWord(out, k, () => C.get(r));
    if (subtract) C.get(x).get(y).emit(op.i32LeU).get(x).get(y).emit(op.i32LtU).get(carry).emit(op.select).set(carry);
    else C.get(r).get(x).emit(op.i32LeU).get(r).get(x).emit(op.i32LtU).get(carry).emit(op.select).set(carry);
  }
}

/** Schoolbook product, truncated to the result's words, accumulated in linear memory with i64 arithmetic. */
export function wideMul(g: WordContext, out: NetId, a: NetId, b: NetId): void {
  const C = g.c;
  const n = g.words(out);
  const na = Math.min(g.words(a), n);
  const nb = Math.min(g.words(b), n);
  const base = g.byte(out);
  const carry = g.temp();
  // The product accumulates in place: keep the old words to tell the readers whether it changed.
  const readers = g.markedReaders(out);
  const old = readers ? Array.from({ length: n }, (_, k) => {
    const t = g.temp();
    C.loadAt(base + 4 * k).set(t);
    return t;
  }) : [];
  for (let k = 0; k < n; k++) C.const(0).const(0).store(base + 4 * k);
  const u64 = (push: () => void) => {
    push();
    C.emit(op.i64ExtendI32U);
  };
  for (let i = 0; i < na; i++) {
    C.const(0).set(carry);
    for (let j = 0; j < nb && i + j < n; j++) {
      // t = out[i+j] + a_i * b_j + carry < 2^64; out[i+j] = t mod 2^32, carry = t >> 32.
      u64(() => C.loadAt(base + 4 * (i + j)));
      u64(() => g.pushWord(a, i));
      u64(() => g.pushWord(b, j));
      C.emit(op.i64Mul, op.i64Add);
      u64(() => C.get(carry));
      C.emit(op.i64Add).emit(op.localSet, g.i64);
      C.const(0).emit(op.localGet, g.i64, op.i32WrapI64).store(base + 4 * (i + j));
      C.emit(op.localGet, g.i64, op.i64Const, 32, op.i64ShrU, op.i32WrapI64).set(carry);
    }
    if (i + nb < n) C.const(0).get(carry).store(base + 4 * (i + nb));
  }
  const top = g.width(out) - 32 * (n - 1);
  if (top < 32) C.const(0).loadAt(base + 4 * (n - 1)).const(maskOf(top)).emit(op.i32And).store(base + 4 * (n - 1));
  if (!readers) return;
  g.noteChange(
    () =>
      old.forEach((t, k) => {
        C.loadAt(base + 4 * k).get(t).emit(op.i32Xor);
        if (k > 0) C.emit(op.i32Or);
      }),
    readers,
  );
}

/** The words of a net combined with one operator (or, xor). */
export function foldWords(g: WordContext, id: NetId, combine: number): void {
  for (let k = 0; k < g.words(id); k++) {
    g.pushWord(id, k);
    if (k > 0) g.c.emit(combine);
  }
}

/**
 * a < b (or <=) on operands wider than 32 bits, from the low word up: a word that differs decides,
 * unless a higher one does. Signed operands are read sign-extended and their top word compares signed.
 */
export function compareWide(g: WordContext, a: NetId, b: NetId, strict: boolean, signed: boolean): void {
  const C = g.c;
  const n = Math.max(g.words(a), g.words(b));
  const r = g.temp();
  const x = g.temp();
  const y = g.temp();
  const word = (id: NetId, k: number) => (signed ? pushSignedWord(g, id, k) : g.pushWord(id, k));
  C.const(strict ? 0 : 1).set(r);
  for (let k = 0; k < n; k++) {
    word(a, k);
    C.set(x);
    word(b, k);
    C.set(y);
    C.get(x).get(y).emit(signed && k === n - 1 ? op.i32LtS : op.i32LtU);
    C.get(r).get(x).get(y).emit(op.i32Ne, op.select).set(r);
  }
  C.get(r);
}
