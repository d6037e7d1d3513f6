// A small queue in registers that takes several entries in one cycle (in order) and gives one: the texel stage's line reads waiting for the memory.
import { UInt, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { clog2, selectByIndex } from '../../hdl/lib/index.ts';

export interface MultiPushQueue {
  /** Free entries (this cycle, before any push or pop). */
  readonly space: UIntValue;
  readonly valid: BoolValue;
  readonly head: UIntValue;
  /** Called once: the entries taken this cycle (each valid only if those before it are) and whether the head leaves (only when valid). */
  update(entries: readonly { valid: BoolValue; bits: UIntValue }[], pop: BoolValue): void;
}

/** Built inside the calling module; `depth` entries of `width` bits; push and pop once each per cycle. */
export function multiPushQueue(m: ModuleBuilder, name: string, width: number, depth: number): MultiPushQueue {
  const pw = Math.max(1, clog2(depth));
  const cw = clog2(depth + 1);
  const slots = Array.from({ length: depth }, (_, i) => m.reg(UInt(width), { name: `${name}_slot${i}` }));
  const headPtr = m.reg(UInt(pw), { reset: 0, name: `${name}_head` });
  const tailPtr = m.reg(UInt(pw), { reset: 0, name: `${name}_tail` });
  const count = m.reg(UInt(cw), { reset: 0, name: `${name}_count` });
  const wrap = (ptr: UIntValue, k: number): UIntValue => {
    const sum = ptr.zext(pw + 3).add(k);
    return mux(sum.ge(depth), sum.sub(depth), sum).trunc(pw);
  };
  return {
    space: lit(depth, cw).sub(count),
    valid: count.ne(0),
    head: selectByIndex(headPtr, slots),
    update(entries, pop) {
      entries.forEach((e, k) => {
        const at = wrap(tailPtr, k);
        slots.forEach((slot, i) => m.when(e.valid.and(at.eq(i)), () => slot.set(e.bits)));
      });
      const pushed = entries.map((e) => e.valid.zext(cw)).reduce((a, b) => a.add(b));
      tailPtr.set(entries.reduce((acc, e, k) => mux(e.valid, wrap(tailPtr, k + 1), acc), tailPtr));
      m.when(pop, () => headPtr.set(wrap(headPtr, 1)));
      count.set(count.add(pushed).sub(pop.zext(cw)));
    },
  };
}
