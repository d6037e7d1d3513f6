// The RT core's typed interfaces: thread launches and events toward the patch dispatcher, retired
// instructions, main-memory requests and the per-context status the host can read.
import { Bool, Bundle, Decoupled, Enum, UInt, flip, input, output, type PortSpec, type ValueOf } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { TextureLink } from '../texture/txdLink.ts';

/** Bits of a thread id: one main-memory region per thread of a patch. */
export const THREAD_BITS = clog2(MEMORY_MAP.threads);

/**
 * A thread placed into a free hardware context: its registers after the start (R1, R29, RV14, RV15;
 * every other register and the flag read zero) and the address of its next instruction.
 */
export const ThreadLaunch = Bundle({
  thread: UInt(THREAD_BITS),
  pc: UInt(32),
  /** R1: the pixel id. */
  pixel: UInt(32),
  /** R29: the thread's memory base, saved across traces. */
  sp: UInt(32),
  /** RV14, RV15: a trace's answer (hit point and shader id, normal); zero for a new thread. */
  hit: UInt(128),
  normal: UInt(128),
  /** RV13 after `trace RVa`: the hit's (t, u, v, instance), written only when `queried` (docs/rays.md). */
  parameters: UInt(128),
  /** The thread returns from a `trace RVa`: its launch writes RV13 too. */
  queried: Bool,
});

export const ThreadEventKind = Enum('ThreadEventKind', ['trace', 'end']);

/**
 * A thread leaving its context: `trace` carries the ray (RV14, RV15 when the trace issued) and what
 * survives it (R29 and the address after the trace); `end` is `fin` or a fault that stops the thread.
 * `fault` is set when any instruction of this run of the thread faulted.
 */
export const ThreadEvent = Bundle({
  thread: UInt(THREAD_BITS),
  kind: ThreadEventKind,
  fault: Bool,
  pc: UInt(32),
  sp: UInt(32),
  origin: UInt(96),
  direction: UInt(96),
  /** The ray's query, tmin [31:0], tmax, flags [95:64]: RVa.xyz of `trace RVa`, a plain trace's (+0, +∞, 0xFF00) otherwise. */
  query: UInt(96),
  /** The trace is `trace RVa` (its answer writes RV13). */
  queried: Bool,
});

/**
 * One retired instruction with the architectural state it wrote (in the manner of RISC-V's formal
 * interface): enough for a checker to compare every instruction of every thread with the ISA simulator.
 */
export const Retire = Bundle({
  valid: Bool,
  thread: UInt(THREAD_BITS),
  pc: UInt(32),
  /** False for an illegal opcode or a PC outside instruction memory: the thread ends without executing it. */
  counted: Bool,
  scalarWrite: Bool,
  scalarReg: UInt(5),
  scalarValue: UInt(32),
  vectorWrite: Bool,
  vectorReg: UInt(4),
  vectorValue: UInt(128),
  flagWrite: Bool,
  flag: UInt(2),
});

/** A main-memory access of the thread `thread`, answered exactly one cycle later (`MemoryResponse`). */
export const MemoryRequest = Bundle({
  thread: UInt(THREAD_BITS),
  addr: UInt(32),
  read: Bool,
  write: Bool,
  vector: Bool,
  data: UInt(128),
});

export const MemoryResponse = Bundle({
  done: Bool,
  data: UInt(128),
});

/** What a hardware context is doing (`texture`: its txd waits for the texture unit's answer). */
export const ContextState = Enum('ContextState', ['free', 'launching', 'ready', 'busy', 'halted', 'texture']);

/** One context's status, as the host reads it through MMIO. */
export const ContextStatus = Bundle({
  state: ContextState,
  thread: UInt(THREAD_BITS),
  /** The address of the instruction it issued last. */
  pc: UInt(32),
});

/**
 * The link between an RT core and the patch dispatcher, as the core drives it (the dispatcher takes it as
 * an `input`): threads in, thread events and retired instructions out, and how busy the core is.
 */
export const DispatchLink = Bundle({
  launch: flip(Decoupled(ThreadLaunch)),
  event: Decoupled(ThreadEvent),
  retire: Retire,
  /** Some context holds a thread (or one is being launched). */
  busy: Bool,
  /** An instruction issued this cycle (the core's utilization). */
  issued: Bool,
});

/** The core's side of its DispatchLink. */
export type DispatchLinkValue = ValueOf<typeof DispatchLink>;

/** The core's link to the patch dispatcher and its status toward the host's registers. */
export const controlPorts = (contexts: number) => ({
  dispatch: output(DispatchLink),
  /** The context whose status `status` shows. */
  status_context: input(UInt(Math.max(1, clog2(contexts)))),
  status: output(ContextStatus),
  /** Sticky: main memory did not answer a request on the next cycle (the access faulted). */
  mem_error: output(Bool),
});

/** The core's link to a texture unit, when it has one (RtCoreParams.texture); tagged by context. */
export function texturePorts(p: { readonly contexts: number; readonly texture?: boolean }): { texture: PortSpec<ReturnType<typeof TextureLink>> } | Record<never, never> {
  return p.texture ? { texture: output(TextureLink(Math.max(1, clog2(p.contexts)))) } : {};
}

/** A synchronous-read memory as its reader sees it: the address out, the word of the address before in. */
export const MemoryReadPort = (addressBits: number) => Bundle({ addr: UInt(addressBits), data: flip(UInt(32)) });

/** The core's main-memory side. */
export const mainMemoryPorts = () => ({
  mem: output(MemoryRequest),
  mem_resp: input(MemoryResponse),
});
