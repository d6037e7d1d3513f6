// The patch dispatcher (seed section 4): runs the threads the command patcher hands it over the RT cores and
// IC cores. A thread is launched into a free hardware context of an RT core (one returning from a trace
// first, else a new one in the order its pixels came); a trace sends the thread's ray to the rt2ic queue and
// an IC core, and the answer back through the ic2rt queue to be launched again; the cores' thread events are
// served one per cycle in fixed descending core order, and an ended thread goes to the memory controller.
import { Bool, Bundle, Decoupled, UInt, Vec, cat, defineModule, input, lit, mux, output, packBits, unpackBits, type BoolValue, type ModuleBuilder, type PortsValue, type UIntValue } from '../../hdl/index.ts';
import { Fifo, clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { PATCH_THREADS } from '../commandPatcher/commandPatcher.ts';
import { defaultIcSystemParams } from '../icCore/icSystem.ts';
import { Retire, THREAD_BITS, ThreadEvent, ThreadEventKind, ThreadLaunch } from '../rtCore/interfaces.ts';
import { highestOf, oneHot, pick, roundRobinOf } from '../selection.ts';

/** An ended thread for the memory controller to write back. */
export const ThreadDone = Bundle({ valid: Bool, thread: UInt(THREAD_BITS), pixel: UInt(32), fault: Bool });

/** An IC core's answer as its answer queue holds it: RV14 and RV15 for the thread, and whether its ray faulted. */
const IcAnswer = Bundle({ info: UInt(128), normal: UInt(96), thread: UInt(THREAD_BITS), fault: Bool });

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
    // From the command patcher.
    pixel_valid: input(Bool),
    pixel_id: input(UInt(32)),
    pixel_thread: input(UInt(THREAD_BITS)),
    /** A thread has ended (its result is in its main memory): whether any of its runs faulted. */
    thread_done: output(ThreadDone),
    // RT cores: threads in, thread events and retired instructions out.
    launch: output(Vec(p.rtCores, Decoupled(ThreadLaunch))),
    event: input(Vec(p.rtCores, Decoupled(ThreadEvent))),
    retire: input(Vec(p.rtCores, Retire)),
    core_issued: input(Vec(p.rtCores, Bool)),
    core_busy: input(Vec(p.rtCores, Bool)),
    // The IC buffer's queues (the ray and answer data pass through the buffer, thread ids through here).
    q_en_rt2ic: output(Bool),
    core_id_rt2ic: output(UInt(p.rtCores)),
    rt2ic_empty: input(Bool),
    dequeue_ic: output(Bool),
    q_en_ic2rt: output(Bool),
    core_id_ic2rt: output(UInt(p.icCores)),
    ic2rt_empty: input(Bool),
    dequeue_rt: output(Bool),
    shader_info_rt: input(UInt(128)),
    shader_normal_rt: input(UInt(96)),
    // IC cores: a ray in, the answer out (held in a per-core answer queue until served).
    ray_start: output(Vec(p.icCores, Bool)),
    ray_thread: output(UInt(THREAD_BITS)),
    ic_ready: input(Vec(p.icCores, Bool)),
    ic_done: input(Vec(p.icCores, Bool)),
    ic_hit_info: input(Vec(p.icCores, UInt(128))),
    ic_hit_normal: input(Vec(p.icCores, UInt(96))),
    ic_done_thread: input(Vec(p.icCores, UInt(THREAD_BITS))),
    /** The ray read past the loaded BVH: its thread faults (reported when it ends). */
    ic_done_fault: input(Vec(p.icCores, Bool)),
    answer_info: output(Vec(p.icCores, UInt(128))),
    answer_normal: output(Vec(p.icCores, UInt(96))),
    // Status for the host.
    /** The last PC each core retired. */
    core_pc: output(Vec(p.rtCores, UInt(32))),
    /** Cycles each core held a thread, and cycles it issued an instruction. */
    core_busy_cycles: output(Vec(p.rtCores, UInt(32))),
    core_issue_cycles: output(Vec(p.rtCores, UInt(32))),
    instructions: output(UInt(32)),
    traces: output(UInt(32)),
    /** Sticky: an IC core answered with its answer queue full (cannot happen by construction). */
    answer_overflow: output(Bool),
});
type DispatcherIo = PortsValue<ReturnType<typeof patchDispatcherPorts>>;

