// Synchronous FIFO with first-word fall-through: the head word is on deq.bits whenever deq.valid is 1.
import { Bool, Decoupled, Irrevocable, UInt, defineModule, input, mux, output } from '../index.ts';
import { clog2 } from './clog2.ts';

export interface FifoParams {
  readonly width: number;
  /** Any positive integer (not only powers of two). */
  readonly depth: number;
}

/**
 * Storage is a memory with an asynchronous read port (LUT RAM), so the head is visible without a
 * cycle of latency. A full FIFO does not accept a word even if one leaves in the same cycle, and an
 * empty one does not pass a word straight through: ready and valid depend only on registers. While
 * empty, `deq.bits` is 0 (not a never-written word, which silicon leaves undefined).
 */
export const Fifo = defineModule(
  'Fifo',
  (p: FifoParams) => ({
    enq: input(Decoupled(UInt(p.width))),
    // The head word stays offered until it is taken: the port checks that.
    deq: output(Irrevocable(UInt(p.width))),
    count: output(UInt(clog2(p.depth + 1))),
    full: output(Bool),
    empty: output(Bool),
  }),
  (m, io, p) => {
    const aw = clog2(p.depth);
    const storage = m.memory(UInt(p.width), p.depth);
    const head = m.reg(UInt(aw), { reset: 0 });
    const tail = m.reg(UInt(aw), { reset: 0 });
    const count = m.reg(UInt(clog2(p.depth + 1)), { reset: 0 });
    const full = count.eq(p.depth);
    const empty = count.eq(0);
    const next = (ptr: typeof head) => mux(ptr.eq(p.depth - 1), 0, ptr.add(p.depth === 1 ? 0 : 1));

    io.enq.ready.set(full.not());
    io.deq.valid.set(empty.not());
    io.deq.bits.set(mux(empty, 0, storage.readAsync(head)));
    m.when(io.enq.fire, () => {
      storage.write(tail, io.enq.bits);
      tail.set(next(tail));
    });
    m.when(io.deq.fire, () => head.set(next(head)));
    m.when(io.enq.fire.and(io.deq.fire.not()), () => count.set(count.add(1))).elsewhen(io.deq.fire.and(io.enq.fire.not()), () => count.set(count.sub(1)));
    io.count.set(count);
    io.full.set(full);
    io.empty.set(empty);
    // Invariants: the count stays in range and matches the pointers (equal pointers: empty or full).
    m.assert(count.le(p.depth), 'count is at most the depth', { name: 'count_in_range' });
    // Pointer arithmetic wraps at 2^aw: behind the head, the tail is depth further on (the same modulo 2^aw for a power of two).
    const wrap = p.depth % 2 ** aw;
    // At a depth that is no power of two the pointers could name a slot past the depth; they never do (and
    // without saying so, induction could start from such a state).
    if (wrap !== 0) m.assert(head.lt(p.depth).and(tail.lt(p.depth)), 'head and tail stay below the depth', { name: 'pointers_in_range' });
    const distance = wrap === 0 ? tail.sub(head) : mux(tail.ge(head), tail.sub(head), tail.sub(head).add(wrap));
    m.assert(mux(full, tail.eq(head), distance.eq(count)), 'count is the distance from head to tail', { name: 'count_matches_pointers' });
  },
);
