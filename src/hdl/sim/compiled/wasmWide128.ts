// WebAssembly SIMD code for 97–128-bit nets (four words, as a vector register file's entries): muxes,
// bitwise operations and equality on one v128 value instead of word by word.
import type { Cell, NetId } from '../../ir/netlist.ts';
import { cellInputs } from '../../ir/netlist.ts';
import { op, type Code } from './wasmEncoding.ts';

/** What the vector code needs from the generator. */
export interface Wide128Context {
  readonly c: Code;
  width(id: NetId): number;
  byte(id: NetId): number;
  constant(id: NetId): bigint | undefined;
  /** Push a net of at most 32 bits as an i32. */
  push(id: NetId): void;
}

const SIMD = 0xfd;
const simd = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  i8x16Eq: 0x23,
  and: 0x4e,
  or: 0x50,
  xor: 0x51,
  anyTrue: 0x53,
  i8x16AllTrue: 0x63,
} as const;

const fourWords = (w: number) => w > 96 && w <= 128;

/** Does this cell compute a four-word result as one v128 (operands of the same four words)? */
export function computesV128(cell: Cell, width: (id: NetId) => number): boolean {
  if (!fourWords(width(cell.out))) return false;
  if (cell.op === 'mux') return width(cell.a) === width(cell.out) && width(cell.b) === width(cell.out) && width(cell.sel) <= 32;
  return (cell.op === 'and' || cell.op === 'or' || cell.op === 'xor') && cellInputs(cell).every((id) => width(id) === width(cell.out));
}

/** Is this a narrow comparison of two four-word operands, done on v128 values? */
export function readsV128(cell: Cell, width: (id: NetId) => number): boolean {
  return (cell.op === 'eq' || cell.op === 'ne') && fourWords(width(cell.a)) && width(cell.a) === width(cell.b);
}

/** v128.load / v128.store memory immediates: 4-byte alignment (slots are word aligned), the byte offset. */
function memarg(C: Code, byte: number): void {
  C.byte(2).uleb(byte);
}

/** Push a four-word net as a v128. */
export function push128(x: Wide128Context, id: NetId): void {
  const C = x.c;
  const k = x.constant(id);
  if (k !== undefined) {
    C.byte(SIMD).uleb(simd.const);
    for (let i = 0; i < 16; i++) C.byte(Number((k >> BigInt(8 * i)) & 0xffn));
    return;
  }
  C.const(0).byte(SIMD).uleb(simd.load);
  memarg(C, x.byte(id));
}

/** Push the v128 value of a four-word cell (computesV128 holds). */
export function cell128(x: Wide128Context, c: Cell): void {
  const C = x.c;
  switch (c.op) {
    case 'mux':
      push128(x, c.a);
      push128(x, c.b);
      x.push(c.sel);
      // A typed select (of v128 values).
      C.byte(0x1c).uleb(1).byte(0x7b);
      return;
    case 'and':
    case 'or':
    case 'xor':
      push128(x, c.a);
      push128(x, c.b);
      C.byte(SIMD).uleb(c.op === 'and' ? simd.and : c.op === 'or' ? simd.or : simd.xor);
      return;
    default:
      throw new Error(`internal: no v128 code for ${c.op}`);
  }
}

/** Push eq or ne (an i32) of two four-word operands (readsV128 holds). */
export function compare128(x: Wide128Context, c: Cell): void {
  const C = x.c;
  const a = (c as { a: NetId }).a;
  const b = (c as { b: NetId }).b;
  push128(x, a);
  push128(x, b);
  C.byte(SIMD).uleb(simd.i8x16Eq).byte(SIMD).uleb(simd.i8x16AllTrue);
  if (c.op === 'ne') C.emit(op.i32Eqz);
}

/** v128.store of the value on the stack (under an address pushed before it) into the net's four words. */
export function store128(C: Code, byte: number): void {
  C.byte(SIMD).uleb(simd.store);
  memarg(C, byte);
}

/** Push whether the v128 in local `v` differs from the four words at `byte` (an i32, nonzero if so). */
export function changed128(C: Code, v: number, byte: number): void {
  C.get(v).const(0).byte(SIMD).uleb(simd.load);
  memarg(C, byte);
  C.byte(SIMD).uleb(simd.xor).byte(SIMD).uleb(simd.anyTrue);
}
