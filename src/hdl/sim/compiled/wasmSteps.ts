// The WebAssembly generator's combinational steps: every cell (narrow inline, 33–64 bits as i64, 97–128 as v128, others word by word), leading-zero counts, sticky shifts and asynchronous memory reads.
import type { Cell, NetId } from '../../ir/netlist.ts';
import { stepOutput, type CombStep, type Layout } from './layout.ts';
import type { LeadingZeroCount } from './leadingZeros.ts';
import type { ShiftRightJam } from './shiftRightJam.ts';
import { cell64, computesI64, load64, narrowFrom64, readsI64, store64, type Wide64Context } from './wasmWide64.ts';
import { op } from './wasmEncoding.ts';
import { cell128, changed128, compare128, computesV128, readsV128, store128, type Wide128Context } from './wasmWide128.ts';
import { compareWide, foldWords, pushShiftAmount, wideCell, type WordContext } from './wasmWideWords.ts';
import { WasmValues } from './wasmValues.ts';

const maskOf = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);

/** The cell computing each root net. */
function producers(L: Layout): Map<NetId, Cell> {
  const producer = new Map<NetId, Cell>();
  for (const st of L.steps) if (st.kind === 'cell') producer.set(L.root[st.cell.out]!, st.cell);
  return producer;
}

export class WasmSteps extends WasmValues {
  /** The cell computing each root net (for peepholes that look through an operand). */
  protected readonly producer = producers(this.L);

  /** {x[k-1:0], x[31:k]} of a 32-bit x is a rotation: return x and k, or null. */
  protected rotation(c: Extract<Cell, { op: 'concat' }>): { x: NetId; k: number } | null {
    if (this.w(c.out) !== 32 || c.parts.length !== 2) return null;
    const hi = this.producer.get(this.root(c.parts[0]!));
    const lo = this.producer.get(this.root(c.parts[1]!));
    if (hi?.op !== 'slice' || lo?.op !== 'slice' || this.root(hi.a) !== this.root(lo.a) || this.w(hi.a) !== 32) return null;
    const k = this.w(hi.out);
    return hi.lo === 0 && lo.lo === k && this.w(lo.out) === 32 - k ? { x: hi.a, k } : null;
  }

  protected step(st: CombStep, keep: Set<NetId> | null): void {
    if (st.kind === 'cell' && computesV128(st.cell, (id) => this.w(id))) return this.cellV128(st.cell);
    if (st.kind === 'cell' && computesI64(st.cell, (id) => this.w(id))) return this.cellI64(st.cell);
    if (st.kind === 'cell' && this.w(st.cell.out) > 32) return wideCell(this.wordOps, st.cell);
    if (st.kind === 'aread' && this.L.flat.memories[st.mem]!.width > 32) return this.wideAsyncRead(st.mem, st.port);
    const out = stepOutput(this.L, st);
    const store = keep === null || keep.has(out) || this.L.materialized.has(out);
    const readers = store ? this.markedReaders(out) : undefined;
    if (store && !readers) this.c.const(0);
    if (st.kind === 'cell') this.cell(st.cell);
    else if (st.kind === 'clz') this.leadingZeros(st);
    else if (st.kind === 'sjam') this.shiftRightJam(st);
    else this.asyncRead(st.mem, st.port);
    const v = this.temp();
    this.bind(out, v);
    if (readers) {
      this.c.set(v);
      this.storeIfChanged(v, this.byte(out), readers);
    } else if (store) this.c.tee(v).store(this.byte(out));
    else this.c.set(v);
  }

  /** The generator's view for the word-by-word code (wasmWideWords.ts). */
  protected get wordOps(): WordContext {
    const gen = this;
    return (this.ctxWords ??= {
      get c() {
        return gen.c;
      },
      get i64() {
        return gen.i64;
      },
      root: (id) => this.root(id),
      width: (id) => this.w(id),
      words: (id) => this.words(id),
      byte: (id) => this.byte(id),
      push: (id) => this.push(id),
      pushWord: (id, k) => this.pushWord(id, k),
      pushBits: (id, lo, n) => this.pushBits(id, lo, n),
      storeWord: (out, k, value) => this.storeWord(out, k, value),
      temp: () => this.temp(),
      markedReaders: (out) => this.markedReaders(out),
      noteChange: (changed, readers) => this.noteChange(changed, readers),
    });
  }

  protected ctxWords: WordContext | undefined;

  /** The generator's view for the 64-bit code (wasmWide64.ts). */
  protected get wide64(): Wide64Context {
    const gen = this;
    return (this.ctx64 ??= {
      get c() {
        return gen.c;
      },
      width: (id) => this.w(id),
      byte: (id) => this.byte(id),
      constant: (id) => this.L.consts.get(this.root(id)),
      push: (id) => this.push(id),
      pushBits: (id, lo, n) => this.pushBits(id, lo, n),
      pushShiftAmount: (id) => pushShiftAmount(this.wordOps, id),
      temp: () => this.temp(),
    });
  }

  protected ctx64: Wide64Context | undefined;

