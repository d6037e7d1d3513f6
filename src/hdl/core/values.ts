// Ground hardware values (UInt, SInt, Bool, enum) and their operators; each operator records an AST node.
import type { CellOp, SourceLoc } from '../ir/netlist.ts';
import { hdlError } from '../ir/diagnostics.ts';
import type { Expr, OpExpr } from './ast.ts';
import { currentContext } from './context.ts';
import { callerLocation } from './sourceLocation.ts';
import { refuseCoercion } from './coercion.ts';
import { Bool as BoolT, BoolType, EnumType, SIntType, UIntType, type GroundType } from './types.ts';

export type Literal = number | bigint | boolean;
export type Operand = Bits | Literal;

function op(o: OpExpr['op'], width: number, args: Expr[], loc: SourceLoc, lo?: number): OpExpr {
  return lo === undefined ? { kind: 'op', op: o, width, args, loc } : { kind: 'op', op: o, width, args, loc, lo };
}

function constExpr(value: bigint, width: number, loc: SourceLoc): Expr {
  return { kind: 'const', width, value, loc };
}

/** Encode a literal for a ground type, or fail with ValueOutOfRange naming the user's line. */
export function literalExpr(v: Literal | string, type: GroundType, loc: SourceLoc): Expr {
  if (typeof v === 'string') {
    if (type.kind !== 'enum') throw hdlError('TypeMismatch', `'${v}' is an enum member name but the destination is ${type}`, loc);
    return constExpr(BigInt(type.indexOf(v)), type.width, loc);
  }
  if (typeof v === 'boolean') v = v ? 1n : 0n;
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw hdlError('ValueOutOfRange', `literal ${v} is not a safe integer (use a bigint)`, loc);
    v = BigInt(v);
  }
  const w = BigInt(type.width);
  if (type.kind === 'sint') {
    const lo = -(1n << (w - 1n));
    const hi = (1n << (w - 1n)) - 1n;
    if (v < lo || v > hi) throw hdlError('ValueOutOfRange', `literal ${v} does not fit ${type} (range ${lo}..${hi})`, loc);
    return constExpr(v < 0n ? v + (1n << w) : v, type.width, loc);
  }
  if (type.kind === 'enum') {
    if (v < 0n || v >= BigInt(type.members.length)) throw hdlError('ValueOutOfRange', `${v} is not a member index of enum ${type.name}`, loc);
    return constExpr(v, type.width, loc);
  }
  if (v < 0n || v >= 1n << w) throw hdlError('ValueOutOfRange', `literal ${v} does not fit ${type} (range 0..${(1n << w) - 1n})`, loc);
  return constExpr(v, type.width, loc);
}

export function wrap(expr: Expr, type: GroundType): Bits {
  switch (type.kind) {
    case 'bool':
      return new Bool(expr, type);
    case 'uint':
      return new UInt(expr, type);
    case 'sint':
      return new SInt(expr, type);
    case 'enum':
      return new EnumValue(expr, type);
  }
}

const isSigned = (t: GroundType) => t.kind === 'sint';

/** Extend (by the value's own signedness) or keep; never narrows. */
function extendExpr(v: Bits, width: number, loc: SourceLoc): Expr {
  if (width === v.width) return v.expr;
  return op(isSigned(v.type) ? 'sext' : 'zext', width, [v.expr], loc);
}

/** The value of a constant, also seen through a width extension (its bits, unsigned). */
function constantOf(e: Expr): bigint | undefined {
  if (e.kind === 'const') return e.value;
  if (e.kind !== 'op' || e.args.length !== 1 || (e.op !== 'zext' && e.op !== 'sext')) return undefined;
  const inner = e.args[0]!;
  const v = constantOf(inner);
  if (v === undefined) return undefined;
  const sign = e.op === 'sext' && (v >> BigInt(inner.width - 1)) & 1n;
  return sign ? v | (((1n << BigInt(e.width)) - 1n) ^ ((1n << BigInt(inner.width)) - 1n)) : v;
}

/**
 * An ordering comparison against the end of its range (unsigned x >= 0, x < 0, x <= max; signed x >= min,
 * x <= max …) is constant: folded here, it never reaches the SV, where Verilator warns about it
 * (UNSIGNED, CMPCONST) and the other back ends would only compute the same constant.
 */
