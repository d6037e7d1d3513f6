// The RT core: a fine-grained multithreaded pipeline for the scalar/vec4-float ISA. Several hardware
// contexts each hold a thread; every cycle one ready context issues (round robin), so float latency is
// hidden behind other threads' work instead of stalling (seed 004 section 5; docs/rt-core.md).
//
//   I  issue: a ready context whose write-back slot is free
//   R  register read, branch resolution, fetch of the context's next instruction
//   EX ALU and the float units' first stage ... M1/M2 memory ... W write-back
import { Bool, UInt, cat, defineModule, fromBits, input, lit, mux, output, packBits, unpackBits, type BoolValue, type EnumValue, type UIntValue } from '../../hdl/index.ts';
import { Fifo, selectByIndex } from '../../hdl/lib/index.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { MICRO, completionSchedule } from './completionSchedule.ts';
import { contextRegisters, launchUnit, type ContextRegs } from './contexts.ts';
import { ExecUnit, decode, unitLatencies, unitOf, type ExecUnitName, type UnitLatencyParams } from './decode.ts';
import { executeStage, vec4, type ExecuteResults } from './execute.ts';
import { ThreadEvent, dispatcherPorts, mainMemoryPorts } from './interfaces.ts';
import { INT_DIVIDER_LATENCY } from './intDivider.ts';
import { memoryStage, type MemoryResults } from './memoryStage.ts';
import { readStage, type RegisterAddresses, type RegisterValues } from './readStage.ts';
import { RegisterFile, contextBits } from './registerFile.ts';
import { roundRobinOf } from '../selection.ts';

/** The float units' pipeline depths and the hardware contexts; flat, so module names read `RtCore_contexts8_fadd3_…`. */
export interface RtCoreParams extends UnitLatencyParams {
  /** Hardware contexts (threads resident at once): 1, 2, 4, 8 or 16. */
  readonly contexts: number;
}

export const defaultRtCoreParams: RtCoreParams = { contexts: 8, ...gpuFloatLatencies };


