// A dual-clock FIFO: words enter in the write domain and leave in the read domain, the pointers crossing in Gray code.
import { Clock, Decoupled, UInt, defineModule, input, lit, mux, output, withGenericPorts, type BoolType, type ClockDomain, type ClockType, type DecoupledType, type HType, type InstanceHandle, type ModuleBuilder, type PortSpec, type PortsOf, type UIntType } from '../../index.ts';
import { BitSynchronizer } from './bitSynchronizer.ts';
import { crossingDomain, resetParamsOf, resetPort, startAt, type CrossingResetParams } from './crossingReset.ts';
import { fromGray, toGray } from './gray.ts';
import { integerParam, paramError } from '../paramError.ts';
import { driveFromWord, payloadType, toWord, type PayloadOf, type PayloadParams } from '../payload.ts';

/** `payload`: the type of a word (a Bundle of the fields it holds, say), or `width`: a UInt, as a Fifo's. */
export type AsyncFifoParams<T extends HType = HType> = PayloadParams<T> &
  CrossingResetParams & {
    /** Words it holds: a power of two, at least 2. */
    readonly depth: number;
    /** Flip-flops of each pointer synchronizer: at least 2 (default 2). */
    readonly syncStages?: number;
  };
/** An instance's ports follow its payload: `m.instance(AsyncFifo, { payload: T, depth })` has `enq.bits` and `deq.bits` of type T. */
interface AsyncFifoPortsOf extends PortsOf { readonly ports: AsyncFifoPorts<PayloadOf<this['params']>> }

/** log2 of the depth, which must be a power of two of at least 2. */
function addressBits(depth: number): number {
  if (!Number.isInteger(depth) || depth < 2 || (depth & (depth - 1)) !== 0 || depth > 2 ** 30) throw paramError('AsyncFifo', `depth must be a power of two from 2 to 2^30 (its pointers cross clock domains in Gray code, which wraps only at a power of two), got ${String(depth)}`);
  return Math.log2(depth);
}

/**
 * The classic Gray-pointer FIFO (Cummings, "Simulation and Synthesis Techniques for Asynchronous FIFO
 * Design"). Each side keeps a binary and a Gray pointer one bit wider than the address; each Gray pointer
 * reaches the other side through a BitSynchronizer, where it changes one bit at a time, so it is always
 * an old or the new value, never a mix. The storage is a memory written in the write domain and read
 * asynchronously at the read pointer (LUT RAM; flip-flops on targets without it): that word was written
 * before the write pointer that makes it visible crossed over, and the writer cannot reuse its slot
 * until the read pointer that frees it has crossed back, so it is stable while the read side uses it
 * (declared with `crossDomain`).
 *
 * Guarantees: no word is lost, duplicated or reordered; full and empty are never wrong, only late:
 * `enq.ready` is 0 whenever the FIFO is full (it may stay 0 a little after a word leaves) and
 * `deq.valid` is 0 whenever it is empty (it may stay 0 a little after a word enters). The outputs of
 * each side change only at its own clock's edges and never depend combinationally on an input (no path
 * through the FIFO). First-word fall-through: the head word is on `deq.bits` while `deq.valid` is 1;
 * while empty, `deq.bits` is 0.
 *
 * Latency: a word written at a rising edge of `wclk` is on `deq` after `syncStages` rising edges of
 * `rclk` (+1 in silicon when a synchronizer resolves late); a slot freed at a rising edge of `rclk` is
 * offered to the writer after `syncStages` rising edges of `wclk`. Each side moves a word per cycle of
 * its own clock. The pointers' round trip means `depth` must cover about 2·(syncStages + 1) cycles of
 * the slower clock for full throughput.
 *
 * `wcount` is the occupancy as the writer sees it (at least the true one: `depth` when full) and
 * `rcount` as the reader sees it (at most the true one: 0 when empty).
 *
 * Reset: with `resetKind`, `wreset` resets the write domain and `rreset` the read domain. Reset both
 * sides together (both asserted at one same time; a ResetSynchronizer per domain from one reset source
 * does it): resetting one side alone while the other holds words loses or invents words.
 *
 * Timing: the two clocks are unrelated, so timing tools do not check the paths between them. For the
 * guarantees to hold in silicon, the bits of each Gray pointer must reach the first synchronizer flop
 * within about one period of the faster clock of each other, and the stored word must reach the read
 * side's registers within `syncStages` read clock periods: constrain both with `set_max_delay
 * -datapath_only` (Vivado) of one faster-clock period, as the handoff's SDC explains.
 */
