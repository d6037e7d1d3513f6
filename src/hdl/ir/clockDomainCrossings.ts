// The clock-domain crossing check: a register or memory port sampling a value of another clock without a synchronizer or a declared false path.
import type { Diagnostic } from './diagnostics.ts';
import type { ModuleIR, NetId, SourceLoc } from './netlist.ts';
import { cellInputs, edgeOf, moduleClocks } from './netlist.ts';

/** A clock whose state reaches a net combinationally, and the state element it comes from. */
interface Source {
  readonly clock: string;
  readonly name: string;
  readonly loc: SourceLoc;
}

/**
 * Checks a flat netlist (acyclic: run after the loop check). Rising and falling edges of one clock are one
 * domain (a half-cycle path, not a crossing). Top-level inputs belong to no domain: a testbench or the
 * board drives them. Registers marked `synchronizer` may sample anything on `d`.
 */
export function findClockDomainCrossings(flat: ModuleIR): Diagnostic[] {
  if (moduleClocks(flat).length < 2) return [];
  const sources = new NetSources(flat);
  const out: Diagnostic[] = [];
  const check = (sampled: readonly (NetId | undefined)[], clock: string, who: string, loc: SourceLoc) => {
    for (const id of sampled) {
      if (id === undefined) continue;
      const foreign = sources.of(id).find((s) => s.clock !== clock);
      if (!foreign) continue;
      out.push({
        code: 'ClockDomainCrossing',
        severity: 'error',
        message: `${who} (clock '${clock}') samples '${foreign.name}' of clock '${foreign.clock}' without a synchronizer: pass it through one from rtgpu/hdl/lib (BitSynchronizer, PulseSynchronizer, AsyncFifo), or declare the false path with m.crossDomain(value, reason)`,
        loc,
        notes: [{ message: `'${foreign.name}' is clocked by '${foreign.clock}' here`, loc: foreign.loc }],
      });
      return;
    }
  };
  for (const r of flat.regs) {
    const name = `register '${flat.nets[r.q]!.name}'`;
    check([r.synchronizer ? undefined : r.d, r.en, r.reset?.net], edgeOf(r).clock, name, r.loc);
  }
  for (const m of flat.memories) {
    for (const p of m.writePorts) check([p.addr, p.data, p.en, p.mask], edgeOf(p).clock, `a write port of memory '${m.name}'`, m.loc);
    for (const p of m.readPorts) if (p.kind === 'sync') check([p.addr, p.en], edgeOf(p).clock, `a read port of memory '${m.name}'`, m.loc);
  }
  return out;
}

/** The clocked sources each net depends on combinationally, computed on demand and memoized. */
class NetSources {
  private readonly memo = new Map<NetId, readonly Source[]>();
  private readonly deps = new Map<NetId, readonly NetId[]>();
  private readonly own = new Map<NetId, readonly Source[]>();

  constructor(private readonly flat: ModuleIR) {
    for (const c of flat.cells) this.deps.set(c.out, cellInputs(c));
    for (const r of flat.regs) this.own.set(r.q, [{ clock: edgeOf(r).clock, name: flat.nets[r.q]!.name, loc: r.loc }]);
    for (const m of flat.memories) {
      // Memory contents belong to the clocks that write them.
      const written = [...new Set(m.writePorts.map((p) => edgeOf(p).clock))].map((clock) => ({ clock, name: m.name, loc: m.loc }));
      for (const p of m.readPorts) {
        if (p.kind === 'sync') this.own.set(p.data, [{ clock: edgeOf(p).clock, name: flat.nets[p.data]!.name, loc: m.loc }]);
        else {
          this.own.set(p.data, written);
          this.deps.set(p.data, [p.addr]);
        }
      }
    }
  }

  of(root: NetId): readonly Source[] {
    // Iterative post-order: deep comb cones must not overflow the stack.
    const stack: [NetId, boolean][] = [[root, false]];
    while (stack.length) {
      const [id, expanded] = stack.pop()!;
      if (this.memo.has(id)) continue;
      const deps = this.flat.nets[id]!.falsePath !== undefined ? [] : (this.deps.get(id) ?? []);
      if (!expanded) {
        stack.push([id, true]);
        for (const d of deps) if (!this.memo.has(d)) stack.push([d, false]);
        continue;
      }
      const merged = new Map<string, Source>();
      for (const s of this.own.get(id) ?? []) merged.set(s.clock, s);
      for (const d of deps) for (const s of this.memo.get(d)!) if (!merged.has(s.clock)) merged.set(s.clock, s);
      this.memo.set(id, [...merged.values()]);
    }
    return this.memo.get(root)!;
  }
}