  /** The generator's view for the vector code (wasmWide128.ts). */
  protected get wide128(): Wide128Context {
    const gen = this;
    return (this.ctx128 ??= {
      get c() {
        return gen.c;
      },
      width: (id) => this.w(id),
      byte: (id) => this.byte(id),
      constant: (id) => this.L.consts.get(this.root(id)),
      push: (id) => this.push(id),
    });
  }

  protected ctx128: Wide128Context | undefined;

  /** A four-word result computed as one v128 and stored as its four words (a change marks the readers). */
  protected cellV128(c: Cell): void {
    const C = this.c;
    const out = this.root(c.out);
    const readers = this.markedReaders(out);
    if (!readers) {
      C.const(0);
      cell128(this.wide128, c);
      return store128(C, this.byte(out));
    }
    cell128(this.wide128, c);
    C.set(this.v128);
    this.noteChange(() => changed128(C, this.v128, this.byte(out)), readers);
    C.const(0).get(this.v128);
    store128(C, this.byte(out));
  }

  /** A 33–64-bit result computed as one i64 and stored as its two words (a change marks the readers). */
  protected cellI64(c: Cell): void {
    const C = this.c;
    const out = this.root(c.out);
    const readers = this.markedReaders(out);
    if (!readers) {
      C.const(0);
      cell64(this.wide64, c);
      return store64(C, this.byte(out));
    }
    cell64(this.wide64, c);
    C.emit(op.localSet, this.i64);
    this.noteChange(() => {
      C.emit(op.localGet, this.i64);
      load64(C, this.byte(out));
      C.byte(op.i64Ne);
    }, readers);
    C.const(0).emit(op.localGet, this.i64);
    store64(C, this.byte(out));
  }

  /** x >> a with the bits shifted out ORed into bit 0 (a >= w: just that bit): both arms, then a select. */
  protected shiftRightJam(st: ShiftRightJam): void {
    const C = this.c;
    const x = this.temp();
    const a = this.temp();
    this.push(st.x);
    C.set(x);
    this.pushBits(st.amount, 0, st.bits);
    C.set(a);
    C.get(x).get(a).emit(op.i32ShrU);
    C.get(x).const(1).get(a).emit(op.i32Shl).const(1).emit(op.i32Sub, op.i32And).const(0).emit(op.i32Ne, op.i32Or);
    C.get(x).const(0).emit(op.i32Ne);
    C.get(a).const(this.w(st.out)).emit(op.i32LtU, op.select);
  }

  /** i32.clz of the field shifted to the top, with a guard bit below it (full: n for a zero field, else n - 1). */
  protected leadingZeros(st: LeadingZeroCount): void {
    // The shift to the top drops the bits above the field: only those below need a mask.
    if (st.lo === 0 && this.w(st.src) <= 32) this.push(st.src);
    else this.pushBits(st.src, st.lo, st.n);
    if (st.n < 32) this.c.const(32 - st.n).emit(op.i32Shl);
    const guard = st.full ? (st.n < 32 ? 1 << (31 - st.n) : 0) : 1 << (32 - st.n);
    if (guard !== 0) this.c.const(guard | 0).emit(op.i32Or);
    this.c.emit(op.i32Clz);
  }

  protected wideAsyncRead(mi: number, pi: number): void {
    const p = this.L.flat.memories[mi]!.readPorts[pi]!;
    const a = this.temp();
    this.push(p.addr);
    this.c.set(a);
    const out = this.root(p.data);
    for (let k = 0; k < this.words(out); k++) this.storeWord(out, k, () => this.readWord(mi, a, k));
  }

  protected asyncRead(mi: number, pi: number): void {
    const mem = this.L.flat.memories[mi]!;
    const p = mem.readPorts[pi]!;
    const a = this.temp();
    this.push(p.addr);
    this.c.set(a);
    this.readWord(mi, a);
  }

  /** Word address on the stack -> byte offset of the entry (entries of a wide memory take several words). */
  protected scaleAddress(width: number): void {
    const bytes = Math.ceil(width / 32) * 4;
    if (bytes === 4) this.c.const(2).emit(op.i32Shl);
    else this.c.const(bytes).emit(op.i32Mul);
  }

  /** Push word k of mem[addr] (0 when addr >= depth); `a` is a local holding the address. */
  protected readWord(mi: number, a: number, k = 0): void {
    const mem = this.L.flat.memories[mi]!;
    const inRange = () => this.c.get(a).const(mem.depth).emit(op.i32LtU);
    // Clamp the address so the load stays inside the memory, then select 0 for out-of-range reads.
    this.c.get(a).const(0);
    inRange();
    this.c.emit(op.select);
    this.scaleAddress(mem.width);
    this.c.load(this.W.memoryBytes[mi]! + 4 * k);
    this.c.const(0);
    inRange();
    this.c.emit(op.select);
  }

  protected compareNarrow(a: NetId, b: NetId, kind: 'eq' | 'ne' | 'ult' | 'ule'): void {
    this.push(a);
    this.push(b);
    this.c.emit({ eq: op.i32Eq, ne: op.i32Ne, ult: op.i32LtU, ule: op.i32LeU }[kind]);
  }

