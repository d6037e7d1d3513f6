// The optional reset of a clock-crossing primitive's domain: its parameters, its port, and the domain built from them.
import { Bool, type BoolType, type BoolValue, type ClockDomain, type ClockSignal, type ModuleBuilder, type PortSpec, type ResetActive, type ResetKind, input } from '../../index.ts';
import { paramError } from '../paramError.ts';

/** How a primitive's domains are reset. Without `resetKind` it has no reset input (its registers power on at 0). */
export interface CrossingResetParams {
  /** 'sync' (sampled at the clock edge) or 'async' (takes effect at once); gives the primitive a reset input per domain. */
  readonly resetKind?: ResetKind;
  /** With `resetKind`: the level that asserts the reset inputs. */
  readonly resetActive?: ResetActive;
}

/** Checks that `resetKind` and `resetActive` come together; true when the primitive has resets. */
export function hasReset(module: string, p: CrossingResetParams): boolean {
  if (p.resetKind === undefined && p.resetActive === undefined) return false;
  if (p.resetKind !== 'sync' && p.resetKind !== 'async') throw paramError(module, `resetKind must be 'sync' or 'async'${p.resetKind === undefined ? ' when resetActive is given' : `, got ${String(p.resetKind)}`}`);
  if (p.resetActive !== 'high' && p.resetActive !== 'low') throw paramError(module, `resetActive must be 'high' or 'low'${p.resetActive === undefined ? ' when resetKind is given' : `, got ${String(p.resetActive)}`}`);
  return true;
}

/**
 * The reset input `name` when the primitive has resets. Typed as always present so that `io.reset` reads
 * naturally; it exists only with `resetKind` (connecting it otherwise is a TypeError at elaboration).
 */
export function resetPort<N extends string>(module: string, name: N, p: CrossingResetParams): Record<N, PortSpec<BoolType>> {
  return (hasReset(module, p) ? { [name]: input(Bool) } : {}) as Record<N, PortSpec<BoolType>>;
}

/** The domain of `clock`, reset by `reset` as the parameters say (no reset without `resetKind`). */
export function crossingDomain(m: ModuleBuilder, name: string, clock: ClockSignal, reset: BoolValue | undefined, p: CrossingResetParams): ClockDomain {
  return p.resetKind && reset ? m.clockDomain({ clock, name, reset, resetKind: p.resetKind, resetActive: p.resetActive }) : m.clockDomain({ clock, name });
}

/** The parameters passed on to a child primitive: only those given (an undefined key would change the child's name). */
export function resetParamsOf(p: CrossingResetParams): CrossingResetParams {
  return p.resetKind ? { resetKind: p.resetKind, resetActive: p.resetActive } : {};
}

/** A register option: reset to `value` when the domain has a reset, else power on at it. */
export function startAt<V>(p: CrossingResetParams, value: V): { reset: V } | { init: V } {
  return p.resetKind ? { reset: value } : { init: value };
}
