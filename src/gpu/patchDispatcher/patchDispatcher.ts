// The patch dispatcher (seed section 4): runs the threads the command patcher hands it over the RT cores and
// IC cores. A thread is launched into a free hardware context of an RT core (one returning from a trace
// first, else a new one in the order its pixels came); a trace sends the thread's ray to the rt2ic queue and
// an IC core, and the answer back through the ic2rt queue to be launched again; the cores' thread events are
// served one per cycle in fixed descending core order, and an ended thread goes to the memory controller.
import { Bool, Bundle, UInt, Vec, defineModule, input, lit, mux, output, type BoolValue, type MemoryHandle, type ModuleBuilder, type PortsValue, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { Fifo, clog2 } from '../../hdl/lib/index.ts';
import { PATCH_THREADS, PixelHandoff } from '../commandPatcher/commandPatcher.ts';
import { defaultIcSystemParams } from '../icCore/icSystem.ts';
import { IcCoreLink } from '../icCore/icCoreLink.ts';
import { QueueControl } from '../icBuffer/queueControl.ts';
import { HitAnswer } from '../icBuffer/hitAnswer.ts';
import { RtCoreCounters } from './rtCoreCounters.ts';
import { threadBaseOf } from '../memoryMap.ts';
import { DispatchLink, THREAD_BITS, ThreadEvent, ThreadEventKind } from '../rtCore/interfaces.ts';
import { highestOf, oneHot, pick, roundRobinOf } from '../selection.ts';

/** An ended thread for the memory controller to write back. */
export const ThreadDone = Bundle({ valid: Bool, thread: UInt(THREAD_BITS), pixel: UInt(32), fault: Bool });

/** An IC core's answer as its answer queue holds it: RV14, RV15 and RV13 for the thread, and whether its ray faulted. */
const IcAnswer = Bundle({ info: UInt(128), normal: UInt(128), parameters: UInt(128), thread: UInt(THREAD_BITS), fault: Bool });

export interface PatchDispatcherParams {
  /** RT cores (1 to 4: the main memory has four ports). */
  readonly rtCores: number;
  /** IC cores (1 to 32). */
  readonly icCores: number;
  /** Rays one IC core may hold (default: the brute-force core's slots, defaultIcSystemParams.slots; the BVH core's ray slots). */
  readonly icRays?: number;
}

/** Rays a brute-force IC core may hold: its ray slots (answers wait in its answer queue until served). */
const DEFAULT_IC_RAYS = defaultIcSystemParams.slots;

export function checkCoreCounts(p: PatchDispatcherParams, who: string): void {
  const ok = (n: number, hi: number) => Number.isInteger(n) && n >= 1 && n <= hi;
  if (!ok(p.rtCores, 4)) throw new Error(`${who}: rtCores must be 1 to 4 (the main memory has four ports), got ${p.rtCores}`);
  if (!ok(p.icCores, 32)) throw new Error(`${who}: icCores must be 1 to 32, got ${p.icCores}`);
  if (p.icRays !== undefined && !ok(p.icRays, 32)) throw new Error(`${who}: icRays must be 1 to 32, got ${p.icRays}`);
}

const patchDispatcherPorts = (p: PatchDispatcherParams) => ({
  /** From the command patcher: the next thread to run and its pixel. */
  pixel: input(PixelHandoff),
  /** A thread has ended (its result is in its main memory): whether any of its runs faulted. */
  thread_done: output(ThreadDone),
  /** The RT cores: threads in, thread events and retired instructions out. */
  cores: input(Vec(p.rtCores, DispatchLink)),
  /** The IC buffer's queues (the ray and answer data pass through the buffer, thread ids through here; SV ports steer_…). */
  steer: output(QueueControl(p)),
  /** IC cores: a ray in, the answer out (held in a per-core answer queue until served). */
  ic: input(Vec(p.icCores, IcCoreLink)),
  /** The thread of the ray the IC core given `ray_start` takes. */
  ray_thread: output(UInt(THREAD_BITS)),
  /** Each IC core's oldest answer, to the IC buffer (SV ports answer_<k>_info, _normal, _parameters). */
  answer: output(Vec(p.icCores, HitAnswer)),
  // Status for the host.
  /** Each core's last retired PC, busy and issue cycles (SV ports core_counters_<c>_pc …). */
  core_counters: output(Vec(p.rtCores, RtCoreCounters)),
  instructions: output(UInt(32)),
  traces: output(UInt(32)),
  /** Sticky: an IC core answered with its answer queue full (cannot happen by construction). */
  answer_overflow: output(Bool),
});
type DispatcherIo = PortsValue<ReturnType<typeof patchDispatcherPorts>>;

export const PatchDispatcher = defineModule('PatchDispatcher', patchDispatcherPorts, (m, io, p) => {
  checkCoreCounts(p, 'PatchDispatcher');
  const pools = threadPools(m, io);
  const queues = threadQueues(m, io);
  launches(m, io, pools, queues);
  const served = threadEvents(m, io, pools, queues);
  coreCounters(m, io, p.rtCores);
  const traces = m.reg(UInt(32), { reset: 0 });
  m.when(served.trace, () => traces.set(traces.add(1)));
  io.traces.set(traces);
  const answered = icCores(m, io, p, queues);
  faultMarks(served, answered);
});

type ThreadQueue = ReturnType<typeof threadQueue>;

function threadQueue(m: ModuleBuilder, name: string) {
  return m.instance(Fifo, { width: THREAD_BITS, depth: PATCH_THREADS }, { name });
}

/** New threads in the order their pixels came, and the thread ids travelling alongside the IC buffer's queues. */
function threadQueues(m: ModuleBuilder, io: DispatcherIo): { fresh: ThreadQueue; rt2ic: ThreadQueue; ic2rt: ThreadQueue } {
  const fresh = threadQueue(m, 'new_threads');
  fresh.io.enq.valid.set(io.pixel.valid);
  fresh.io.enq.bits.set(io.pixel.thread);
  return { fresh, rt2ic: threadQueue(m, 'rt2ic_threads'), ic2rt: threadQueue(m, 'ic2rt_threads') };
}

/** Launches: a thread returning from a trace first, else a new one, round robin over the cores that can take it. */
function launches(m: ModuleBuilder, io: DispatcherIo, pools: ThreadPools, queues: ReturnType<typeof threadQueues>): void {
  const resumeReady = io.steer.ic2rt_empty.not();
  const launchThread = mux(resumeReady, queues.ic2rt.io.deq.bits, queues.fresh.io.deq.bits);
  const haveThread = resumeReady.or(queues.fresh.io.deq.valid);
  // Round robin over the cores that can take a thread, so a small patch spreads over all of them.
  const target = roundRobinOf(m, io.cores.map((c) => c.launch.ready), haveThread, 'launch_core');
  const launched = haveThread.and(target.any);
  io.cores.elems.forEach((core, c) => {
    const l = core.launch;
    l.valid.set(haveThread.and(target.index.eq(c)));
    l.bits.thread.set(launchThread);
    l.bits.pc.set(mux(resumeReady, pools.pc.readAsync(launchThread), lit(0, 32)));
    l.bits.pixel.set(pools.pixel.readAsync(launchThread));
    l.bits.sp.set(mux(resumeReady, pools.sp.readAsync(launchThread), threadBaseOf(launchThread)));
    l.bits.hit.set(mux(resumeReady, io.steer.shader_info_rt, lit(0, 128)));
    l.bits.normal.set(mux(resumeReady, io.steer.shader_normal_rt, lit(0, 128)));
    l.bits.parameters.set(mux(resumeReady, io.steer.shader_parameters_rt, lit(0, 128)));
    // Only a thread back from `trace RVa` gets RV13 (docs/rays.md).
    l.bits.queried.set(resumeReady.and(pools.queried.bit(launchThread)));
  });
  io.steer.dequeue_rt.set(launched.and(resumeReady));
  queues.ic2rt.io.deq.ready.set(launched.and(resumeReady));
  queues.fresh.io.deq.ready.set(launched.and(resumeReady.not()));
}

/** The thread event served this cycle. */
interface ServedEvent {
  readonly thread: UIntValue;
  readonly trace: BoolValue;
  readonly end: BoolValue;
  /** The event's thread faulted in this run or an earlier one (or one of its rays did). */
  readonly fault: BoolValue;
  /** Threads marked faulted (cleared when the thread ends). */
  readonly faulted: UIntValue;
}

/** Thread events, one per cycle, the highest core first: a trace's ray to the rt2ic queue, an end to the memory controller. */
function threadEvents(m: ModuleBuilder, io: DispatcherIo, pools: ThreadPools, queues: ReturnType<typeof threadQueues>): ServedEvent {
  const served = highestOf(io.cores.map((c) => c.event.valid));
  const event = (f: (e: ValueOf<typeof ThreadEvent>) => UIntValue) => pick(served.index, io.cores.map((c) => f(c.event.bits)));
  io.cores.elems.forEach((core, c) => core.event.ready.set(served.index.eq(c)));
  const servedThread = event((b) => b.thread);
  const isTrace = event((b) => b.kind.asUInt()).eq(ThreadEventKind.indexOf('trace'));
  const serveTrace = served.any.and(isTrace);
  const serveEnd = served.any.and(isTrace.not());
  io.steer.q_en_rt2ic.set(serveTrace);
  io.steer.core_id_rt2ic.set(oneHot(served.index, io.cores.length, serveTrace));
  m.when(serveTrace, () => {
    pools.pc.write(servedThread, event((b) => b.pc));
    pools.sp.write(servedThread, event((b) => b.sp));
  });
  const traceBit = oneHot(servedThread, PATCH_THREADS, serveTrace);
  pools.queried.set(pools.queried.and(traceBit.not()).or(mux(event((b) => b.queried.asUInt()).asBool(), traceBit, lit(0, PATCH_THREADS))));
  queues.rt2ic.io.enq.valid.set(serveTrace);
  queues.rt2ic.io.enq.bits.set(servedThread);
  // A fault in any run of the thread (before or after its traces), or in one of its rays (faultMarks), marks the thread.
  const faulted = m.reg(UInt(PATCH_THREADS), { reset: 0, name: 'faulted' });
  const servedFault = event((b) => b.fault).asBool().or(faulted.bit(servedThread));
  io.thread_done.valid.set(serveEnd);
  io.thread_done.thread.set(servedThread);
  io.thread_done.pixel.set(pools.pixel.readAsync(servedThread));
  io.thread_done.fault.set(servedFault);
  return { thread: servedThread, trace: serveTrace, end: serveEnd, fault: servedFault, faulted };
}

/** The answer leaving the IC cores' answer queues this cycle. */
interface LeavingAnswer {
  readonly any: BoolValue;
  readonly thread: UIntValue;
  readonly fault: BoolValue;
}

/** IC cores: rays from the rt2ic queue to a core with a free slot, answers through a queue per core to the ic2rt queue. */
function icCores(m: ModuleBuilder, io: DispatcherIo, p: PatchDispatcherParams, queues: ReturnType<typeof threadQueues>): LeavingAnswer {
  const icRays = p.icRays ?? DEFAULT_IC_RAYS;
  const inflight = io.ic.map((_, k) => m.reg(UInt(clog2(icRays + 1)), { reset: 0, name: `ic${k}_rays` }));
  const answers = io.ic.map((_, k) => m.instance(Fifo, { payload: IcAnswer, depth: icRays }, { name: `ic${k}_answers` }));
  const heads = answers.map((a) => a.io.deq.bits);
  // A ray from the rt2ic queue goes to the next IC core in turn that has a free slot (the lowest-numbered
  // one would leave the others idle while it keeps a slot free).
  const takers = io.ic.map((ic, k) => ic.ready.and(inflight[k]!.lt(icRays)));
  const rayWaiting = io.steer.rt2ic_empty.not();
  const taker = roundRobinOf(m, takers, rayWaiting, 'ic_taker');
  const assign = taker.any.and(rayWaiting);
  io.steer.dequeue_ic.set(assign);
  queues.rt2ic.io.deq.ready.set(assign);
  io.ray_thread.set(queues.rt2ic.io.deq.bits);
  // Answers are served one per cycle, the highest-numbered core first.
  const answered = highestOf(answers.map((a) => a.io.deq.valid));
  io.steer.q_en_ic2rt.set(answered.any);
  io.steer.core_id_ic2rt.set(oneHot(answered.index, io.ic.length, answered.any));
  queues.ic2rt.io.enq.valid.set(answered.any);
  const answeredThread = pick(answered.index, heads.map((h) => h.thread));
  queues.ic2rt.io.enq.bits.set(answeredThread);
  let overflow: BoolValue = lit(0, 1).asBool();
  answers.forEach((a, k) => {
    const ic = io.ic.at(k);
    ic.ray_start.set(assign.and(taker.index.eq(k)));
    a.io.enq.valid.set(ic.done);
    const answer = a.io.enq.bits;
    answer.info.set(ic.hit_info);
    answer.normal.set(ic.hit_normal);
    answer.parameters.set(ic.hit_parameters);
    answer.thread.set(ic.done_thread);
    answer.fault.set(ic.done_fault);
    overflow = overflow.or(ic.done.and(a.io.enq.ready.not()));
    const leaves = answered.any.and(answered.index.eq(k));
    a.io.deq.ready.set(leaves);
    io.answer.at(k).info.set(heads[k]!.info);
    io.answer.at(k).normal.set(heads[k]!.normal);
    io.answer.at(k).parameters.set(heads[k]!.parameters);
    const arrives = assign.and(taker.index.eq(k));
    m.when(arrives.and(leaves.not()), () => inflight[k]!.set(inflight[k]!.add(1))).elsewhen(leaves.and(arrives.not()), () => inflight[k]!.set(inflight[k]!.sub(1)));
  });
  const answerOverflow = m.reg(Bool, { reset: 0 });
  m.when(overflow, () => answerOverflow.set(true));
  io.answer_overflow.set(answerOverflow);
  return { any: answered.any, thread: answeredThread, fault: answered.any.and(pick(answered.index, heads.map((h) => h.fault)).asBool()) };
}

/** A faulted ray marks its thread as its answer leaves, as a fault event does: the thread's end reports it and clears the mark. */
function faultMarks(served: ServedEvent, answer: LeavingAnswer): void {
  const endBit = oneHot(served.thread, PATCH_THREADS, served.end);
  const eventFaultBit = oneHot(served.thread, PATCH_THREADS, served.trace.and(served.fault));
  served.faulted.set(served.faulted.and(endBit.not()).or(eventFaultBit).or(oneHot(answer.thread, PATCH_THREADS, answer.fault)));
}

/** Per thread of the patch: its pixel id, and while it traces, where it resumes, its saved R29 and whether the trace was `trace RVa` (bit per thread). */
interface ThreadPools {
  readonly pixel: MemoryHandle<ReturnType<typeof UInt>>;
  readonly pc: MemoryHandle<ReturnType<typeof UInt>>;
  readonly sp: MemoryHandle<ReturnType<typeof UInt>>;
  readonly queried: UIntValue;
}

function threadPools(m: ModuleBuilder, io: DispatcherIo): ThreadPools {
  const pixel = m.memory(UInt(32), PATCH_THREADS, { name: 'pixel_pool' });
  m.when(io.pixel.valid, () => pixel.write(io.pixel.thread, io.pixel.id));
  return { pixel, pc: m.memory(UInt(32), PATCH_THREADS, { name: 'pc_pool' }), sp: m.memory(UInt(32), PATCH_THREADS, { name: 'sp_pool' }), queried: m.reg(UInt(PATCH_THREADS), { reset: 0, name: 'queried_pool' }) };
}

/** Instructions retired, each core's last retired PC, and the cycles each held a thread or issued. */
function coreCounters(m: ModuleBuilder, io: DispatcherIo, rtCores: number) {
  let retiredNow: UIntValue = lit(0, 3);
  for (let c = 0; c < rtCores; c++) {
    const core = io.cores.at(c);
    const r = core.retire;
    const lastPc = m.reg(UInt(32), { reset: 0, name: `core${c}_last_pc` });
    const busyCycles = m.reg(UInt(32), { reset: 0, name: `core${c}_busy_cycles` });
    const issueCycles = m.reg(UInt(32), { reset: 0, name: `core${c}_issue_cycles` });
    m.when(r.valid, () => lastPc.set(r.pc));
    m.when(core.busy, () => busyCycles.set(busyCycles.add(1)));
    m.when(core.issued, () => issueCycles.set(issueCycles.add(1)));
    // An instruction that ends its thread by faulting (bad opcode or PC) did not execute: not counted.
    retiredNow = retiredNow.add(r.valid.and(r.counted).zext(3));
    const counters = io.core_counters.at(c);
    counters.pc.set(lastPc);
    counters.busy_cycles.set(busyCycles);
    counters.issue_cycles.set(issueCycles);
  }
  const instructions = m.reg(UInt(32), { reset: 0 });
  instructions.set(instructions.add(retiredNow.zext(32)));
  io.instructions.set(instructions);
}