  protected cell(c: Cell): void {
    const w = this.w(c.out);
    const C = this.c;
    if (readsV128(c, (id) => this.w(id))) return compare128(this.wide128, c);
    if (readsI64(c, (id) => this.w(id))) return narrowFrom64(this.wide64, c);
    switch (c.op) {
      case 'const':
      case 'buf':
        throw new Error('internal: const/buf are not steps');
      // Wider operands of these narrow results: only their low word matters (arithmetic mod 2^w).
      // Every net holds its value masked to its width, so a bitwise result of operands no wider than
      // it needs no mask (and `not` is one xor with the width's mask).
      case 'not':
        this.pushWord(c.a, 0);
        if (this.w(c.a) <= w) return void C.const(maskOf(w)).emit(op.i32Xor);
        C.const(-1).emit(op.i32Xor);
        return this.maskTo(w);
      case 'and':
      case 'or':
      case 'xor':
        this.pushWord(c.a, 0);
        this.pushWord(c.b, 0);
        C.emit(c.op === 'and' ? op.i32And : c.op === 'or' ? op.i32Or : op.i32Xor);
        if (this.w(c.a) <= w && this.w(c.b) <= w) return;
        return this.maskTo(w);
      case 'add':
      case 'sub':
      case 'mul':
        this.pushWord(c.a, 0);
        this.pushWord(c.b, 0);
        C.emit(c.op === 'add' ? op.i32Add : c.op === 'sub' ? op.i32Sub : op.i32Mul);
        return this.maskTo(w);
      case 'eq':
      case 'ne':
        if (this.w(c.a) > 32) {
          // Word by word: all equal.
          for (let k = 0; k < this.words(c.a); k++) {
            this.pushWord(c.a, k);
            this.pushWord(c.b, k);
            C.emit(op.i32Eq);
            if (k > 0) C.emit(op.i32And);
          }
          if (c.op === 'ne') C.emit(op.i32Eqz);
          return;
        }
        return this.compareNarrow(c.a, c.b, c.op);
      case 'ult':
      case 'ule':
        if (this.w(c.a) > 32 || this.w(c.b) > 32) return compareWide(this.wordOps, c.a, c.b, c.op === 'ult', false);
        return this.compareNarrow(c.a, c.b, c.op);
      case 'slt':
      case 'sle': {
        if (this.w(c.a) > 32 || this.w(c.b) > 32) return compareWide(this.wordOps, c.a, c.b, c.op === 'slt', true);
        const aw = this.w(c.a);
        this.push(c.a);
        this.sext(aw);
        this.push(c.b);
        this.sext(aw);
        C.emit(c.op === 'slt' ? op.i32LtS : op.i32LeS);
        return;
      }
      case 'shl':
      case 'lshr':
      case 'ashr': {
        const sh = this.temp();
        pushShiftAmount(this.wordOps, c.b);
        C.set(sh);
        if (c.op === 'ashr') {
          this.push(c.a);
          this.sext(w);
          // Shifting the sign-extended value by min(sh, 31) gives the sign fill for sh >= w.
          C.get(sh).const(31).get(sh).const(31).emit(op.i32LtU, op.select, op.i32ShrS);
          return this.maskTo(w);
        }
        this.push(c.a);
        C.get(sh).emit(c.op === 'shl' ? op.i32Shl : op.i32ShrU);
        this.maskTo(w);
        C.const(0).get(sh).const(w).emit(op.i32LtU, op.select);
        return;
      }
      case 'redand':
        // Every word all ones (the top one up to the width).
        for (let k = 0; k < this.words(c.a); k++) {
          this.pushWord(c.a, k);
          C.const(maskOf(Math.min(32, this.w(c.a) - 32 * k))).emit(op.i32Eq);
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
        this.push(c.a);
        this.push(c.b);
        this.push(c.sel);
        C.emit(op.select);
        return;
      case 'concat': {
        const rot = this.rotation(c);
        if (rot) {
          // The two slices feeding it are then dead and dropped by the WebAssembly compiler.
          this.push(rot.x);
          C.const(32 - rot.k).emit(op.i32Rotl);
          return;
        }
        let pos = w;
        let first = true;
        for (const p of c.parts) {
          pos -= this.w(p);
          if (this.L.consts.get(this.root(p)) === 0n) continue;
          this.push(p);
          if (pos > 0) C.const(pos).emit(op.i32Shl);
          if (!first) C.emit(op.i32Or);
          first = false;
        }
        if (first) C.const(0);
        return;
      }
      case 'slice':
        if (this.w(c.a) > 32) return this.pushBits(c.a, c.lo, w);
        this.push(c.a);
        if (c.lo > 0) C.const(c.lo).emit(op.i32ShrU);
        // The top bits of a net need no mask: above its width it is zero.
        if (c.lo + w >= this.w(c.a)) return;
        return this.maskTo(w);
      case 'zext':
        return this.push(c.a);
      case 'sext':
        this.push(c.a);
        this.sext(this.w(c.a));
        return this.maskTo(w);
    }
  }
}
