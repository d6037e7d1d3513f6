// A small queue in registers that takes several entries in one cycle (in order) and gives one: the texel stage's line reads waiting for the memory.
import { UInt, lit, mux, type BoolValue, type HType, type HValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { clog2, fromWord, payloadType, selectByIndex, toWord, type PayloadOf, type PayloadParams } from '../../hdl/lib/index.ts';

/** `payload`: the type of an entry (a Bundle of its fields, say), or `width`: a UInt, as a Fifo's; `depth` entries. */
export type MultiPushQueueParams<T extends HType = HType> = PayloadParams<T> & { readonly depth: number };

export interface MultiPushQueue<T extends HType> {
  /** Free entries (this cycle, before any push or pop). */
  readonly space: UIntValue;
  readonly valid: BoolValue;
  readonly head: ValueOf<T>;
  /** Called once: the entries taken this cycle (each valid only if those before it are) and whether the head leaves (only when valid). */
  update(entries: readonly { valid: BoolValue; bits: ValueOf<T> }[], pop: BoolValue): void;
}

/** Built inside the calling module (registers named after `name`); push and pop once each per cycle. The entries are stored packed, as a Fifo's words. */
export function multiPushQueue<P extends MultiPushQueueParams>(m: ModuleBuilder, name: string, p: P): MultiPushQueue<PayloadOf<P>> {
  const type = payloadType('multiPushQueue', p);
  const depth = p.depth;
  const pw = Math.max(1, clog2(depth));
  const cw = clog2(depth + 1);
  const slots = Array.from({ length: depth }, (_, i) => m.reg(UInt(type.width), { name: `${name}_slot${i}` }));
  const headPtr = m.reg(UInt(pw), { reset: 0, name: `${name}_head` });
  const tailPtr = m.reg(UInt(pw), { reset: 0, name: `${name}_tail` });
  const count = m.reg(UInt(cw), { reset: 0, name: `${name}_count` });
  const wrap = (ptr: UIntValue, k: number): UIntValue => {
    const sum = ptr.zext(pw + 3).add(k);
    return mux(sum.ge(depth), sum.sub(depth), sum).trunc(pw);
  };
  const head = selectByIndex(headPtr, slots);
  return {
    space: lit(depth, cw).sub(count),
    valid: count.ne(0),
    head: fromWord(type, head) as ValueOf<PayloadOf<P>>,
    update(entries, pop) {
      entries.forEach((e, k) => {
        const at = wrap(tailPtr, k);
        const bits = toWord(type, e.bits as HValue);
        slots.forEach((slot, i) => m.when(e.valid.and(at.eq(i)), () => slot.set(bits)));
      });
      const pushed = entries.map((e) => e.valid.zext(cw)).reduce((a, b) => a.add(b));
      tailPtr.set(entries.reduce((acc, e, k) => mux(e.valid, wrap(tailPtr, k + 1), acc), tailPtr));
      m.when(pop, () => headPtr.set(wrap(headPtr, 1)));
      count.set(count.add(pushed).sub(pop.zext(cw)));
    },
  };
}