export const RtCore = defineModule(
  'RtCore',
  (p: RtCoreParams) => ({
    ...dispatcherPorts(p.contexts),
    // Instruction memory (synchronous read: data the cycle after the address).
    imem_addr: output(UInt(32)),
    imem_data: input(UInt(32)),
    // Constant memory (synchronous read, word address).
    cmem_addr: output(UInt(13)),
    cmem_data: input(UInt(32)),
    ...mainMemoryPorts(),
  }),
  (m, io, p) => {
    checkParams(p);
    const cb = contextBits(p.contexts);
    const latency = unitLatencies(p, INT_DIVIDER_LATENCY);
    const maxLatency = Math.max(...Object.values(latency));
    const latencyOf = (unit: EnumValue<ExecUnitName>) => ExecUnit.members.reduce<UIntValue>((acc, name) => mux(unit.is(name), lit(latency[name], 6), acc), lit(latency.simple, 6));

    const ctx = contextRegisters(m, p.contexts);
    // The muxes of selectByIndex give plain bits: an enum or Bool is reinterpreted as its own type again.
    const byContext = <V extends UIntValue | BoolValue | EnumValue>(index: UIntValue, f: (c: ContextRegs) => V): V => {
      const values = ctx.map(f);
      return fromBits(values[0]!.type, selectByIndex(index, values as UIntValue[])) as V;
    };
    const srf = m.instance(RegisterFile, { contexts: p.contexts, count: 32, width: 32, readPorts: 2 }, { name: 'scalar_rf' });
    const vrf = m.instance(RegisterFile, { contexts: p.contexts, count: 16, width: 128, readPorts: 2 }, { name: 'vector_rf' });
    const schedule = completionSchedule(m, maxLatency, cb);

    // ------------------------------------------------------------------ launch: a thread into a free context
    const launch = launchUnit(m, io, ctx, cb);
    srf.io.clear.en.set(launch.accepted);
    srf.io.clear.context.set(launch.acceptedContext);
    vrf.io.clear.en.set(launch.accepted);
    vrf.io.clear.context.set(launch.acceptedContext);

    // ------------------------------------------------------------------ W registers (declared first: issue reads them)
    const wbValid = m.reg(Bool, { reset: 0, name: 'wb_valid' });
    const wbContext = m.reg(UInt(cb), { reset: 0, name: 'wb_context' });
    const wbMicro = m.reg(UInt(2), { reset: 0, name: 'wb_micro' });
    const wbEnd = byContext(wbContext, (c) => c.end);
    const wbInstruction = wbValid.and(wbMicro.eq(MICRO.instruction));
    const wbUnit = byContext(wbContext, (c) => c.unit);

    // ------------------------------------------------------------------ I: issue
    const divBusy = m.reg(Bool, { reset: 0, name: 'int_divider_busy' });
    // A context whose instruction writes back this cycle may issue again: its R stage reads next cycle.
    const completing = (k: number) => wbValid.and(wbContext.eq(k)).and(wbMicro.eq(MICRO.launchSecond).or(wbMicro.eq(MICRO.instruction).and(wbEnd.is('none'))));
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
    const microReady = launch.nextMicro.ne(MICRO.instruction).and(schedule.free(lit(latency.simple, 6)));
    const issueMicro = microReady;
    const pick = roundRobinOf(m, eligible, issueMicro.not(), 'issue');
    const issueInstruction = issueMicro.not().and(pick.any);
    const issueContext = mux(issueMicro, launch.context, pick.index);
    const issueUnit = byContext(pick.index, (c) => c.irUnit);
    const issueLatency = mux(issueMicro, lit(latency.simple, 6), selectByIndex(pick.index, slots.map((x) => x.latency)));
    const issueLate = issueInstruction.and(selectByIndex(pick.index, slots.map((x) => x.late)).asBool());
    schedule.reserve(issueMicro.or(issueInstruction), issueLatency, issueContext, mux(issueMicro, launch.nextMicro, lit(MICRO.instruction, 2)), issueLate);
    launch.issued(issueMicro);
    io.issued.set(issueInstruction);
    ctx.forEach((c, k) =>
      m.when(issueInstruction.and(pick.index.eq(k)), () => {
        c.state.set('busy');
        c.issuedPc.set(c.pc);
        c.unit.set(c.irUnit);
      }),
    );
    m.when(issueInstruction.and(issueUnit.is('intdiv')), () => divBusy.set(true)).elsewhen(wbInstruction.and(wbUnit.is('intdiv')), () => divBusy.set(false));

    // ------------------------------------------------------------------ R: register read, branches, fetch
    const rValid = m.regNext(issueMicro.or(issueInstruction), { name: 'r_valid', reset: 0 });
    const rContext = m.regNext(issueContext, { name: 'r_context', reset: 0 });
    const rMicro = m.regNext(mux(issueMicro, launch.nextMicro, lit(MICRO.instruction, 2)), { name: 'r_micro', reset: 0 });
    const rWord = m.regNext(byContext(pick.index, (c) => c.ir), { name: 'r_word', reset: 0 });
    const rPc = m.regNext(byContext(pick.index, (c) => c.pc), { name: 'r_pc', reset: 0 });
    const readRegisters = (a: RegisterAddresses): RegisterValues => {
      const port = (rf: typeof srf | typeof vrf, k: number, reg: UIntValue) => {
        rf.io.read.at(k).context.set(rContext);
        rf.io.read.at(k).reg.set(reg);
        return rf.io.rdata.at(k);
      };
      return { s1: port(srf, 0, a.s1), s2: port(srf, 1, a.s2), v1: port(vrf, 0, a.v1), v2: port(vrf, 1, a.v2) };
    };
    const read = readStage(m, { valid: rValid.and(rMicro.eq(MICRO.instruction)), word: rWord, pc: rPc, flag: byContext(rContext, (c) => c.flag), readRegisters });
    const instructionInR = rValid.and(rMicro.eq(MICRO.instruction));
    ctx.forEach((c, k) =>
      m.when(instructionInR.and(rContext.eq(k)), () => {
        m.when(read.halts.not(), () => c.pc.set(read.nextPc));
        c.dest.set(read.dest);
        c.writesScalar.set(read.writesScalar);
        c.writesVector.set(read.writesVector);
        c.writesFlag.set(read.writesFlag);
        c.end.set(read.end);
      }),
    );
    // Fetch the context's next instruction (or, for a launch, its first) into its instruction register.
    const fetching = rValid.and(rMicro.eq(MICRO.launchFirst).or(instructionInR.and(read.halts.not())));
    const fetchPc = mux(rMicro.eq(MICRO.launchFirst), byContext(rContext, (c) => c.pc), read.nextPc);
    io.imem_addr.set(fetchPc);
    const fetchValid = m.regNext(fetching, { name: 'fetch_valid', reset: 0 });
    const fetchContext = m.regNext(rContext, { name: 'fetch_context', reset: 0 });
    const fetchPcQ = m.regNext(fetchPc, { name: 'fetch_pc', reset: 0 });
    // A PC outside instruction memory faults in R: nothing to schedule but its retirement.
    const fetchedUnit = fromBits(ExecUnit, mux(fetchPcQ.bits(31, 14).ne(0), lit(ExecUnit.indexOf('simple'), ExecUnit.width), unitOf(decode(io.imem_data.bits(31, 26))).asUInt())) as EnumValue<ExecUnitName>;
    ctx.forEach((c, k) =>
      m.when(fetchValid.and(fetchContext.eq(k)), () => {
        c.ir.set(io.imem_data);
        c.irUnit.set(fetchedUnit);
      }),
    );

    // ------------------------------------------------------------------ EX, memory
    const ex = executeStage(m, { valid: instructionInR, op: read.op, d: read.d, s1: read.values.s1, s2: read.values.s2, v1: read.values.v1, v2: read.values.v2, imm: read.imm, lane: read.lane, halts: read.halts }, p);
    const exContext = m.regNext(rContext, { name: 'ex_context', reset: 0 });
    const memory = memoryStage(m, ex, byContext(exContext, (c) => c.thread), io);
    io.mem_error.set(memory.protocolError);

    // ------------------------------------------------------------------ capture: the result that writes back next cycle
    const next = schedule.next;
    const nextUnit = byContext(next.context, (c) => c.unit);
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
    };
    const late = next.late;
    wbValid.set(next.valid);
    wbContext.set(next.context);
    wbMicro.set(next.micro);
    // Taken only for an operation that writes back: between them the units' outputs are undefined in
    // silicon (their pipelines have no reset), and these registers drive the retire port.
    const capture = <V extends UIntValue | BoolValue>(v: V, name: string): V => {
      const r = m.reg(v.type, { reset: 0, name }) as V;
      m.when(next.valid, () => r.set(v as never));
      return r;
    };
    const wbScalar = capture(mux(late, held.scalar, onTime.scalar), 'wb_scalar');
    const wbVector = capture(mux(late, held.vector, onTime.vector), 'wb_vector');
    const wbFlag = capture(mux(late, held.flag, ex.flag), 'wb_flag');
    const wbDirection = capture(mux(late, held.direction, ex.direction), 'wb_direction');
    const wbFault = capture(mux(late, held.fault, onTime.fault), 'wb_fault');

    // ------------------------------------------------------------------ W: write-back, retire, thread events
    const wb = {
      dest: byContext(wbContext, (c) => c.dest),
      writesScalar: wbInstruction.and(byContext(wbContext, (c) => c.writesScalar)),
      writesVector: wbInstruction.and(byContext(wbContext, (c) => c.writesVector)),
      writesFlag: wbInstruction.and(byContext(wbContext, (c) => c.writesFlag)),
    };
    const launchWrite = (first: UIntValue, second: UIntValue) => mux(wbMicro.eq(MICRO.launchFirst), first, second);
    const wbLaunch = wbValid.and(wbMicro.ne(MICRO.instruction));
    srf.io.write.en.set(wb.writesScalar.or(wbLaunch));
    srf.io.write.at.context.set(wbContext);
    srf.io.write.at.reg.set(mux(wbLaunch, launchWrite(lit(1, 5), lit(29, 5)), wb.dest));
    srf.io.write.data.set(mux(wbLaunch, launchWrite(launch.bits.pixel, launch.bits.sp), wbScalar));
    vrf.io.write.en.set(wb.writesVector.or(wbLaunch));
    vrf.io.write.at.context.set(wbContext);
    vrf.io.write.at.reg.set(mux(wbLaunch, launchWrite(lit(14, 4), lit(15, 4)), wb.dest.bits(3, 0)));
    vrf.io.write.data.set(mux(wbLaunch, launchWrite(launch.bits.hit, launch.bits.normal), wbVector));
    launch.completed(wbValid.and(wbMicro.eq(MICRO.launchSecond)));

    const halting = wbInstruction.and(wbEnd.is('none').not());
    const wbThread = byContext(wbContext, (c) => c.thread);
    const wbPc = byContext(wbContext, (c) => c.issuedPc);
    const faultedBefore = byContext(wbContext, (c) => c.faulted);
    const r = io.retire;
    r.valid.set(wbInstruction);
    r.thread.set(wbThread);
    r.pc.set(wbPc);
    r.counted.set(wbEnd.is('fault').not());
    r.scalarWrite.set(wb.writesScalar);
    r.scalarReg.set(wb.dest);
    r.scalarValue.set(wbScalar);
    r.vectorWrite.set(wb.writesVector);
    r.vectorReg.set(wb.dest.bits(3, 0));
    r.vectorValue.set(wbVector);
    r.flagWrite.set(wb.writesFlag);
    r.flag.set(wbFlag);

    // Halting instructions leave through a queue: one entry per context at most, so it never overflows.
    const events = m.instance(Fifo, { width: ThreadEvent.width + cb, depth: p.contexts }, { name: 'events' });
    const leavingEvent = m.wire(ThreadEvent);
    leavingEvent.thread.set(wbThread);
    m.when(wbEnd.is('trace'), () => leavingEvent.kind.set('trace')).otherwise(() => leavingEvent.kind.set('end'));
    leavingEvent.fault.set(faultedBefore.or(wbFault).or(wbEnd.is('fault')));
    leavingEvent.pc.set(wbPc.add(4));
    leavingEvent.sp.set(wbScalar);
    leavingEvent.origin.set(wbVector.bits(95, 0));
    leavingEvent.direction.set(wbDirection);
    events.io.enq.valid.set(halting);
    events.io.enq.bits.set(cat(wbContext, packBits(leavingEvent)));
    m.connect(io.event.bits, unpackBits(ThreadEvent, events.io.deq.bits.bits(ThreadEvent.width - 1, 0)));
    io.event.valid.set(events.io.deq.valid);
    events.io.deq.ready.set(io.event.ready);
    const leaving = events.io.deq.bits.bits(ThreadEvent.width + cb - 1, ThreadEvent.width);

    ctx.forEach((c, k) => {
      const here = wbContext.eq(k);
      m.when(wbInstruction.and(here), () => {
        m.when(wb.writesFlag, () => c.flag.set(wbFlag));
        m.when(wbFault, () => c.faulted.set(true));
        m.when(wbEnd.is('none'), () => c.state.set('ready')).otherwise(() => c.state.set('halted'));
      });
      m.when(wbValid.and(wbMicro.eq(MICRO.launchSecond)).and(here), () => c.state.set('ready'));
      m.when(events.io.deq.fire.and(leaving.eq(k)), () => c.state.set('free'));
      // Issue wins over the write-back that readied the context in the same cycle.
      m.when(issueInstruction.and(pick.index.eq(k)), () => c.state.set('busy'));
    });

    // ------------------------------------------------------------------ status
    io.busy.set(ctx.map((c) => c.state.is('free').not()).reduce((a: BoolValue, b) => a.or(b)).or(launch.pending));
    io.status.state.set(byContext(io.status_context, (c) => c.state) as never);
    io.status.thread.set(byContext(io.status_context, (c) => c.thread));
    io.status.pc.set(byContext(io.status_context, (c) => c.issuedPc));
  },
);

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