function constantComparison(cell: CellOp, x: Expr, y: Expr, w: number): boolean | undefined {
  const a = constantOf(x);
  const b = constantOf(y);
  if (a === undefined && b === undefined) return undefined;
  const ones = (1n << BigInt(w)) - 1n;
  const [lo, hi] = cell === 'slt' || cell === 'sle' ? [1n << BigInt(w - 1), ones >> 1n] : [0n, ones];
  switch (cell) {
    case 'ule':
    case 'sle':
      return a === lo || b === hi ? true : undefined;
    case 'ult':
    case 'slt':
      return b === lo || a === hi ? false : undefined;
    default:
      return undefined;
  }
}

function numberKind(t: GroundType): 'u' | 's' | 'e' {
  return t.kind === 'sint' ? 's' : t.kind === 'enum' ? 'e' : 'u';
}

/** Coerce the right operand of a binary operator to a value compatible with the left. */
function operand(a: Bits, b: Operand, what: string, loc: SourceLoc): Bits {
  if (!(b instanceof Bits)) return wrap(literalExpr(b, a.type, loc), a.type);
  if (numberKind(a.type) !== numberKind(b.type)) {
    throw hdlError('TypeMismatch', `${what}: cannot combine ${a.type} and ${b.type}; convert with .asUInt()/.asSInt()`, loc);
  }
  if (a.type instanceof EnumType && b.type instanceof EnumType && a.type.name !== b.type.name) {
    throw hdlError('TypeMismatch', `${what}: cannot combine enum ${a.type.name} with enum ${b.type.name}`, loc);
  }
  return b;
}

function resultType(a: Bits, b: Bits | null, width: number): GroundType {
  if (width === 1 && a.type.kind === 'bool' && (b === null || b.type.kind === 'bool')) return BoolT;
  return isSigned(a.type) ? new SIntType(width) : new UIntType(width);
}

/** Common base of every ground value. Assignable values (wires, registers, outputs) accept `set`. */
export abstract class Bits {
  constructor(
    readonly expr: Expr,
    readonly type: GroundType,
  ) {}

  get width(): number {
    return this.expr.width;
  }

  /** `==`, `<`, `+` and template strings on a hardware value are mistakes: a located error names the method to use. */
  [Symbol.toPrimitive](hint: string): never {
    refuseCoercion(`a ${this.type} value`, hint);
  }

  /**
   * Drive this signal (last assignment wins; inside `when`, only under its condition). A narrower value
   * is extended by its own signedness; a wider one is an error: truncate explicitly.
   */
  set(value: Operand | string): void {
    const loc = callerLocation();
    const ctx = currentContext(loc, 'set()');
    if (this.expr.kind !== 'sig' || !this.expr.sig.assignable) {
      const what = this.expr.kind === 'sig' ? `${this.expr.sig.kind === 'input' ? 'an input port' : this.expr.sig.kind === 'childout' ? 'an output of a submodule' : 'a memory read port'}` : 'an expression';
      throw hdlError('ReadOnly', `cannot assign to ${what}${this.expr.kind === 'sig' && this.expr.sig.name ? ` ('${this.expr.sig.name}')` : ''}`, loc);
    }
    let v: Bits;
    if (value instanceof Bits) {
      v = value;
      const tk = numberKind(this.type);
      if (tk !== numberKind(v.type) || (this.type instanceof EnumType && v.type instanceof EnumType && this.type.name !== v.type.name)) {
        throw hdlError('TypeMismatch', `cannot assign ${v.type} to ${this.type}${tk === 'u' && numberKind(v.type) === 's' ? ' (use .asUInt())' : tk === 's' ? ' (use .asSInt())' : ''}`, loc);
      }
      if (v.width > this.width) {
        throw hdlError('WidthMismatch', `cannot assign a ${v.width}-bit value to a ${this.width}-bit signal; truncation must be explicit (.trunc(${this.width}))`, loc);
      }
    } else {
      v = wrap(literalExpr(value, this.type, loc), this.type);
    }
    ctx.assign(this.expr.sig, extendExpr(v, this.width, loc), loc);
  }

  /** Give this expression an explicit name in the generated SystemVerilog and waveforms. */
  named(name: string): this {
    if (this.expr.kind === 'op') this.expr.name = name;
    return this;
  }

