// Clocks and clock domains: the Clock port type, clock signals, and the edge and reset a domain's registers share.
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import type { Expr } from './ast.ts';
import { refuseCoercion } from './coercion.ts';
import { callerLocation } from './sourceLocation.ts';
import { Bits } from './values.ts';

/** The type of a clock port: `clk: input(Clock)`. A clock drives registers; it is never read as data. */
export class ClockType {
  readonly kind = 'clock' as const;
  readonly width = 1;
  toString(): string {
    return 'Clock';
  }
}

/** The clock port type. */
export const Clock: ClockType = new ClockType();

/** Who owns a clock signal (the module builder; compared by identity). */
export interface ClockOwner {
  readonly moduleName: string;
}

/**
 * A clock as a module sees it: one of its own `Clock` input ports (`port`), or a clock input of a
 * submodule instance (`childin`), which the module drives with `set` (or `m.connect`) from one of its
 * own clocks. Logic cannot read a clock: gated or derived clocks are not expressible, on purpose.
 */
export class ClockSignal {
  /** childin: the clock of this module driving it, once connected. */
  source: ClockSignal | undefined;
  /** port: its period in ns, once a domain gave one. */
  periodNs: number | undefined;
  constructor(
    readonly owner: ClockOwner,
    readonly kind: 'port' | 'childin',
    /** The port name (for childin: the child's clock input). */
    readonly name: string,
    readonly loc: SourceLoc,
  ) {}

  /** Drive a submodule's clock input from a clock of this module. */
  set(clock: ClockSignal): void {
    const loc = callerLocation();
    if (this.kind !== 'childin') throw hdlError('ReadOnly', `clock '${this.name}' is an input of this module; only a submodule's clock input can be driven`, loc);
    if (!(clock instanceof ClockSignal)) throw hdlError('ClockDomain', `a clock input is driven by a clock (a Clock port of this module), not by ${(clock as unknown) instanceof Bits ? 'data' : String(clock)}`, loc);
    if (clock.owner !== this.owner || clock.kind !== 'port') throw hdlError('ClockDomain', `a submodule's clock input is driven by a Clock input port of ${this.owner.moduleName}`, loc);
    if (this.source && this.source !== clock) throw hdlError('MultipleDrivers', `clock input '${this.name}' of the instance is already driven by '${this.source.name}'`, loc);
    this.source = clock;
  }

  /** A clock where a value goes (an operand, a JavaScript operator): clocks are not data. */
  [Symbol.toPrimitive](): never {
    throw hdlError('ClockDomain', `the clock '${this.name}' is not data: logic cannot read a clock; registers sample it through a clock domain (m.clockDomain({ clock: io.${this.name} }))`, callerLocation());
  }
}

export type ClockEdgeName = 'rising' | 'falling';
export type ResetKind = 'sync' | 'async';
export type ResetActive = 'high' | 'low';

/** What `m.clockDomain` takes. */
export interface ClockDomainSpec {
  /** A Clock input port of the module. */
  readonly clock: ClockSignal;
  /** The edge registers sample on. Default: 'rising'. */
  readonly edge?: ClockEdgeName;
  /** A 1-bit signal of the module (an input port, or a reset synchronizer's output). Omit for a domain without reset. */
  readonly reset?: Bits;
  /** With `reset`: 'sync' (sampled at the edge) or 'async' (takes effect at once). */
  readonly resetKind?: ResetKind;
  /** With `reset`: the level that asserts it. */
  readonly resetActive?: ResetActive;
  /** For messages and the synthesis report. Default: the clock's name, with `_fall` for a falling edge. */
  readonly name?: string;
  /**
   * The clock's period in ns, for timing constraints: the synthesis handoff writes `create_clock` from it.
   * Domains of one clock that give a period must agree.
   */
  readonly period?: number;
}

/**
 * A clock domain: a clock, the edge its registers sample on, and the reset they share. Registers,
 * memory ports, `fsm()` and instances declared inside `m.withDomain(d, …)` (or after `m.useDomain(d)`)
 * belong to it; `reg(T, { domain })` names one explicitly.
 */
export class ClockDomain {
  constructor(
    readonly owner: ClockOwner,
    readonly name: string,
    /** undefined: the implicit clock `clk`. */
    readonly clock: ClockSignal | undefined,
    readonly edge: ClockEdgeName,
    readonly reset: { readonly expr: Expr; readonly kind: ResetKind; readonly activeHigh: boolean } | undefined,
    readonly loc: SourceLoc,
  ) {}

