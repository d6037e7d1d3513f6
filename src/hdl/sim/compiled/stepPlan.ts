// The plan of one simulated cycle that both code generators follow (JavaScript in codegen.ts, WebAssembly in wasm*.ts):
// which nets the comb must leave in the state array, the asynchronous resets at its start, and the order of the clock edge.
//
// The clock edge, in this order:
//   1. synchronous reads, into the shadow (they see the memory before this edge's writes);
//   2. the registers whose next value reads state (a register or a sync read's data), into the shadow,
//      so that every next value sees the pre-edge state;
//   3. memory writes, in port order;
//   4. the other registers, written in place (a group's registers before the registers they read);
//   5. copy back from the shadow: the sync reads' data, then the registers of step 2.
import type { ClockEdge, ModuleIR, NetId, RegReset } from '../../ir/netlist.ts';
import { clockEdgesOf, edgeOf } from '../../ir/netlist.ts';

type Reg = ModuleIR['regs'][number];

/** A flat netlist and the net holding each net's value (Layout satisfies it; layout.ts uses it while building one). */
export interface RootedNetlist {
  readonly flat: ModuleIR;
  readonly root: Int32Array;
}

/** A memory port by memory and port index. */
export interface PortRef {
  readonly mem: number;
  readonly port: number;
}

/** Registers the clock edge updates together (commitGroups.ts for WebAssembly; one register each for JavaScript). */
export interface RegisterGroup {
  readonly regs: readonly Reg[];
  /** Through the shadow (steps 2 and 5) rather than in place (step 4). */
  readonly shadowed: boolean;
}

/** The clock edge of steps 1–5: groups are given by index into `groups`, each list in the order it is written. */
export interface ClockEdgePlan<G extends RegisterGroup> {
  readonly groups: readonly G[];
  readonly syncReads: readonly PortRef[];
  readonly shadowedGroups: readonly number[];
  readonly writes: readonly PortRef[];
  readonly directGroups: readonly number[];
}

export function clockEdgePlan<G extends RegisterGroup>(flat: ModuleIR, groups: readonly G[]): ClockEdgePlan<G> {
  const syncReads: PortRef[] = [];
  const writes: PortRef[] = [];
  flat.memories.forEach((m, mem) => {
    m.readPorts.forEach((p, port) => p.kind === 'sync' && syncReads.push({ mem, port }));
    m.writePorts.forEach((_, port) => writes.push({ mem, port }));
  });
  const indices = groups.map((_, k) => k);
  return { groups, syncReads, shadowedGroups: indices.filter((k) => groups[k]!.shadowed), writes, directGroups: indices.filter((k) => !groups[k]!.shadowed) };
}

/**
 * Does this register's next value read state (a register or a sync read port's data)? Such a register
 * is computed into the shadow before any register changes, so that it sees the pre-edge values.
 */
export function readsState(L: RootedNetlist, r: Reg): boolean {
  return [r.d, r.en, r.reset?.net].some((id) => {
    if (id === undefined) return false;
    const k = L.flat.nets[L.root[id]!]!.kind;
    return k === 'reg' || k === 'memread';
  });
}

/** One group per register, in netlist order, shadowed when it reads state: the plain clock edge (no write order, no activity flags). */
export function registerByRegister(L: RootedNetlist): RegisterGroup[] {
  return L.flat.regs.map((r) => ({ regs: [r], shadowed: readsState(L, r) }));
}

/**
 * The nets the clock edge reads: every register's next value, enable and reset, the memory ports'
 * addresses, enables, data and masks, the properties' conditions and enables (read ports: only the synchronous ones with `syncReadsOnly`;
 * an asynchronous read is a combinational step). `except`: registers whose next value is not read at
 * the edge (written in place during the comb), their enable and reset still are. Not resolved to roots.
 */
export function edgeInputs(flat: ModuleIR, opts: { readonly syncReadsOnly?: boolean; readonly except?: ReadonlySet<Reg> } = {}): NetId[] {
  const out: NetId[] = [];
  const add = (id: NetId | undefined) => id !== undefined && out.push(id);
  for (const r of flat.regs) [opts.except?.has(r) ? undefined : r.d, r.en, r.reset?.net].forEach(add);
  for (const m of flat.memories) {
    for (const p of m.readPorts) if (!opts.syncReadsOnly || p.kind === 'sync') [p.addr, p.en].forEach(add);
    for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask].forEach(add);
  }
  for (const p of flat.properties ?? []) [p.cond, p.enable].forEach(add);
  return out;
}

/**
 * Root nets that something besides the combinational steps reads or that a port shows: what the comb
 * must store. `inPlace`: registers written in place at the step computing their next value (the
 * WebAssembly run loop), whose next value then stays in a local.
 */
export function observableNets(L: RootedNetlist, inPlace?: ReadonlySet<Reg>): Set<NetId> {
  const keep = new Set<NetId>();
  for (const n of L.flat.nets) if (n.kind === 'input' || n.kind === 'output' || n.kind === 'reg' || n.kind === 'memread') keep.add(L.root[n.id]!);
  for (const id of edgeInputs(L.flat, { except: inPlace })) keep.add(L.root[id]!);
  return keep;
}

/**
 * The clock edges of a flat netlist's registers and memory ports, in first-use order: a clock edge
 * commits the registers and ports of a set of them, given as a bit mask (bit i: edge i). At most 31.
 */
export function clockEdges(flat: ModuleIR): ClockEdge[] {
  const edges = clockEdgesOf(flat);
  if (edges.length > 31) throw new Error(`the TS simulator runs up to 31 clock edges (a clock's rising and falling edge count as two); ${flat.name} has ${edges.length}`);
  return edges;
}

/** The commit-mask bit of a register's or memory port's edge. */
export function edgeBit(edges: readonly ClockEdge[], x: { readonly clock?: ClockEdge }): number {
  const e = edgeOf(x);
  return 1 << edges.findIndex((y) => y.clock === e.clock && y.edge === e.edge);
}

/** A JavaScript test that a reset is asserted, given the expression of its net's value. */
export function resetAssertedJs(reset: Pick<RegReset, 'activeHigh'>, value: string): string {
  return `${value} ${reset.activeHigh ? '!==' : '==='} 0`;
}

/** Registers with an asynchronous reset: at the start of every comb, each takes its reset value while the reset is asserted. */
export function asyncResetRegisters(flat: ModuleIR): Reg[] {
  return flat.regs.filter((r) => r.reset?.kind === 'async');
}
