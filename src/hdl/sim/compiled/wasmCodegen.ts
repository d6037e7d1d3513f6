// Compiles a levelized netlist to WebAssembly (comb, combAll, commit, and a fused run loop per port list);
// nets wider than 32 bits are computed as i64 or v128 values or word by word.
// The state array, the commit shadow and the memories live in one linear memory (wasmLayout.ts) that
// the JavaScript simulator views as Int32Arrays, so every testbench API works unchanged on top of it.
import { cellInputs, type Cell, type NetId } from '../../ir/netlist.ts';
import { stepInputs, stepOutput, type CombStep, type Layout } from './layout.ts';
import { crossingNets, type ActivityRegion } from './activityRegions.ts';
import type { LeadingZeroCount } from './leadingZeros.ts';
import type { ShiftRightJam } from './shiftRightJam.ts';
import type { InPlaceRegisters } from './inPlace.ts';
import type { WasmLayout } from './wasmLayout.ts';
import { cell64, computesI64, load64, narrowFrom64, readsI64, store64, type Wide64Context } from './wasmWide64.ts';
import { Code, SCRATCH_LOCALS, WasmSizeError, checkFunctionSize, op, wasmModule, type WasmFunction } from './wasmEncoding.ts';
import { cell128, changed128, compare128, computesV128, readsV128, store128, type Wide128Context } from './wasmWide128.ts';
import { compareWide, foldWords, pushShiftAmount, wideCell, type WordContext } from './wasmWideWords.ts';

type Reg = Layout['flat']['regs'][number];
type ReadPort = Layout['flat']['memories'][number]['readPorts'][number];
type WritePort = Layout['flat']['memories'][number]['writePorts'][number];

const maskOf = (w: number) => (w >= 32 ? -1 : 2 ** w - 1);

/** The module with `comb` (skipping idle regions) and `commit`, the functions stepping and peeking at ports use. */
export function generateWasm(L: Layout, W: WasmLayout): Uint8Array<ArrayBuffer> {
  return splitIfTooLarge(
    () => {
      const g = new WasmGen(L, W);
      return wasmModule(W.pages, [checkFunctionSize(g.comb('comb', false, true)), g.commit()]);
    },
    (parts) => {
      const g = new WasmGen(L, W);
      // Functions: the parts of comb, commit, then comb calling its parts.
      const fns = [...g.combPartsSkippingIdle('comb', parts), g.commit()];
      fns.push(callAll('comb', 0, parts));
      return wasmModule(W.pages, fns);
    },
  );
}

/**
 * The module with `combAll`, which computes and stores every net: for peeks of internal nets and
 * waveforms only, so generated when first needed (it is the largest function of a large design).
 */
export function generateWasmCombAll(L: Layout, W: WasmLayout): Uint8Array<ArrayBuffer> {
  return splitIfTooLarge(
    () => wasmModule(W.pages, [new WasmGen(L, W).comb('combAll', true)]),
    (parts) => {
      const g = new WasmGen(L, W);
      return wasmModule(W.pages, [...g.combParts('combAll', true, parts), callAll('combAll', 0, parts)]);
    },
  );
}

/**
 * How the fused loop treats activity (activityPlan.ts): `regions` are evaluated and `groups` committed
 * every cycle without a flag, and no one flags them; `ungated` has no flags at all; `counting` counts
 * evaluations of the regions and groups that keep flags (the first loop, which measures activity).
 */
export interface RunActivity {
  readonly regions?: ReadonlySet<number>;
  readonly groups?: ReadonlySet<number>;
  readonly ungated?: boolean;
  readonly counting?: boolean;
  /** Write W.inPlace's registers during the comb (the fused loop in one function only). */
  readonly inPlace?: boolean;
}

/** A module with the fused `run` loop for one list of (≤ 32-bit) input and output nets. */
export function generateWasmRun(L: Layout, W: WasmLayout, inputs: readonly NetId[], outputs: readonly NetId[], activity: RunActivity = {}): Uint8Array<ArrayBuffer> {
  const make = () => new WasmGen(L, W, activity);
  return splitIfTooLarge(
    () => wasmModule(W.pages, [new WasmGen(L, W, { ...activity, inPlace: true }).run(inputs, outputs)]),
    (parts) => {
      // run is function 0, then the parts of comb (functions 1 … parts), then commit.
      const g = make();
      const comb = g.combPartsSkippingIdle('comb', parts);
      const commit = g.commit();
      return wasmModule(W.pages, [g.runCalling(inputs, outputs, 1, parts, parts + 1), ...comb, commit]);
    },
  );
}

/**
 * One function per phase is fastest, but an engine limits a function's size: a design too large for
 * that evaluates its combinational steps in `parts` functions, values crossing parts through memory.
 */
