// The BVH IC cores' ray intake: a free slot takes the ray; its 1/d (and the watertight shear) come out of the dividers
// `fdiv` cycles later (BvhIcCore, Bvh8IcCore).
import { lit, mux, type BoolValue, type PortsValue, type UIntValue } from '../../hdl/index.ts';
import { FDiv, PriorityEncoder, delay, delayValid } from '../../hdl/lib/index.ts';
import type { rayPorts } from '../icCore/icCore.ts';
import { isTraceableRay } from '../icCore/traceableRay.ts';
import { split3, type Vec3 } from '../icCore/vec3.ts';
import { rayAxes, shearOperands } from '../icCore/watertightIntersection.ts';
import type { ModuleBuilder } from '../../hdl/index.ts';

const ONE = 0x3f800000;

export interface Intake {
  readonly accept: BoolValue;
  readonly intoSlot: UIntValue;
  /** Finite origin and direction, the direction not zero (and `traceable`): otherwise the ray finishes as a miss at once. */
  readonly rayValid: BoolValue;
  readonly axes: UIntValue | undefined;
  readonly inverseDone: BoolValue;
  readonly inverseSlot: UIntValue;
  readonly inverse: Vec3;
  readonly shear: Vec3 | undefined;
}

export interface IntakeOptions {
  /** Bit k: slot k is free. */
  readonly free: UIntValue;
  readonly slots: number;
  readonly fdiv: number;
  /** Also compute the watertight test's ray constants (axes now, the shear from three more dividers). */
  readonly watertight: boolean;
  /** A further condition for tracing the ray at all (default: none). */
  readonly traceable?: BoolValue;
}

export function rayIntake(m: ModuleBuilder, io: PortsValue<ReturnType<typeof rayPorts>>, o: IntakeOptions): Intake {
  const freeSlots = m.instance(PriorityEncoder, { n: o.slots }, { name: 'free_slot' });
  freeSlots.io.in.set(o.free);
  const accept = io.dispatch.ray_start.and(freeSlots.io.valid);
  const intoSlot = freeSlots.io.index;
  io.dispatch.ready.set(freeSlots.io.valid);
  const rayValid = isTraceableRay(io.ray_origin, io.ray_direction);
  const traced = o.traceable === undefined ? rayValid : rayValid.and(o.traceable);
  const divide = accept.and(traced);
  const inverse = split3(io.ray_direction).map((d, a) => {
    const u = m.instance(FDiv, { stages: o.fdiv }, { name: `inv_${'xyz'[a]}` });
    u.io.in_valid.set(divide);
    u.io.a.set(lit(ONE, 32));
    u.io.b.set(mux(divide, d, lit(ONE, 32)));
    return u.io.result;
  }) as unknown as Vec3;
  const inverseDone = delayValid(m, divide, o.fdiv, 'inverse_valid');
  const inverseSlot = delay(m, intoSlot, o.fdiv, 'inverse_slot');
  // Watertight: the ray's axes now, and its shear (d[kx], d[ky], 1) / d[kz] from three more dividers beside the inverse.
  const axes = o.watertight ? rayAxes(io.ray_direction) : undefined;
  const shearIn = axes ? shearOperands(io.ray_direction, axes) : undefined;
  const shear = shearIn?.numerators.map((a, i) => {
    const u = m.instance(FDiv, { stages: o.fdiv }, { name: `shear_${'xyz'[i]}` });
    u.io.in_valid.set(divide);
    u.io.a.set(mux(divide, a, lit(ONE, 32)));
    u.io.b.set(mux(divide, shearIn.denominator, lit(ONE, 32)));
    return u.io.result;
  }) as Vec3 | undefined;
  return { accept, intoSlot, rayValid: traced, axes, inverseDone, inverseSlot, inverse, shear };
}
