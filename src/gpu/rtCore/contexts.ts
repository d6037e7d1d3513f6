// The RT core's hardware contexts (one thread each: its PC, instruction register, flag and the
// instruction it has in flight) and the launch unit that places a thread into a free context.
import { Bool, UInt, lit, mux, type BoolValue, type EnumValue, type ModuleBuilder, type PortsValue, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { MICRO } from './completionSchedule.ts';
import { ExecUnit, type ExecUnitName } from './decode.ts';
import { ContextState, THREAD_BITS, ThreadLaunch, type dispatcherPorts } from './interfaces.ts';
import { HaltKind, type HaltKindName } from './readStage.ts';
import { lowestOf } from '../selection.ts';

export interface ContextRegs {
  readonly state: EnumValue<(typeof ContextState.members)[number]>;
  readonly thread: UIntValue;
  /** The next instruction's address: the word in `ir` once fetched. */
  readonly pc: UIntValue;
  readonly ir: UIntValue;
  /** The unit `ir` will use (decoded when it is fetched: issue needs its latency). */
  readonly irUnit: EnumValue<ExecUnitName>;
  readonly flag: UIntValue;
  /** An instruction of this run of the thread faulted (reported with its event). */
  readonly faulted: BoolValue;
  // The instruction in flight (at most one per context), as write-back needs it.
  readonly issuedPc: UIntValue;
  readonly unit: EnumValue<ExecUnitName>;
  readonly dest: UIntValue;
  readonly writesScalar: BoolValue;
  readonly writesVector: BoolValue;
  readonly writesFlag: BoolValue;
  readonly end: EnumValue<HaltKindName>;
}

export function contextRegisters(m: ModuleBuilder, contexts: number): ContextRegs[] {
  return Array.from({ length: contexts }, (_, c) => {
    const reg = <T extends Parameters<ModuleBuilder['reg']>[0]>(type: T, name: string, reset: 0 | string = 0) => m.reg(type, { reset: reset as never, name: `ctx${c}_${name}` });
    return {
      state: reg(ContextState, 'state', 'free'),
      thread: reg(UInt(THREAD_BITS), 'thread'),
      pc: reg(UInt(32), 'pc'),
      ir: reg(UInt(32), 'ir'),
      irUnit: reg(ExecUnit, 'ir_unit', 'simple'),
      flag: reg(UInt(2), 'flag'),
      faulted: reg(Bool, 'faulted'),
      issuedPc: reg(UInt(32), 'issued_pc'),
      unit: reg(ExecUnit, 'unit', 'simple'),
      dest: reg(UInt(5), 'dest'),
      writesScalar: reg(Bool, 'writes_scalar'),
      writesVector: reg(Bool, 'writes_vector'),
      writesFlag: reg(Bool, 'writes_flag'),
      end: reg(HaltKind, 'end', 'none'),
    } as ContextRegs;
  });
}

export interface LaunchUnit {
  /** A launch was accepted this cycle into `acceptedContext` (its registers clear). */
  readonly accepted: BoolValue;
  readonly acceptedContext: UIntValue;
  /** The context being launched (from the cycle after acceptance). */
  readonly context: UIntValue;
  /** The launch's register write to issue next (MICRO.instruction: none). */
  readonly nextMicro: UIntValue;
  readonly bits: ValueOf<typeof ThreadLaunch>;
  /** A launch is accepted or in progress. */
  readonly pending: BoolValue;
  /** The next register write issued this cycle. */
  issued(en: BoolValue): void;
  /** The second register write reached write-back: the context is ready, the buffer free. */
  completed(en: BoolValue): void;
}

/**
 * Takes a thread when a context is free, then issues two register writes through the pipeline like
 * instructions (R1 and RV14, then R29 and RV15: one write port per register file); the first also fetches
 * the thread's first instruction.
 */
export function launchUnit(m: ModuleBuilder, io: PortsValue<ReturnType<typeof dispatcherPorts>>, ctx: readonly ContextRegs[], contextBits: number): LaunchUnit {
  const phase = m.reg(UInt(2), { reset: 0, name: 'launch_phase' }); // 0 idle, 1 and 2: that write next, 3: waiting for the second write-back
  const context = m.reg(UInt(contextBits), { reset: 0, name: 'launch_context' });
  const bits = m.reg(ThreadLaunch, { name: 'launch' });
  const free = lowestOf(ctx.map((c) => c.state.is('free')));
  io.launch.ready.set(phase.eq(0).and(free.any));
  const accepted = io.launch.fire;
  m.when(accepted, () => {
    m.connect(bits, io.launch.bits);
    context.set(free.index);
    phase.set(1);
  });
  ctx.forEach((c, k) =>
    m.when(accepted.and(free.index.eq(k)), () => {
      c.state.set('launching');
      c.thread.set(io.launch.bits.thread);
      c.pc.set(io.launch.bits.pc);
      c.flag.set(0);
      c.faulted.set(false);
    }),
  );
  return {
    accepted,
    acceptedContext: free.index,
    context,
    nextMicro: mux(phase.eq(1), lit(MICRO.launchFirst, 2), mux(phase.eq(2), lit(MICRO.launchSecond, 2), lit(MICRO.instruction, 2))),
    bits,
    pending: phase.ne(0),
    issued: (en) => m.when(en, () => phase.set(phase.add(1))),
    completed: (en) => m.when(en, () => phase.set(0)),
  };
}
