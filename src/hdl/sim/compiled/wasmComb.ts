// The WebAssembly generator's comb: the steps in order with the asynchronous resets first, whole or in parts, and gated by activity region (a region whose inputs did not change is skipped).
import type { NetId } from '../../ir/netlist.ts';
import { stepInputs, stepOutput } from './layout.ts';
import { crossingNets } from './activityRegions.ts';
import { edgeInputs, observableNets } from './stepPlan.ts';
import { asyncResets, type AsyncReset } from './asyncResets.ts';
import { Code, SCRATCH_LOCALS, op, type WasmFunction } from './wasmEncoding.ts';
import type { WasmClockEdge } from './wasmClockEdge.ts';
import type { WasmSteps } from './wasmSteps.ts';
import type { WasmValues } from './wasmValues.ts';

/** Emits the comb into the function `values` is building: the `steps` in order, in-place registers written through `edge`. */
export class WasmComb {
  constructor(
    private readonly values: WasmValues,
    private readonly steps: WasmSteps,
    private readonly edge: WasmClockEdge,
  ) {}

  /** What the gated comb stores: observable values and those crossing regions. */
  private gatedKeep: Set<NetId> | undefined;

  /** Inside the fused loop's comb: in-place registers are written there. */
  inPlaceOn = false;

  /** The asynchronous resets (asyncResets.ts), computed once. */
  private resetPlan: AsyncReset[] | undefined;

  private get asyncResetPlan(): AsyncReset[] {
    return (this.resetPlan ??= asyncResets(this.values.L));
  }

  /** `gated`: skip the regions whose inputs did not change (only without storeAll, which must compute everything). */
  comb(name: string, storeAll: boolean, gated = false): { name: string; locals: number; code: Code } {
    this.values.begin();
    this.repeatingForLateResets(() => {
      if (gated) this.gatedCombBody();
      else this.combBody(storeAll ? null : this.observable(), [], [0, storeAll ? this.values.L.steps.length : this.values.L.liveSteps]);
    });
    return { name, locals: this.values.nextLocal - SCRATCH_LOCALS, code: this.values.c };
  }

  /**
   * `comb` (whole, or the calls of its parts), then the asynchronous resets computed by it: while one
   * applies (sets a register to its reset value, marking its readers), all of it again (asyncResets.ts).
   */
  repeatingForLateResets(comb: () => void): void {
    const late = this.asyncResetPlan.filter((x) => !x.early);
    if (!late.length) return comb();
    const C = this.values.c;
    const again = this.values.temp();
    C.emit(op.loop, 0x40);
    comb();
    this.values.forgetLocals();
    C.const(0).set(again);
    for (const x of late) {
      const q = x.reg.q;
      this.values.scope(() => {
        // Some word of the register is not its reset value yet, and the reset is asserted.
        for (let k = 0; k < this.values.words(q); k++) {
          C.loadAt(this.values.byte(q) + 4 * k).const(Number(BigInt.asIntN(32, x.reg.reset!.value >> BigInt(32 * k)))).emit(op.i32Ne);
          if (k > 0) C.emit(op.i32Or);
        }
        this.values.push(x.net);
        if (!x.activeHigh) C.emit(op.i32Eqz);
        C.emit(op.i32And, op.if, 0x40);
        for (let k = 0; k < this.values.words(q); k++) C.const(0).const(Number(BigInt.asIntN(32, x.reg.reset!.value >> BigInt(32 * k)))).store(this.values.byte(q) + 4 * k);
        this.values.mark(this.values.readersOf(this.values.root(q)));
        C.const(1).set(again);
        C.emit(op.end);
      });
    }
    C.get(again).emit(op.brIf, 0, op.end);
    this.values.forgetLocals();
    this.values.free.push(again);
  }

  private combBody(keep: Set<NetId> | null, afterSteps: readonly NetId[] = [], range: readonly [number, number] = [0, this.values.L.steps.length], pinState = false): void {
    if (range[0] === 0) this.asyncResets();
    const last = this.lastReads(afterSteps, pinState, range);
    for (let i = range[0]; i < range[1]; i++) this.combStep(i, keep, last);
  }

  /** Registers with an asynchronous reset take their reset value while it is asserted (those whose reset the steps compute: after them, see repeatingForLateResets). */
  private asyncResets(): void {
    for (const { reg: r, net, activeHigh, early } of this.asyncResetPlan) {
      if (!early) continue;
      const reset = r.reset!;
      this.values.push(net);
      if (activeHigh) this.values.c.emit(op.if, 0x40);
      else this.values.c.emit(op.i32Eqz, op.if, 0x40);
      for (let k = 0; k < this.values.words(r.q); k++) this.values.c.const(0).const(Number(BigInt.asIntN(32, reset.value >> BigInt(32 * k)))).store(this.values.byte(r.q) + 4 * k);
      // Held in reset: its readers must see the reset value (marking every cycle of the reset is enough).
      this.values.mark(this.values.readersOf(this.values.root(r.q)));
      this.values.c.emit(op.end);
      this.values.local.delete(this.values.root(r.q));
    }
  }