function splitIfTooLarge(whole: () => Uint8Array<ArrayBuffer>, split: (parts: number) => Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  let parts: number;
  try {
    return whole();
  } catch (e) {
    if (!(e instanceof WasmSizeError)) throw e;
    parts = 2 ** Math.ceil(Math.log2(1.5 * e.over));
  }
  for (; ; parts *= 2) {
    try {
      return split(parts);
    } catch (e) {
      // Only the parts shrink as their number grows.
      if (!(e instanceof WasmSizeError) || !/_p\d+$/.test(e.fn) || parts >= 1024) throw e;
    }
  }
}

/** A function calling functions first … first + count − 1 in order. */
function callAll(name: string, first: number, count: number): WasmFunction {
  const c = new Code();
  for (let i = 0; i < count; i++) c.call(first + i);
  return { name, locals: 0, code: c };
}

class WasmGen {
  private local = new Map<NetId, number>();
  private nextLocal = 0;
  /** Locals free for reuse, and those holding a net's value (the rest are a step's scratch). */
  private free: number[] = [];
  private owned = new Set<number>();
  private stepTemps: number[] | null = null;
  /** Nets bound to locals inside the current `scope` (released when it ends). */
  private scopeBound: [NetId, number][] | null = null;
  /** Index of the i64 scratch local of the current function, and of the v128 one. */
  private i64 = 0;
  private v128 = 0;
  private c = new Code();

  /** What the gated comb stores: observable values and those crossing regions. */
  private gatedKeep: Set<NetId> | undefined;
  /** Inside the gated comb: a stored value read by a skippable region marks that region when it changes. */
  private marking = false;
  /** Inside the fused loop's comb: in-place registers are written there. */
  private inPlaceOn = false;


  /** The cell computing each root net (for peepholes that look through an operand). */
  private readonly producer = new Map<NetId, Cell>();

  /** Regions evaluated without checking their dirty flag (busy nearly every cycle). */
  private readonly evaluateAlways: ReadonlySet<number>;
  /** Commit groups updated without checking their dirty flag. */
  private readonly commitAlways: ReadonlySet<number>;
  /** No dirty flags: every region evaluated, every register committed, nothing marked (see RunActivity). */
  private readonly ungated: boolean;
  private readonly counting: boolean;
  /** Registers written during the comb, right after their next value (the fused loop only). */
  private readonly inPlace: InPlaceRegisters | undefined;
  /** Flags no one tests (of regions and groups without a guard): not set either. */
  private readonly untested: ReadonlySet<number>;
  private readonly readersCache = new Map<NetId, readonly number[] | undefined>();

  constructor(
    private readonly L: Layout,
    private readonly W: WasmLayout,
    activity: RunActivity = {},
  ) {
    this.evaluateAlways = activity.regions ?? new Set();
    this.commitAlways = activity.groups ?? new Set();
    this.ungated = activity.ungated ?? false;
    this.counting = activity.counting ?? false;
    this.inPlace = activity.inPlace ? W.inPlace : undefined;
    // A group whose registers are all written in place has nothing left to commit: its flag goes untested.
    const emptied = W.commitGroups.flatMap((g, k) => (this.inPlace && g.regs.every((r) => this.inPlace!.regs.has(r)) ? [W.groupDirtyBytes[k]!] : []));
    this.untested = new Set([...this.evaluateAlways].map((k) => W.dirtyBytes[k]!).concat([...this.commitAlways].map((g) => W.groupDirtyBytes[g]!), emptied));
    for (const st of L.steps) if (st.kind === 'cell') this.producer.set(L.root[st.cell.out]!, st.cell);
  }

  /** The flags to set when this root net changes (none when ungated; not those no one tests). */
  private readersOf(r: NetId): readonly number[] | undefined {
    if (this.ungated) return undefined;
    if (this.readersCache.has(r)) return this.readersCache.get(r);
    const all = this.W.readers.get(r);
    const kept = all?.filter((f) => !this.untested.has(f));
    const result = kept?.length ? kept : undefined;
    this.readersCache.set(r, result);
    return result;
  }

  /** {x[k-1:0], x[31:k]} of a 32-bit x is a rotation: return x and k, or null. */
  private rotation(c: Extract<Cell, { op: 'concat' }>): { x: NetId; k: number } | null {
    if (this.w(c.out) !== 32 || c.parts.length !== 2) return null;
    const hi = this.producer.get(this.root(c.parts[0]!));
    const lo = this.producer.get(this.root(c.parts[1]!));
    if (hi?.op !== 'slice' || lo?.op !== 'slice' || this.root(hi.a) !== this.root(lo.a) || this.w(hi.a) !== 32) return null;
    const k = this.w(hi.out);
    return hi.lo === 0 && lo.lo === k && this.w(lo.out) === 32 - k ? { x: hi.a, k } : null;
  }

  private root(id: NetId): NetId {
    return this.L.root[id]!;
  }
  private w(id: NetId): number {
    return this.L.flat.nets[id]!.width;
  }
  private byte(id: NetId): number {
    return this.L.slots[this.root(id)]!.off * 4;
  }
  private temp(): number {
    const v = this.free.pop() ?? this.nextLocal++;
    this.stepTemps?.push(v);
    return v;
  }

