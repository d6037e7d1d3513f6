// The WebAssembly generator's values: locals and their reuse, operand pushes and stores of nets (any width, by word), and the dirty flags a changed value sets.
// The state array, the commit shadow and the memories live in one linear memory (wasmLayout.ts) that
// the JavaScript simulator views as Int32Arrays, so every testbench API works unchanged on top of it.
import type { NetId } from '../../ir/netlist.ts';
import type { Layout } from './layout.ts';
import { inPlaceRegisters, type InPlaceRegisters } from './inPlace.ts';
import type { WasmLayout } from './wasmLayout.ts';
import { Code, SCRATCH_LOCALS, op } from './wasmEncoding.ts';

const maskOf = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);

/**
 * How the fused loop treats activity (activityPlan.ts): `regions` are evaluated and `groups` committed
 * every cycle without a flag, and no one flags them; `ungated` has no flags at all; `counting` counts
 * evaluations of the regions and groups that keep flags (the comb and commit a fused loop measures its plan on).
 */
export interface RunActivity {
  readonly regions?: ReadonlySet<number>;
  readonly groups?: ReadonlySet<number>;
  readonly ungated?: boolean;
  readonly counting?: boolean;
  /**
   * Write registers during the comb (the fused loop in one function only): W.inPlace's, less those
   * whose value the loop samples after the comb (its `outputs`, which may name internal registers).
   */
  readonly inPlace?: { readonly sampled: readonly NetId[] };
}

/**
 * The function being generated, shared by the generator's parts (wasmSteps.ts, wasmClockEdge.ts, wasmComb.ts,
 * wasmRunLoop.ts): its code, its locals and the nets they hold, and how its stores mark dirty flags.
 */
export class WasmValues {
  local = new Map<NetId, number>();
  nextLocal = 0;
  /** Locals free for reuse, and those holding a net's value (the rest are a step's scratch). */
  free: number[] = [];
  owned = new Set<number>();
  stepTemps: number[] | null = null;
  /** Nets bound to locals inside the current `scope` (released when it ends). */
  scopeBound: [NetId, number][] | null = null;
  /** Index of the i64 scratch local of the current function, and of the v128 one. */
  i64 = 0;
  v128 = 0;
  c = new Code();
  /** Inside the gated comb: a stored value read by a skippable region marks that region when it changes. */
  marking = false;
  /** Regions evaluated without checking their dirty flag (busy nearly every cycle). */
  readonly evaluateAlways: ReadonlySet<number>;
  /** Commit groups updated without checking their dirty flag. */
  readonly commitAlways: ReadonlySet<number>;
  /** No dirty flags: every region evaluated, every register committed, nothing marked (see RunActivity). */
  readonly ungated: boolean;
  readonly counting: boolean;
  /** Registers written during the comb, right after their next value (the fused loop only). */
  readonly inPlace: InPlaceRegisters | undefined;
  /** Root nets the fused loop reads after the comb (its outputs): stored even where a local would do. */
  readonly sampled: ReadonlySet<NetId>;
  /** Flags no one tests (of regions and groups without a guard): not set either. */
  readonly untested: ReadonlySet<number>;
  private readonly readersCache = new Map<NetId, readonly number[] | undefined>();

  constructor(
    readonly L: Layout,
    readonly W: WasmLayout,
    activity: RunActivity = {},
  ) {
    this.evaluateAlways = activity.regions ?? new Set();
    this.commitAlways = activity.groups ?? new Set();
    this.ungated = activity.ungated ?? false;
    this.counting = activity.counting ?? false;
    // A subset of W.inPlace's: none where the layout allows none (several edges, resets the comb computes, properties).
    this.inPlace = activity.inPlace && W.inPlace.regs.size > 0 ? inPlaceRegisters(L, activity.inPlace.sampled) : undefined;
    this.sampled = new Set((activity.inPlace?.sampled ?? []).map((id) => L.root[id]!));
    // A group whose registers are all written in place has nothing left to commit: its flag goes untested.
    const emptied = W.commitGroups.flatMap((g, k) => (this.inPlace && g.regs.every((r) => this.inPlace!.regs.has(r)) ? [W.groupDirtyBytes[k]!] : []));
    this.untested = new Set([...this.evaluateAlways].map((k) => W.dirtyBytes[k]!).concat([...this.commitAlways].map((g) => W.groupDirtyBytes[g]!), emptied));
  }

  /** The flags to set when this root net changes (none when ungated; not those no one tests). */
  readersOf(r: NetId): readonly number[] | undefined {
    if (this.ungated) return undefined;
    if (this.readersCache.has(r)) return this.readersCache.get(r);
    const all = this.W.readers.get(r);
    const kept = all?.filter((f) => !this.untested.has(f));
    const result = kept?.length ? kept : undefined;
    this.readersCache.set(r, result);
    return result;
  }

  root(id: NetId): NetId {
    return this.L.root[id]!;
  }

  w(id: NetId): number {
    return this.L.flat.nets[id]!.width;
  }

  byte(id: NetId): number {
    return this.L.slots[this.root(id)]!.off * 4;
  }

  temp(): number {
    const v = this.free.pop() ?? this.nextLocal++;
    this.stepTemps?.push(v);
    return v;
  }

  bind(r: NetId, v: number): void {
    this.local.set(r, v);
    this.owned.add(v);
    this.scopeBound?.push([r, v]);
  }