  /** Step i, then release the locals of values no later step reads. */
  private combStep(i: number, keep: Set<NetId> | null, last: ReadonlyMap<NetId, number>): void {
    const st = this.values.L.steps[i]!;
    this.values.stepTemps = [];
    this.steps.step(st, keep);
    // Registers whose next value is now known and whose readers have all run: written here.
    for (const r of (this.values.inPlace && this.inPlaceOn && this.values.inPlace.after.get(i)) || []) this.values.scope(() => this.edge.commitWords(r.q, (k) => this.edge.regValue(r, k)));
    const scratch = this.values.stepTemps;
    this.values.stepTemps = null;
    for (const v of scratch) if (!this.values.owned.has(v)) this.values.free.push(v);
    // A value nothing reads has been stored already (if anyone outside looks at it).
    const out = stepOutput(this.values.L, st);
    const outLocal = this.values.local.get(out);
    // A value many steps read is stored and reloaded where read (see Layout.materialized).
    if (outLocal !== undefined && (!last.has(out) || this.values.L.materialized.has(out))) {
      this.values.local.delete(out);
      this.values.owned.delete(outLocal);
      this.values.free.push(outLocal);
    }
    for (const id of stepInputs(this.values.L, st)) {
      const r = this.values.root(id);
      const v = this.values.local.get(r);
      if (v === undefined || last.get(r) !== i) continue;
      this.values.local.delete(r);
      this.values.owned.delete(v);
      this.values.free.push(v);
    }
  }

  /**
   * Per root net, the last step that reads it (Infinity: read after the steps, by the outputs or the
   * clock edge). A large design has more values than a function may have locals (V8 allows 50,000),
   * so a value's local is reused once its last reader has run.
   */
  private lastReads(afterSteps: readonly NetId[], pinState: boolean, range: readonly [number, number]): Map<NetId, number> {
    const L = this.values.L;
    const last = new Map<NetId, number>();
    // Only this function's steps count: a later part reloads what it needs from memory.
    for (let i = range[0]; i < range[1]; i++) for (const id of stepInputs(L, L.steps[i]!)) last.set(this.values.root(id), i);
    const pin = (id: NetId | undefined) => id !== undefined && last.set(this.values.root(id), Infinity);
    afterSteps.forEach(pin);
    // The fused run loop's clock edge reads these from locals; elsewhere commit loads them from memory.
    if (!pinState) return last;
    edgeInputs(L.flat).forEach(pin);
    return last;
  }

  /**
   * What the comb stores (stepPlan.ts); a next value written in place right where it is computed is
   * read from its local, not stored, unless the fused loop samples it.
   */
  private observable(): Set<NetId> {
    const keep = observableNets(this.values.L, this.values.inPlace?.atOwnStep);
    for (const id of this.values.sampled) keep.add(id);
    return keep;
  }


  /**
   * comb over activity regions: a region whose inputs (and asynchronously read memories) are as at
   * its last evaluation keeps its stored outputs. Values that cross regions therefore live in memory,
   * and no local survives a region (it may not have been set this cycle).
   */
  gatedCombBody(regions: readonly [number, number] = [0, this.values.W.regions.length]): void {
    const keep = (this.gatedKeep ??= new Set([...this.observable(), ...crossingNets(this.values.L, this.values.W.regions)]));
    if (regions[0] === 0 && this.values.ungated) this.asyncResets();
    else if (regions[0] === 0) {
      this.markAllIfForced();
      this.markChangedInputs();
      this.asyncResets();
    }
    this.values.forgetLocals();
    const all = this.values.W.regions;
    const last = this.lastReads([], false, [all[regions[0]]?.start ?? 0, all[regions[1] - 1]?.end ?? 0]);
    this.values.marking = !this.values.ungated;
    for (let k = regions[0]; k < regions[1]; k++) {
      const region = all[k]!;
      const guarded = region.inputs !== null && !this.values.evaluateAlways.has(k) && !this.values.ungated;
      if (guarded) this.guard(k);
      for (let i = region.start; i < region.end; i++) this.combStep(i, keep, last);
      if (guarded) this.values.c.emit(op.end);
      this.values.forgetLocals();
    }
    this.values.marking = false;
    // Ungated, nothing kept the flags up to date: the next gated evaluation must run everything.
    if (regions[1] === all.length) this.values.c.const(0).const(this.values.ungated ? 1 : 0).store(this.values.W.forceByte);
  }

