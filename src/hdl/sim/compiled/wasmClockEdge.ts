// The WebAssembly generator's clock edge (stepPlan.ts's order): sync reads and shadowed registers into the shadow, memory writes, direct registers, copy back; each commit group only when its flag is set, and with several clock edges only on its own.
import type { ClockEdge, NetId } from '../../ir/netlist.ts';
import type { Layout } from './layout.ts';
import { clockEdgePlan, edgeBit } from './stepPlan.ts';
import { Code, SCRATCH_LOCALS, op } from './wasmEncoding.ts';
import type { WasmSteps } from './wasmSteps.ts';
import type { WasmValues } from './wasmValues.ts';

type Reg = Layout['flat']['regs'][number];
type ReadPort = Layout['flat']['memories'][number]['readPorts'][number];
type WritePort = Layout['flat']['memories'][number]['writePorts'][number];

/** Emits the clock edge into the function `values` is building (memory reads through `steps`). */
export class WasmClockEdge {
  constructor(
    private readonly values: WasmValues,
    private readonly steps: WasmSteps,
  ) {}

  /**
   * The clock edge: sync reads and shadowed registers into the shadow, memory writes, direct registers,
   * copy back. A design with several clock edges gets `commit(ev)`: only what is clocked by an edge in
   * mask `ev` (stepPlan.ts `edgeBit`) commits; with one edge, `commit()` (an argument is ignored).
   */
  commit(): { name: string; params?: number; locals: number; code: Code } {
    const edged = this.values.W.edges.length > 1;
    this.values.begin(edged ? 1 : 0);
    this.commitBody(edged ? 0 : undefined);
    return edged ? { name: 'commit', params: 1, locals: this.values.nextLocal - 1 - SCRATCH_LOCALS, code: this.values.c } : { name: 'commit', locals: this.values.nextLocal - SCRATCH_LOCALS, code: this.values.c };
  }

