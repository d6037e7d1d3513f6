// The patch dispatcher (seed section 4): runs a patch's 32 threads over the RT cores and IC cores.
// A free RT core gets a thread (one returning from a trace first, else a new one) through its
// kernel-mode register ports; a trace sends the thread's ray to the rt2ic queue and an IC core, and
// the answer back through the ic2rt queue; each core's events are served one per cycle in fixed
// descending core order.
import { Bool, UInt, Vec, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { Fifo, clog2 } from '../../hdl/lib/index.ts';
import { REG, VREG } from '../../isa/instructions.ts';
import { PATCH_THREADS } from '../commandPatcher/commandPatcher.ts';
import { defaultIcSystemParams } from '../icCore/icSystem.ts';
import { highestOf, indexBits, lowestOf, oneHot, pick } from '../selection.ts';

export interface PatchDispatcherParams {
  /** RT cores (1 to 4: the main memory has four ports). */
  readonly rtCores: number;
  /** IC cores (1 to 32). */
  readonly icCores: number;
  /** Rays one IC core may hold (default: the brute-force core's slots, defaultIcSystemParams.slots; the BVH core's ray slots). */
  readonly icRays?: number;
}

/** An RT core's event waiting to be served. */
const EVENT = { none: 0, trace: 1, end: 2 } as const;
/** Rays a brute-force IC core may hold: its ray slots (answers wait in its answer queue until served). */
const DEFAULT_IC_RAYS = defaultIcSystemParams.slots;

export function checkCoreCounts(p: PatchDispatcherParams, who: string): void {
  const ok = (n: number, hi: number) => Number.isInteger(n) && n >= 1 && n <= hi;
  if (!ok(p.rtCores, 4)) throw new Error(`${who}: rtCores must be 1 to 4 (the main memory has four ports), got ${p.rtCores}`);
  if (!ok(p.icCores, 32)) throw new Error(`${who}: icCores must be 1 to 32, got ${p.icCores}`);
  if (p.icRays !== undefined && !ok(p.icRays, 32)) throw new Error(`${who}: icRays must be 1 to 32, got ${p.icRays}`);
}

export const PatchDispatcher = defineModule(
  'PatchDispatcher',
  (p: PatchDispatcherParams) => ({
    // From the command patcher.
    pixel_valid: input(Bool),
    pixel_id: input(UInt(32)),
    pixel_thread: input(UInt(5)),
    patch_loaded: input(Bool),
    patch_threads: input(UInt(6)),
    /** Pulse: every thread of the patch has ended; `fault_mask` has a bit per thread that faulted. */
    patch_complete: output(Bool),
    fault_mask: output(UInt(PATCH_THREADS)),
    // RT cores: kernel-mode register ports and status (RtCore's dispatcherPorts, one element per core).
    kernel_mode: output(Vec(p.rtCores, Bool)),
    pd_clear: output(Vec(p.rtCores, Bool)),
    pd_scalar_wen: output(Vec(p.rtCores, Bool)),
    pd_scalar_wb_address: output(Vec(p.rtCores, UInt(5))),
    pd_scalar_wb_data: output(Vec(p.rtCores, UInt(32))),
    pd_vector_wen: output(Vec(p.rtCores, Bool)),
    pd_vector_wb_address: output(Vec(p.rtCores, UInt(4))),
    pd_vector_wb_data: output(Vec(p.rtCores, UInt(128))),
    pd_scalar_read_address1: output(Vec(p.rtCores, UInt(5))),
    pd_vector_read_address1: output(Vec(p.rtCores, UInt(4))),
    pd_vector_read_address2: output(Vec(p.rtCores, UInt(4))),
    pd_scalar_read1: input(Vec(p.rtCores, UInt(32))),
    pd_start: output(Vec(p.rtCores, Bool)),
    pd_pc: output(Vec(p.rtCores, UInt(32))),
    thread_id: output(Vec(p.rtCores, UInt(5))),
    end: input(Vec(p.rtCores, Bool)),
    context_switch: input(Vec(p.rtCores, Bool)),
    fault: input(Vec(p.rtCores, Bool)),
    pc_out: input(Vec(p.rtCores, UInt(32))),
    retire_valid: input(Vec(p.rtCores, Bool)),
    retire_pc: input(Vec(p.rtCores, UInt(32))),
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
    ray_thread: output(UInt(5)),
    ic_ready: input(Vec(p.icCores, Bool)),
    ic_done: input(Vec(p.icCores, Bool)),
    ic_hit_info: input(Vec(p.icCores, UInt(128))),
    ic_hit_normal: input(Vec(p.icCores, UInt(96))),
    ic_done_thread: input(Vec(p.icCores, UInt(5))),
    answer_info: output(Vec(p.icCores, UInt(128))),
    answer_normal: output(Vec(p.icCores, UInt(96))),
    // Status for the host.
    core_running: output(Vec(p.rtCores, Bool)),
    core_thread: output(Vec(p.rtCores, UInt(5))),
    /** The last PC each core retired. */
    core_pc: output(Vec(p.rtCores, UInt(32))),
    core_busy_cycles: output(Vec(p.rtCores, UInt(32))),
    /** Threads of the current patch that have ended. */
    done_mask: output(UInt(PATCH_THREADS)),
    instructions: output(UInt(32)),
    traces: output(UInt(32)),
    /** Sticky: an IC core answered with its answer queue full (cannot happen by construction). */
    answer_overflow: output(Bool),
  }),
  (m, io, p) => {
    checkCoreCounts(p, 'PatchDispatcher');
    const rt = Array.from({ length: p.rtCores }, (_, c) => c);
    const ic = Array.from({ length: p.icCores }, (_, k) => k);
    const rtBits = indexBits(p.rtCores);

    // ------------------------------------------------------------------ thread pools (by thread id)
    const pixelPool = m.memory(UInt(32), PATCH_THREADS, { name: 'pixel_pool' });
    const pcPool = m.memory(UInt(32), PATCH_THREADS, { name: 'pc_pool' });
    const spPool = m.memory(UInt(32), PATCH_THREADS, { name: 'sp_pool' });
    m.when(io.pixel_valid, () => pixelPool.write(io.pixel_thread, io.pixel_id));
    const emitted = m.reg(UInt(6), { reset: 0 });
    const patchThreads = m.reg(UInt(6), { reset: 0 });
    const loaded = m.reg(Bool, { reset: 0 });
    const newNext = m.reg(UInt(6), { reset: 0 });
    const doneMask = m.reg(UInt(PATCH_THREADS), { reset: 0 });
    const faultMask = m.reg(UInt(PATCH_THREADS), { reset: 0 });
    const doneCount = m.reg(UInt(6), { reset: 0 });
    m.when(io.patch_loaded, () => {
      loaded.set(true);
      patchThreads.set(io.patch_threads);
    });
    // Thread ids travelling alongside the IC buffer's queues.
    const rt2icThreads = m.instance(Fifo, { width: 5, depth: PATCH_THREADS }, { name: 'rt2ic_threads' });
    const ic2rtThreads = m.instance(Fifo, { width: 5, depth: PATCH_THREADS }, { name: 'ic2rt_threads' });

    // ------------------------------------------------------------------ RT cores
    const cores = rt.map((c) => ({
      running: m.reg(Bool, { reset: 0, name: `core${c}_running` }),
      thread: m.reg(UInt(5), { reset: 0, name: `core${c}_thread` }),
      event: m.reg(UInt(2), { reset: 0, name: `core${c}_event` }),
      faulted: m.reg(Bool, { reset: 0, name: `core${c}_faulted` }),
      lastPc: m.reg(UInt(32), { reset: 0, name: `core${c}_last_pc` }),
      busyCycles: m.reg(UInt(32), { reset: 0, name: `core${c}_busy_cycles` }),
    }));

    // The loader: one thread at a time onto a free core, in three kernel-mode cycles
    // (clear; R1 and RV14; R29, RV15 and start).
    const ldActive = m.reg(Bool, { reset: 0 });
    const ldStep = m.reg(UInt(2), { reset: 0 });
    const ldCore = m.reg(UInt(rtBits), { reset: 0 });
    const ldThread = m.reg(UInt(5), { reset: 0 });
    const ldResume = m.reg(Bool, { reset: 0 });
    const free = cores.map((s) => s.running.not().and(s.event.eq(EVENT.none)).and(ldActive.not()));
    const target = lowestOf(free);
    const resumeReady = io.ic2rt_empty.not();
    const newReady = newNext.lt(emitted);
    const begin = target.any.and(resumeReady.or(newReady));
    const beginThread = mux(resumeReady, ic2rtThreads.io.deq.bits, newNext.trunc(5));
    m.when(begin, () => {
      ldActive.set(true);
      ldStep.set(1);
      ldCore.set(target.index);
      ldThread.set(beginThread);
      ldResume.set(resumeReady);
    });
    const finishing = ldActive.and(ldStep.eq(2));
    m.when(ldActive.and(ldStep.eq(1)), () => ldStep.set(2));
    m.when(finishing, () => {
      ldActive.set(false);
      ldStep.set(0);
    });
    m.when(finishing.and(ldResume.not()), () => newNext.set(newNext.add(1)));
    io.dequeue_rt.set(finishing.and(ldResume));
    const threadBase = cat(lit(0x80, 8), lit(0, 3), ldThread, lit(0, 16));

    // Events: a trace or end is noted when the core reports it; one is served per cycle.
    const pending = cores.map((s) => s.event.ne(EVENT.none));
    const served = highestOf(pending);
    const servedEvent = pick(served.index, cores.map((s) => s.event));
    const servedThread = pick(served.index, cores.map((s) => s.thread));
    const serveTrace = served.any.and(servedEvent.eq(EVENT.trace));
    const serveEnd = served.any.and(servedEvent.eq(EVENT.end));
    io.q_en_rt2ic.set(serveTrace);
    io.core_id_rt2ic.set(oneHot(served.index, p.rtCores, serveTrace));
    m.when(serveTrace, () => {
      pcPool.write(servedThread, pick(served.index, rt.map((c) => io.pc_out.at(c))));
      spPool.write(servedThread, pick(served.index, rt.map((c) => io.pd_scalar_read1.at(c))));
    });
    rt2icThreads.io.enq.valid.set(serveTrace);
    rt2icThreads.io.enq.bits.set(servedThread);
    const servedFault = pick(served.index, cores.map((s) => s.faulted)).asBool();
    const threadBit = (t: UIntValue) => lit(1, PATCH_THREADS).shl(t);

    let retiredNow: UIntValue = lit(0, 3);
    cores.forEach((s, c) => {
      const loading = ldActive.and(ldCore.eq(c));
      const step = (n: number) => loading.and(ldStep.eq(n));
      const startCycle = begin.and(target.index.eq(c));
      io.kernel_mode.at(c).set(s.running.not());
      io.pd_clear.at(c).set(startCycle);
      io.pd_scalar_wen.at(c).set(step(1).or(step(2)));
      io.pd_scalar_wb_address.at(c).set(mux(step(2), lit(REG.sp, 5), lit(REG.pixelId, 5)));
      io.pd_scalar_wb_data.at(c).set(mux(step(2), mux(ldResume, spPool.readAsync(ldThread), threadBase), pixelPool.readAsync(ldThread)));
      io.pd_vector_wen.at(c).set(loading.and(ldResume));
      io.pd_vector_wb_address.at(c).set(mux(step(2), lit(VREG.traceDirection, 4), lit(VREG.traceOrigin, 4)));
      io.pd_vector_wb_data.at(c).set(mux(step(2), io.shader_normal_rt.zext(128), io.shader_info_rt));
      io.pd_scalar_read_address1.at(c).set(REG.sp);
      io.pd_vector_read_address1.at(c).set(VREG.traceOrigin);
      io.pd_vector_read_address2.at(c).set(VREG.traceDirection);
      io.pd_start.at(c).set(step(2));
      io.pd_pc.at(c).set(mux(ldResume, pcPool.readAsync(ldThread), 0));
      io.thread_id.at(c).set(mux(loading, ldThread, s.thread));
      m.when(step(2), () => {
        s.running.set(true);
        s.thread.set(ldThread);
      });
      m.when(s.running.and(io.end.at(c)), () => {
        s.running.set(false);
        s.event.set(EVENT.end);
      }).elsewhen(s.running.and(io.context_switch.at(c)), () => {
        s.running.set(false);
        s.event.set(EVENT.trace);
      });
      m.when(served.any.and(served.index.eq(c)), () => s.event.set(EVENT.none));
      // A fault belongs to the thread: it is moved to the fault mask when the core's event is served.
      m.when(s.running.and(io.fault.at(c)), () => s.faulted.set(true)).elsewhen(served.any.and(served.index.eq(c)), () => s.faulted.set(false));
      m.when(io.retire_valid.at(c), () => s.lastPc.set(io.retire_pc.at(c)));
      m.when(s.running, () => s.busyCycles.set(s.busyCycles.add(1)));
      // An instruction that ends its thread by faulting (bad opcode or PC) did not execute: not counted.
      const counted = io.retire_valid.at(c).and(io.end.at(c).and(io.fault.at(c)).not());
      retiredNow = retiredNow.add(counted.zext(3));
      io.core_running.at(c).set(s.running);
      io.core_thread.at(c).set(s.thread);
      io.core_pc.at(c).set(s.lastPc);
      io.core_busy_cycles.at(c).set(s.busyCycles);
    });
    const instructions = m.reg(UInt(32), { reset: 0 });
    instructions.set(instructions.add(retiredNow.zext(32)));
    io.instructions.set(instructions);
    const traces = m.reg(UInt(32), { reset: 0 });
    m.when(serveTrace, () => traces.set(traces.add(1)));
    io.traces.set(traces);

    // ------------------------------------------------------------------ IC cores
    const icRays = p.icRays ?? DEFAULT_IC_RAYS;
    const inflight = ic.map((k) => m.reg(UInt(clog2(icRays + 1)), { reset: 0, name: `ic${k}_rays` }));
    const answers = ic.map((k) => m.instance(Fifo, { width: 5 + 96 + 128, depth: icRays }, { name: `ic${k}_answers` }));
    // A ray from the rt2ic queue goes to the lowest-numbered IC core with a free slot.
    const takers = ic.map((k) => io.ic_ready.at(k).and(inflight[k]!.lt(icRays)));
    const taker = lowestOf(takers);
    const assign = taker.any.and(io.rt2ic_empty.not());
    io.dequeue_ic.set(assign);
    rt2icThreads.io.deq.ready.set(assign);
    io.ray_thread.set(rt2icThreads.io.deq.bits);
    // Answers are served one per cycle, the highest-numbered core first.
    const answered = highestOf(answers.map((a) => a.io.deq.valid));
    io.q_en_ic2rt.set(answered.any);
    io.core_id_ic2rt.set(oneHot(answered.index, p.icCores, answered.any));
    ic2rtThreads.io.enq.valid.set(answered.any);
    ic2rtThreads.io.enq.bits.set(pick(answered.index, answers.map((a) => a.io.deq.bits.bits(228, 224))));
    ic2rtThreads.io.deq.ready.set(finishing.and(ldResume));
    let overflow: BoolValue = lit(0, 1).asBool();
    ic.forEach((k) => {
      const a = answers[k]!;
      io.ray_start.at(k).set(assign.and(taker.index.eq(k)));
      a.io.enq.valid.set(io.ic_done.at(k));
      a.io.enq.bits.set(cat(io.ic_done_thread.at(k), io.ic_hit_normal.at(k), io.ic_hit_info.at(k)));
      overflow = overflow.or(io.ic_done.at(k).and(a.io.enq.ready.not()));
      const leaves = answered.any.and(answered.index.eq(k));
      a.io.deq.ready.set(leaves);
      io.answer_info.at(k).set(a.io.deq.bits.bits(127, 0));
      io.answer_normal.at(k).set(a.io.deq.bits.bits(223, 128));
      const arrives = assign.and(taker.index.eq(k));
      m.when(arrives.and(leaves.not()), () => inflight[k]!.set(inflight[k]!.add(1))).elsewhen(leaves.and(arrives.not()), () => inflight[k]!.set(inflight[k]!.sub(1)));
    });
    const answerOverflow = m.reg(Bool, { reset: 0 });
    m.when(overflow, () => answerOverflow.set(true));
    io.answer_overflow.set(answerOverflow);

    // ------------------------------------------------------------------ patch bookkeeping
    m.when(io.pixel_valid, () => emitted.set(emitted.add(1)));
    const complete = loaded.and(doneCount.eq(patchThreads));
    io.patch_complete.set(complete);
    io.fault_mask.set(faultMask);
    io.done_mask.set(doneMask);
    m.when(complete, () => {
      loaded.set(false);
      emitted.set(0);
      newNext.set(0);
      doneCount.set(0);
      doneMask.set(0);
      faultMask.set(0);
    }).otherwise(() => {
      m.when(serveEnd, () => {
        doneCount.set(doneCount.add(1));
        doneMask.set(doneMask.or(threadBit(servedThread)));
      });
      m.when(served.any.and(servedFault), () => faultMask.set(faultMask.or(threadBit(servedThread))));
    });
  },
);