  /** After state changed behind the generated code's back (forceByte): every region and commit group is dirty. */
  private markAllIfForced(): void {
    const C = this.values.c;
    // Allocated one after the other in wasmLayout: one contiguous block.
    const flags = [...this.values.W.dirtyBytes, ...this.values.W.groupDirtyBytes];
    if (!flags.length) return;
    if (flags.some((b, i) => i > 0 && b !== flags[i - 1]! + 4)) throw new Error('internal: dirty flags are not contiguous');
    // The flags are contiguous: a loop over them.
    const at = this.values.temp();
    C.loadAt(this.values.W.forceByte).emit(op.if, 0x40);
    C.const(flags[0]!).set(at);
    C.emit(op.loop, 0x40);
    C.get(at).const(1).store();
    C.get(at).const(4).emit(op.i32Add).tee(at).const(flags[flags.length - 1]! + 4).emit(op.i32LtU, op.brIf, 0);
    C.emit(op.end, op.end);
    this.values.free.push(at);
  }

  /** Top-level inputs (written by pokes or a stimulus row) against their copies: a change marks the readers. */
  private markChangedInputs(): void {
    const C = this.values.c;
    for (const [id, copy] of this.values.W.inputCopyBytes) {
      if (!this.values.readersOf(id)) continue;
      for (let k = 0; k < this.values.words(id); k++) {
        const v = this.values.temp();
        C.loadAt(this.values.byte(id) + 4 * k).tee(v).loadAt(copy + 4 * k).emit(op.i32Ne, op.if, 0x40);
        C.const(0).get(v).store(copy + 4 * k);
        this.values.mark(this.values.readersOf(id));
        C.emit(op.end);
        this.values.free.push(v);
      }
    }
  }

  /** Opens `if (region k is dirty)`, clearing its flag and counting the evaluation. */
  private guard(k: number): void {
    const C = this.values.c;
    const flag = this.values.W.dirtyBytes[k]!;
    const count = this.values.W.evaluationBytes[k]!;
    C.loadAt(flag).emit(op.if, 0x40);
    C.const(0).const(0).store(flag);
    if (this.values.counting) C.const(0).loadAt(count).const(1).emit(op.i32Add).store(count);
  }

  /**
   * comb in `parts` functions: of whole regions, skipping idle ones, while there are enough regions to
   * go round; past that (a region too large for one function) of equal runs of steps, evaluating all.
   */
  combPartsSkippingIdle(name: string, parts: number): WasmFunction[] {
    if (parts <= this.values.W.regions.length) return this.gatedCombParts(name, parts);
    const fns = this.combParts(name, false, parts);
    // The region copies were not updated: the next skipping evaluation must run every region.
    fns[fns.length - 1]!.code.const(0).const(1).store(this.values.W.forceByte);
    return fns;
  }

  /** The gated comb split into `parts` functions of whole regions (`name_p0` …). */
  private gatedCombParts(name: string, parts: number): WasmFunction[] {
    const regions = this.values.W.regions;
    const total = this.values.L.liveSteps;
    // Part k takes the regions starting before (k + 1) / parts of the steps.
    const bounds = [0];
    for (let k = 1; k < parts; k++) {
      let r = bounds[k - 1]!;
      while (r < regions.length && regions[r]!.start < (k * total) / parts) r++;
      bounds.push(r);
    }
    bounds.push(regions.length);
    return Array.from({ length: parts }, (_, k) => {
      this.values.begin();
      this.gatedCombBody([bounds[k]!, bounds[k + 1]!]);
      return { name: `${name}_p${k}`, locals: this.values.nextLocal - SCRATCH_LOCALS, code: this.values.c };
    });
  }

  /** comb split into `parts` functions over equal runs of steps (`name_p0` …). */
  combParts(name: string, storeAll: boolean, parts: number): WasmFunction[] {
    // The fast variant computes only the live steps (those that reach a port or the clock edge).
    const n = storeAll ? this.values.L.steps.length : this.values.L.liveSteps;
    const bounds = Array.from({ length: parts + 1 }, (_, i) => Math.round((i * n) / parts));
    // A value read in a later part than its own is stored for it.
    const partOf = new Map<NetId, number>();
    const crossing = new Set<NetId>();
    this.values.L.steps.slice(0, n).forEach((st, i) => {
      const part = bounds.findIndex((b, k) => i >= b && i < bounds[k + 1]!);
      for (const id of stepInputs(this.values.L, st)) {
        const from = partOf.get(this.values.root(id));
        if (from !== undefined && from < part) crossing.add(this.values.root(id));
      }
      partOf.set(stepOutput(this.values.L, st), part);
    });
    const keep = storeAll ? null : new Set([...this.observable(), ...crossing]);
    return Array.from({ length: parts }, (_, k) => {
      this.values.begin();
      this.combBody(keep, [], [bounds[k]!, bounds[k + 1]!]);
      return { name: `${name}_p${k}`, locals: this.values.nextLocal - SCRATCH_LOCALS, code: this.values.c };
    });
  }
}
