// The RT core: a fine-grained multithreaded pipeline for the scalar/vec4-float ISA. Several hardware
// contexts each hold a thread; every cycle one ready context issues (round robin), so float latency is
// hidden behind other threads' work instead of stalling (seed 004 section 5; docs/rt-core.md).
//
//   I  issue: a ready context whose write-back slot is free
//   R  register read, branch resolution, fetch of the context's next instruction
//   EX ALU and the float units' first stage ... M1/M2 memory ... W write-back
import { Bits, Bool, Bundle, UInt, cat, defineModule, fromBits, lit, mux, output, type BoolValue, type EnumValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { FLAG_UNORDERED, FLAG_ZERO, Fifo, clog2, delay, selectByIndex } from '../../hdl/lib/index.ts';
import { textureQueues, type TextureQueues } from './textureQueues.ts';
import type { TextureLink } from '../texture/txdLink.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { MicroOp, completionSchedule, microOp, muxMicroOp, type CompletionSchedule, type MicroOpValue } from './completionSchedule.ts';
import { contextRegisters, launchUnit, type ContextRegs, type LaunchUnit } from './contexts.ts';
import { ExecUnit, decode, unitLatencies, unitOf, type ExecUnitName, type UnitLatencyParams } from './decode.ts';
import { executeStage, vec4, type ExecuteResults } from './execute.ts';
import { ContextStatus, MemoryReadPort, ThreadEvent, controlPorts, mainMemoryPorts, texturePorts, type DispatchLinkValue } from './interfaces.ts';
import { MEMORY_MAP, REG, VREG } from '../../isa/instructions.ts';
import { INT_DIVIDER_LATENCY } from './intDivider.ts';
import { memoryStage, type MemoryResults } from './memoryStage.ts';
import { readStage, type HaltKindName, type ReadStage, type RegisterAddresses, type RegisterValues } from './readStage.ts';
import { RegisterFile, contextBits, type RegisterFileParams } from './registerFile.ts';
import { opcodeOf, vectorRegisterOf } from './instructionFields.ts';
import { isOutsideInstructionMemory } from '../memoryMap.ts';
import { roundRobinOf } from '../selection.ts';

/** The float units' pipeline depths and the hardware contexts; flat, so module names read `RtCore_contexts8_fadd3_…`. */
export interface RtCoreParams extends UnitLatencyParams {
  /** Hardware contexts (threads resident at once): 1, 2, 4, 8 or 16. */
  readonly contexts: number;
  /** A texture unit answers txd through the port `texture`; without one (the default) txd is illegal and the thread faults. */
  readonly texture?: boolean;
}

export const defaultRtCoreParams: RtCoreParams = { contexts: 8, ...gpuFloatLatencies };

export const RtCore = defineModule(
  'RtCore',
  (p: RtCoreParams) => ({
    ...controlPorts(p.contexts),
    /** Instruction memory (synchronous read: data the cycle after the address). */
    imem: output(MemoryReadPort(32)),
    /** Constant memory (synchronous read, word address). */
    cmem: output(MemoryReadPort(clog2(MEMORY_MAP.constantBytes / 4))),
    ...mainMemoryPorts(),
    ...texturePorts(p),
  }),
  (m, io, p) => {
    checkParams(p);
    const core = coreParts(m, p, 'texture' in io ? io.texture : undefined);
    const launch = launchUnit(m, io.dispatch.launch, core.ctx, core.cb);
    clearOnLaunch(core, launch);
    const wb = writeBackRegisters(m, core);
    const issue = issueStage(m, core, launch, wb);
    io.dispatch.issued.set(issue.instruction);
    const read = readAndFetch(m, core, issue, io.imem);
    sendTextureRequests(core, read);
    const ex = executeStage(m, { valid: read.instructionInR, op: read.op, d: read.d, s1: read.values.s1, s2: read.values.s2, v1: read.values.v1, v2: read.values.v2, v3: read.values.v3, traceQuery: read.traceQuery, imm: read.imm, lane: read.lane, halts: read.halts }, p);
    const exContext = m.regNext(read.context, { name: 'ex_context', reset: 0 });
    const memory = memoryStage(m, ex, core.byContext(exContext, (c) => c.thread), { mem: io.mem, mem_resp: io.mem_resp, cmem: io.cmem });
    io.mem_error.set(memory.protocolError);
    const result = captureStage(m, core, wb, ex, memory);
    const written = writeRegisters(core, launch, wb, result);
    retire(io.dispatch.retire, written, result);
    const leaving = threadEvents(m, core, io.dispatch.event, written, result);
    retireContexts(m, core, launch, wb, written, result, leaving, issue);
    status(core, launch, io);
  },
);

type RegisterFileInstance = ReturnType<typeof registerFile>;

/** What every stage reaches: the contexts, the register files, the write-back schedule and the units' latencies. */
interface CoreParts {
  readonly cb: number;
  readonly ctx: readonly ContextRegs[];
  /** One context's register, chosen by `index`. */
  byContext<V extends UIntValue | BoolValue | EnumValue>(index: UIntValue, f: (c: ContextRegs) => V): V;
  readonly srf: RegisterFileInstance;
  readonly vrf: RegisterFileInstance;
  readonly schedule: CompletionSchedule;
  readonly latency: Record<ExecUnitName, number>;
  /** The texture link's queues (a core with a texture unit). */
  readonly texture: TextureQueues | undefined;
}

function registerFile(m: ModuleBuilder, params: RegisterFileParams, name: string) {
  return m.instance(RegisterFile, params, { name });
}

function coreParts(m: ModuleBuilder, p: RtCoreParams, textureLink: ValueOf<ReturnType<typeof TextureLink>> | undefined): CoreParts {
  const cb = contextBits(p.contexts);
  const latency = unitLatencies(p, INT_DIVIDER_LATENCY);
  const ctx = contextRegisters(m, p.contexts, textureLink !== undefined);
  return {
    cb,
    ctx,
    // The muxes of selectByIndex give plain bits: an enum or Bool is reinterpreted as its own type again.
    byContext: <V extends UIntValue | BoolValue | EnumValue>(index: UIntValue, f: (c: ContextRegs) => V): V => {
      const values = ctx.map(f);
      return fromBits(values[0]!.type, selectByIndex(index, values as UIntValue[])) as V;
    },
    srf: registerFile(m, { contexts: p.contexts, count: 32, width: 32, readPorts: 2 }, 'scalar_rf'),
    // A third port: `trace RVa` reads its query register, txd its RVd (whose lanes outside the write mask the answer keeps).
    vrf: registerFile(m, { contexts: p.contexts, count: 16, width: 128, readPorts: 3 }, 'vector_rf'),
    schedule: completionSchedule(m, Math.max(...Object.values(latency)), cb),
    latency,
    texture: textureLink && textureQueues(m, textureLink, p.contexts, cb),
  };
}

/** A launched thread's registers read zero until written. */
function clearOnLaunch(core: CoreParts, launch: LaunchUnit): void {
  for (const rf of [core.srf, core.vrf]) {
    rf.io.clear.en.set(launch.accepted);
    rf.io.clear.context.set(launch.acceptedContext);
  }
}

/** W: the operation writing back this cycle (declared first: issue reads it). */
interface WriteBackRegs {
  readonly valid: BoolValue;
  readonly context: UIntValue;
  readonly micro: MicroOpValue;
  /** An instruction (not a launch's register write) writes back. */
  readonly instruction: BoolValue;
  /** A txd answer writes back (RVd and the flag of the context's txd). */
  readonly texture: BoolValue;
  /** The instruction writing back is a txd: it waits for its answer instead of retiring. */
  readonly txd: BoolValue;
  readonly end: EnumValue<HaltKindName>;
  readonly unit: EnumValue<ExecUnitName>;
}

function writeBackRegisters(m: ModuleBuilder, core: CoreParts): WriteBackRegs {
  const wbValid = m.reg(Bool, { reset: 0, name: 'wb_valid' });
  const wbContext = m.reg(UInt(core.cb), { reset: 0, name: 'wb_context' });
  const wbMicro = m.reg(MicroOp, { reset: 'instruction', name: 'wb_micro' }) as MicroOpValue;
  return {
    valid: wbValid,
    context: wbContext,
    micro: wbMicro,
    instruction: wbValid.and(wbMicro.is('instruction')),
    texture: wbValid.and(wbMicro.is('texture')),
    txd: core.byContext(wbContext, (c) => c.txd),
    end: core.byContext(wbContext, (c) => c.end),
    unit: core.byContext(wbContext, (c) => c.unit),
  };
}

/** I: what issued this cycle, a launch's register write or a context's instruction. */
interface Issue {
  readonly micro: BoolValue;
  readonly instruction: BoolValue;
  /** A txd answer's write-back was scheduled (the oldest answer, for its context). */
  readonly texture: BoolValue;
  /** The context issuing an instruction (valid with `instruction`). */
  readonly picked: UIntValue;
  readonly context: UIntValue;
  readonly op: MicroOpValue;
}

function issueStage(m: ModuleBuilder, core: CoreParts, launch: LaunchUnit, wb: WriteBackRegs): Issue {
  const { ctx, latency, schedule } = core;
  const latencyOf = (unit: EnumValue<ExecUnitName>) => ExecUnit.members.reduce<UIntValue>((acc, name) => mux(unit.is(name), lit(latency[name], 6), acc), lit(latency.simple, 6));
  const divBusy = m.reg(Bool, { reset: 0, name: 'int_divider_busy' });
  // A context whose instruction writes back this cycle may issue again: its R stage reads next cycle.
  const completing = (k: number) =>
    wb.valid.and(wb.context.eq(k)).and(launch.isLast(wb.micro).or(wb.micro.is('texture')).or(wb.micro.is('instruction').and(wb.end.is('none')).and(wb.txd.not())));
  // A simple instruction or a load whose write-back slot is taken may take the next one: its result
  // waits a cycle in a holding register (the other units' results are not held).
  const slotFor = (unit: EnumValue<ExecUnitName>) => {
    const natural = latencyOf(unit);
    const onTime = schedule.free(natural);
    const late = onTime.not().and(unit.is('simple').or(unit.is('load'))).and(schedule.free(natural.add(1)));
    return { ok: onTime.or(late), late, latency: mux(late, natural.add(1), natural) };
  };
  const slots = ctx.map((c) => slotFor(c.irUnit));
  const eligible = ctx.map((c, k) => {
    const ready = c.state.is('ready').or(completing(k));
    const unitFree = c.irUnit.is('intdiv').not().or(divBusy.not());
    return ready.and(slots[k]!.ok).and(unitFree);
  });
  const simpleFree = schedule.free(lit(latency.simple, 6));
  const issueMicro = launch.nextMicro.is('instruction').not().and(simpleFree);
  // A waiting txd answer goes before new instructions: its context, and the texture unit, wait on it.
  const tex = core.texture;
  const issueTexture = tex ? issueMicro.not().and(tex.answerWaiting).and(simpleFree) : lit(0, 1).asBool();
  const pick = roundRobinOf(m, eligible, issueMicro.or(issueTexture).not(), 'issue');
  const issueInstruction = issueMicro.or(issueTexture).not().and(pick.any);
  const issueContext = mux(issueMicro, launch.context, tex ? mux(issueTexture, tex.answer.tag, pick.index) : pick.index);
  const issueUnit = core.byContext(pick.index, (c) => c.irUnit);
  const issueLatency = mux(issueMicro.or(issueTexture), lit(latency.simple, 6), selectByIndex(pick.index, slots.map((x) => x.latency)));
  const issueLate = issueInstruction.and(selectByIndex(pick.index, slots.map((x) => x.late)).asBool());
  const issueOp = muxMicroOp(issueMicro, launch.nextMicro, muxMicroOp(issueTexture, microOp('texture'), microOp('instruction')));
  schedule.reserve(issueMicro.or(issueTexture).or(issueInstruction), issueLatency, issueContext, issueOp, issueLate);
  launch.issued(issueMicro);
  tex?.take(issueTexture);
  ctx.forEach((c, k) =>
    m.when(issueInstruction.and(pick.index.eq(k)), () => {
      c.state.set('busy');
      c.issuedPc.set(c.pc);
      c.unit.set(c.irUnit);
    }),
  );
  m.when(issueInstruction.and(issueUnit.is('intdiv')), () => divBusy.set(true)).elsewhen(wb.instruction.and(wb.unit.is('intdiv')), () => divBusy.set(false));
  return { micro: issueMicro, texture: issueTexture, instruction: issueInstruction, picked: pick.index, context: issueContext, op: issueOp };
}

/** R: the instruction in R read and resolved, and the context's next instruction fetched. */
interface ReadResults extends ReadStage {
  readonly context: UIntValue;
  readonly instructionInR: BoolValue;
}

function readAndFetch(m: ModuleBuilder, core: CoreParts, issue: Issue, imem: ValueOf<ReturnType<typeof MemoryReadPort>>): ReadResults {
  const { ctx, byContext, srf, vrf } = core;
  const rValid = m.regNext(issue.micro.or(issue.instruction), { name: 'r_valid', reset: 0 });
  const rContext = m.regNext(issue.context, { name: 'r_context', reset: 0 });
  const rMicro = m.regNext(issue.op, { name: 'r_micro', reset: 'instruction' }) as MicroOpValue;
  const rWord = m.regNext(byContext(issue.picked, (c) => c.ir), { name: 'r_word', reset: 0 });
  const rPc = m.regNext(byContext(issue.picked, (c) => c.pc), { name: 'r_pc', reset: 0 });
  const readRegisters = (a: RegisterAddresses): RegisterValues => {
    const port = (rf: RegisterFileInstance, k: number, reg: UIntValue) => {
      rf.io.read.at(k).context.set(rContext);
      rf.io.read.at(k).reg.set(reg);
      return rf.io.rdata.at(k);
    };
    return { s1: port(srf, 0, a.s1), s2: port(srf, 1, a.s2), v1: port(vrf, 0, a.v1), v2: port(vrf, 1, a.v2), v3: port(vrf, 2, a.v3) };
  };
  const instructionInR = rValid.and(rMicro.is('instruction'));
  const read = readStage({ valid: instructionInR, word: rWord, pc: rPc, flag: byContext(rContext, (c) => c.flag), texture: core.texture !== undefined, readRegisters });
  ctx.forEach((c, k) =>
    m.when(instructionInR.and(rContext.eq(k)), () => {
      m.when(read.halts.not(), () => c.pc.set(read.nextPc));
      c.dest.set(read.dest);
      c.writesScalar.set(read.writesScalar);
      c.writesVector.set(read.writesVector);
      c.writesFlag.set(read.writesFlag);
      c.end.set(read.end);
      if (core.texture) c.txd.set(read.txd);
    }),
  );
  // Fetch the context's next instruction (or, for a launch, its first) into its instruction register.
  const fetching = rValid.and(rMicro.is('launchFirst').or(instructionInR.and(read.halts.not())));
  const fetchPc = mux(rMicro.is('launchFirst'), byContext(rContext, (c) => c.pc), read.nextPc);
  imem.addr.set(fetchPc);
  const fetchValid = m.regNext(fetching, { name: 'fetch_valid', reset: 0 });
  const fetchContext = m.regNext(rContext, { name: 'fetch_context', reset: 0 });
  const fetchPcQ = m.regNext(fetchPc, { name: 'fetch_pc', reset: 0 });
  // A PC outside instruction memory faults in R: nothing to schedule but its retirement.
  const fetchedUnit = fromBits(ExecUnit, mux(isOutsideInstructionMemory(fetchPcQ), lit(ExecUnit.indexOf('simple'), ExecUnit.width), unitOf(decode(opcodeOf(imem.data), core.texture !== undefined)).asUInt())) as EnumValue<ExecUnitName>;
  ctx.forEach((c, k) =>
    m.when(fetchValid.and(fetchContext.eq(k)), () => {
      c.ir.set(imem.data);
      c.irUnit.set(fetchedUnit);
    }),
  );
  return { ...read, context: rContext, instructionInR };
}

/** R: a txd's operands leave for the texture unit, tagged with its context. */
function sendTextureRequests(core: CoreParts, read: ReadResults): void {
  core.texture?.send(read.instructionInR.and(read.txd), { coords: read.values.v1, derivatives: read.values.v2, mask: read.mask, dest: read.values.v3, tag: read.context });
}

/** The result captured for write-back (held in registers: it writes back next cycle). */
interface CapturedResult {
  readonly scalar: UIntValue;
  readonly vector: UIntValue;
  readonly flag: UIntValue;
  readonly direction: UIntValue;
  readonly query: UIntValue;
  readonly queried: BoolValue;
  readonly fault: BoolValue;
}

/** Capture: the result of the operation that writes back next cycle, on time or from a holding register. */
function captureStage(m: ModuleBuilder, core: CoreParts, wb: WriteBackRegs, ex: ExecuteResults, memory: MemoryResults): CapturedResult {
  const next = core.schedule.next;
  const nextUnit = core.byContext(next.context, (c) => c.unit);
  const onTime = captureResult(ex, memory, nextUnit);
  // Holding registers: what EX and M2 had a cycle ago, for a simple instruction or a load that writes back late.
  const hold = <V extends UIntValue | BoolValue>(v: V, name: string): V => m.regNext(v, { name, reset: 0 }) as V;
  const loadLate = nextUnit.is('load');
  const held = {
    scalar: mux(loadLate, hold(memory.loadedScalar, 'held_loaded_scalar'), hold(ex.scalar, 'held_ex_scalar')),
    vector: mux(loadLate, hold(memory.loadedVector, 'held_loaded_vector'), hold(ex.vector, 'held_ex_vector')),
    fault: mux(loadLate, hold(memory.loadFault, 'held_load_fault'), hold(memory.exFault, 'held_ex_fault')),
    flag: hold(ex.flag, 'held_flag'),
    direction: hold(ex.direction, 'held_direction'),
    query: hold(ex.query, 'held_query'),
    queried: hold(ex.queried, 'held_queried'),
  };
  const late = next.late;
  const texture = textureAnswerAtCapture(m, core);
  const answered = <V extends UIntValue | BoolValue>(fromTexture: V | undefined, otherwise: V): V => (texture && fromTexture !== undefined ? (mux(next.micro.is('texture'), fromTexture, otherwise) as V) : otherwise);
  wb.valid.set(next.valid);
  wb.context.set(next.context);
  wb.micro.set(next.micro);
  // Taken only for an operation that writes back: between them the units' outputs are undefined in
  // silicon (their pipelines have no reset), and these registers drive the retire port.
  const capture = <V extends UIntValue | BoolValue>(v: V, name: string): V => {
    const r = m.reg(v.type, { reset: 0, name }) as unknown as Bits;
    m.when(next.valid, () => r.set(v));
    return r as V;
  };
  return {
    scalar: capture(mux(late, held.scalar, onTime.scalar), 'wb_scalar'),
    vector: capture(answered(texture?.rgba, mux(late, held.vector, onTime.vector)), 'wb_vector'),
    flag: capture(answered(texture?.flag, mux(late, held.flag, ex.flag)), 'wb_flag'),
    direction: capture(mux(late, held.direction, ex.direction), 'wb_direction'),
    query: capture(mux(late, held.query, ex.query), 'wb_query'),
    queried: capture(mux(late, held.queried, ex.queried), 'wb_queried'),
    fault: capture(mux(late, held.fault, onTime.fault), 'wb_fault'),
  };
}

/**
 * The txd answer whose write-back slot comes next: the answer queue's head when its slot was booked, carried
 * the cycles in between. Its flag is Z when no status bit is set, unordered otherwise (docs/isa.md).
 */
function textureAnswerAtCapture(m: ModuleBuilder, core: CoreParts): { rgba: UIntValue; flag: UIntValue } | undefined {
  if (!core.texture) return undefined;
  const answer = core.texture.answer;
  const carried = delay(m, cat(answer.status.ne(0), answer.rgba), core.latency.simple - 1, 'txd_answer');
  return { rgba: carried.bits(127, 0), flag: mux(carried.bit(128), lit(FLAG_UNORDERED, 2), lit(FLAG_ZERO, 2)) };
}

/** The instruction writing back: what it writes and where, and the thread it belongs to. */
interface Written {
  readonly wb: WriteBackRegs;
  readonly dest: UIntValue;
  readonly writesScalar: BoolValue;
  readonly writesVector: BoolValue;
  readonly writesFlag: BoolValue;
  readonly thread: UIntValue;
  readonly pc: UIntValue;
  /** An earlier instruction of this run of the thread faulted. */
  readonly faultedBefore: BoolValue;
}

/** W: the register files' write ports, an instruction's result or a launch's R1/RV14, then R29/RV15, then (after `trace RVa`) RV13. */
function writeRegisters(core: CoreParts, launch: LaunchUnit, wb: WriteBackRegs, result: CapturedResult): Written {
  const { byContext, srf, vrf } = core;
  const w: Written = {
    wb,
    dest: byContext(wb.context, (c) => c.dest),
    writesScalar: wb.instruction.and(byContext(wb.context, (c) => c.writesScalar)),
    writesVector: wb.instruction.and(byContext(wb.context, (c) => c.writesVector)).or(wb.texture.and(vectorRegisterOf(byContext(wb.context, (c) => c.dest)).ne(VREG.zero))),
    writesFlag: wb.instruction.and(byContext(wb.context, (c) => c.writesFlag)).or(wb.texture),
    thread: byContext(wb.context, (c) => c.thread),
    pc: byContext(wb.context, (c) => c.issuedPc),
    faultedBefore: byContext(wb.context, (c) => c.faulted),
  };
  const launchWrite = (first: UIntValue, second: UIntValue, third: UIntValue = second) => mux(wb.micro.is('launchFirst'), first, mux(wb.micro.is('launchSecond'), second, third));
  const wbScalarLaunch = wb.valid.and(wb.micro.is('launchFirst').or(wb.micro.is('launchSecond')));
  const wbLaunch = wbScalarLaunch.or(wb.valid.and(wb.micro.is('launchThird')));
  srf.io.write.en.set(w.writesScalar.or(wbScalarLaunch));
  srf.io.write.at.context.set(wb.context);
  srf.io.write.at.reg.set(mux(wbScalarLaunch, launchWrite(lit(REG.pixelId, 5), lit(REG.sp, 5)), w.dest));
  srf.io.write.data.set(mux(wbScalarLaunch, launchWrite(launch.bits.pixel, launch.bits.sp), result.scalar));
  vrf.io.write.en.set(w.writesVector.or(wbLaunch));
  vrf.io.write.at.context.set(wb.context);
  vrf.io.write.at.reg.set(mux(wbLaunch, launchWrite(lit(VREG.traceOrigin, 4), lit(VREG.traceDirection, 4), lit(VREG.traceHitParameters, 4)), vectorRegisterOf(w.dest)));
  vrf.io.write.data.set(mux(wbLaunch, launchWrite(launch.bits.hit, launch.bits.normal, launch.bits.parameters), result.vector));
  launch.completed(wb.valid.and(launch.isLast(wb.micro)));
  return w;
}

/** The retire port: every instruction that writes back, with what it wrote. */
function retire(r: DispatchLinkValue['retire'], w: Written, result: CapturedResult): void {
  // A txd retires when its answer writes back, not at its own write-back.
  r.valid.set(w.wb.instruction.and(w.wb.txd.not()).or(w.wb.texture));
  r.thread.set(w.thread);
  r.pc.set(w.pc);
  r.counted.set(w.wb.end.is('fault').not());
  r.scalarWrite.set(w.writesScalar);
  r.scalarReg.set(w.dest);
  r.scalarValue.set(result.scalar);
  r.vectorWrite.set(w.writesVector);
  r.vectorReg.set(vectorRegisterOf(w.dest));
  r.vectorValue.set(result.vector);
  r.flagWrite.set(w.writesFlag);
  r.flag.set(result.flag);
}

/** A thread event waiting in the core's queue, with the context it leaves. */
const QueuedEvent = (contextBits: number) => Bundle({ event: ThreadEvent, context: UInt(contextBits) });

/**
 * Halting instructions leave through a queue: one entry per context at most, so it never overflows.
 * Returns the context whose event the dispatcher takes this cycle.
 */
function threadEvents(m: ModuleBuilder, core: CoreParts, port: DispatchLinkValue['event'], w: Written, result: CapturedResult): { taken: BoolValue; context: UIntValue } {
  const wb = w.wb;
  const entry = QueuedEvent(core.cb);
  const events = m.instance(Fifo, { payload: entry, depth: core.ctx.length }, { name: 'events' });
  const leavingEvent = m.wire(entry);
  leavingEvent.context.set(wb.context);
  leavingEvent.event.thread.set(w.thread);
  m.when(wb.end.is('trace'), () => leavingEvent.event.kind.set('trace')).otherwise(() => leavingEvent.event.kind.set('end'));
  leavingEvent.event.fault.set(w.faultedBefore.or(result.fault).or(wb.end.is('fault')));
  leavingEvent.event.pc.set(w.pc.add(4));
  leavingEvent.event.sp.set(result.scalar);
  leavingEvent.event.origin.set(result.vector.trunc(ThreadEvent.fields.origin.width));
  leavingEvent.event.direction.set(result.direction);
  leavingEvent.event.query.set(result.query);
  leavingEvent.event.queried.set(result.queried);
  events.io.enq.valid.set(wb.instruction.and(wb.end.is('none').not()));
  m.connect(events.io.enq.bits, leavingEvent);
  const head = events.io.deq.bits;
  m.connect(port.bits, head.event);
  port.valid.set(events.io.deq.valid);
  events.io.deq.ready.set(port.ready);
  return { taken: events.io.deq.fire, context: head.context };
}

/** Each context's state after write-back: ready again, halted until its event leaves, free once it left. */
function retireContexts(m: ModuleBuilder, core: CoreParts, launch: LaunchUnit, wb: WriteBackRegs, w: Written, result: CapturedResult, leaving: { taken: BoolValue; context: UIntValue }, issue: Issue): void {
  core.ctx.forEach((c, k) => {
    const here = wb.context.eq(k);
    m.when(wb.instruction.and(here), () => {
      m.when(w.writesFlag, () => c.flag.set(result.flag));
      m.when(result.fault, () => c.faulted.set(true));
      m.when(wb.end.is('none').and(wb.txd), () => c.state.set('texture'))
        .elsewhen(wb.end.is('none'), () => c.state.set('ready'))
        .otherwise(() => c.state.set('halted'));
    });
    m.when(wb.texture.and(here), () => {
      c.flag.set(result.flag);
      c.state.set('ready');
    });
    m.when(wb.valid.and(launch.isLast(wb.micro)).and(here), () => c.state.set('ready'));
    m.when(leaving.taken.and(leaving.context.eq(k)), () => c.state.set('free'));
    // Issue wins over the write-back that readied the context in the same cycle.
    m.when(issue.instruction.and(issue.picked.eq(k)), () => c.state.set('busy'));
  });
}

/** Whether the core holds a thread, and the status of the context the host selects. */
function status(core: CoreParts, launch: LaunchUnit, io: { dispatch: DispatchLinkValue; status_context: UIntValue; status: ValueOf<typeof ContextStatus> }): void {
  io.dispatch.busy.set(core.ctx.map((c) => c.state.is('free').not()).reduce((a: BoolValue, b) => a.or(b)).or(launch.pending));
  io.status.state.set(core.byContext(io.status_context, (c) => c.state));
  io.status.thread.set(core.byContext(io.status_context, (c) => c.thread));
  io.status.pc.set(core.byContext(io.status_context, (c) => c.issuedPc));
}

/** The result of the operation that writes back next cycle, from the unit it used. */
function captureResult(ex: ExecuteResults, memory: MemoryResults, unit: EnumValue<ExecUnitName>): { scalar: UIntValue; vector: UIntValue; fault: BoolValue } {
  const is = (name: ExecUnitName) => unit.is(name);
  const scalarOf: [BoolValue, UIntValue][] = [
    [is('fadd'), ex.adders[0]!],
    [is('fmul'), ex.multipliers[0]!],
    [is('fdiv'), ex.dividers[0]!],
    [is('fsqrt'), ex.sqrt],
    [is('itof'), ex.itof],
    [is('ftoi'), ex.ftoi],
    [is('reduce'), ex.reduced],
    [is('intdiv'), ex.quotient],
    [is('load'), memory.loadedScalar],
  ];
  const vectorOf: [BoolValue, UIntValue][] = [
    [is('fadd'), vec4(ex.adders)],
    [is('fmul'), vec4(ex.multipliers)],
    [is('fdiv'), vec4(ex.dividers)],
    [is('load'), memory.loadedVector],
  ];
  const choose = (choices: [BoolValue, UIntValue][], simple: UIntValue) => choices.reduce((acc, [cond, v]) => mux(cond, v, acc), simple);
  // A store's fault is known in EX (its write-back slot is EX's), a load's in M2.
  return { scalar: choose(scalarOf, ex.scalar), vector: choose(vectorOf, ex.vector), fault: mux(is('load'), memory.loadFault, is('simple').and(memory.exFault)) };
}

function checkParams(p: RtCoreParams): void {
  for (const k of ['fadd', 'fmul', 'fdiv', 'fsqrt', 'itof', 'ftoi'] as const) {
    const v = p[k];
    if (!Number.isInteger(v) || v < 0 || v > 30) throw new Error(`RtCore: ${k} latency must be an integer from 0 to 30, got ${v}`);
  }
  if (![1, 2, 4, 8, 16].includes(p.contexts)) throw new Error(`RtCore: contexts must be 1, 2, 4, 8 or 16, got ${p.contexts}`);
}
