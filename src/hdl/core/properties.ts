// Properties of a module body: assertions, assumptions, cover points, and the temporal values they are written with.
import type { SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import type { Expr, Sig } from './ast.ts';
import type { ClockDomain } from './clockDomain.ts';
import { Bits, type Bool } from './values.ts';

export type PropertyKind = 'assert' | 'assume' | 'cover';

/** Options of `m.assert`, `m.assume` and `m.cover`. */
export interface PropertyOptions {
  /** Names it in reports and coverage (default: `<kind>_<line>`). */
  readonly name?: string;
  /** Checked only while this 1-bit value is 1 (besides the `when` it sits in and its domain's reset). */
  readonly enable?: Bits;
  /** The clock whose edges sample it (default: the domain in effect). */
  readonly domain?: ClockDomain;
}

/** Options of the temporal values (`past`, `rose`, …). */
export interface TemporalOptions {
  /** The clock of the registers that remember the past (default: the domain in effect). */
  readonly domain?: ClockDomain;
}

/** What lowering reads of a property. */
export interface PropertyRecord {
  readonly kind: PropertyKind;
  readonly cond: Expr;
  /** The `when` path and the user's enable, or null. */
  readonly enable: Expr | null;
  /** An X check's value (`cond` is then the constant 1), or null. */
  readonly known: Expr | null;
  readonly name: string | undefined;
  readonly message: string | undefined;
  readonly loc: SourceLoc;
  readonly domain: ClockDomain;
}

/**
 * How many edges back a condition looks: the deepest `past` register it reads (`pastDepth` gives each
 * register `past` made its depth; the walk stops at other signals).
 */
export function temporalDepth(e: Expr, pastDepth: ReadonlyMap<Sig, number>): number {
  if (e.kind === 'sig') return pastDepth.get(e.sig) ?? 0;
  if (e.kind === 'const') return 0;
  return e.args.reduce((d, a) => Math.max(d, temporalDepth(a, pastDepth)), 0);
}

const PROPERTY_OPTIONS = ['name', 'enable', 'domain'];

/** Checks the arguments of a property call; the condition and enable as 1-bit expressions. */
export function checkProperty(kind: PropertyKind, cond: unknown, text: unknown, opts: unknown, loc: SourceLoc): { cond: Expr | boolean; opts: PropertyOptions } {
  const what = `m.${kind}()`;
  if (typeof cond !== 'boolean' && !(cond instanceof Bits)) throw hdlError('InvalidArgument', `${what} takes a 1-bit hardware condition, got ${describe(cond)}`, loc);
  if (cond instanceof Bits && cond.width !== 1) throw hdlError('WidthMismatch', `${what}: a condition must be 1 bit, got ${cond.width} bits (compare with .ne(0) or reduce with .orR())`, loc);
  if (text !== undefined && typeof text !== 'string') throw hdlError('InvalidArgument', `${what}: the ${kind === 'cover' ? 'name' : 'message'} must be a string, got ${describe(text)}`, loc);
  if (opts === null || typeof opts !== 'object') throw hdlError('InvalidArgument', `${what}: options must be an object`, loc);
  for (const k of Object.keys(opts)) if (!PROPERTY_OPTIONS.includes(k)) throw hdlError('InvalidArgument', `${what}: unknown option '${k}' (known: ${PROPERTY_OPTIONS.join(', ')})`, loc);
  const o = opts as PropertyOptions;
  if (o.enable !== undefined && !(o.enable instanceof Bits && o.enable.width === 1)) throw hdlError('InvalidArgument', `${what}: enable must be a 1-bit hardware value`, loc);
  if (o.name !== undefined && (typeof o.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(o.name))) throw hdlError('InvalidArgument', `${what}: name must be an identifier, got ${describe(o.name)}`, loc);
  return { cond: typeof cond === 'boolean' ? cond : cond.expr, opts: o };
}

/** The 1-bit ground value a temporal helper works on. */
export function checkTemporal(what: string, x: unknown, loc: SourceLoc, oneBit: boolean): Bits {
  if (!(x instanceof Bits)) throw hdlError('InvalidArgument', `${what} takes a ground hardware value (UInt, SInt, Bool or enum), got ${describe(x)}`, loc);
  if (oneBit && x.width !== 1) throw hdlError('WidthMismatch', `${what} takes a 1-bit value, got ${x.width} bits`, loc);
  return x;
}

/** `a` implies `b`: not `a`, or `b`. */
export function implication(a: Bool, b: Bool): Bool {
  return a.not().or(b) as Bool;
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (typeof x === 'string') return JSON.stringify(x);
  if (typeof x === 'number' || typeof x === 'bigint') return `the JavaScript number ${String(x)} (use a hardware value)`;
  return typeof x === 'object' ? (x.constructor?.name ?? 'an object') : typeof x;
}
