// The WebAssembly generator's combinational steps: every cell (narrow inline, 33–64 bits as i64, 97–128 as v128, others word by word), leading-zero counts, sticky shifts and asynchronous memory reads.
import type { Cell, NetId } from '../../ir/netlist.ts';
import { stepOutput, unreachableCell, type CombStep, type Layout, type StepCell } from './layout.ts';
import type { LeadingZeroCount } from './leadingZeros.ts';
import type { ShiftRightJam } from './shiftRightJam.ts';
import { cell64, computesI64, load64, narrowFrom64, readsI64, store64, type Wide64Context } from './wasmWide64.ts';
import { op } from './wasmEncoding.ts';
import { cell128, changed128, compare128, computesV128, readsV128, store128, type Wide128Context } from './wasmWide128.ts';
import { compareWide, foldWords, pushShiftAmount, wideCell, type WordContext } from './wasmWideWords.ts';
import type { WasmValues } from './wasmValues.ts';

const maskOf = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);

/** The cell computing each root net. */
function producers(L: Layout): Map<NetId, Cell> {
  const producer = new Map<NetId, Cell>();
  for (const st of L.steps) if (st.kind === 'cell') producer.set(L.root[st.cell.out]!, st.cell);
  return producer;
}

/** The generator's view for the word-by-word code (wasmWideWords.ts). */
function wordContext(values: WasmValues): WordContext {
  return {
    get c() {
      return values.c;
    },
    get i64() {
      return values.i64;
    },
    root: (id) => values.root(id),
    width: (id) => values.w(id),
    words: (id) => values.words(id),
    byte: (id) => values.byte(id),
    push: (id) => values.push(id),
    pushWord: (id, k) => values.pushWord(id, k),
    pushBits: (id, lo, n) => values.pushBits(id, lo, n),
    storeWord: (out, k, value) => values.storeWord(out, k, value),
    temp: () => values.temp(),
    markedReaders: (out) => values.markedReaders(out),
    noteChange: (changed, readers) => values.noteChange(changed, readers),
  };
}

/** The generator's view for the vector code (wasmWide128.ts). */
function wide128Context(values: WasmValues): Wide128Context {
  return {
    get c() {
      return values.c;
    },
    width: (id) => values.w(id),
    byte: (id) => values.byte(id),
    constant: (id) => values.L.consts.get(values.root(id)),
    push: (id) => values.push(id),
  };
}

/** The generator's view for the 64-bit code (wasmWide64.ts): the vector code's and three more (assigned onto it, so `c` stays a getter). */
function wide64Context(values: WasmValues, words: WordContext): Wide64Context {
  return Object.assign(wide128Context(values), {
    pushBits: (id: NetId, lo: number, n: number) => values.pushBits(id, lo, n),
    pushShiftAmount: (id: NetId) => pushShiftAmount(words, id),
    temp: () => values.temp(),
  });
}

/** Emits the combinational steps into the function `values` is building. */
export class WasmSteps {
  /** The cell computing each root net (for peepholes that look through an operand). */
  private readonly producer: Map<NetId, Cell>;
  private readonly wordOps: WordContext;
  private readonly wide64: Wide64Context;
  private readonly wide128: Wide128Context;

  constructor(private readonly values: WasmValues) {
    this.producer = producers(values.L);
    this.wordOps = wordContext(values);
    this.wide64 = wide64Context(values, this.wordOps);
    this.wide128 = wide128Context(values);
  }

  /** {x[k-1:0], x[31:k]} of a 32-bit x is a rotation: return x and k, or null. */
  private rotation(c: Extract<Cell, { op: 'concat' }>): { x: NetId; k: number } | null {
    if (this.values.w(c.out) !== 32 || c.parts.length !== 2) return null;
    const hi = this.producer.get(this.values.root(c.parts[0]!));
    const lo = this.producer.get(this.values.root(c.parts[1]!));
    if (hi?.op !== 'slice' || lo?.op !== 'slice' || this.values.root(hi.a) !== this.values.root(lo.a) || this.values.w(hi.a) !== 32) return null;
    const k = this.values.w(hi.out);
    return hi.lo === 0 && lo.lo === k && this.values.w(lo.out) === 32 - k ? { x: hi.a, k } : null;
  }

