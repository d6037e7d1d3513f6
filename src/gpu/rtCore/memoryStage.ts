// The RT core's memory stages: M1 presents the access (the thread's own main memory or constant memory),
// M2 takes the answer. Both memories answer exactly one cycle after the request, so accesses pipeline
// one per cycle; a missing main-memory answer faults the access and sets a sticky error.
import { Bool, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { constantWordOf, isConstantAddress, isThreadAddress, vectorFitsThread } from '../memoryMap.ts';
import { laneOf, type ExecuteResults } from './execute.ts';
import type { MemoryReadPort, MemoryRequest, MemoryResponse } from './interfaces.ts';

/** The core's main-memory request and response ports and its constant memory's read port. */
export interface MemoryPorts {
  readonly mem: ValueOf<typeof MemoryRequest>;
  readonly mem_resp: ValueOf<typeof MemoryResponse>;
  readonly cmem: ValueOf<ReturnType<typeof MemoryReadPort>>;
}

export interface MemoryResults {
  /** EX's instruction accesses memory outside its thread's main memory and the constant memory (a store's fault is known here). */
  readonly exFault: BoolValue;
  /** In M2: the loaded words (zero when the access faulted) and whether it faulted. */
  readonly loadedScalar: UIntValue;
  readonly loadedVector: UIntValue;
  readonly loadFault: BoolValue;
  /** Sticky: main memory missed an answer. */
  readonly protocolError: BoolValue;
}

/** `thread` is the thread of EX's instruction. */
export function memoryStage(m: ModuleBuilder, ex: ExecuteResults, thread: UIntValue, io: MemoryPorts): MemoryResults {
  const x = ex.x;
  const addr = ex.scalar;
  const access = ex.valid.and(ex.halts.not()).and(x.load.or(x.store));
  const vector = x.vectorMemory;
  // A thread reaches its own 64 KiB (a vector access must fit inside it) and reads the constant memory.
  const own = isThreadAddress(addr, thread).and(vector.not().or(vectorFitsThread(addr)));
  const constant = isConstantAddress(addr).and(x.load).and(vector.not());
  const fault = access.and(own.not()).and(constant.not());

  // M1: the request, held in registers so that the memory ports are driven from flip-flops.
  const m1Main = m.regNext(access.and(own), { name: 'm1_main', reset: 0 });
  const m1Const = m.regNext(access.and(constant), { name: 'm1_const', reset: 0 });
  const m1Load = m.regNext(x.load, { name: 'm1_load', reset: 0 });
  const m1Vector = m.regNext(vector, { name: 'm1_vector', reset: 0 });
  const m1Addr = m.regNext(addr, { name: 'm1_addr', reset: 0 });
  const m1Data = m.regNext(ex.vector, { name: 'm1_data', reset: 0 });
  const m1Thread = m.regNext(thread, { name: 'm1_thread', reset: 0 });
  const m1Fault = m.regNext(fault, { name: 'm1_fault', reset: 0 });
  // Isolated: the memory ports only toggle for real accesses.
  const main = (v: UIntValue) => mux(m1Main, v, lit(0, v.width));
  io.mem.thread.set(main(m1Thread));
  io.mem.addr.set(main(m1Addr));
  io.mem.read.set(m1Main.and(m1Load));
  io.mem.write.set(m1Main.and(m1Load.not()));
  io.mem.vector.set(m1Main.and(m1Vector));
  io.mem.data.set(main(mux(m1Load, lit(0, 128), m1Data)));
  io.cmem.addr.set(mux(m1Const, constantWordOf(m1Addr), lit(0, io.cmem.addr.width)));

  // M2: the answer.
  const m2Main = m.regNext(m1Main, { name: 'm2_main', reset: 0 });
  const m2Const = m.regNext(m1Const, { name: 'm2_const', reset: 0 });
  const m2Fault = m.regNext(m1Fault, { name: 'm2_fault', reset: 0 });
  const missed = m2Main.and(io.mem_resp.done.not());
  const protocolError = m.reg(Bool, { reset: 0, name: 'mem_error' });
  m.when(missed, () => protocolError.set(true));
  const bad = m2Fault.or(missed);
  return {
    exFault: fault,
    loadedScalar: mux(bad, lit(0, 32), mux(m2Const, io.cmem.data, laneOf(io.mem_resp.data, 0))),
    loadedVector: mux(bad, lit(0, 128), io.mem_resp.data),
    loadFault: bad,
    protocolError,
  };
}
