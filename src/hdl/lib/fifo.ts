// Synchronous FIFO with first-word fall-through: the head word is on deq.bits whenever deq.valid is 1.
import { Bool, Decoupled, Irrevocable, UInt, defineModule, input, mux, output, withGenericPorts, type BoolType, type DecoupledType, type HType, type PortSpec, type PortsOf, type UIntType } from '../index.ts';
import { clog2 } from './clog2.ts';
import { driveFromWord, payloadType, toWord, type PayloadOf, type PayloadParams } from './payload.ts';

/** `payload`: the type of a word (a Bundle of the fields it holds, say), or `width`: a UInt; `depth`: any positive integer. */
export type FifoParams<T extends HType = HType> = PayloadParams<T> & { readonly depth: number };
/** An instance's ports follow its payload: `m.instance(Fifo, { payload: T, depth })` has `enq.bits` and `deq.bits` of type T. */
interface FifoPortsOf extends PortsOf { readonly ports: FifoPorts<PayloadOf<this['params']>> }

/**
 * Storage is a memory with an asynchronous read port (LUT RAM), so the head is visible without a
 * cycle of latency. A full FIFO does not accept a word even if one leaves in the same cycle, and an
 * empty one does not pass a word straight through: ready and valid depend only on registers. While
 * empty, `deq.bits` is 0 (not a never-written word, which silicon leaves undefined).
 */
export const Fifo = withGenericPorts<FifoParams, FifoPortsOf>(defineModule(
  'Fifo',
  (p: FifoParams) => ({
    enq: input(Decoupled(payloadType('Fifo', p))),
    // The head word stays offered until it is taken: the port checks that.
    deq: output(Irrevocable(payloadType('Fifo', p))),
    count: output(UInt(clog2(p.depth + 1))),
    full: output(Bool),
    empty: output(Bool),
  }),
  (m, io, p) => {
    const aw = clog2(p.depth);
    const storage = m.memory(UInt(payloadType('Fifo', p).width), p.depth);
    const head = m.reg(UInt(aw), { reset: 0 });
    const tail = m.reg(UInt(aw), { reset: 0 });
    const count = m.reg(UInt(clog2(p.depth + 1)), { reset: 0 });
    const full = count.eq(p.depth);
    const empty = count.eq(0);
    const next = (ptr: typeof head) => mux(ptr.eq(p.depth - 1), 0, ptr.add(p.depth === 1 ? 0 : 1));

    io.enq.ready.set(full.not());
    io.deq.valid.set(empty.not());
    driveFromWord(m, payloadType('Fifo', p), io.deq.bits, mux(empty, 0, storage.readAsync(head)));
    m.when(io.enq.fire, () => {
      storage.write(tail, toWord(payloadType('Fifo', p), io.enq.bits));
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
));

/** The ports of a Fifo of words of type `T`. */
export interface FifoPorts<T extends HType> {
  [port: string]: PortSpec;
  enq: PortSpec<DecoupledType<T>>;
  deq: PortSpec<DecoupledType<T>>;
  count: PortSpec<UIntType>;
  full: PortSpec<BoolType>;
  empty: PortSpec<BoolType>;
}