export const PatchDispatcher = defineModule('PatchDispatcher', patchDispatcherPorts, (m, io, p) => {
    checkCoreCounts(p, 'PatchDispatcher');
    const pools = threadPools(m, io);
    // New threads in the order their pixels came.
    const fresh = m.instance(Fifo, { width: THREAD_BITS, depth: PATCH_THREADS }, { name: 'new_threads' });
    fresh.io.enq.valid.set(io.pixel_valid);
    fresh.io.enq.bits.set(io.pixel_thread);
    // Thread ids travelling alongside the IC buffer's queues.
    const rt2icThreads = m.instance(Fifo, { width: THREAD_BITS, depth: PATCH_THREADS }, { name: 'rt2ic_threads' });
    const ic2rtThreads = m.instance(Fifo, { width: THREAD_BITS, depth: PATCH_THREADS }, { name: 'ic2rt_threads' });

    // ------------------------------------------------------------------ launches: a resuming thread first, else a new one
    const resumeReady = io.ic2rt_empty.not();
    const launchThread = mux(resumeReady, ic2rtThreads.io.deq.bits, fresh.io.deq.bits);
    const haveThread = resumeReady.or(fresh.io.deq.valid);
    const coreReady = io.launch.map((l) => l.ready);
    // Round robin over the cores that can take a thread, so a small patch spreads over all of them.
    const target = roundRobinOf(m, coreReady, haveThread, 'launch_core');
    const launched = haveThread.and(target.any);
    io.launch.elems.forEach((l, c) => {
      l.valid.set(haveThread.and(target.index.eq(c)));
      l.bits.thread.set(launchThread);
      l.bits.pc.set(mux(resumeReady, pools.pc.readAsync(launchThread), lit(0, 32)));
      l.bits.pixel.set(pools.pixel.readAsync(launchThread));
      l.bits.sp.set(mux(resumeReady, pools.sp.readAsync(launchThread), cat(lit(MEMORY_MAP.mainBase >>> 21, 11), launchThread, lit(0, 16))));
      l.bits.hit.set(mux(resumeReady, io.shader_info_rt, lit(0, 128)));
      l.bits.normal.set(mux(resumeReady, io.shader_normal_rt.zext(128), lit(0, 128)));
    });
    io.dequeue_rt.set(launched.and(resumeReady));
    ic2rtThreads.io.deq.ready.set(launched.and(resumeReady));
    fresh.io.deq.ready.set(launched.and(resumeReady.not()));

    // ------------------------------------------------------------------ thread events: one per cycle, highest core first
    const served = highestOf(io.event.map((e) => e.valid));
    const event = (f: (e: (typeof io.event.elems)[number]['bits']) => UIntValue) => pick(served.index, io.event.map((e) => f(e.bits)));
    io.event.elems.forEach((e, c) => e.ready.set(served.index.eq(c)));
    const servedThread = event((b) => b.thread);
    const isTrace = event((b) => b.kind.asUInt()).eq(ThreadEventKind.indexOf('trace'));
    const serveTrace = served.any.and(isTrace);
    const serveEnd = served.any.and(isTrace.not());
    io.q_en_rt2ic.set(serveTrace);
    io.core_id_rt2ic.set(oneHot(served.index, p.rtCores, serveTrace));
    m.when(serveTrace, () => {
      pools.pc.write(servedThread, event((b) => b.pc));
      pools.sp.write(servedThread, event((b) => b.sp));
    });
    rt2icThreads.io.enq.valid.set(serveTrace);
    rt2icThreads.io.enq.bits.set(servedThread);
    // A fault in any run of the thread (before or after its traces), or in one of its rays (set below), marks the thread.
    const faulted = m.reg(UInt(PATCH_THREADS), { reset: 0, name: 'faulted' });
    const servedFault = event((b) => b.fault).asBool().or(faulted.bit(servedThread));
    io.thread_done.valid.set(serveEnd);
    io.thread_done.thread.set(servedThread);
    io.thread_done.pixel.set(pools.pixel.readAsync(servedThread));
    io.thread_done.fault.set(servedFault);

    // ------------------------------------------------------------------ counters and status per core
    coreCounters(m, io, p.rtCores);
    const traces = m.reg(UInt(32), { reset: 0 });
    m.when(serveTrace, () => traces.set(traces.add(1)));
    io.traces.set(traces);

    // ------------------------------------------------------------------ IC cores
    const icRays = p.icRays ?? DEFAULT_IC_RAYS;
    const inflight = Array.from({ length: p.icCores }, (_, k) => m.reg(UInt(clog2(icRays + 1)), { reset: 0, name: `ic${k}_rays` }));
    const answers = Array.from({ length: p.icCores }, (_, k) => m.instance(Fifo, { width: IcAnswer.width, depth: icRays }, { name: `ic${k}_answers` }));
    const heads = answers.map((a) => unpackBits(IcAnswer, a.io.deq.bits));
    // A ray from the rt2ic queue goes to the next IC core in turn that has a free slot (the lowest-numbered
    // one would leave the others idle while it keeps a slot free).
    const takers = answers.map((_, k) => io.ic_ready.at(k).and(inflight[k]!.lt(icRays)));
    const rayWaiting = io.rt2ic_empty.not();
    const taker = roundRobinOf(m, takers, rayWaiting, 'ic_taker');
    const assign = taker.any.and(rayWaiting);
    io.dequeue_ic.set(assign);
    rt2icThreads.io.deq.ready.set(assign);
    io.ray_thread.set(rt2icThreads.io.deq.bits);
    // Answers are served one per cycle, the highest-numbered core first.
    const answered = highestOf(answers.map((a) => a.io.deq.valid));
    io.q_en_ic2rt.set(answered.any);
    io.core_id_ic2rt.set(oneHot(answered.index, p.icCores, answered.any));
    ic2rtThreads.io.enq.valid.set(answered.any);
    const answeredThread = pick(answered.index, heads.map((h) => h.thread));
    ic2rtThreads.io.enq.bits.set(answeredThread);
    let overflow: BoolValue = lit(0, 1).asBool();
    answers.forEach((a, k) => {
      io.ray_start.at(k).set(assign.and(taker.index.eq(k)));
      a.io.enq.valid.set(io.ic_done.at(k));
      const answer = m.wire(IcAnswer, { name: `ic${k}_answer` });
      answer.info.set(io.ic_hit_info.at(k));
      answer.normal.set(io.ic_hit_normal.at(k));
      answer.thread.set(io.ic_done_thread.at(k));
      answer.fault.set(io.ic_done_fault.at(k));
      a.io.enq.bits.set(packBits(answer));
      overflow = overflow.or(io.ic_done.at(k).and(a.io.enq.ready.not()));
      const leaves = answered.any.and(answered.index.eq(k));
      a.io.deq.ready.set(leaves);
      io.answer_info.at(k).set(heads[k]!.info);
      io.answer_normal.at(k).set(heads[k]!.normal);
      const arrives = assign.and(taker.index.eq(k));
      m.when(arrives.and(leaves.not()), () => inflight[k]!.set(inflight[k]!.add(1))).elsewhen(leaves.and(arrives.not()), () => inflight[k]!.set(inflight[k]!.sub(1)));
    });
    // A faulted ray marks its thread as its answer leaves, as a fault event does: the thread's end reports it.
    const answerFault = answered.any.and(pick(answered.index, heads.map((h) => h.fault)).asBool());
    const endBit = oneHot(servedThread, PATCH_THREADS, serveEnd);
    const eventFaultBit = oneHot(servedThread, PATCH_THREADS, serveTrace.and(servedFault));
    faulted.set(faulted.and(endBit.not()).or(eventFaultBit).or(oneHot(answeredThread, PATCH_THREADS, answerFault)));
    const answerOverflow = m.reg(Bool, { reset: 0 });
    m.when(overflow, () => answerOverflow.set(true));
    io.answer_overflow.set(answerOverflow);
});