  step(st: CombStep, keep: Set<NetId> | null): void {
    if (st.kind === 'cell' && computesV128(st.cell, (id) => this.values.w(id))) return this.cellV128(st.cell);
    if (st.kind === 'cell' && computesI64(st.cell, (id) => this.values.w(id))) return this.cellI64(st.cell);
    if (st.kind === 'cell' && this.values.w(st.cell.out) > 32) return wideCell(this.wordOps, st.cell);
    if (st.kind === 'aread' && this.values.L.flat.memories[st.mem]!.width > 32) return this.wideAsyncRead(st.mem, st.port);
    const out = stepOutput(this.values.L, st);
    const store = keep === null || keep.has(out) || this.values.L.materialized.has(out);
    const readers = store ? this.values.markedReaders(out) : undefined;
    if (store && !readers) this.values.c.const(0);
    if (st.kind === 'cell') this.cell(st.cell);
    else if (st.kind === 'clz') this.leadingZeros(st);
    else if (st.kind === 'sjam') this.shiftRightJam(st);
    else this.asyncRead(st.mem, st.port);
    const v = this.values.temp();
    this.values.bind(out, v);
    if (readers) {
      this.values.c.set(v);
      this.values.storeIfChanged(v, this.values.byte(out), readers);
    } else if (store) this.values.c.tee(v).store(this.values.byte(out));
    else this.values.c.set(v);
  }

  /** A four-word result computed as one v128 and stored as its four words (a change marks the readers). */
  private cellV128(c: Cell): void {
    const C = this.values.c;
    const out = this.values.root(c.out);
    const readers = this.values.markedReaders(out);
    if (!readers) {
      C.const(0);
      cell128(this.wide128, c);
      return store128(C, this.values.byte(out));
    }
    cell128(this.wide128, c);
    C.set(this.values.v128);
    this.values.noteChange(() => changed128(C, this.values.v128, this.values.byte(out)), readers);
    C.const(0).get(this.values.v128);
    store128(C, this.values.byte(out));
  }

  /** A 33–64-bit result computed as one i64 and stored as its two words (a change marks the readers). */
  private cellI64(c: Cell): void {
    const C = this.values.c;
    const out = this.values.root(c.out);
    const readers = this.values.markedReaders(out);
    if (!readers) {
      C.const(0);
      cell64(this.wide64, c);
      return store64(C, this.values.byte(out));
    }
    cell64(this.wide64, c);
    C.emit(op.localSet, this.values.i64);
    this.values.noteChange(() => {
      C.emit(op.localGet, this.values.i64);
      load64(C, this.values.byte(out));
      C.byte(op.i64Ne);
    }, readers);
    C.const(0).emit(op.localGet, this.values.i64);
    store64(C, this.values.byte(out));
  }

  /** x >> a with the bits shifted out ORed into bit 0 (a >= w: just that bit): both arms, then a select. */
  private shiftRightJam(st: ShiftRightJam): void {
    const C = this.values.c;
    const x = this.values.temp();
    const a = this.values.temp();
    this.values.push(st.x);
    C.set(x);
    this.values.pushBits(st.amount, 0, st.bits);
    C.set(a);
    C.get(x).get(a).emit(op.i32ShrU);
    C.get(x).const(1).get(a).emit(op.i32Shl).const(1).emit(op.i32Sub, op.i32And).const(0).emit(op.i32Ne, op.i32Or);
    C.get(x).const(0).emit(op.i32Ne);
    C.get(a).const(this.values.w(st.out)).emit(op.i32LtU, op.select);
  }