  // ---- bitwise ----
  and(b: Operand): this['_self'] {
    return this.bitwise('and', b);
  }
  or(b: Operand): this['_self'] {
    return this.bitwise('or', b);
  }
  xor(b: Operand): this['_self'] {
    return this.bitwise('xor', b);
  }
  not(): this['_self'] {
    return wrap(op('not', this.width, [this.expr], callerLocation()), this.type) as this['_self'];
  }
  /** Type marker so that `and`/`or`/`not` of a Bool stay Bool. */
  declare readonly _self: Bits;

  private bitwise(o: 'and' | 'or' | 'xor', bRaw: Operand): this['_self'] {
    const loc = callerLocation();
    const b = operand(this, bRaw, o, loc);
    const w = Math.max(this.width, b.width);
    return wrap(op(o, w, [extendExpr(this, w, loc), extendExpr(b, w, loc)], loc), resultType(this, b, w)) as this['_self'];
  }

  // ---- reductions ----
  andR(): Bool {
    return new Bool(op('redand', 1, [this.expr], callerLocation()), BoolT);
  }
  orR(): Bool {
    return new Bool(op('redor', 1, [this.expr], callerLocation()), BoolT);
  }
  xorR(): Bool {
    return new Bool(op('redxor', 1, [this.expr], callerLocation()), BoolT);
  }

  // ---- comparisons (signedness from the operands' type) ----
  eq(b: Operand | string): Bool {
    return this.compare('eq', b, false);
  }
  ne(b: Operand | string): Bool {
    return this.compare('ne', b, false);
  }
  lt(b: Operand): Bool {
    return this.compare('lt', b, false);
  }
  le(b: Operand): Bool {
    return this.compare('le', b, false);
  }
  gt(b: Operand): Bool {
    return this.compare('lt', b, true);
  }
  ge(b: Operand): Bool {
    return this.compare('le', b, true);
  }

  private compare(o: 'eq' | 'ne' | 'lt' | 'le', bRaw: Operand | string, swap: boolean): Bool {
    const loc = callerLocation();
    const b = typeof bRaw === 'string' ? wrap(literalExpr(bRaw, this.type, loc), this.type) : operand(this, bRaw, o, loc);
    const w = Math.max(this.width, b.width);
    let x = extendExpr(this, w, loc);
    let y = extendExpr(b, w, loc);
    if (swap) [x, y] = [y, x];
    const cell: CellOp = o === 'eq' || o === 'ne' ? o : `${isSigned(this.type) ? 's' : 'u'}${o}` as CellOp;
    const known = constantComparison(cell, x, y, w);
    if (known !== undefined) return new Bool(constExpr(known ? 1n : 0n, 1, loc), BoolT);
    return new Bool(op(cell as OpExpr['op'], 1, [x, y], loc), BoolT);
  }

  // ---- bits ----
  /** Bits hi..lo (inclusive) as a UInt. */
  bits(hi: number, lo: number): UInt {
    const loc = callerLocation();
    if (!Number.isInteger(hi) || !Number.isInteger(lo) || lo < 0 || hi < lo || hi >= this.width) {
      throw hdlError('InvalidArgument', `bits(${hi}, ${lo}) is outside a ${this.width}-bit value`, loc);
    }
    const w = hi - lo + 1;
    return new UInt(w === this.width ? this.expr : op('slice', w, [this.expr], loc, lo), new UIntType(w));
  }

  /** One bit, by constant or dynamic index (a dynamic index past the top reads 0). */
  bit(i: number | UInt): Bool {
    const loc = callerLocation();
    if (typeof i === 'number') {
      if (!Number.isInteger(i) || i < 0 || i >= this.width) throw hdlError('InvalidArgument', `bit(${i}) is outside a ${this.width}-bit value`, loc);
      return new Bool(this.width === 1 ? this.expr : op('slice', 1, [this.expr], loc, i), BoolT);
    }
    const shifted = op('lshr', this.width, [this.expr, i.expr], loc);
    return new Bool(this.width === 1 ? shifted : op('slice', 1, [shifted], loc, 0), BoolT);
  }

  /** The low `width` bits: the explicit truncation. */
  trunc(width: number): this['_self'] {
    const loc = callerLocation();
    if (!Number.isInteger(width) || width < 1 || width > this.width) throw hdlError('InvalidArgument', `trunc(${width}) of a ${this.width}-bit value`, loc);
    const e = width === this.width ? this.expr : op('slice', width, [this.expr], loc, 0);
    return wrap(e, isSigned(this.type) ? new SIntType(width) : width === 1 && this.type.kind === 'bool' ? BoolT : new UIntType(width)) as this['_self'];
  }

