// Hardware types: UInt, SInt, Bool, enums, bundles (records with flippable fields) and vectors.
import type { EnumInfo } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import { callerLocation } from './sourceLocation.ts';

export class UIntType {
  readonly kind = 'uint' as const;
  constructor(readonly width: number) {}
  toString(): string {
    return `UInt(${this.width})`;
  }
}

export class SIntType {
  readonly kind = 'sint' as const;
  constructor(readonly width: number) {}
  toString(): string {
    return `SInt(${this.width})`;
  }
}

export class BoolType {
  readonly kind = 'bool' as const;
  readonly width = 1;
  toString(): string {
    return 'Bool';
  }
}

export class EnumType<N extends string = string> {
  readonly kind = 'enum' as const;
  readonly width: number;
  readonly info: EnumInfo;
  constructor(
    readonly name: string,
    readonly members: readonly N[],
  ) {
    this.width = Math.max(1, Math.ceil(Math.log2(members.length)));
    this.info = { name, members: members.map((m, i) => ({ name: m, value: i })) };
  }
  indexOf(member: N): number {
    const i = this.members.indexOf(member);
    if (i < 0) throw hdlError('InvalidArgument', `enum ${this.name} has no member '${member}' (members: ${this.members.join(', ')})`, callerLocation());
    return i;
  }
  toString(): string {
    return `Enum(${this.name})`;
  }
}

export type GroundType = UIntType | SIntType | BoolType | EnumType<string>;

/** A bundle field whose direction is reversed relative to the bundle (e.g. `ready` in a valid/ready bundle). */
export class Flipped<T extends HType = HType> {
  readonly kind = 'flip' as const;
  constructor(readonly type: T) {}
}

export type FieldSpec = HType | Flipped;

export class BundleType<F extends Record<string, FieldSpec> = Record<string, FieldSpec>> {
  readonly kind = 'bundle' as const;
  constructor(
    readonly fields: F,
    /** Adds derived members (such as `fire`) to every value of this bundle type. */
    readonly extend?: (value: Record<string, unknown>) => void,
  ) {}
  get width(): number {
    return Object.values(this.fields).reduce((s, f) => s + (f instanceof Flipped ? f.type.width : f.width), 0);
  }
}

/** The fields of a valid/ready handshake bundle (Decoupled, in decoupled.ts). */
export type DecoupledFields<T extends HType> = { valid: BoolType; ready: Flipped<BoolType>; bits: T };

/** The type Decoupled(T) builds: a bundle whose values also have `fire`. */
export class DecoupledType<T extends HType> extends BundleType<DecoupledFields<T>> {
  readonly decoupled = true;
  /** An irrevocable handshake: a word offered stays offered, unchanged, until taken (its ports check it). */
  irrevocable = false;
}

export class VecType<E extends HType = HType> {
  readonly kind = 'vec' as const;
  constructor(
    readonly length: number,
    readonly elem: E,
  ) {}
  get width(): number {
    return this.length * this.elem.width;
  }
}

export type HType = GroundType | BundleType<any> | VecType<any>;

function checkWidth(width: number, what: string): void {
  if (!Number.isInteger(width) || width < 1 || width > 4096) {
    // A string or an object printed bare would look like a fine number ('8' as 8).
    const shown = typeof width === 'number' ? String(width) : typeof width === 'string' ? `the string '${width}'${/^\s*\d+\s*$/.test(width) ? ` (write ${String(width).trim()} without quotes)` : ''}` : typeof width === 'bigint' ? `${String(width)}n, a bigint (write a number)` : typeof width === 'object' ? (width === null ? 'null' : 'an object') : `a ${typeof width}`;
    throw hdlError('InvalidArgument', `${what} width must be an integer from 1 to 4096, got ${shown}`, callerLocation());
  }
}

/** An unsigned integer type of `width` bits. */
export function UInt(width: number): UIntType {
  checkWidth(width, 'UInt');
  return new UIntType(width);
}

/** A two's-complement signed integer type of `width` bits. */
export function SInt(width: number): SIntType {
  checkWidth(width, 'SInt');
  return new SIntType(width);
}

