// The BVH IC cores' answer stage: a finished ray slot is picked, o + t·d computed, and the answer leaves on the ray link
// `fmul + fadd` cycles later (BvhIcCore, Bvh8IcCore).
import { cat, lit, mux, type BoolValue, type ModuleBuilder, type PortsValue, type UIntValue } from '../../hdl/index.ts';
import { PriorityEncoder, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import type { FloatOps } from '../icCore/floatOps.ts';
import type { rayPorts } from '../icCore/icCore.ts';
import { join3, split3, type Vec3 } from '../icCore/vec3.ts';
import { NO_INSTANCE_ID } from '../icCore/icCoreLink.ts';

/** What the answer reads of a slot. */
export interface AnswerSlot {
  readonly origin: UIntValue;
  readonly direction: UIntValue;
  readonly thread: UIntValue;
  readonly haveBest: UIntValue;
  readonly fault: UIntValue;
  readonly bestT: UIntValue;
  readonly bestShader: UIntValue;
  readonly bestNormal: UIntValue;
  /** The closest hit's triangle index (at most 32 bits), RV15.w: the triangle memory's id, or the GFX12 primitive index. */
  readonly bestIndex: UIntValue;
  /** The closest hit's barycentrics, binary32 (RV13.y and .z of `trace RVa`). */
  readonly bestU: UIntValue;
  readonly bestV: UIntValue;
  /** The instance the closest hit is in (RV13.w); absent where no hit is in an instance (NO_INSTANCE, 0xFFFFFFFF). */
  readonly bestInstance?: UIntValue;
}

export interface Finish {
  /** A slot in `finish` is picked this cycle (it moves to `drain`). */
  readonly pick: BoolValue;
  readonly pickSlot: UIntValue;
  /** The picked slot's registers are read: it is free from the next cycle. */
  readonly valid: BoolValue;
  readonly slot: UIntValue;
}

/** `finishing` bit k: slot k has finished its walk. `f` computes o + t·d (its add and multiply units are created here). */
export function answerStage(m: ModuleBuilder, io: PortsValue<ReturnType<typeof rayPorts>>, p: { readonly fadd: number; readonly fmul: number }, f: FloatOps, slots: readonly AnswerSlot[], finishing: UIntValue): Finish {
  const pick = (slot: UIntValue, field: (s: AnswerSlot) => UIntValue): UIntValue => selectByIndex(slot, slots.map(field));
  const encoder = m.instance(PriorityEncoder, { n: slots.length }, { name: 'finish_slot' });
  encoder.io.in.set(finishing);
  const finishPick = encoder.io.valid;
  const f1Valid = m.regNext(finishPick, { reset: 0 });
  const f1Slot = m.regNext(encoder.io.index);
  const f1Have = pick(f1Slot, (s) => s.haveBest).asBool();
  const f1T = mux(f1Valid.and(f1Have), pick(f1Slot, (s) => s.bestT), lit(0, 32));
  const f1O = split3(pick(f1Slot, (s) => s.origin));
  const f1D = split3(mux(f1Valid.and(f1Have), pick(f1Slot, (s) => s.direction), lit(0, 96)));
  const lag = p.fmul + p.fadd;
  const point = [0, 1, 2].map((i) => f.add(delay(m, f1O[i]!, p.fmul, `o${'xyz'[i]}`), f.mul(f1T, f1D[i]!))) as unknown as Vec3;
  const done = delayValid(m, f1Valid, lag, 'done');
  // The answer's fields only with `done`: the delay registers have no reset (undefined in silicon until an answer).
  const answer = <V extends UIntValue | BoolValue>(v: V, name: string) => mux(done, delay(m, v, lag, name), lit(0, v.width));
  const doneHave = answer(f1Have, 'done_have').asBool();
  io.dispatch.done.set(done);
  io.dispatch.done_fault.set(answer(f1Valid.and(pick(f1Slot, (s) => s.fault).asBool()), 'done_fault').asBool());
  io.dispatch.done_thread.set(answer(pick(f1Slot, (s) => s.thread), 'done_thread'));
  io.dispatch.hit_info.set(mux(doneHave, cat(delay(m, pick(f1Slot, (s) => s.bestShader), lag, 'done_shader'), join3(point)), lit(0, 128)));
  const f1Normal = cat(pick(f1Slot, (s) => s.bestIndex).zext(32), pick(f1Slot, (s) => s.bestNormal)); // RV15: the normal, the triangle index
  io.dispatch.hit_normal.set(mux(doneHave, delay(m, f1Normal, lag, 'done_normal'), lit(0, 128)));
  // RV13 of `trace RVa` (docs/rays.md): t, u, v and the instance.
  const f1Instance = slots[0]!.bestInstance === undefined ? lit(NO_INSTANCE_ID, 32) : pick(f1Slot, (s) => s.bestInstance!);
  const f1Parameters = cat(f1Instance, pick(f1Slot, (s) => s.bestV), pick(f1Slot, (s) => s.bestU), pick(f1Slot, (s) => s.bestT));
  io.dispatch.hit_parameters.set(mux(doneHave, delay(m, f1Parameters, lag, 'done_parameters'), lit(0, 128)));
  return { pick: finishPick, pickSlot: encoder.io.index, valid: f1Valid, slot: f1Slot };
}
