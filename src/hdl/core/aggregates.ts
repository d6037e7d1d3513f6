// Values of bundle and vector types: built leaf by leaf from a type, connected field by field.
import { hdlError } from '../ir/diagnostics.ts';
import { callerLocation } from './sourceLocation.ts';
import { refuseCoercion } from './coercion.ts';
import { currentContext } from './context.ts';
import {
  BoolType,
  BundleType,
  type DecoupledType,
  EnumType,
  Flipped,
  SIntType,
  UIntType,
  VecType,
  isGround,
  typeName,
  type DecoupledFields,
  type FieldSpec,
  type GroundType,
  type HType,
} from './types.ts';
import { Bits, Bool, EnumValue, SInt, UInt, mux, type Literal } from './values.ts';

export type ValueOf<T> = T extends BoolType
  ? Bool
  : T extends UIntType
    ? UInt
    : T extends SIntType
      ? SInt
      : T extends EnumType<infer N>
        ? EnumValue<N>
        : T extends VecType<infer E>
          ? VecValue<ValueOf<E>>
          : T extends DecoupledType<infer B>
            ? DecoupledValue<B>
            : T extends BundleType<infer F>
            ? BundleValue<F>
            : never;

type FieldValue<S> = S extends Flipped<infer T> ? ValueOf<T> : ValueOf<S>;
export type BundleValue<F> = { readonly [K in keyof F]: FieldValue<F[K]> };

/** A Decoupled value with its `fire` (valid && ready) signal. */
export type DecoupledValue<T extends HType> = BundleValue<DecoupledFields<T>> & { readonly fire: Bool };

/** Any value the DSL can build from a type. */
export type HValue = Bits | VecValue<HValue> | { readonly [k: string]: HValue };

const typeKey = Symbol('rtgpu.type');

/** A vector value: a fixed array of element values with constant and dynamic indexing. */
export class VecValue<E extends HValue = HValue> implements Iterable<E> {
  constructor(
    readonly type: VecType,
    readonly elems: readonly E[],
  ) {}
  get length(): number {
    return this.elems.length;
  }
  [Symbol.toPrimitive](hint: string): never {
    refuseCoercion(`a ${typeName(this.type)} value`, hint);
  }
  [Symbol.iterator](): Iterator<E> {
    return this.elems[Symbol.iterator]();
  }
  /** Element by constant index, or (for ground elements) by a dynamic UInt index; out of range reads the last element. */
  at(i: number | UInt): E {
    if (typeof i === 'number') {
      const e = this.elems[i];
      if (e === undefined) throw hdlError('InvalidArgument', `index ${i} is outside a Vec of ${this.length}`, callerLocation());
      return e;
    }
    const first = this.elems[0];
    if (!(first instanceof Bits)) throw hdlError('InvalidArgument', 'dynamic indexing needs a Vec of ground values', callerLocation());
    let acc: Bits = this.elems[this.length - 1] as unknown as Bits;
    for (let k = this.length - 2; k >= 0; k--) acc = mux(i.eq(k), this.elems[k] as unknown as Bits, acc);
    return acc as unknown as E;
  }
  /** Assign the element selected by a dynamic index (a decoder of conditional assignments). */
  setAt(i: UInt, value: Bits | Literal): void {
    const loc = callerLocation();
    const ctx = currentContext(loc, 'setAt()');
    this.elems.forEach((e, k) => {
      if (!(e instanceof Bits)) throw hdlError('InvalidArgument', 'setAt needs a Vec of ground values', loc);
      ctx.under(i.eq(k).expr, () => e.set(value));
    });
  }
  map<R>(f: (e: E, i: number) => R): R[] {
    return this.elems.map(f);
  }
}

/** The type a value was built from (ground values carry it; aggregates record it). */
export function typeOf(v: HValue): HType {
  if (v instanceof Bits) return v.type;
  if (v instanceof VecValue) return v.type;
  const t = (v as Record<symbol, unknown>)[typeKey];
  if (!t) throw hdlError('InvalidArgument', 'not a hardware value', callerLocation());
  return t as HType;
}

/** Whether `v` is a hardware value: a ground signal, a Vec or a Bundle. */
export function isHValue(v: unknown): v is HValue {
  return v instanceof Bits || v instanceof VecValue || (typeof v === 'object' && v !== null && typeKey in v);
}

/** Build a value of `type`; `leaf` makes each ground leaf from its path and flip parity. */
export function buildValue<T extends HType>(type: T, leaf: (t: GroundType, path: readonly string[], flipped: boolean) => Bits, path: readonly string[] = [], flipped = false): ValueOf<T> {
  if (isGround(type)) return leaf(type, path, flipped) as ValueOf<T>;
  if (type.kind === 'vec') {
    const elems = Array.from({ length: type.length }, (_, i) => buildValue(type.elem, leaf, [...path, String(i)], flipped));
    return new VecValue(type, elems) as ValueOf<T>;
  }
  const obj: Record<string | symbol, unknown> = {};
  for (const [k, f] of Object.entries(type.fields as Record<string, FieldSpec>)) {
    const isFlip = f instanceof Flipped;
    obj[k] = buildValue(isFlip ? f.type : (f as HType), leaf, [...path, k], flipped !== isFlip);
  }
  Object.defineProperty(obj, typeKey, { value: type, enumerable: false });
  Object.defineProperty(obj, Symbol.toPrimitive, { value: (hint: string) => refuseCoercion(`a ${typeName(type)} value`, hint), enumerable: false });
  type.extend?.(obj);
  return Object.freeze(obj) as ValueOf<T>;
}

/** Visit matching ground leaves of two values of the same shape, with their flip parity. */
export function zipLeaves(a: HValue, b: HValue, visit: (x: Bits, y: Bits, flipped: boolean, path: string) => void, path = '', flipped = false): void {
  if (a instanceof Bits || b instanceof Bits) {
    if (!(a instanceof Bits && b instanceof Bits)) throw hdlError('TypeMismatch', `shape mismatch at '${path || '<root>'}'`, callerLocation());
    visit(a, b, flipped, path);
    return;
  }
  if (a instanceof VecValue || b instanceof VecValue) {
    if (!(a instanceof VecValue && b instanceof VecValue) || a.length !== b.length) {
      throw hdlError('TypeMismatch', `shape mismatch at '${path || '<root>'}': vectors of different lengths`, callerLocation());
    }
    a.elems.forEach((e, i) => zipLeaves(e, b.elems[i]!, visit, `${path}[${i}]`, flipped));
    return;
  }
  const ta = typeOf(a) as BundleType;
  const ka = Object.keys(ta.fields);
  const kb = Object.keys(b);
  const missing = ka.filter((k) => !(k in b)).concat(kb.filter((k) => !(k in a)));
  if (missing.length) throw hdlError('TypeMismatch', `bundle fields differ: ${missing.join(', ')}`, callerLocation());
  for (const k of ka) {
    const f = ta.fields[k]!;
    zipLeaves(a[k]!, (b as Record<string, HValue>)[k]!, visit, path ? `${path}.${k}` : k, flipped !== f instanceof Flipped);
  }
}

/** All ground leaves of a value, in field order. */
export function leaves(v: HValue): Bits[] {
  const out: Bits[] = [];
  zipLeaves(v, v, (x) => out.push(x));
  return out;
}