export const AsyncFifo = withGenericPorts<AsyncFifoParams, AsyncFifoPortsOf>(defineModule(
  'AsyncFifo',
  (p: AsyncFifoParams) => ({
    wclk: input(Clock),
    ...resetPort('AsyncFifo', 'wreset', p),
    enq: input(Decoupled(payloadType('AsyncFifo', p))),
    wcount: output(UInt(addressBits(p.depth) + 1)),
    rclk: input(Clock),
    ...resetPort('AsyncFifo', 'rreset', p),
    deq: output(Decoupled(payloadType('AsyncFifo', p))),
    rcount: output(UInt(addressBits(p.depth) + 1)),
  }),
  (m, io, p) => {
    const type = payloadType('AsyncFifo', p);
    const aw = addressBits(p.depth);
    const stages = integerParam('AsyncFifo', 'syncStages', p.syncStages, 2, 2);
    const W = crossingDomain(m, 'w', io.wclk, io.wreset, p);
    const R = crossingDomain(m, 'r', io.rclk, io.rreset, p);
    const Ptr = UInt(aw + 1);
    const slot = (ptr: typeof wbin) => ptr.bits(aw - 1, 0);
    const storage = m.memory(UInt(type.width), p.depth, { name: 'storage' });

    const wbin = m.reg(Ptr, { ...startAt(p, 0), domain: W, name: 'wbin' });
    const wgray = m.reg(Ptr, { ...startAt(p, 0), domain: W, name: 'wgray' });
    const rbin = m.reg(Ptr, { ...startAt(p, 0), domain: R, name: 'rbin' });
    const rgray = m.reg(Ptr, { ...startAt(p, 0), domain: R, name: 'rgray' });
    const sync = (name: string, domain: typeof W, clock: typeof io.wclk, reset: typeof io.wreset, pointer: typeof wgray) => {
      const s = m.instance(BitSynchronizer, { width: aw + 1, stages, ...resetParamsOf(p) }, { domain, name });
      s.io.clk.set(clock);
      if (reset) s.io.reset.set(reset);
      s.io.d.set(pointer);
      return s.io.q;
    };
    const rgrayInW = sync('rgray_sync', W, io.wclk, io.wreset, rgray);
    const wgrayInR = sync('wgray_sync', R, io.rclk, io.rreset, wgray);

    m.withDomain(W, () => {
      // Full: the write pointer is a whole lap ahead of the read pointer (in Gray code: the top two bits differ, the rest agree).
      const full = wgray.eq(rgrayInW.xor(lit(3n << BigInt(aw - 1), aw + 1)));
      io.enq.ready.set(full.not());
      m.when(io.enq.fire, () => {
        storage.write(slot(wbin), toWord(type, io.enq.bits));
        const next = wbin.add(1);
        wbin.set(next);
        wgray.set(toGray(next));
      });
      const wcount = wbin.sub(fromGray(rgrayInW));
      io.wcount.set(wcount);
      // Invariants of the write side (with both sides reset together): the Gray pointer follows the binary one, and
      // the full test keeps the writer at most a lap ahead of the read pointer it sees (an older one than the reader's).
      m.assert(wgray.eq(toGray(wbin)), 'the write Gray pointer encodes the binary one', { name: 'wgray_matches' });
      m.assert(wcount.le(p.depth), 'the writer is at most depth words ahead of the synchronized read pointer', { name: 'wcount_in_range' });
    });

    m.withDomain(R, () => {
      const empty = rgray.eq(wgrayInR);
      io.deq.valid.set(empty.not());
      const word = m.crossDomain(storage.readAsync(slot(rbin)), 'AsyncFifo: the word at the read pointer was written before the write pointer that reveals it crossed, and is not rewritten before the read pointer that frees it crosses back');
      driveFromWord(m, type, io.deq.bits, mux(empty, 0, word));
      m.when(io.deq.fire, () => {
        const next = rbin.add(1);
        rbin.set(next);
        rgray.set(toGray(next));
      });
      const rcount = fromGray(wgrayInR).sub(rbin);
      io.rcount.set(rcount);
      // Invariants of the read side: the reader never passes the write pointer it sees (rcount would wrap past depth).
      m.assert(rgray.eq(toGray(rbin)), 'the read Gray pointer encodes the binary one', { name: 'rgray_matches' });
      m.assert(rcount.le(p.depth), 'the reader never reads past the synchronized write pointer', { name: 'rcount_in_range' });
    });
  },
));

/** The ports of an AsyncFifo whose payload is of type `T` (`wreset` and `rreset` exist only with `resetKind`). */
export interface AsyncFifoPorts<T extends HType> {
  [port: string]: PortSpec;
  wclk: PortSpec<ClockType>;
  wreset: PortSpec<BoolType>;
  enq: PortSpec<DecoupledType<T>>;
  wcount: PortSpec<UIntType>;
  rclk: PortSpec<ClockType>;
  rreset: PortSpec<BoolType>;
  deq: PortSpec<DecoupledType<T>>;
  rcount: PortSpec<UIntType>;
}

/**
 * `m.instance(AsyncFifo, params, opts)`, typed where `m.instance` cannot be yet: with a literal `resetKind` or
 * `resetActive` in the parameters, `m.instance`'s inference widens them to `string` and loses the payload's type.
 */
export function asyncFifo<const P extends AsyncFifoParams>(m: ModuleBuilder, params: P, opts: { name?: string; domain?: ClockDomain } = {}): InstanceHandle<AsyncFifoPorts<PayloadOf<P>>> {
  return m.instance(AsyncFifo, params, opts) as unknown as InstanceHandle<AsyncFifoPorts<PayloadOf<P>>>;
}
