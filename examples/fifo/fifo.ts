// A first-word-fall-through FIFO whose storage is a synchronous-read memory (block RAM on an FPGA), with count/full/empty status.
import { Bool, Decoupled, UInt, defineModule, input, mux, output, type UIntValue } from 'rtgpu/hdl';
import { clog2 } from 'rtgpu/hdl/lib';

/** Defaults for the CLI; `--param depth=512` overrides them. */
export const params = { width: 8, depth: 16 };

export interface BramFifoParams {
  readonly width: number;
  /** Words the FIFO holds (any positive integer). */
  readonly depth: number;
}

/**
 * The memory's read register is the output stage: whenever it is empty or its word leaves, the next word
 * is read from the memory, so deq.bits needs no extra register and the memory maps to block RAM. A word
 * accepted on enq at cycle t is offered on deq from cycle t + 2. enq.ready and deq.valid come from
 * registers only (no combinational path from enq to deq or back). A word is counted for at least two
 * cycles (memory, output stage), so one word per cycle needs depth >= 3; depths 1 and 2 pass 1/3 and 2/3.
 */
export const BramFifo = defineModule(
  'BramFifo',
  (p: BramFifoParams) => ({
    enq: input(Decoupled(UInt(p.width))),
    deq: output(Decoupled(UInt(p.width))),
    count: output(UInt(clog2(p.depth + 1))),
    full: output(Bool),
    empty: output(Bool),
  }),
  (m, io, p) => {
    const storage = m.memory(UInt(p.width), p.depth);
    const addrWidth = clog2(p.depth);
    const writeAddr = m.reg(UInt(addrWidth), { reset: 0 });
    const readAddr = m.reg(UInt(addrWidth), { reset: 0 });
    // Words in the FIFO: those in the memory plus the one in the output stage.
    const count = m.reg(UInt(clog2(p.depth + 1)), { reset: 0 });
    const outValid = m.reg(Bool, { reset: 0 });
    const full = count.eq(p.depth);
    const empty = count.eq(0);
    const inMemory = count.sub(outValid.zext(count.width));
    const wrap = (addr: UIntValue) => mux(addr.eq(p.depth - 1), 0, addr.add(1));

    // Refill the output stage when it is free this cycle and the memory has a word.
    const load = inMemory.ne(0).and(outValid.not().or(io.deq.ready));
    io.deq.bits.set(storage.read(readAddr, { en: load }));
    io.deq.valid.set(outValid);
    io.enq.ready.set(full.not());

    m.when(io.enq.fire, () => {
      storage.write(writeAddr, io.enq.bits);
      writeAddr.set(wrap(writeAddr));
    });
    m.when(load, () => {
      readAddr.set(wrap(readAddr));
      outValid.set(true);
    }).elsewhen(io.deq.fire, () => outValid.set(false));
    // A word in and none out, or out and none in: a transfer each way leaves the count as it is.
    const grows = io.enq.fire.and(io.deq.fire.not());
    const shrinks = io.deq.fire.and(io.enq.fire.not());
    m.when(grows, () => count.set(count.add(1))).elsewhen(shrinks, () => count.set(count.sub(1)));

    io.count.set(count);
    io.full.set(full);
    io.empty.set(empty);
  },
);