  /** Push an operand's value: a constant, a local computed earlier in this function, or a state load. */
  push(id: NetId): void {
    const r = this.root(id);
    if (this.w(r) > 32) throw new Error(`internal: wasm push of the ${this.w(r)}-bit net ${this.L.flat.nets[r]!.name}`);
    const k = this.L.consts.get(r);
    if (k !== undefined) this.c.const(Number(BigInt.asIntN(32, k)));
    else if (this.local.has(r)) this.c.get(this.local.get(r)!);
    else {
      // State is loaded once per function: every later use before the clock edge sees the same value.
      const v = this.temp();
      this.c.loadAt(this.byte(r)).tee(v);
      this.bind(r, v);
    }
  }

  // ---------------------------------------------------------------- nets wider than 32 bits
  // A wide net lives only in linear memory (its words at byte(id) + 4k, the top word masked to its
  // width); a cell producing one stores every word, and readers load the words they need.
  words(id: NetId): number {
    return Math.ceil(this.w(id) / 32);
  }

  /** Push word k of any net (zero past its width). */
  pushWord(id: NetId, k: number): void {
    const r = this.root(id);
    const c = this.L.consts.get(r);
    if (c !== undefined) this.c.const(Number(BigInt.asIntN(32, c >> BigInt(32 * k))));
    else if (k >= this.words(r)) this.c.const(0);
    else if (this.w(r) <= 32) this.push(r);
    else this.c.loadAt(this.byte(r) + 4 * k);
  }

  /** Push bits [lo, lo + n) of any net as a zero-extended i32 (n <= 32). */
  pushBits(id: NetId, lo: number, n: number): void {
    const q = lo >> 5;
    const sh = lo & 31;
    this.pushWord(id, q);
    if (sh > 0) {
      this.c.const(sh).emit(op.i32ShrU);
      if (sh + n > 32) {
        this.pushWord(id, q + 1);
        this.c.const(32 - sh).emit(op.i32Shl, op.i32Or);
      }
    }
    this.maskTo(n);
  }

  /** Store word k of a wide result: `value` pushes it; the top word is masked to the net's width. */
  storeWord(out: NetId, k: number, value: () => void): void {
    const readers = this.markedReaders(out);
    if (!readers) this.c.const(0);
    value();
    if (k === this.words(out) - 1) this.maskTo(this.w(out) - 32 * k);
    if (!readers) return void this.c.store(this.byte(out) + 4 * k);
    // A step's scratch local: released when the step ends.
    const v = this.temp();
    this.c.set(v);
    this.storeIfChanged(v, this.byte(out) + 4 * k, readers);
  }

  maskTo(w: number): void {
    if (w < 32) this.c.const(maskOf(w)).emit(op.i32And);
  }

  /** Sign-extend the w-bit value on the stack to 32 bits. */
  sext(w: number): void {
    if (w < 32) this.c.const(32 - w).emit(op.i32Shl).const(32 - w).emit(op.i32ShrS);
  }

  begin(params = 0): void {
    this.local = new Map();
    this.free = [];
    this.owned = new Set();
    this.stepTemps = null;
    this.scopeBound = null;
    this.nextLocal = params + SCRATCH_LOCALS;
    this.i64 = params;
    this.v128 = params + 1;
    this.c = new Code();
  }

  /**
   * Run `body` and then release every local it took: commit handles one register or port at a time,
   * and a large design has more of them than a function may have locals. Values are reloaded from
   * memory by later items, which is safe there (docs in commitBody).
   */
  scope(body: () => void): void {
    const outerTemps = this.stepTemps;
    const outerBound = this.scopeBound;
    this.stepTemps = [];
    this.scopeBound = [];
    body();
    for (const [r, v] of this.scopeBound) {
      if (this.local.get(r) === v) this.local.delete(r);
      this.owned.delete(v);
    }
    for (const v of this.stepTemps) if (!this.owned.has(v)) this.free.push(v);
    this.stepTemps = outerTemps;
    this.scopeBound = outerBound;
  }

  /** Release every local: later code reloads values from memory. */
  forgetLocals(): void {
    for (const v of this.owned) this.free.push(v);
    this.owned.clear();
    this.local.clear();
  }

  /** Set the dirty flags at these byte addresses. */
  mark(flags: readonly number[] | undefined): void {
    for (const byte of flags ?? []) this.c.const(0).const(1).store(byte);
  }

  /** The regions to mark when `out` changes, in the gated comb (undefined: store it plainly). */
  markedReaders(out: NetId): readonly number[] | undefined {
    return this.marking ? this.readersOf(this.root(out)) : undefined;
  }

  /** Store local `v` at `byte` if it differs from the value there, marking `readers`. */
  storeIfChanged(v: number, byte: number, readers: readonly number[]): void {
    const C = this.c;
    // Branch-free: new ^ old, nonzero when it changed, goes to the readers' flags (any nonzero flag is set).
    this.noteChange(() => C.get(v).loadAt(byte).emit(op.i32Xor), readers);
    C.const(0).get(v).store(byte);
  }

  /** Set the readers' flags when `changed` (which pushes a value, nonzero if the value changed) is nonzero. */
  noteChange(changed: () => void, readers: readonly number[]): void {
    const C = this.c;
    const v = this.temp();
    changed();
    C.set(v);
    for (const flag of readers) C.const(0).loadAt(flag).get(v).emit(op.i32Or).store(flag);
  }
}