  private bind(r: NetId, v: number): void {
    this.local.set(r, v);
    this.owned.add(v);
    this.scopeBound?.push([r, v]);
  }

  /**
   * Per root net, the last step that reads it (Infinity: read after the steps, by the outputs or the
   * clock edge). A large design has more values than a function may have locals (V8 allows 50,000),
   * so a value's local is reused once its last reader has run.
   */
  private lastReads(afterSteps: readonly NetId[], pinState: boolean, range: readonly [number, number]): Map<NetId, number> {
    const L = this.L;
    const last = new Map<NetId, number>();
    // Only this function's steps count: a later part reloads what it needs from memory.
    for (let i = range[0]; i < range[1]; i++) for (const id of stepInputs(L, L.steps[i]!)) last.set(this.root(id), i);
    const pin = (id: NetId | undefined) => id !== undefined && last.set(this.root(id), Infinity);
    afterSteps.forEach(pin);
    // The fused run loop's clock edge reads these from locals; elsewhere commit loads them from memory.
    if (!pinState) return last;
    for (const r of L.flat.regs) [r.d, r.en, r.reset?.net].forEach(pin);
    for (const m of L.flat.memories) {
      for (const p of m.readPorts) [p.addr, p.en].forEach(pin);
      for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask].forEach(pin);
    }
    return last;
  }

  /** Push an operand's value: a constant, a local computed earlier in this function, or a state load. */
  private push(id: NetId): void {
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

  private words(id: NetId): number {
    return Math.ceil(this.w(id) / 32);
  }

  /** Push word k of any net (zero past its width). */
  private pushWord(id: NetId, k: number): void {
    const r = this.root(id);
    const c = this.L.consts.get(r);
    if (c !== undefined) this.c.const(Number(BigInt.asIntN(32, c >> BigInt(32 * k))));
    else if (k >= this.words(r)) this.c.const(0);
    else if (this.w(r) <= 32) this.push(r);
    else this.c.loadAt(this.byte(r) + 4 * k);
  }

  /** Push bits [lo, lo + n) of any net as a zero-extended i32 (n <= 32). */
  private pushBits(id: NetId, lo: number, n: number): void {
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
  private storeWord(out: NetId, k: number, value: () => void): void {
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

  private maskTo(w: number): void {
    if (w < 32) this.c.const(maskOf(w)).emit(op.i32And);
  }

  /** Sign-extend the w-bit value on the stack to 32 bits. */
  private sext(w: number): void {
    if (w < 32) this.c.const(32 - w).emit(op.i32Shl).const(32 - w).emit(op.i32ShrS);
  }

  private begin(params = 0): void {
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

  /** `gated`: skip the regions whose inputs did not change (only without storeAll, which must compute everything). */
  comb(name: string, storeAll: boolean, gated = false): { name: string; locals: number; code: Code } {
    this.begin();
    if (gated) this.gatedCombBody();
    else this.combBody(storeAll ? null : this.observable(), [], [0, storeAll ? this.L.steps.length : this.L.liveSteps]);
    return { name, locals: this.nextLocal - SCRATCH_LOCALS, code: this.c };
  }

  /**
   * comb over activity regions: a region whose inputs (and asynchronously read memories) are as at
   * its last evaluation keeps its stored outputs. Values that cross regions therefore live in memory,
   * and no local survives a region (it may not have been set this cycle).
   */
  private gatedCombBody(regions: readonly [number, number] = [0, this.W.regions.length]): void {
    const keep = (this.gatedKeep ??= new Set([...this.observable(), ...crossingNets(this.L, this.W.regions)]));
    if (regions[0] === 0 && this.ungated) this.asyncResets();
    else if (regions[0] === 0) {
      this.markAllIfForced();
      this.markChangedInputs();
      this.asyncResets();
    }
    this.forgetLocals();
    const all = this.W.regions;
    const last = this.lastReads([], false, [all[regions[0]]?.start ?? 0, all[regions[1] - 1]?.end ?? 0]);
    this.marking = !this.ungated;
    for (let k = regions[0]; k < regions[1]; k++) {
      const region = all[k]!;
      const guarded = region.inputs !== null && !this.evaluateAlways.has(k) && !this.ungated;
      if (guarded) this.guard(k);
      for (let i = region.start; i < region.end; i++) this.combStep(i, keep, last);
      if (guarded) this.c.emit(op.end);
      this.forgetLocals();
    }
    this.marking = false;
    // Ungated, nothing kept the flags up to date: the next gated evaluation must run everything.
    if (regions[1] === all.length) this.c.const(0).const(this.ungated ? 1 : 0).store(this.W.forceByte);
  }

  /** Set the dirty flags at these byte addresses. */
  private mark(flags: readonly number[] | undefined): void {
    for (const byte of flags ?? []) this.c.const(0).const(1).store(byte);
  }

  /** After state changed behind the generated code's back (forceByte): every region and commit group is dirty. */
  private markAllIfForced(): void {
    const C = this.c;
    // Allocated one after the other in wasmLayout: one contiguous block.
    const flags = [...this.W.dirtyBytes, ...this.W.groupDirtyBytes];
    if (!flags.length) return;
    if (flags.some((b, i) => i > 0 && b !== flags[i - 1]! + 4)) throw new Error('internal: dirty flags are not contiguous');
    // The flags are contiguous: a loop over them.
    const at = this.temp();
    C.loadAt(this.W.forceByte).emit(op.if, 0x40);
    C.const(flags[0]!).set(at);
    C.emit(op.loop, 0x40);
    C.get(at).const(1).store();
    C.get(at).const(4).emit(op.i32Add).tee(at).const(flags[flags.length - 1]! + 4).emit(op.i32LtU, op.brIf, 0);
    C.emit(op.end, op.end);
    this.free.push(at);
  }

  /** Top-level inputs (written by pokes or a stimulus row) against their copies: a change marks the readers. */
  private markChangedInputs(): void {
    const C = this.c;
    for (const [id, copy] of this.W.inputCopyBytes) {
      if (!this.readersOf(id)) continue;
      for (let k = 0; k < this.words(id); k++) {
        const v = this.temp();
        C.loadAt(this.byte(id) + 4 * k).tee(v).loadAt(copy + 4 * k).emit(op.i32Ne, op.if, 0x40);
        C.const(0).get(v).store(copy + 4 * k);
        this.mark(this.readersOf(id));
        C.emit(op.end);
        this.free.push(v);
      }
    }
  }

  /** The regions to mark when `out` changes, in the gated comb (undefined: store it plainly). */
  private markedReaders(out: NetId): readonly number[] | undefined {
    return this.marking ? this.readersOf(this.root(out)) : undefined;
  }

  /** Store local `v` at `byte` if it differs from the value there, marking `readers`. */
  private storeIfChanged(v: number, byte: number, readers: readonly number[]): void {
    const C = this.c;
    // Branch-free: new ^ old, nonzero when it changed, goes to the readers' flags (any nonzero flag is set).
    this.noteChange(() => C.get(v).loadAt(byte).emit(op.i32Xor), readers);
    C.const(0).get(v).store(byte);
  }

  /** Set the readers' flags when `changed` (which pushes a value, nonzero if the value changed) is nonzero. */
  private noteChange(changed: () => void, readers: readonly number[]): void {
    const C = this.c;
    const v = this.temp();
    changed();
    C.set(v);
    for (const flag of readers) C.const(0).loadAt(flag).get(v).emit(op.i32Or).store(flag);
  }

  /**
   * comb in `parts` functions: of whole regions, skipping idle ones, while there are enough regions to
   * go round; past that (a region too large for one function) of equal runs of steps, evaluating all.
   */
  combPartsSkippingIdle(name: string, parts: number): WasmFunction[] {
    if (parts <= this.W.regions.length) return this.gatedCombParts(name, parts);
    const fns = this.combParts(name, false, parts);
    // The region copies were not updated: the next skipping evaluation must run every region.
    fns[fns.length - 1]!.code.const(0).const(1).store(this.W.forceByte);
    return fns;
  }

  /** The gated comb split into `parts` functions of whole regions (`name_p0` …). */
  private gatedCombParts(name: string, parts: number): WasmFunction[] {
    const regions = this.W.regions;
    const total = this.L.liveSteps;
    // Part k takes the regions starting before (k + 1) / parts of the steps.
    const bounds = [0];
    for (let k = 1; k < parts; k++) {
      let r = bounds[k - 1]!;
      while (r < regions.length && regions[r]!.start < (k * total) / parts) r++;
      bounds.push(r);
    }
    bounds.push(regions.length);
    return Array.from({ length: parts }, (_, k) => {
      this.begin();
      this.gatedCombBody([bounds[k]!, bounds[k + 1]!]);
      return { name: `${name}_p${k}`, locals: this.nextLocal - SCRATCH_LOCALS, code: this.c };
    });
  }

  /** Opens `if (region k is dirty)`, clearing its flag and counting the evaluation. */
  private guard(k: number): void {
    const C = this.c;
    const flag = this.W.dirtyBytes[k]!;
    const count = this.W.evaluationBytes[k]!;
    C.loadAt(flag).emit(op.if, 0x40);
    C.const(0).const(0).store(flag);
    if (this.counting) C.const(0).loadAt(count).const(1).emit(op.i32Add).store(count);
  }

  /** Release every local: later code reloads values from memory. */
  private forgetLocals(): void {
    for (const v of this.owned) this.free.push(v);
    this.owned.clear();
    this.local.clear();
  }

  /** comb split into `parts` functions over equal runs of steps (`name_p0` …). */
  combParts(name: string, storeAll: boolean, parts: number): WasmFunction[] {
    // The fast variant computes only the live steps (those that reach a port or the clock edge).
    const n = storeAll ? this.L.steps.length : this.L.liveSteps;
    const bounds = Array.from({ length: parts + 1 }, (_, i) => Math.round((i * n) / parts));
    // A value read in a later part than its own is stored for it.
    const partOf = new Map<NetId, number>();
    const crossing = new Set<NetId>();
    this.L.steps.slice(0, n).forEach((st, i) => {
      const part = bounds.findIndex((b, k) => i >= b && i < bounds[k + 1]!);
      for (const id of stepInputs(this.L, st)) {
        const from = partOf.get(this.root(id));
        if (from !== undefined && from < part) crossing.add(this.root(id));
      }
      partOf.set(stepOutput(this.L, st), part);
    });
    const keep = storeAll ? null : new Set([...this.observable(), ...crossing]);
    return Array.from({ length: parts }, (_, k) => {
      this.begin();
      this.combBody(keep, [], [bounds[k]!, bounds[k + 1]!]);
      return { name: `${name}_p${k}`, locals: this.nextLocal - SCRATCH_LOCALS, code: this.c };
    });
  }

  /** The `run` loop of a split design: inputs to memory, the comb parts, outputs from memory, commit. */
  runCalling(inputs: readonly NetId[], outputs: readonly NetId[], firstPart: number, parts: number, commitFn: number): WasmFunction & { params: number } {
    this.begin(3);
    const C = this.c;
    C.emit(op.block, 0x40, op.loop, 0x40);
    C.get(0).emit(op.i32Eqz, op.brIf, 1);
    let inWords = 0;
    for (const id of inputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.const(0).get(1).load(4 * inWords++);
        if (k === this.words(id) - 1) this.maskTo(this.w(id) - 32 * k);
        C.store(this.byte(id) + 4 * k);
      }
    }
    for (let i = 0; i < parts; i++) C.call(firstPart + i);
    let outWords = 0;
    for (const id of outputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.get(2);
        this.pushWord(id, k);
        C.store(4 * outWords++);
      }
    }
    C.call(commitFn);
    C.get(1).const(inWords * 4).emit(op.i32Add).set(1);
    C.get(2).const(outWords * 4).emit(op.i32Add).set(2);
    C.get(0).const(1).emit(op.i32Sub).set(0);
    C.emit(op.br, 0, op.end, op.end);
    return { name: 'run', params: 3, locals: this.nextLocal - 3 - SCRATCH_LOCALS, code: C };
  }

  private combBody(keep: Set<NetId> | null, afterSteps: readonly NetId[] = [], range: readonly [number, number] = [0, this.L.steps.length], pinState = false): void {
    if (range[0] === 0) this.asyncResets();
    const last = this.lastReads(afterSteps, pinState, range);
    for (let i = range[0]; i < range[1]; i++) this.combStep(i, keep, last);
  }

  /** Registers with an asynchronous reset take their reset value while it is asserted. */
  private asyncResets(): void {
    for (const r of this.L.flat.regs) {
      if (r.reset?.kind !== 'async') continue;
      this.push(r.reset.net);
      this.c.emit(op.i32Eqz, op.if, 0x40);
      for (let k = 0; k < this.words(r.q); k++) this.c.const(0).const(Number(BigInt.asIntN(32, r.reset.value >> BigInt(32 * k)))).store(this.byte(r.q) + 4 * k);
      // Held in reset: its readers must see the reset value (marking every cycle of the reset is enough).
      this.mark(this.readersOf(this.root(r.q)));
      this.c.emit(op.end);
      this.local.delete(this.root(r.q));
    }
  }

  /** Step i, then release the locals of values no later step reads. */
  private combStep(i: number, keep: Set<NetId> | null, last: ReadonlyMap<NetId, number>): void {
    const st = this.L.steps[i]!;
    this.stepTemps = [];
    this.step(st, keep);
    // Registers whose next value is now known and whose readers have all run: written here.
    for (const r of (this.inPlace && this.inPlaceOn && this.inPlace.after.get(i)) || []) this.scope(() => this.commitWords(r.q, (k) => this.regValue(r, k)));
    const scratch = this.stepTemps;
    this.stepTemps = null;
    for (const v of scratch) if (!this.owned.has(v)) this.free.push(v);
    // A value nothing reads has been stored already (if anyone outside looks at it).
    const out = stepOutput(this.L, st);
    const outLocal = this.local.get(out);
    // A value many steps read is stored and reloaded where read (see Layout.materialized).
    if (outLocal !== undefined && (!last.has(out) || this.L.materialized.has(out))) {
      this.local.delete(out);
      this.owned.delete(outLocal);
      this.free.push(outLocal);
    }
    for (const id of stepInputs(this.L, st)) {
      const r = this.root(id);
      const v = this.local.get(r);
      if (v === undefined || last.get(r) !== i) continue;
      this.local.delete(r);
      this.owned.delete(v);
      this.free.push(v);
    }
  }

  /**
   * `run(cycles, stimByte, outByte)`: per cycle, store one row of inputs, evaluate, write one row of
   * outputs, clock edge, all inside WebAssembly. Combinational values stay in locals: nothing outside
   * this function reads them, so none is stored. (Registers stay in linear memory: holding a few hundred
   * of them in loop-carried locals measured 2x slower, as the register allocator spills them anyway.)
   */
  run(inputs: readonly NetId[], outputs: readonly NetId[]): { name: string; params: number; locals: number; code: Code } {
    this.begin(3);
    const C = this.c;
    C.emit(op.block, 0x40, op.loop, 0x40);
    C.get(0).emit(op.i32Eqz, op.brIf, 1);
    // A row holds each port's words, least significant first.
    let inWords = 0;
    for (const id of inputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.const(0).get(1).load(4 * inWords++);
        if (k === this.words(id) - 1) this.maskTo(this.w(id) - 32 * k);
        C.store(this.byte(id) + 4 * k);
      }
    }
    this.inPlaceOn = true;
    this.gatedCombBody();
    this.inPlaceOn = false;
    let outWords = 0;
    for (const id of outputs) {
      for (let k = 0; k < this.words(id); k++) {
        C.get(2);
        this.pushWord(id, k);
        C.store(4 * outWords++);
      }
    }
    this.commitBody();
    C.get(1).const(inWords * 4).emit(op.i32Add).set(1);
    C.get(2).const(outWords * 4).emit(op.i32Add).set(2);
    C.get(0).const(1).emit(op.i32Sub).set(0);
    C.emit(op.br, 0, op.end, op.end);
    return { name: 'run', params: 3, locals: this.nextLocal - 3 - SCRATCH_LOCALS, code: C };
  }

  private observable(): Set<NetId> {
    const L = this.L;
    const keep = new Set<NetId>();
    const add = (id: NetId | undefined) => id !== undefined && keep.add(L.root[id]!);
    for (const n of L.flat.nets) if (n.kind === 'input' || n.kind === 'output' || n.kind === 'reg' || n.kind === 'memread') add(n.id);
    // A next value written in place right where it is computed is read from its local, not stored.
    for (const r of L.flat.regs) [this.inPlace?.atOwnStep.has(r) ? undefined : r.d, r.en, r.reset?.net].forEach(add);
    for (const m of L.flat.memories) {
      for (const p of m.readPorts) [p.addr, p.en].forEach(add);
      for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask].forEach(add);
    }
    return keep;
  }

  private step(st: CombStep, keep: Set<NetId> | null): void {
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
  private get wordOps(): WordContext {
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
  private ctxWords: WordContext | undefined;

  /** The generator's view for the 64-bit code (wasmWide64.ts). */
  private get wide64(): Wide64Context {
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
  private ctx64: Wide64Context | undefined;

  /** The generator's view for the vector code (wasmWide128.ts). */
  private get wide128(): Wide128Context {
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
  private ctx128: Wide128Context | undefined;

  /** A four-word result computed as one v128 and stored as its four words (a change marks the readers). */
  private cellV128(c: Cell): void {
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
  private cellI64(c: Cell): void {
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
  private shiftRightJam(st: ShiftRightJam): void {
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
  private leadingZeros(st: LeadingZeroCount): void {
    // The shift to the top drops the bits above the field: only those below need a mask.
    if (st.lo === 0 && this.w(st.src) <= 32) this.push(st.src);
    else this.pushBits(st.src, st.lo, st.n);
    if (st.n < 32) this.c.const(32 - st.n).emit(op.i32Shl);
    const guard = st.full ? (st.n < 32 ? 1 << (31 - st.n) : 0) : 1 << (32 - st.n);
    if (guard !== 0) this.c.const(guard | 0).emit(op.i32Or);
    this.c.emit(op.i32Clz);
  }

  private wideAsyncRead(mi: number, pi: number): void {
    const p = this.L.flat.memories[mi]!.readPorts[pi]!;
    const a = this.temp();
    this.push(p.addr);
    this.c.set(a);
    const out = this.root(p.data);
    for (let k = 0; k < this.words(out); k++) this.storeWord(out, k, () => this.readWord(mi, a, k));
  }

  private asyncRead(mi: number, pi: number): void {
    const mem = this.L.flat.memories[mi]!;
    const p = mem.readPorts[pi]!;
    const a = this.temp();
    this.push(p.addr);
    this.c.set(a);
    this.readWord(mi, a);
  }

  /** Word address on the stack -> byte offset of the entry (entries of a wide memory take several words). */
  private scaleAddress(width: number): void {
    const bytes = Math.ceil(width / 32) * 4;
    if (bytes === 4) this.c.const(2).emit(op.i32Shl);
    else this.c.const(bytes).emit(op.i32Mul);
  }

  /** Push word k of mem[addr] (0 when addr >= depth); `a` is a local holding the address. */
  private readWord(mi: number, a: number, k = 0): void {
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

  private compareNarrow(a: NetId, b: NetId, kind: 'eq' | 'ne' | 'ult' | 'ule'): void {
    this.push(a);
    this.push(b);
    this.c.emit({ eq: op.i32Eq, ne: op.i32Ne, ult: op.i32LtU, ule: op.i32LeU }[kind]);
  }

  private cell(c: Cell): void {
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

  /** The clock edge: sync reads and shadowed registers into the shadow, memory writes, direct registers, copy back. */
  commit(): { name: string; locals: number; code: Code } {
    this.begin();
    this.commitBody();
    return { name: 'commit', locals: this.nextLocal - SCRATCH_LOCALS, code: this.c };
  }

  /**
   * Run `body` and then release every local it took: commit handles one register or port at a time,
   * and a large design has more of them than a function may have locals. Values are reloaded from
   * memory by later items, which is safe there (docs in commitBody).
   */
  private scope(body: () => void): void {
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

  private commitBody(): void {
    const L = this.L;
    const C = this.c;

    const shadow = (id: NetId) => this.W.shadowByte + this.L.slots[this.root(id)]!.off * 4;
    const groups = this.W.commitGroups;
    // Forced (after the store-everything comb or a state change from outside): every group updates.
    const forced = this.temp();
    if (!this.ungated) C.loadAt(this.W.forceByte).set(forced);
    /** `if (group g is dirty or forced) { clear its flag; body }`. */
    const ifDirty = (g: number, body: () => void) => {
      if (this.ungated || this.commitAlways.has(g)) return body();
      const flag = this.W.groupDirtyBytes[g]!;
      C.loadAt(flag).get(forced).emit(op.i32Or, op.if, 0x40);
      C.const(0).const(0).store(flag);
      const count = this.W.groupEvaluationBytes[g]!;
      if (this.counting) C.const(0).loadAt(count).const(1).emit(op.i32Add).store(count);
      // Values first loaded inside the `if` are not set on the path around it.
      const outside = new Map(this.local);
      body();
      this.local = outside;
      C.emit(op.end);
    };
    const syncReads: NetId[] = [];
    L.flat.memories.forEach((mem, mi) =>
      mem.readPorts.forEach((p) => {
        if (p.kind !== 'sync') return;
        this.scope(() => {
          const a = this.temp();
          this.push(p.addr);
          C.set(a);
          for (let k = 0; k < this.words(p.data); k++) {
            C.const(0);
            this.syncReadValue(mi, p, a, k);
            C.store(shadow(p.data) + 4 * k);
          }
        });
        syncReads.push(p.data);
      }),
    );
    // Registers whose next value reads state: into the shadow first (every next value sees the pre-edge state).
    groups.forEach((g, gi) => {
      if (!g.shadowed) return;
      ifDirty(gi, () => {
        if (!this.ungated && !this.commitAlways.has(gi)) C.const(0).const(1).store(this.W.groupShadowedBytes[gi]!);
        for (const r of g.regs) {
          this.scope(() => {
            for (let k = 0; k < this.words(r.q); k++) {
              C.const(0);
              this.regValue(r, k);
              C.store(shadow(r.q) + 4 * k);
            }
          });
        }
      });
    });
    // Memory writes, then registers whose next value is no state: stored in place. A value reloaded
    // here after a scope has ended is still the pre-edge one (nothing read below is written above it).
    L.flat.memories.forEach((mem, mi) => mem.writePorts.forEach((p) => this.scope(() => this.memoryWrite(mi, p))));
    groups.forEach((g, gi) => {
      if (g.shadowed) return;
      const regs = this.inPlace ? g.regs.filter((r) => !this.inPlace!.regs.has(r)) : g.regs;
      if (!regs.length) return;
      ifDirty(gi, () => {
        for (const r of regs) this.scope(() => this.commitWords(r.q, (k) => this.regValue(r, k)));
      });
    });
    // Copy back from the shadow: a value that changes marks its readers.
    const copyBack = (id: NetId) => this.scope(() => this.commitWords(id, (k) => C.loadAt(shadow(id) + 4 * k)));
    syncReads.forEach(copyBack);
    groups.forEach((g, gi) => {
      if (!g.shadowed) return;
      if (this.ungated || this.commitAlways.has(gi)) return g.regs.forEach((r) => copyBack(r.q));
      const updated = this.W.groupShadowedBytes[gi]!;
      C.loadAt(updated).emit(op.if, 0x40);
      C.const(0).const(0).store(updated);
      const outside = new Map(this.local);
      g.regs.forEach((r) => copyBack(r.q));
      this.local = outside;
      C.emit(op.end);
    });
    this.free.push(forced);
  }

  /** Store each word of state net `id` (`value(k)` pushes word k); a word that changes marks the net's readers. */
  private commitWords(id: NetId, value: (k: number) => void): void {
    const C = this.c;
    const readers = this.readersOf(this.root(id));
    for (let k = 0; k < this.words(id); k++) {
      if (!readers) {
        C.const(0);
        value(k);
        C.store(this.byte(id) + 4 * k);
        continue;
      }
      const v = this.temp();
      value(k);
      C.set(v);
      this.storeIfChanged(v, this.byte(id) + 4 * k, readers);
    }
  }

  /** Push word k of the value a sync read port holds after the clock edge (`a`: a local with the address). */
  private syncReadValue(mi: number, p: ReadPort, a: number, k: number): void {
    this.readWord(mi, a, k);
    if (p.en !== undefined) {
      this.pushWord(p.data, k);
      this.push(p.en);
      this.c.emit(op.select);
    }
  }

  /** Push word k of a register's value after the clock edge. */
  private regValue(r: Reg, k = 0): void {
    const C = this.c;
    this.pushWord(r.d, k);
    if (r.en !== undefined) {
      this.pushWord(r.q, k);
      this.push(r.en);
      C.emit(op.select);
    }
    if (r.reset) {
      // select(value, reset value, rst_n): a nonzero rst_n keeps the value.
      C.const(Number(BigInt.asIntN(32, r.reset.value >> BigInt(32 * k))));
      this.push(r.reset.net);
      C.emit(op.select);
    }
  }

  /**
   * Word k of a masked write to a wide memory: (old & ~bits) | (data & bits), where bits are the parts
   * of word k that the enabled lanes (mask bit i: data bits [i·g, i·g + g)) cover. `a` holds the address.
   */
  private mergeMaskedWord(mi: number, p: WritePort, a: number, k: number): void {
    const C = this.c;
    const g = p.maskGranularity!;
    const bits = this.temp();
    C.const(0).set(bits);
    for (let i = Math.floor((32 * k) / g); i * g < Math.min(32 * k + 32, this.L.flat.memories[mi]!.width); i++) {
      const lo = Math.max(i * g, 32 * k);
      const hi = Math.min(i * g + g, 32 * k + 32);
      const lane = hi - lo === 32 ? -1 : ((2 ** (hi - lo) - 1) * 2 ** (lo - 32 * k)) | 0;
      C.const(0);
      this.pushBits(p.mask!, i, 1);
      C.emit(op.i32Sub).const(lane).emit(op.i32And).get(bits).emit(op.i32Or).set(bits);
    }
    C.get(a);
    this.scaleAddress(this.L.flat.memories[mi]!.width);
    C.load(this.W.memoryBytes[mi]! + 4 * k).get(bits).const(-1).emit(op.i32Xor, op.i32And);
    this.pushWord(p.data, k);
    C.get(bits).emit(op.i32And, op.i32Or);
  }

  /** One write port at the clock edge (masked lanes merged with the old word). */
  private memoryWrite(mi: number, p: WritePort): void {
    const mem = this.L.flat.memories[mi]!;
    const C = this.c;
    const a = this.temp();
    this.push(p.addr);
    C.set(a);
    this.push(p.en);
    C.get(a).const(mem.depth).emit(op.i32LtU, op.i32And, op.if, 0x40);
    // Values first loaded inside the `if` are not set on the path around it: forget them after `end`.
    const outside = new Map(this.local);
    const base = this.W.memoryBytes[mi]!;
    if (!this.ungated) this.mark(this.W.memoryReaders[mi]!.filter((f) => !this.untested.has(f)));
    if (mem.width > 32) {
      for (let k = 0; k < Math.ceil(mem.width / 32); k++) {
        C.get(a);
        this.scaleAddress(mem.width);
        if (p.mask === undefined) this.pushWord(p.data, k);
        else this.mergeMaskedWord(mi, p, a, k);
        C.store(base + 4 * k);
      }
      C.emit(op.end);
      this.local = outside;
      return;
    }
    C.get(a).const(2).emit(op.i32Shl);
    if (p.mask === undefined) {
      this.push(p.data);
    } else {
      // new = (old & ~bits) | (data & bits), bits = the lanes enabled by the mask.
      const g = p.maskGranularity!;
      const bits = this.temp();
      C.const(0).set(bits);
      for (let i = 0; i < mem.width / g; i++) {
        const lane = g >= 32 ? -1 : ((2 ** g - 1) * 2 ** (i * g)) | 0;
        C.const(0);
        this.push(p.mask);
        C.const(i).emit(op.i32ShrU).const(1).emit(op.i32And, op.i32Sub).const(lane).emit(op.i32And).get(bits).emit(op.i32Or).set(bits);
      }
      C.get(a).const(2).emit(op.i32Shl).load(base).get(bits).const(-1).emit(op.i32Xor, op.i32And);
      this.push(p.data);
      C.get(bits).emit(op.i32And, op.i32Or);
    }
    C.store(base).emit(op.end);
    this.local = outside;
  }
}
