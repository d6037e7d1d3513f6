// WebAssembly code for nets of 33 to 64 bits as single i64 values (a float unit's 48-bit product, a 36-bit sum)
// instead of word by word: each such net is still stored as two words (little endian: one i64.store).
import type { Cell, NetId } from '../../ir/netlist.ts';
import { cellInputs } from '../../ir/netlist.ts';
import { op, type Code } from './wasmEncoding.ts';

/** What the 64-bit code needs from the generator: operands as i32 words, shift amounts, addresses. */
export interface Wide64Context {
  readonly c: Code;
  width(id: NetId): number;
  /** Byte address of the net's slot. */
  byte(id: NetId): number;
  /** The constant value of a net, if it is one. */
  constant(id: NetId): bigint | undefined;
  /** Push a net of at most 32 bits as an i32. */
  push(id: NetId): void;
  /** Push bits [lo, lo + n) of any net as an i32 (n <= 32). */
  pushBits(id: NetId, lo: number, n: number): void;
  /** Push an amount of any width as an unsigned i32, saturated. */
  pushShiftAmount(id: NetId): void;
  /** A scratch i32 local for the current step. */
  temp(): number;
}

/** Ops with a 33–64-bit result computed as one i64 (their operands are at most 64 bits, or a slice's of any width). */
const RESULT_OPS = new Set<Cell['op']>(['not', 'and', 'or', 'xor', 'add', 'sub', 'mul', 'mux', 'zext', 'sext', 'slice', 'concat', 'shl', 'lshr', 'ashr']);
/** Ops with a result of at most 32 bits whose 33–64-bit operands are read as one i64. */
const NARROW_OPS = new Set<Cell['op']>(['eq', 'ne', 'ult', 'ule', 'slt', 'sle', 'redand', 'redor', 'redxor', 'slice']);

const isWide64 = (w: number) => w > 32 && w <= 64;

/** Does this cell compute a 33–64-bit result as an i64? */
export function computesI64(cell: Cell, width: (id: NetId) => number): boolean {
  if (!isWide64(width(cell.out)) || !RESULT_OPS.has(cell.op)) return false;
  if (cell.op === 'slice') return true;
  // A shift amount may be of any width (read as a saturated i32); value operands fit 64 bits.
  const values = cell.op === 'shl' || cell.op === 'lshr' || cell.op === 'ashr' ? [cell.a] : cellInputs(cell);
  return values.every((id) => width(id) <= 64) && (cell.op !== 'mux' || width(cell.sel) <= 32);
}

/** Does this narrow cell read a 33–64-bit operand, computed here as an i64? */
export function readsI64(cell: Cell, width: (id: NetId) => number): boolean {
  if (width(cell.out) > 32 || !NARROW_OPS.has(cell.op)) return false;
  const ins = cellInputs(cell);
  return ins.some((id) => isWide64(width(id))) && ins.every((id) => width(id) <= 64);
}

const mask64 = (w: number) => (w >= 64 ? -1n : (1n << BigInt(w)) - 1n);

/** i64.const with a signed LEB128 immediate. */
function const64(C: Code, v: bigint): void {
  C.byte(op.i64Const);
  let x = BigInt.asIntN(64, v);
  for (;;) {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    if ((x === 0n && (b & 0x40) === 0) || (x === -1n && (b & 0x40) !== 0)) return void C.byte(b);
    C.byte(b | 0x80);
  }
}

/** Push any net of at most 64 bits as an i64 (zero-extended). */
function push64(x: Wide64Context, id: NetId): void {
  const C = x.c;
  const k = x.constant(id);
  if (k !== undefined) return const64(C, k);
  const w = x.width(id);
  if (w <= 32) {
    x.push(id);
    C.emit(op.i64ExtendI32U);
  } else if (w <= 64) C.const(0).byte(op.i64Load).byte(3).uleb(x.byte(id));
  else pushBits64(x, id, 0, 64);
}

/** Push bits [lo, lo + n) of any net as an i64 (n <= 64). */
function pushBits64(x: Wide64Context, id: NetId, lo: number, n: number): void {
  const C = x.c;
  const w = x.width(id);
  if (w <= 64 && x.constant(id) === undefined) {
    push64(x, id);
    if (lo > 0) {
      const64(C, BigInt(lo));
      C.byte(op.i64ShrU);
    }
    if (lo + n < w) mask(C, n);
    return;
  }
  // A wider net (or a constant): two 32-bit halves.
  x.pushBits(id, lo, Math.min(32, n));
  C.emit(op.i64ExtendI32U);
  if (n > 32) {
    x.pushBits(id, lo + 32, n - 32);
    C.emit(op.i64ExtendI32U);
    const64(C, 32n);
    C.byte(op.i64Shl).byte(op.i64Or);
  }
}

function mask(C: Code, w: number): void {
  if (w >= 64) return;
  const64(C, mask64(w));
  C.byte(op.i64And);
}

