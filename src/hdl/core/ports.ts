// Port declarations of a module (`input`, `output`) and the values its body receives for them.
import { hdlError } from '../ir/diagnostics.ts';
import type { ValueOf } from './aggregates.ts';
import { ClockSignal, ClockType } from './clockDomain.ts';
import { checkOptions } from './options.ts';
import { callerLocation } from './sourceLocation.ts';
import { DecoupledType, checkHType, type HType } from './types.ts';

export interface PortSpec<T extends HType | ClockType = HType | ClockType> {
  readonly dir: 'input' | 'output';
  readonly type: T;
  /** A `Decoupled`/`Irrevocable` port: check the valid/ready rules (default: an Irrevocable port's are; see `ModuleBuilder.checkHandshake`). */
  readonly checkHandshake?: boolean;
}

/** Options of a port. */
export interface PortOptions {
  /** The valid/ready rules of a handshake port as properties: an `Irrevocable` port has them unless false, a `Decoupled` one when true. */
  readonly checkHandshake?: boolean;
}
export type PortSpecs = Record<string, PortSpec>;
export type PortsValue<S extends PortSpecs> = { readonly [K in keyof S]: S[K]['type'] extends ClockType ? ClockSignal : ValueOf<S[K]['type']> };

/** A port driven from outside the module (flipped fields of a bundle point outward); `input(Clock)` is a clock input. */
export function input<T extends HType | ClockType>(type: T, opts: PortOptions = {}): PortSpec<T> {
  if (!(type instanceof ClockType)) checkHType(type, 'input()');
  return { dir: 'input', type, ...portOptions(opts, type) };
}
/** A port driven by the module (flipped fields of a bundle point inward). */
export function output<T extends HType | ClockType>(type: T, opts: PortOptions = {}): PortSpec<T> {
  if ((type as unknown) instanceof ClockType) throw hdlError('ClockDomain', 'a module cannot output a clock: clocks enter through input(Clock) ports (derived and gated clocks are not supported)', callerLocation());
  checkHType(type, 'output()');
  return { dir: 'output', type, ...portOptions(opts, type) };
}

function portOptions(opts: PortOptions, type: unknown): Pick<PortSpec, 'checkHandshake'> {
  const loc = callerLocation();
  checkOptions('a port', opts, ['checkHandshake'], loc);
  if (opts.checkHandshake === undefined) return {};
  if (!(type instanceof DecoupledType)) throw hdlError('InvalidArgument', 'checkHandshake applies to Decoupled and Irrevocable ports only', loc);
  return { checkHandshake: opts.checkHandshake };
}