  /** Extend to `width` bits by this value's signedness (zero for UInt, sign for SInt). */
  pad(width: number): this['_self'] {
    const loc = callerLocation();
    if (!Number.isInteger(width) || width < this.width) throw hdlError('InvalidArgument', `pad(${width}) of a ${this.width}-bit value would narrow it; use trunc()`, loc);
    return wrap(extendExpr(this, width, loc), isSigned(this.type) ? new SIntType(width) : new UIntType(width)) as this['_self'];
  }

  zext(width: number): UInt {
    const loc = callerLocation();
    if (!Number.isInteger(width) || width < this.width) throw hdlError('InvalidArgument', `zext(${width}) of a ${this.width}-bit value would narrow it`, loc);
    return new UInt(width === this.width ? this.expr : op('zext', width, [this.expr], loc), new UIntType(width));
  }

  sext(width: number): SInt {
    const loc = callerLocation();
    if (!Number.isInteger(width) || width < this.width) throw hdlError('InvalidArgument', `sext(${width}) of a ${this.width}-bit value would narrow it`, loc);
    return new SInt(width === this.width ? this.expr : op('sext', width, [this.expr], loc), new SIntType(width));
  }

  asUInt(): UInt {
    return new UInt(this.expr, new UIntType(this.width));
  }
  asSInt(): SInt {
    return new SInt(this.expr, new SIntType(this.width));
  }
  asBool(): Bool {
    if (this.width !== 1) throw hdlError('WidthMismatch', `asBool() needs a 1-bit value, this one has ${this.width} bits`, callerLocation());
    return new Bool(this.expr, BoolT);
  }

  // ---- shifts (width-preserving) ----
  /** Shift left by a constant or a dynamic UInt amount, keeping the width (bits shifted out are lost). */
  shl(n: number | UInt): this['_self'] {
    return this.shift('shl', n);
  }
  /** Shift right (arithmetic for SInt, logical for UInt), keeping the width. */
  shr(n: number | UInt): this['_self'] {
    return this.shift(isSigned(this.type) ? 'ashr' : 'lshr', n);
  }

  private shift(o: 'shl' | 'lshr' | 'ashr', n: number | UInt): this['_self'] {
    const loc = callerLocation();
    const w = this.width;
    const t = isSigned(this.type) ? new SIntType(w) : new UIntType(w);
    if (typeof n !== 'number') {
      if ((n.type.kind as string) === 'sint') throw hdlError('TypeMismatch', 'shift amounts are unsigned; use .asUInt()', loc);
      return wrap(op(o, w, [this.expr, n.expr], loc), t) as this['_self'];
    }
    if (!Number.isInteger(n) || n < 0) throw hdlError('InvalidArgument', `shift amount must be a non-negative integer, got ${n}`, loc);
    if (n === 0) return wrap(this.expr, t) as this['_self'];
    if (o === 'shl') {
      if (n >= w) return wrap(constExpr(0n, w, loc), t) as this['_self'];
      const kept = op('slice', w - n, [this.expr], loc, 0);
      return wrap(op('concat', w, [kept, constExpr(0n, n, loc)], loc), t) as this['_self'];
    }
    if (n >= w) return wrap(o === 'ashr' ? op('sext', w, [op('slice', 1, [this.expr], loc, w - 1)], loc) : constExpr(0n, w, loc), t) as this['_self'];
    return wrap(op(o === 'ashr' ? 'sext' : 'zext', w, [op('slice', w - n, [this.expr], loc, n)], loc), t) as this['_self'];
  }
}

/** Shared arithmetic of UInt and SInt. */
abstract class Arith extends Bits {
  /** Wrapping add: width max(a, b). */
  add(b: Operand): this['_self'] {
    return this.arith('add', b, false);
  }
  /** Widening add: width max(a, b) + 1, never overflows. */
  addw(b: Operand): this['_self'] {
    return this.arith('add', b, true);
  }
  sub(b: Operand): this['_self'] {
    return this.arith('sub', b, false);
  }
  subw(b: Operand): this['_self'] {
    return this.arith('sub', b, true);
  }
  /** Wrapping multiply: the low max(a, b) bits of the product. */
  mul(b: Operand): this['_self'] {
    return this.arith('mul', b, false);
  }
  /** Full multiply: width a + b, never overflows. */
  mulw(b: Operand): this['_self'] {
    return this.arith('mul', b, true);
  }

