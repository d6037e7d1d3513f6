// The RT core's write-back schedule: which context writes back in each of the coming cycles. Issue
// reserves an instruction's slot, so units of different latencies never finish in the same cycle and
// the register files need one write port.
import { Bool, Enum, UInt, fromBits, lit, mux, type BoolValue, type EnumValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';

/** What an issued operation is: an instruction, one of a thread launch's register writes (the third only after `trace RVa`), or a txd answer's write. */
export const MicroOp = Enum('MicroOp', ['instruction', 'launchFirst', 'launchSecond', 'launchThird', 'texture']);
export type MicroOpName = (typeof MicroOp.members)[number];
export type MicroOpValue = EnumValue<MicroOpName>;

/** The constant MicroOp `name`. */
export const microOp = (name: MicroOpName): MicroOpValue => fromBits(MicroOp, lit(MicroOp.indexOf(name), MicroOp.width)) as MicroOpValue;

/** `sel ? a : b` for MicroOp values (a mux gives plain bits). */
export const muxMicroOp = (sel: BoolValue, a: MicroOpValue, b: MicroOpValue): MicroOpValue => fromBits(MicroOp, mux(sel, a, b)) as MicroOpValue;

export interface ScheduledOp {
  readonly valid: BoolValue;
  readonly context: UIntValue;
  readonly micro: MicroOpValue;
  /** Booked one slot after its result was ready: the result waited a cycle in a holding register. */
  readonly late: BoolValue;
}

export interface CompletionSchedule {
  /** The operation that writes back next cycle (its result is captured this cycle). */
  readonly next: ScheduledOp;
  /** No operation writes back `latency` cycles from now. */
  free(latency: UIntValue): BoolValue;
  /** Book the slot `latency` cycles from now (latency >= 2) for the operation issued this cycle. */
  reserve(en: BoolValue, latency: UIntValue, context: UIntValue, micro: MicroOpValue, late: BoolValue): void;
}

/** Slot k is the operation that writes back k cycles from now. */
export function completionSchedule(m: ModuleBuilder, maxLatency: number, contextBits: number): CompletionSchedule {
  const lw = clog2(maxLatency + 1);
  const booked = m.reg(UInt(maxLatency + 1), { reset: 0, name: 'wb_booked' });
  // An operation booked at latency L moves into slot L - 1 at the clock edge: slots 1 .. maxLatency - 1 hold it.
  const slotRegs = Array.from({ length: maxLatency - 1 }, (_, i) => ({
    context: m.reg(UInt(contextBits), { reset: 0, name: `wb_slot${i + 1}_context` }),
    micro: m.reg(MicroOp, { reset: 'instruction', name: `wb_slot${i + 1}_micro` }) as MicroOpValue,
    late: m.reg(Bool, { reset: 0, name: `wb_slot${i + 1}_late` }),
  }));
  const slot = (k: number) => slotRegs[k - 1];
  return {
    next: { valid: booked.bit(1), context: slot(1)!.context, micro: slot(1)!.micro, late: slot(1)!.late },
    free: (latency) => booked.bit(latency.trunc(lw)).not(),
    reserve(en, latency, context, micro, late) {
      const l = latency.trunc(lw);
      booked.set(booked.shr(1).or(mux(en, lit(1, maxLatency + 1).shl(l.sub(1)), lit(0, maxLatency + 1))));
      // Slot k takes slot k + 1's entry, or the new booking when it lands there.
      for (let k = 1; k < maxLatency; k++) {
        const lands = en.and(l.eq(k + 1));
        const above = slot(k + 1);
        slot(k)!.context.set(mux(lands, context, above ? above.context : lit(0, contextBits)));
        slot(k)!.micro.set(muxMicroOp(lands, micro, above ? above.micro : microOp('instruction')));
        slot(k)!.late.set(mux(lands, late, above ? above.late : lit(0, 1).asBool()));
      }
    },
  };
}
