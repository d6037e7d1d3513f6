// Finds leading-zero counters built as trees of bit tests and muxes (the float units' normalizers) so the simulator computes each with one count-leading-zeros instruction.
//
// The tree (hdl/lib/float/common.ts, leadingZeros) is recognized from its structure, bottom up, so the
// replacement is exact for every input. For a field f = src[lo + n - 1 : lo] (n a power of two):
// - a zero test ZT(lo, n): the 1-bit net f == 0 — not(src[i]) for n = 1, and(ZT(hi half), ZT(lo half));
// - a count LZ(lo, n): the log2(n)-bit net clz_n(f | 1) — the leading zeros of f, or n - 1 when f is 0.
//   ZT(lo + 1, 1) is LZ(lo, 2); {ZT(hi), ZT(hi) ? LZ(lo half) : LZ(hi half)} is LZ(lo, 2n);
// - a full count: {ZT(lo, n), ZT(lo, n) ? 0 : LZ(lo, n)}, which is clz_n(f) (n when f is 0).
import type { Cell, ModuleIR, NetId } from '../../ir/netlist.ts';

/** A leading-zero count of the n-bit field of `src` at `lo` (`full`: n for a zero field, else n - 1). */
export interface LeadingZeroCount {
  readonly kind: 'clz';
  readonly out: NetId;
  readonly src: NetId;
  readonly lo: number;
  readonly n: number;
  readonly full: boolean;
}

interface Field {
  readonly src: NetId;
  readonly lo: number;
  readonly n: number;
}

/** Counts of fields of 4 to 32 bits by their output net (smaller ones are as cheap as they are; i32.clz counts 32). */
export function findLeadingZeroCounts(flat: ModuleIR): Map<NetId, LeadingZeroCount> {
  const producer = new Map<NetId, Cell>();
  for (const c of flat.cells) producer.set(c.out, c);
  const width = (id: NetId) => flat.nets[id]!.width;
  // Through copies to the net that computes the value.
  const resolve = (id: NetId): NetId => {
    for (let c = producer.get(id), guard = 0; c?.op === 'buf' && guard < 64; c = producer.get(id), guard++) id = c.a;
    return id;
  };
  const cellOf = (id: NetId) => producer.get(resolve(id));
  const zt = new Map<NetId, Field | null>();
  const lz = new Map<NetId, Field | null>();

  const zeroTest = (id0: NetId): Field | null => {
    const id = resolve(id0);
    if (zt.has(id)) return zt.get(id)!;
    zt.set(id, null);
    let f: Field | null = null;
    const c = producer.get(id);
    if (c && width(id) === 1) {
      if (c.op === 'not') {
        const s = cellOf(c.a);
        if (s?.op === 'slice' && width(s.out) === 1) f = { src: resolve(s.a), lo: s.lo, n: 1 };
      } else if (c.op === 'and') {
        const h = zeroTest(c.a);
        const l = zeroTest(c.b);
        if (h && l && h.src === l.src && h.n === l.n && h.lo === l.lo + l.n) f = { src: l.src, lo: l.lo, n: 2 * l.n };
      }
    }
    zt.set(id, f);
    return f;
  };

  const count = (id0: NetId): Field | null => {
    const id = resolve(id0);
    if (lz.has(id)) return lz.get(id)!;
    lz.set(id, null);
    let f: Field | null = null;
    const z = width(id) === 1 ? zeroTest(id) : null;
    if (z && z.n === 1 && z.lo >= 1) f = { src: z.src, lo: z.lo - 1, n: 2 };
    else {
      const parts = concatOfTestAndMux(id);
      if (parts) {
        const a = count(parts.mux.a);
        const b = count(parts.mux.b);
        const h = parts.test;
        if (a && b && a.src === h.src && b.src === h.src && a.n === h.n && b.n === h.n && b.lo === h.lo && a.lo + a.n === h.lo && width(id) === Math.log2(2 * h.n)) f = { src: h.src, lo: a.lo, n: 2 * h.n };
      }
    }
    lz.set(id, f);
    return f;
  };

  /** {t, mux(t, a, b)} with t a zero test: the shape of a count node and of the full count. */
  const concatOfTestAndMux = (id: NetId): { test: Field; mux: Extract<Cell, { op: 'mux' }> } | null => {
    const c = producer.get(id);
    if (c?.op !== 'concat' || c.parts.length !== 2) return null;
    const m = cellOf(c.parts[1]!);
    if (m?.op !== 'mux' || resolve(m.sel) !== resolve(c.parts[0]!)) return null;
    const test = zeroTest(c.parts[0]!);
    return test ? { test, mux: m } : null;
  };

  const found = new Map<NetId, LeadingZeroCount>();
  for (const c of flat.cells) {
    if (c.op !== 'concat') continue;
    const f = count(c.out);
    if (f && f.n >= 4 && f.n <= 32) {
      found.set(c.out, { kind: 'clz', out: c.out, src: f.src, lo: f.lo, n: f.n, full: false });
      continue;
    }
    // The full count of a field: 0 in the mux's taken arm, the count of the same field in the other.
    const parts = concatOfTestAndMux(c.out);
    if (!parts) continue;
    const zero = producer.get(resolve(parts.mux.a));
    const inner = count(parts.mux.b);
    const t = parts.test;
    if (zero?.op === 'const' && zero.value === 0n && inner && inner.src === t.src && inner.lo === t.lo && inner.n === t.n && t.n >= 4 && t.n <= 32 && width(c.out) === Math.log2(t.n) + 1) {
      found.set(c.out, { kind: 'clz', out: c.out, src: t.src, lo: t.lo, n: t.n, full: true });
    }
  }
  return found;
}

/** The value of a count for a field value f (for tests and the JavaScript back end's reference). */
export function leadingZeroCount(f: number, n: number, full: boolean): number {
  const x = (f << (32 - n)) | (full ? (n < 32 ? 1 << (31 - n) : 0) : 1 << (32 - n));
  return Math.clz32(x);
}