  private arith(o: 'add' | 'sub' | 'mul', bRaw: Operand, widen: boolean): this['_self'] {
    const loc = callerLocation();
    const b = operand(this, bRaw, o, loc);
    const m = Math.max(this.width, b.width);
    const w = !widen ? m : o === 'mul' ? this.width + b.width : m + 1;
    const t = isSigned(this.type) ? new SIntType(w) : new UIntType(w);
    return wrap(op(o, w, [extendExpr(this, w, loc), extendExpr(b, w, loc)], loc), t) as this['_self'];
  }
}

export class UInt extends Arith {
  declare readonly _self: UInt;
  declare readonly type: UIntType | BoolType;
}

export class SInt extends Arith {
  declare readonly _self: SInt;
  declare readonly type: SIntType;
  /** Two's complement negation, wrapping (the most negative value maps to itself). */
  neg(): SInt {
    const loc = callerLocation();
    return new SInt(op('sub', this.width, [constExpr(0n, this.width, loc), this.expr], loc), new SIntType(this.width));
  }
}

export class Bool extends UInt {
  declare readonly _self: Bool;
  declare readonly type: BoolType;
}

export class EnumValue<N extends string = string> extends Bits {
  declare readonly _self: EnumValue<N>;
  declare readonly type: EnumType<N>;
  /** True when this value is the named member. */
  is(member: N): Bool {
    return this.eq(member);
  }
}

/** A UInt literal of the given width (default: the smallest that holds it). */
export function lit(value: number | bigint, width?: number): UInt {
  const loc = callerLocation();
  const v = BigInt(value);
  if (v < 0n) throw hdlError('ValueOutOfRange', `lit(${v}) is negative; use slit() for signed literals`, loc);
  const w = width ?? Math.max(1, v.toString(2).length);
  return new UInt(literalExpr(v, new UIntType(w), loc), new UIntType(w));
}

/** An SInt literal of the given width. */
export function slit(value: number | bigint, width: number): SInt {
  const loc = callerLocation();
  return new SInt(literalExpr(BigInt(value), new SIntType(width), loc), new SIntType(width));
}

export const True = (): Bool => new Bool(constExpr(1n, 1, callerLocation()), BoolT);
export const False = (): Bool => new Bool(constExpr(0n, 1, callerLocation()), BoolT);

/** Concatenate values, most significant first. */
export function cat(...parts: Bits[]): UInt {
  const loc = callerLocation();
  if (parts.length === 0) throw hdlError('InvalidArgument', 'cat() needs at least one value', loc);
  if (parts.length === 1) return new UInt(parts[0]!.expr, new UIntType(parts[0]!.width));
  const w = parts.reduce((s, p) => s + p.width, 0);
  return new UInt(op('concat', w, parts.map((p) => p.expr), loc), new UIntType(w));
}

/** `sel ? a : b`. Operands of different widths are extended to the wider one by their signedness. */
export function mux<T extends Bits>(sel: Bits | boolean, a: T | Literal, b: T | Literal): T['_self'] {
  const loc = callerLocation();
  if (!(sel instanceof Bits)) sel = wrap(literalExpr(sel, BoolT, loc), BoolT);
  if (sel.width !== 1) throw hdlError('WidthMismatch', `mux select must be 1 bit, got ${sel.width}`, loc);
  if (!(a instanceof Bits) && !(b instanceof Bits)) throw hdlError('InvalidArgument', 'mux needs at least one hardware operand to know the type; use lit()', loc);
  const av = a instanceof Bits ? a : operand(b as Bits, a, 'mux', loc);
  const bv = operand(av, b, 'mux', loc);
  const w = Math.max(av.width, bv.width);
  return wrap(op('mux', w, [sel.expr, extendExpr(av, w, loc), extendExpr(bv, w, loc)], loc), resultType(av, bv, w)) as T['_self'];
}

/** A value of `type` built from raw bits (reinterpretation; widths must match). */
export function fromBits<T extends GroundType>(type: T, bits: Bits): Bits {
  const loc = callerLocation();
  if (bits.width !== type.width) throw hdlError('WidthMismatch', `cannot reinterpret ${bits.width} bits as ${type}`, loc);
  return wrap(bits.expr, type);
}

export { BoolType };
