// Finds right shifts with a sticky bit built as stages of muxes (the float units' alignment and denormalization) so the simulator computes each in a few instructions.
//
// The stages (hdl/lib/float/common.ts, shiftRightJam) are recognized from their structure, so the
// replacement is exact for every input. For a w-bit x and an n-bit amount a, stage k (from n - 1 down
// to 0) shifts by 2^k when bit k of a is set and ORs the bits it drops into a sticky bit; the result is
// value | sticky. Together: a >= w gives (x != 0), else (x >> a) | ((x & (2^a - 1)) != 0).
import type { Cell, ModuleIR, NetId } from '../../ir/netlist.ts';

/** x shifted right by the low `bits` bits of `amount`, the bits shifted out ORed into bit 0 (x up to 32 bits wide). */
export interface ShiftRightJam {
  readonly kind: 'sjam';
  readonly out: NetId;
  readonly x: NetId;
  readonly amount: NetId;
  readonly bits: number;
}

/** The recognized shifts by their output net. */
export function findShiftRightJams(flat: ModuleIR): Map<NetId, ShiftRightJam> {
  const producer = new Map<NetId, Cell>();
  for (const c of flat.cells) producer.set(c.out, c);
  const width = (id: NetId) => flat.nets[id]!.width;
  const resolve = (id: NetId): NetId => {
    for (let c = producer.get(id), guard = 0; c?.op === 'buf' && guard < 64; c = producer.get(id), guard++) id = c.a;
    return id;
  };
  const cellOf = (id: NetId) => producer.get(resolve(id));
  /** `id` is bit k of some net: that net (itself for bit 0 of a 1-bit amount), or undefined. */
  const bitOf = (id: NetId, k: number): NetId | undefined => {
    const c = cellOf(id);
    if (c?.op === 'slice' && c.lo === k && width(c.out) === 1) return resolve(c.a);
    return k === 0 && width(id) === 1 ? resolve(id) : undefined;
  };
  /** `id` is the OR of bits [0, dist) of `v` (all of them when dist >= its width). */
  const isDropped = (id: NetId, v: NetId, dist: number): boolean => {
    const c = cellOf(id);
    if (c?.op !== 'redor') return false;
    if (dist >= width(v)) return resolve(c.a) === v;
    const s = cellOf(c.a);
    return s?.op === 'slice' && s.lo === 0 && width(s.out) === dist && resolve(s.a) === v;
  };
  /** `id` is v shifted right by the constant dist (zero-extended back to w bits; 0 when dist >= w). */
  const isShifted = (id: NetId, v: NetId, dist: number, w: number): boolean => {
    const c = cellOf(id);
    if (dist >= w) return c?.op === 'const' && c.value === 0n;
    if (c?.op !== 'zext' || width(c.out) !== w) return false;
    const s = cellOf(c.a);
    return s?.op === 'slice' && s.lo === dist && width(s.out) === w - dist && resolve(s.a) === v;
  };

  const found = new Map<NetId, ShiftRightJam>();
  for (const c of flat.cells) {
    const w = width(c.out);
    if (c.op !== 'or' || w > 32 || w < 2) continue;
    const z = cellOf(c.b);
    if (z?.op !== 'zext' || width(z.a) !== 1) continue;
    // Walk the stages from the last (k = 0) back to the first, value and sticky together.
    let value = resolve(c.a);
    let sticky = resolve(z.a);
    let amount: NetId | undefined;
    for (let k = 0; k < 32; k++) {
      const m = cellOf(value);
      if (m?.op !== 'mux' || width(m.out) !== w) break;
      const a = bitOf(m.sel, k);
      if (a === undefined || (amount !== undefined && a !== amount)) break;
      amount = a;
      const prev = resolve(m.b);
      const dist = 2 ** k;
      if (!isShifted(m.a, prev, dist, w)) break;
      // The sticky of this stage: lost = take & dropped, ORed onto the earlier stages' (the first has none).
      const s = cellOf(sticky);
      const isLost = (id: NetId) => {
        const l = cellOf(id);
        return l?.op === 'and' && bitOf(l.a, k) === amount && isDropped(l.b, prev, dist);
      };
      if (s?.op === 'or' && isLost(s.b)) {
        value = prev;
        sticky = resolve(s.a);
        continue;
      }
      // The first stage: bits 0 … k of the amount net are the whole amount.
      if (isLost(sticky)) found.set(c.out, { kind: 'sjam', out: c.out, x: prev, amount, bits: k + 1 });
      break;
    }
  }
  return found;
}

/** The value of a shift for x (w bits) and an amount a (for tests and reference). */
export function shiftRightJamValue(x: bigint, a: bigint, w: number): bigint {
  if (a >= BigInt(w)) return x !== 0n ? 1n : 0n;
  const lost = x & ((1n << a) - 1n);
  return (x >> a) | (lost !== 0n ? 1n : 0n);
}