/** Sign-extend the w-bit value on the stack (an i64) to 64 bits. */
function sext64(C: Code, w: number): void {
  if (w >= 64) return;
  const64(C, BigInt(64 - w));
  C.byte(op.i64Shl);
  const64(C, BigInt(64 - w));
  C.byte(op.i64ShrS);
}

/** Push the i64 value of a 33–64-bit cell (computesI64 holds). */
export function cell64(x: Wide64Context, c: Cell): void {
  const C = x.c;
  const w = x.width(c.out);
  switch (c.op) {
    case 'not':
      push64(x, c.a);
      const64(C, mask64(w));
      C.byte(op.i64Xor);
      return;
    case 'and':
    case 'or':
    case 'xor':
      push64(x, c.a);
      push64(x, c.b);
      C.byte(c.op === 'and' ? op.i64And : c.op === 'or' ? op.i64Or : op.i64Xor);
      return;
    case 'add':
    case 'sub':
    case 'mul':
      push64(x, c.a);
      push64(x, c.b);
      C.byte(c.op === 'add' ? op.i64Add : c.op === 'sub' ? op.i64Sub : op.i64Mul);
      return mask(C, w);
    case 'mux':
      push64(x, c.a);
      push64(x, c.b);
      x.push(c.sel);
      C.emit(op.select);
      return;
    case 'zext':
      return push64(x, c.a);
    case 'sext':
      push64(x, c.a);
      sext64(C, x.width(c.a));
      return mask(C, w);
    case 'slice':
      return pushBits64(x, c.a, c.lo, w);
    case 'concat': {
      let pos = w;
      let first = true;
      for (const p of c.parts) {
        pos -= x.width(p);
        if (x.constant(p) === 0n) continue;
        push64(x, p);
        if (pos > 0) {
          const64(C, BigInt(pos));
          C.byte(op.i64Shl);
        }
        if (!first) C.byte(op.i64Or);
        first = false;
      }
      if (first) const64(C, 0n);
      return;
    }
    case 'shl':
    case 'lshr':
    case 'ashr': {
      // The amount as a saturated i32; at w or more, shl and lshr give 0 and ashr the sign.
      const sh = x.temp();
      x.pushShiftAmount(c.b);
      C.set(sh);
      if (c.op === 'ashr') {
        push64(x, c.a);
        sext64(C, w);
        C.get(sh).const(w - 1).get(sh).const(w - 1).emit(op.i32LtU, op.select, op.i64ExtendI32U).byte(op.i64ShrS);
        return mask(C, w);
      }
      push64(x, c.a);
      C.get(sh).emit(op.i64ExtendI32U).byte(c.op === 'shl' ? op.i64Shl : op.i64ShrU);
      mask(C, w);
      const64(C, 0n);
      C.get(sh).const(w).emit(op.i32LtU, op.select);
      return;
    }
    default:
      throw new Error(`internal: no 64-bit wasm code for ${c.op}`);
  }
}

/** Push the i32 result of a narrow cell with a 33–64-bit operand (readsI64 holds). */
export function narrowFrom64(x: Wide64Context, c: Cell): void {
  const C = x.c;
  const w = x.width(c.out);
  switch (c.op) {
    case 'eq':
    case 'ne':
    case 'ult':
    case 'ule':
      push64(x, c.a);
      push64(x, c.b);
      C.byte({ eq: op.i64Eq, ne: op.i64Ne, ult: op.i64LtU, ule: op.i64LeU }[c.op]);
      return;
    case 'slt':
    case 'sle':
      push64(x, c.a);
      sext64(C, x.width(c.a));
      push64(x, c.b);
      sext64(C, x.width(c.b));
      C.byte(c.op === 'slt' ? op.i64LtS : op.i64LeS);
      return;
    case 'redand':
      push64(x, c.a);
      const64(C, mask64(x.width(c.a)));
      C.byte(op.i64Eq);
      return;
    case 'redor':
      push64(x, c.a);
      C.byte(op.i64Eqz).emit(op.i32Eqz);
      return;
    case 'redxor':
      push64(x, c.a);
      C.byte(op.i64Popcnt).emit(op.i32WrapI64).const(1).emit(op.i32And);
      return;
    case 'slice':
      pushBits64(x, c.a, c.lo, w);
      C.emit(op.i32WrapI64);
      return;
    default:
      throw new Error(`internal: no 64-bit operand code for ${c.op}`);
  }
}

/** i64.store of the value on the stack (under an address pushed before it) into the net's two words. */
export function store64(C: Code, byte: number): void {
  C.byte(op.i64Store).byte(3).uleb(byte);
}

/** i64.load of a 33–64-bit net's two words. */
export function load64(C: Code, byte: number): void {
  C.const(0).byte(op.i64Load).byte(3).uleb(byte);
}