  /** i32.clz of the field shifted to the top, with a guard bit below it (full: n for a zero field, else n - 1). */
  private leadingZeros(st: LeadingZeroCount): void {
    // The shift to the top drops the bits above the field: only those below need a mask.
    if (st.lo === 0 && this.values.w(st.src) <= 32) this.values.push(st.src);
    else this.values.pushBits(st.src, st.lo, st.n);
    if (st.n < 32) this.values.c.const(32 - st.n).emit(op.i32Shl);
    const guard = st.full ? (st.n < 32 ? 1 << (31 - st.n) : 0) : 1 << (32 - st.n);
    if (guard !== 0) this.values.c.const(guard | 0).emit(op.i32Or);
    this.values.c.emit(op.i32Clz);
  }

  private wideAsyncRead(mi: number, pi: number): void {
    const p = this.values.L.flat.memories[mi]!.readPorts[pi]!;
    const a = this.values.temp();
    this.values.push(p.addr);
    this.values.c.set(a);
    const out = this.values.root(p.data);
    for (let k = 0; k < this.values.words(out); k++) this.values.storeWord(out, k, () => this.readWord(mi, a, k));
  }

  private asyncRead(mi: number, pi: number): void {
    const mem = this.values.L.flat.memories[mi]!;
    const p = mem.readPorts[pi]!;
    const a = this.values.temp();
    this.values.push(p.addr);
    this.values.c.set(a);
    this.readWord(mi, a);
  }

  /** Word address on the stack -> byte offset of the entry (entries of a wide memory take several words). */
  scaleAddress(width: number): void {
    const bytes = Math.ceil(width / 32) * 4;
    if (bytes === 4) this.values.c.const(2).emit(op.i32Shl);
    else this.values.c.const(bytes).emit(op.i32Mul);
  }

  /** Push word k of mem[addr] (0 when addr >= depth); `a` is a local holding the address. */
  readWord(mi: number, a: number, k = 0): void {
    const mem = this.values.L.flat.memories[mi]!;
    const inRange = () => this.values.c.get(a).const(mem.depth).emit(op.i32LtU);
    // Clamp the address so the load stays inside the memory, then select 0 for out-of-range reads.
    this.values.c.get(a).const(0);
    inRange();
    this.values.c.emit(op.select);
    this.scaleAddress(mem.width);
    this.values.c.load(this.values.W.memoryBytes[mi]! + 4 * k);
    this.values.c.const(0);
    inRange();
    this.values.c.emit(op.select);
  }

  private compareNarrow(a: NetId, b: NetId, kind: 'eq' | 'ne' | 'ult' | 'ule'): void {
    this.values.push(a);
    this.values.push(b);
    this.values.c.emit({ eq: op.i32Eq, ne: op.i32Ne, ult: op.i32LtU, ule: op.i32LeU }[kind]);
  }