  /** `ev`: the local holding the mask of the edges to commit (several edges), or undefined (one edge: everything commits). */
  commitBody(ev?: number): void {
    const L = this.values.L;
    const C = this.values.c;

    const shadow = (id: NetId) => this.values.W.shadowByte + this.values.L.slots[this.values.root(id)]!.off * 4;
    const plan = clockEdgePlan(L.flat, this.values.W.commitGroups);
    const groups = plan.groups;
    /**
     * `if (ev & edge bit) { body }`: what another edge clocks is left as it is, flags included (a commit
     * group holds one edge's registers, so its dirty flag waits for its own edge).
     */
    const onEdge = (x: { readonly clock?: ClockEdge }, body: () => void) => {
      if (ev === undefined) return body();
      C.get(ev).const(edgeBit(this.values.W.edges, x)).emit(op.i32And, op.if, 0x40);
      const outside = new Map(this.values.local);
      body();
      this.values.local = outside;
      C.emit(op.end);
    };
    // Forced (after the store-everything comb or a state change from outside): every group updates.
    const forced = this.values.temp();
    if (!this.values.ungated) C.loadAt(this.values.W.forceByte).set(forced);
    /** `if (group g is dirty or forced) { clear its flag; body }`. */
    const ifDirty = (g: number, body: () => void) => {
      if (this.values.ungated || this.values.commitAlways.has(g)) return body();
      const flag = this.values.W.groupDirtyBytes[g]!;
      C.loadAt(flag).get(forced).emit(op.i32Or, op.if, 0x40);
      C.const(0).const(0).store(flag);
      const count = this.values.W.groupEvaluationBytes[g]!;
      if (this.values.counting) C.const(0).loadAt(count).const(1).emit(op.i32Add).store(count);
      // Values first loaded inside the `if` are not set on the path around it.
      const outside = new Map(this.values.local);
      body();
      this.values.local = outside;
      C.emit(op.end);
    };
    const syncReads: { data: NetId; port: ReadPort }[] = [];
    for (const { mem: mi, port } of plan.syncReads) {
      const p = L.flat.memories[mi]!.readPorts[port]!;
      onEdge(p, () =>
        this.values.scope(() => {
          const a = this.values.temp();
          this.values.push(p.addr);
          C.set(a);
          for (let k = 0; k < this.values.words(p.data); k++) {
            C.const(0);
            this.syncReadValue(mi, p, a, k);
            C.store(shadow(p.data) + 4 * k);
          }
        }),
      );
      syncReads.push({ data: p.data, port: p });
    }
    // Registers whose next value reads state: into the shadow first (every next value sees the pre-edge state).
    for (const gi of plan.shadowedGroups) {
      const g = groups[gi]!;
      onEdge(g.regs[0]!, () =>
        ifDirty(gi, () => {
          if (!this.values.ungated && !this.values.commitAlways.has(gi)) C.const(0).const(1).store(this.values.W.groupShadowedBytes[gi]!);
          for (const r of g.regs) {
            this.values.scope(() => {
              for (let k = 0; k < this.values.words(r.q); k++) {
                C.const(0);
                this.regValue(r, k);
                C.store(shadow(r.q) + 4 * k);
              }
            });
          }
        }),
      );
    }
    // Memory writes, then registers whose next value is no state: stored in place. A value reloaded
    // here after a scope has ended is still the pre-edge one (nothing read below is written above it;
    // with several edges, an edge runs a subset of these in the same order, which keeps that true).
    for (const { mem, port } of plan.writes) {
      const p = L.flat.memories[mem]!.writePorts[port]!;
      onEdge(p, () => this.values.scope(() => this.memoryWrite(mem, p)));
    }
    for (const gi of plan.directGroups) {
      const g = groups[gi]!;
      const regs = this.values.inPlace ? g.regs.filter((r) => !this.values.inPlace!.regs.has(r)) : g.regs;
      if (!regs.length) continue;
      onEdge(g.regs[0]!, () =>
        ifDirty(gi, () => {
          for (const r of regs) this.values.scope(() => this.commitWords(r.q, (k) => this.regValue(r, k)));
        }),
      );
    }
    // Copy back from the shadow: a value that changes marks its readers.
    const copyBack = (id: NetId) => this.values.scope(() => this.commitWords(id, (k) => C.loadAt(shadow(id) + 4 * k)));
    syncReads.forEach(({ data, port }) => onEdge(port, () => copyBack(data)));
    for (const gi of plan.shadowedGroups) {
      const g = groups[gi]!;
      if (this.values.ungated || this.values.commitAlways.has(gi)) {
        onEdge(g.regs[0]!, () => g.regs.forEach((r) => copyBack(r.q)));
        continue;
      }
      // Set only when this edge computed the group (it is cleared here).
      const updated = this.values.W.groupShadowedBytes[gi]!;
      C.loadAt(updated).emit(op.if, 0x40);
      C.const(0).const(0).store(updated);
      const outside = new Map(this.values.local);
      g.regs.forEach((r) => copyBack(r.q));
      this.values.local = outside;
      C.emit(op.end);
    }
    this.values.free.push(forced);
  }

  /** Store each word of state net `id` (`value(k)` pushes word k); a word that changes marks the net's readers. */
  commitWords(id: NetId, value: (k: number) => void): void {
    const C = this.values.c;
    const readers = this.values.readersOf(this.values.root(id));
    for (let k = 0; k < this.values.words(id); k++) {
      if (!readers) {
        C.const(0);
        value(k);
        C.store(this.values.byte(id) + 4 * k);
        continue;
      }
      const v = this.values.temp();
      value(k);
      C.set(v);
      this.values.storeIfChanged(v, this.values.byte(id) + 4 * k, readers);
    }
  }

  /** Push word k of the value a sync read port holds after the clock edge (`a`: a local with the address). */
  private syncReadValue(mi: number, p: ReadPort, a: number, k: number): void {
    this.steps.readWord(mi, a, k);
    if (p.en !== undefined) {
      this.values.pushWord(p.data, k);
      this.values.push(p.en);
      this.values.c.emit(op.select);
    }
  }