/** The one-bit boolean type. */
export const Bool: BoolType = new BoolType();

/** An enumeration; its members are numbered 0, 1, … and named in the SV's typedef enum and in waveforms. */
export function Enum<const N extends string>(name: string, members: readonly N[]): EnumType<N> {
  if (members.length === 0) throw hdlError('InvalidArgument', `enum ${name} needs at least one member`, callerLocation());
  const seen = new Set<string>();
  for (const m of members) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(m)) throw hdlError('InvalidArgument', `enum ${name}: member '${m}' is not an identifier`, callerLocation());
    if (seen.has(m)) throw hdlError('InvalidArgument', `enum ${name}: member '${m}' appears twice`, callerLocation());
    seen.add(m);
  }
  return new EnumType(name, members);
}

/** A record type. Wrap a field in `flip()` to reverse its direction. */
export function Bundle<F extends Record<string, FieldSpec>>(fields: F): BundleType<F> {
  for (const k of Object.keys(fields)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw hdlError('InvalidArgument', `bundle field '${k}' is not an identifier`, callerLocation());
    if (!(fields[k] instanceof Flipped)) checkHType(fields[k], `bundle field '${k}'`);
  }
  return new BundleType(fields);
}

/** A vector of `length` elements of one type. */
export function Vec<E extends HType>(length: number, elem: E): VecType<E> {
  if (!Number.isInteger(length) || length < 1) throw hdlError('InvalidArgument', `Vec length must be a positive integer, got ${length}`, callerLocation());
  checkHType(elem, 'Vec');
  return new VecType(length, elem);
}

export function flip<T extends HType>(type: T): Flipped<T> {
  checkHType(type, 'flip()');
  return new Flipped(type);
}

/** Whether `x` is a hardware type (a user's JavaScript may hand the DSL anything: NaN, a string, a port spec). */
export function isHType(x: unknown): x is HType {
  return x instanceof UIntType || x instanceof SIntType || x instanceof BoolType || x instanceof EnumType || x instanceof BundleType || x instanceof VecType;
}

/** `what` needs a hardware type: an InvalidArgument error at the user's line otherwise. */
export function checkHType(x: unknown, what: string): void {
  if (isHType(x)) return;
  const shown = typeof x === 'string' ? `'${x}'` : typeof x === 'object' && x !== null ? `an object with keys ${Object.keys(x).join(', ') || '(none)'}` : String(x);
  throw hdlError('InvalidArgument', `${what} needs a hardware type such as UInt(8), Bool or a Bundle, got ${shown}`, callerLocation());
}

export function isGround(t: HType): t is GroundType {
  return t.kind === 'uint' || t.kind === 'sint' || t.kind === 'bool' || t.kind === 'enum';
}

export function typeName(t: HType): string {
  if (isGround(t)) return t.toString();
  if (t.kind === 'vec') return `Vec(${t.length}, ${typeName(t.elem)})`;
  return `Bundle{${Object.entries(t.fields as Record<string, FieldSpec>).map(([k, f]) => `${k}: ${f instanceof Flipped ? `flip(${typeName(f.type)})` : typeName(f)}`).join(', ')}}`;
}

/** Whether two types have the same shape and ground types (widths and signedness included). */
export function sameType(a: HType, b: HType): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'enum') return a === b || (b.kind === 'enum' && a.name === b.name && a.members.join() === b.members.join());
  if (a.kind === 'uint' || a.kind === 'sint') return a.width === (b as UIntType).width;
  if (a.kind === 'bool') return true;
  if (a.kind === 'vec') return a.length === (b as VecType).length && sameType(a.elem, (b as VecType).elem);
  const fa = Object.entries(a.fields);
  const fb = (b as BundleType).fields;
  return (
    fa.length === Object.keys(fb).length &&
    fa.every(([k, f]) => {
      const g = fb[k];
      if (!g) return false;
      if (f instanceof Flipped !== g instanceof Flipped) return false;
      return sameType(f instanceof Flipped ? f.type : f, g instanceof Flipped ? g.type : (g as HType));
    })
  );
}