  private cell(c: StepCell): void {
    const w = this.values.w(c.out);
    const C = this.values.c;
    if (readsV128(c, (id) => this.values.w(id))) return compare128(this.wide128, c);
    if (readsI64(c, (id) => this.values.w(id))) return narrowFrom64(this.wide64, c);
    switch (c.op) {
      // Wider operands of these narrow results: only their low word matters (arithmetic mod 2^w).
      // Every net holds its value masked to its width, so a bitwise result of operands no wider than
      // it needs no mask (and `not` is one xor with the width's mask).
      case 'not':
        this.values.pushWord(c.a, 0);
        if (this.values.w(c.a) <= w) return void C.const(maskOf(w)).emit(op.i32Xor);
        C.const(-1).emit(op.i32Xor);
        return this.values.maskTo(w);
      case 'and':
      case 'or':
      case 'xor':
        this.values.pushWord(c.a, 0);
        this.values.pushWord(c.b, 0);
        C.emit(c.op === 'and' ? op.i32And : c.op === 'or' ? op.i32Or : op.i32Xor);
        if (this.values.w(c.a) <= w && this.values.w(c.b) <= w) return;
        return this.values.maskTo(w);
      case 'add':
      case 'sub':
      case 'mul':
        this.values.pushWord(c.a, 0);
        this.values.pushWord(c.b, 0);
        C.emit(c.op === 'add' ? op.i32Add : c.op === 'sub' ? op.i32Sub : op.i32Mul);
        return this.values.maskTo(w);
      case 'eq':
      case 'ne':
        if (this.values.w(c.a) > 32) {
          // Word by word: all equal.
          for (let k = 0; k < this.values.words(c.a); k++) {
            this.values.pushWord(c.a, k);
            this.values.pushWord(c.b, k);
            C.emit(op.i32Eq);
            if (k > 0) C.emit(op.i32And);
          }
          if (c.op === 'ne') C.emit(op.i32Eqz);
          return;
        }
        return this.compareNarrow(c.a, c.b, c.op);
      case 'ult':
      case 'ule':
        if (this.values.w(c.a) > 32 || this.values.w(c.b) > 32) return compareWide(this.wordOps, c.a, c.b, c.op === 'ult', false);
        return this.compareNarrow(c.a, c.b, c.op);
      case 'slt':
      case 'sle': {
        if (this.values.w(c.a) > 32 || this.values.w(c.b) > 32) return compareWide(this.wordOps, c.a, c.b, c.op === 'slt', true);
        const aw = this.values.w(c.a);
        this.values.push(c.a);
        this.values.sext(aw);
        this.values.push(c.b);
        this.values.sext(aw);
        C.emit(c.op === 'slt' ? op.i32LtS : op.i32LeS);
        return;
      }
      case 'shl':
      case 'lshr':
      case 'ashr': {
        const sh = this.values.temp();
        pushShiftAmount(this.wordOps, c.b);
        C.set(sh);
        if (c.op === 'ashr') {
          this.values.push(c.a);
          this.values.sext(w);
          // Shifting the sign-extended value by min(sh, 31) gives the sign fill for sh >= w.
          C.get(sh).const(31).get(sh).const(31).emit(op.i32LtU, op.select, op.i32ShrS);
          return this.values.maskTo(w);
        }
        this.values.push(c.a);
        C.get(sh).emit(c.op === 'shl' ? op.i32Shl : op.i32ShrU);
        this.values.maskTo(w);
        C.const(0).get(sh).const(w).emit(op.i32LtU, op.select);
        return;
      }
      case 'redand':
        // Every word all ones (the top one up to the width).
        for (let k = 0; k < this.values.words(c.a); k++) {
          this.values.pushWord(c.a, k);
          C.const(maskOf(Math.min(32, this.values.w(c.a) - 32 * k))).emit(op.i32Eq);
          if (k > 0) C.emit(op.i32And);
        }
        return;
      case 'redor':
        foldWords(this.wordOps, c.a, op.i32Or);
        C.const(0).emit(op.i32Ne);
        return;
      case 'redxor':
        foldWords(this.wordOps, c.a, op.i32Xor);
        C.emit(op.i32Popcnt).const(1).emit(op.i32And);
        return;
      case 'mux':
        this.values.push(c.a);
        this.values.push(c.b);
        this.values.push(c.sel);
        C.emit(op.select);
        return;
      case 'concat': {
        const rot = this.rotation(c);
        if (rot) {
          // The two slices feeding it are then dead and dropped by the WebAssembly compiler.
          this.values.push(rot.x);
          C.const(32 - rot.k).emit(op.i32Rotl);
          return;
        }
        let pos = w;
        let first = true;
        for (const p of c.parts) {
          pos -= this.values.w(p);
          if (this.values.L.consts.get(this.values.root(p)) === 0n) continue;
          this.values.push(p);
          if (pos > 0) C.const(pos).emit(op.i32Shl);
          if (!first) C.emit(op.i32Or);
          first = false;
        }
        if (first) C.const(0);
        return;
      }
      case 'slice':
        if (this.values.w(c.a) > 32) return this.values.pushBits(c.a, c.lo, w);
        this.values.push(c.a);
        if (c.lo > 0) C.const(c.lo).emit(op.i32ShrU);
        // The top bits of a net need no mask: above its width it is zero.
        if (c.lo + w >= this.values.w(c.a)) return;
        return this.values.maskTo(w);
      case 'zext':
        return this.values.push(c.a);
      case 'sext':
        this.values.push(c.a);
        this.values.sext(this.values.w(c.a));
        return this.values.maskTo(w);
      default:
        return unreachableCell(c);
    }
  }
}