  /** The implicit domain: the rising edge of `clk`, reset by the active-low `rst_n` (each register chooses sync or async). */
  get implicit(): boolean {
    return this.clock === undefined;
  }

  /** The name of the clock input it samples. */
  get clockName(): string {
    return this.clock?.name ?? 'clk';
  }

  [Symbol.toPrimitive](hint: string): never {
    refuseCoercion(`the clock domain '${this.name}'`, hint);
  }
}

const SPEC_KEYS = ['clock', 'edge', 'reset', 'resetKind', 'resetActive', 'name', 'period'];

/** Checks a domain spec of module `owner` and builds the domain. */
export function makeClockDomain(owner: ClockOwner, spec: ClockDomainSpec, loc: SourceLoc): ClockDomain {
  if (typeof spec !== 'object' || spec === null) throw hdlError('InvalidArgument', 'clockDomain() takes { clock, edge?, reset?, resetKind?, resetActive? }', loc);
  const unknown = Object.keys(spec).filter((k) => !SPEC_KEYS.includes(k));
  if (unknown.length) throw hdlError('InvalidArgument', `clockDomain(): unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}; the options are ${SPEC_KEYS.join(', ')}`, loc);
  const { clock } = spec;
  if (!(clock instanceof ClockSignal)) throw hdlError('ClockDomain', `clockDomain(): 'clock' must be a Clock input port of the module (declare it as input(Clock)), got ${(clock as unknown) instanceof Bits ? 'a data signal' : String(clock)}`, loc);
  if (clock.owner !== owner || clock.kind !== 'port') throw hdlError('ClockDomain', `clockDomain(): clock '${clock.name}' is not a Clock input port of module ${owner.moduleName}`, loc);
  const edge = spec.edge ?? 'rising';
  if (edge !== 'rising' && edge !== 'falling') throw hdlError('InvalidArgument', `clockDomain(): edge must be 'rising' or 'falling', got ${String(edge)}`, loc);
  let reset: ClockDomain['reset'];
  if (spec.reset !== undefined) {
    if (!(spec.reset instanceof Bits) || spec.reset.width !== 1) throw hdlError('ClockDomain', `clockDomain(): 'reset' must be a 1-bit signal of the module${spec.reset instanceof ClockSignal ? ', not a clock' : ''}`, loc);
    if (spec.resetKind !== 'sync' && spec.resetKind !== 'async') throw hdlError('ClockDomain', `clockDomain(): a domain with a reset says whether it is synchronous or asynchronous: resetKind: 'sync' or 'async'${spec.resetKind === undefined ? '' : `, got ${String(spec.resetKind)}`}`, loc);
    if (spec.resetActive !== 'high' && spec.resetActive !== 'low') throw hdlError('ClockDomain', `clockDomain(): a domain with a reset says which level asserts it: resetActive: 'high' or 'low'${spec.resetActive === undefined ? '' : `, got ${String(spec.resetActive)}`}`, loc);
    reset = { expr: spec.reset.expr, kind: spec.resetKind, activeHigh: spec.resetActive === 'high' };
  } else if (spec.resetKind !== undefined || spec.resetActive !== undefined) {
    throw hdlError('ClockDomain', 'clockDomain(): resetKind and resetActive need a reset signal', loc);
  }
  if (spec.period !== undefined) {
    if (typeof spec.period !== 'number' || !Number.isFinite(spec.period) || spec.period <= 0) throw hdlError('InvalidArgument', `clockDomain(): period is a positive number of ns, got ${String(spec.period)}`, loc);
    if (clock.periodNs !== undefined && clock.periodNs !== spec.period) throw hdlError('ClockDomain', `clockDomain(): clock '${clock.name}' was given a period of ${clock.periodNs} ns already, not ${spec.period} ns`, loc);
    clock.periodNs = spec.period;
  }
  const name = spec.name ?? (edge === 'falling' ? `${clock.name}_fall` : clock.name);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw hdlError('InvalidArgument', `clockDomain(): name '${name}' is not an identifier`, loc);
  return new ClockDomain(owner, name, clock, edge, reset, loc);
}
