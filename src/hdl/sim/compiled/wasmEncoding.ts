// A minimal WebAssembly binary writer: LEB128, the i32 instructions the simulator uses, and module sections.

export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  call: 0x10,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Store: 0x36,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i32LtU: 0x49,
  i32LeS: 0x4c,
  i32LeU: 0x4d,
  i32Clz: 0x67,
  i32Popcnt: 0x69,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32And: 0x71,
  i32Or: 0x72,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrS: 0x75,
  i32ShrU: 0x76,
  i32Rotl: 0x77,
  i64Load: 0x29,
  i64Store: 0x37,
  i64Const: 0x42,
  i64Eqz: 0x50,
  i64Eq: 0x51,
  i64Ne: 0x52,
  i64LtS: 0x53,
  i64LtU: 0x54,
  i64LeS: 0x57,
  i64LeU: 0x58,
  i64Popcnt: 0x7b,
  i64Add: 0x7c,
  i64Sub: 0x7d,
  i64Mul: 0x7e,
  i64And: 0x83,
  i64Or: 0x84,
  i64Xor: 0x85,
  i64Shl: 0x86,
  i64ShrS: 0x87,
  i64ShrU: 0x88,
  i32WrapI64: 0xa7,
  i64ExtendI32U: 0xad,
} as const;

/** Every function declares this many i64 locals first (right after its parameters): scratch for wide arithmetic. */
export const I64_LOCALS = 1;
/** Then this many v128 locals (scratch for four-word values). */
export const V128_LOCALS = 1;
/** Scratch locals of every function, between its parameters and its i32 locals. */
export const SCRATCH_LOCALS = I64_LOCALS + V128_LOCALS;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  n |= 0;
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

/** A growing byte buffer with LEB128 writers (function bodies reach megabytes: no per-byte arrays). */
export class ByteWriter {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(b: number): this {
    this.room(1);
    this.buf[this.length++] = b;
    return this;
  }

  emit(...b: number[]): this {
    this.room(b.length);
    for (const x of b) this.buf[this.length++] = x;
    return this;
  }

  append(bytes: Uint8Array | readonly number[]): this {
    this.room(bytes.length);
    if (bytes instanceof Uint8Array) this.buf.set(bytes, this.length);
    else for (let i = 0; i < bytes.length; i++) this.buf[this.length + i] = bytes[i]!;
    this.length += bytes.length;
    return this;
  }

  uleb(n: number): this {
    this.room(10);
    do {
      let b = n & 0x7f;
      n = Math.floor(n / 128);
      if (n !== 0) b |= 0x80;
      this.buf[this.length++] = b;
    } while (n !== 0);
    return this;
  }

  sleb(n: number): this {
    this.room(5);
    n |= 0;
    for (;;) {
      const b = n & 0x7f;
      n >>= 7;
      if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
        this.buf[this.length++] = b;
        return this;
      }
      this.buf[this.length++] = b | 0x80;
    }
  }

  /** The bytes written so far (a view: copy it before writing more). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** Instruction sequence builder for one function body. */
export class Code extends ByteWriter {
  const(v: number): this {
    return this.byte(op.i32Const).sleb(v);
  }
  get(local: number): this {
    return this.byte(op.localGet).uleb(local);
  }
  set(local: number): this {
    return this.byte(op.localSet).uleb(local);
  }
  tee(local: number): this {
    return this.byte(op.localTee).uleb(local);
  }
  call(fn: number): this {
    return this.byte(op.call).uleb(fn);
  }
  /** i32.load from a constant byte address (address operand 0, offset immediate). */
  loadAt(byte: number): this {
    return this.const(0).byte(op.i32Load).byte(2).uleb(byte);
  }
  /** i32.load with the address already on the stack. */
  load(offset = 0): this {
    return this.byte(op.i32Load).byte(2).uleb(offset);
  }
  store(offset = 0): this {
    return this.byte(op.i32Store).byte(2).uleb(offset);
  }
}

const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const name = (s: string) => [...uleb(s.length), ...Buffer.from(s, 'utf8')];

export interface WasmFunction {
  readonly name: string;
  /** i32 parameters (they are locals 0 … params-1); the function returns nothing. */
  readonly params?: number;
  /** i32 locals besides the parameters and the SCRATCH_LOCALS (i64, then v128) that follow them. */
  readonly locals: number;
  readonly code: Code;
}

/** V8 refuses a function body over 7,654,321 bytes; stay clear of it (tests lower it to force splitting). */
export const wasmLimits = { functionBytes: 7_000_000, locals: 50_000 };

/** A netlist too large for one WebAssembly function (the caller falls back to JavaScript). */
export class WasmSizeError extends Error {
  override name = 'WasmSizeError';
  constructor(
    readonly fn: string,
    why: string,
    /** How many times over the tighter limit the function is. */
    readonly over: number,
  ) {
    super(`the WebAssembly function '${fn}' ${why}`);
  }
}

/** Throws WasmSizeError for a function over the engine's limits (as soon as it is generated: fail fast). */
export function checkFunctionSize<F extends WasmFunction>(f: F): F {
  const bytes = f.code.length / wasmLimits.functionBytes;
  const locals = (f.locals + SCRATCH_LOCALS + (f.params ?? 0)) / wasmLimits.locals;
  if (bytes > 1 || locals > 1) throw new WasmSizeError(f.name, `would take ${f.code.length} bytes and ${f.locals} locals, over the limits of ${wasmLimits.functionBytes} and ${wasmLimits.locals}`, Math.max(bytes, locals));
  return f;
}

/** A module importing `env.memory` and exporting the given functions. */
export function wasmModule(memoryPages: number, functions: readonly WasmFunction[]): Uint8Array<ArrayBuffer> {
  functions.forEach(checkFunctionSize);
  const arities = [...new Set(functions.map((f) => f.params ?? 0))];
  const type = section(1, vec(arities.map((n) => [0x60, ...uleb(n), ...Array(n).fill(0x7f), 0])));
  const imports = section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(memoryPages)]]));
  const funcs = section(3, vec(functions.map((f) => uleb(arities.indexOf(f.params ?? 0)))));
  const exports = section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])));
  // The code section streams the (large) bodies into one buffer instead of concatenating arrays.
  const code = new ByteWriter().uleb(functions.length);
  for (const f of functions) {
    const locals = vec([[...uleb(I64_LOCALS), 0x7e], [...uleb(V128_LOCALS), 0x7b], ...(f.locals > 0 ? [[...uleb(f.locals), 0x7f]] : [])]);
    code.uleb(locals.length + f.code.length + 1).append(locals).append(f.code.bytes()).byte(op.end);
  }
  const head = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imports, ...funcs, ...exports];
  return new ByteWriter().append(head).byte(10).uleb(code.length).append(code.bytes()).bytes().slice() as Uint8Array<ArrayBuffer>;
}