/** Per thread of the patch: its pixel id, and while it traces, where it resumes and its saved R29. */
function threadPools(m: ModuleBuilder, io: DispatcherIo) {
  const pixel = m.memory(UInt(32), PATCH_THREADS, { name: 'pixel_pool' });
  m.when(io.pixel_valid, () => pixel.write(io.pixel_thread, io.pixel_id));
  return { pixel, pc: m.memory(UInt(32), PATCH_THREADS, { name: 'pc_pool' }), sp: m.memory(UInt(32), PATCH_THREADS, { name: 'sp_pool' }) };
}

/** Instructions retired, each core's last retired PC, and the cycles each held a thread or issued. */
function coreCounters(m: ModuleBuilder, io: DispatcherIo, rtCores: number) {
  let retiredNow: UIntValue = lit(0, 3);
  for (let c = 0; c < rtCores; c++) {
    const r = io.retire.at(c);
    const lastPc = m.reg(UInt(32), { reset: 0, name: `core${c}_last_pc` });
    const busyCycles = m.reg(UInt(32), { reset: 0, name: `core${c}_busy_cycles` });
    const issueCycles = m.reg(UInt(32), { reset: 0, name: `core${c}_issue_cycles` });
    m.when(r.valid, () => lastPc.set(r.pc));
    m.when(io.core_busy.at(c), () => busyCycles.set(busyCycles.add(1)));
    m.when(io.core_issued.at(c), () => issueCycles.set(issueCycles.add(1)));
    // An instruction that ends its thread by faulting (bad opcode or PC) did not execute: not counted.
    retiredNow = retiredNow.add(r.valid.and(r.counted).zext(3));
    io.core_pc.at(c).set(lastPc);
    io.core_busy_cycles.at(c).set(busyCycles);
    io.core_issue_cycles.at(c).set(issueCycles);
  }
  const instructions = m.reg(UInt(32), { reset: 0 });
  instructions.set(instructions.add(retiredNow.zext(32)));
  io.instructions.set(instructions);
}