  /** Push word k of a register's value after the clock edge. */
  regValue(r: Reg, k = 0): void {
    const C = this.values.c;
    this.values.pushWord(r.d, k);
    if (r.en !== undefined) {
      this.values.pushWord(r.q, k);
      this.values.push(r.en);
      C.emit(op.select);
    }
    if (r.reset) {
      // select(value, reset value, released): an active-low reset keeps the value while nonzero, an active-high one while zero.
      C.const(Number(BigInt.asIntN(32, r.reset.value >> BigInt(32 * k))));
      this.values.push(r.reset.net);
      if (r.reset.activeHigh) C.emit(op.i32Eqz);
      C.emit(op.select);
    }
  }

  /**
   * Word k of a masked write to a wide memory: (old & ~bits) | (data & bits), where bits are the parts
   * of word k that the enabled lanes (mask bit i: data bits [i·g, i·g + g)) cover. `a` holds the address.
   */
  private mergeMaskedWord(mi: number, p: WritePort, a: number, k: number): void {
    const C = this.values.c;
    const g = p.maskGranularity!;
    const bits = this.values.temp();
    C.const(0).set(bits);
    for (let i = Math.floor((32 * k) / g); i * g < Math.min(32 * k + 32, this.values.L.flat.memories[mi]!.width); i++) {
      const lo = Math.max(i * g, 32 * k);
      const hi = Math.min(i * g + g, 32 * k + 32);
      const lane = hi - lo === 32 ? -1 : ((2 ** (hi - lo) - 1) * 2 ** (lo - 32 * k)) | 0;
      C.const(0);
      this.values.pushBits(p.mask!, i, 1);
      C.emit(op.i32Sub).const(lane).emit(op.i32And).get(bits).emit(op.i32Or).set(bits);
    }
    C.get(a);
    this.steps.scaleAddress(this.values.L.flat.memories[mi]!.width);
    C.load(this.values.W.memoryBytes[mi]! + 4 * k).get(bits).const(-1).emit(op.i32Xor, op.i32And);
    this.values.pushWord(p.data, k);
    C.get(bits).emit(op.i32And, op.i32Or);
  }

  /** One write port at the clock edge (masked lanes merged with the old word). */
  private memoryWrite(mi: number, p: WritePort): void {
    const mem = this.values.L.flat.memories[mi]!;
    const C = this.values.c;
    const a = this.values.temp();
    this.values.push(p.addr);
    C.set(a);
    this.values.push(p.en);
    C.get(a).const(mem.depth).emit(op.i32LtU, op.i32And, op.if, 0x40);
    // Values first loaded inside the `if` are not set on the path around it: forget them after `end`.
    const outside = new Map(this.values.local);
    const base = this.values.W.memoryBytes[mi]!;
    if (!this.values.ungated) this.values.mark(this.values.W.memoryReaders[mi]!.filter((f) => !this.values.untested.has(f)));
    if (mem.width > 32) {
      for (let k = 0; k < Math.ceil(mem.width / 32); k++) {
        C.get(a);
        this.steps.scaleAddress(mem.width);
        if (p.mask === undefined) this.values.pushWord(p.data, k);
        else this.mergeMaskedWord(mi, p, a, k);
        C.store(base + 4 * k);
      }
      C.emit(op.end);
      this.values.local = outside;
      return;
    }
    C.get(a).const(2).emit(op.i32Shl);
    if (p.mask === undefined) {
      this.values.push(p.data);
    } else {
      // new = (old & ~bits) | (data & bits), bits = the lanes enabled by the mask.
      const g = p.maskGranularity!;
      const bits = this.values.temp();
      C.const(0).set(bits);
      for (let i = 0; i < mem.width / g; i++) {
        const lane = g >= 32 ? -1 : ((2 ** g - 1) * 2 ** (i * g)) | 0;
        C.const(0);
        this.values.push(p.mask);
        C.const(i).emit(op.i32ShrU).const(1).emit(op.i32And, op.i32Sub).const(lane).emit(op.i32And).get(bits).emit(op.i32Or).set(bits);
      }
      C.get(a).const(2).emit(op.i32Shl).load(base).get(bits).const(-1).emit(op.i32Xor, op.i32And);
      this.values.push(p.data);
      C.get(bits).emit(op.i32And, op.i32Or);
    }
    C.store(base).emit(op.end);
    this.values.local = outside;
  }
}
