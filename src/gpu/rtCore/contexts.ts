// The RT core's hardware contexts (one thread each: its PC, instruction register, flag and the
// instruction it has in flight) and the launch unit that places a thread into a free context.
import { Bool, UInt, fsm, lit, type BoolValue, type EnumValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { microOp, muxMicroOp, type MicroOpValue } from './completionSchedule.ts';
import { ExecUnit, type ExecUnitName } from './decode.ts';
import { ContextState, THREAD_BITS, ThreadLaunch, type DispatchLinkValue } from './interfaces.ts';
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
  /** The instruction in flight is a txd: its own write-back only hands the context to the texture unit's answer. */
  readonly txd: BoolValue;
}

/** `texture`: the core has a texture unit (otherwise no instruction is a txd). */
export function contextRegisters(m: ModuleBuilder, contexts: number, texture: boolean): ContextRegs[] {
  return Array.from({ length: contexts }, (_, c) => {
    const name = (field: string) => `ctx${c}_${field}`;
    return {
      state: m.reg(ContextState, { reset: 'free', name: name('state') }),
      thread: m.reg(UInt(THREAD_BITS), { reset: 0, name: name('thread') }),
      pc: m.reg(UInt(32), { reset: 0, name: name('pc') }),
      ir: m.reg(UInt(32), { reset: 0, name: name('ir') }),
      irUnit: m.reg(ExecUnit, { reset: 'simple', name: name('ir_unit') }),
      flag: m.reg(UInt(2), { reset: 0, name: name('flag') }),
      faulted: m.reg(Bool, { reset: 0, name: name('faulted') }),
      issuedPc: m.reg(UInt(32), { reset: 0, name: name('issued_pc') }),
      unit: m.reg(ExecUnit, { reset: 'simple', name: name('unit') }),
      dest: m.reg(UInt(5), { reset: 0, name: name('dest') }),
      writesScalar: m.reg(Bool, { reset: 0, name: name('writes_scalar') }),
      writesVector: m.reg(Bool, { reset: 0, name: name('writes_vector') }),
      writesFlag: m.reg(Bool, { reset: 0, name: name('writes_flag') }),
      end: m.reg(HaltKind, { reset: 'none', name: name('end') }),
      txd: texture ? m.reg(Bool, { reset: 0, name: name('txd') }) : lit(0, 1).asBool(),
    } as ContextRegs;
  });
}

export interface LaunchUnit {
  /** A launch was accepted this cycle into `acceptedContext` (its registers clear). */
  readonly accepted: BoolValue;
  readonly acceptedContext: UIntValue;
  /** The context being launched (from the cycle after acceptance). */
  readonly context: UIntValue;
  /** The launch's register write to issue next ('instruction': none). */
  readonly nextMicro: MicroOpValue;
  readonly bits: ValueOf<typeof ThreadLaunch>;
  /** A launch is accepted or in progress. */
  readonly pending: BoolValue;
  /** The next register write issued this cycle. */
  issued(en: BoolValue): void;
  /** The launch's register write `micro` is its last (the second, or the third after `trace RVa`). */
  isLast(micro: MicroOpValue): BoolValue;
  /** The last register write reached write-back: the context is ready, the buffer free. */
  completed(en: BoolValue): void;
}

/**
 * Takes a thread when a context is free, then issues two register writes through the pipeline like
 * instructions (R1 and RV14, then R29 and RV15: one write port per register file), and a third (RV13) for a
 * thread returning from `trace RVa`; the first also fetches the thread's first instruction.
 */
export function launchUnit(m: ModuleBuilder, launch: DispatchLinkValue['launch'], ctx: readonly ContextRegs[], contextBits: number): LaunchUnit {
  // Idle; the first or the second register write to issue next; waiting for the second write's write-back.
  const phase = fsm(m, 'launch', ['idle', 'first', 'second', 'third', 'waiting'], 'idle');
  const context = m.reg(UInt(contextBits), { reset: 0, name: 'launch_context' });
  const bits = m.reg(ThreadLaunch, { name: 'launch' });
  const free = lowestOf(ctx.map((c) => c.state.is('free')));
  launch.ready.set(phase.is('idle').and(free.any));
  const accepted = launch.fire;
  m.when(accepted, () => {
    m.connect(bits, launch.bits);
    context.set(free.index);
    phase.goto('first');
  });
  ctx.forEach((c, k) =>
    m.when(accepted.and(free.index.eq(k)), () => {
      c.state.set('launching');
      c.thread.set(launch.bits.thread);
      c.pc.set(launch.bits.pc);
      c.flag.set(0);
      c.faulted.set(false);
    }),
  );
  return {
    accepted,
    acceptedContext: free.index,
    context,
    nextMicro: muxMicroOp(phase.is('first'), microOp('launchFirst'), muxMicroOp(phase.is('second'), microOp('launchSecond'), muxMicroOp(phase.is('third'), microOp('launchThird'), microOp('instruction')))),
    bits,
    pending: phase.is('idle').not(),
    issued: (en) =>
      m.when(en, () =>
        phase.on({
          first: () => phase.goto('second'),
          second: () => m.when(bits.queried, () => phase.goto('third')).otherwise(() => phase.goto('waiting')),
          third: () => phase.goto('waiting'),
        }),
      ),
    isLast: (micro) => micro.is('launchThird').or(micro.is('launchSecond').and(bits.queried.not())),
    completed: (en) => m.when(en, () => phase.goto('idle')),
  };
}
