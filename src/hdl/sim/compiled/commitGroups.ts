// Commit groups: registers the clock edge updates together, skipped while nothing they read has changed, in an order that needs no shadow copy.
import type { NetId } from '../../ir/netlist.ts';
import { edgeOf } from '../../ir/netlist.ts';
import { stepOutput, type Layout } from './layout.ts';
import { readsState } from './stepPlan.ts';
import type { ActivityRegion } from './activityRegions.ts';

type Reg = Layout['flat']['regs'][number];

/**
 * Registers of one instance and one clock edge whose next value comes from the same activity region (or
 * straight from state). A register's update is idempotent while its inputs hold (q = en ? d : q, or the
 * reset value), so a group whose inputs did not change since its last update keeps its value and is
 * skipped. (One edge per group: an edge that commits some registers must leave the others' flags set.)
 */
export interface CommitGroup {
  /** In the order the clock edge writes them (a register before those whose value it reads). */
  readonly regs: readonly Reg[];
  /**
   * Computed into the shadow before any register changes and copied back after: a register whose next
   * value reads registers in a cycle (a swap, or groups that read each other). The others are written
   * in place, in the order of the list, each before the registers it reads.
   */
  readonly shadowed: boolean;
  /** The root nets the group's next values read (d, en, reset), constants excluded. */
  readonly inputs: readonly NetId[];
}

export function commitGroups(L: Layout, regions: readonly ActivityRegion[]): CommitGroup[] {
  const regionOf = new Map<NetId, number>();
  regions.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) regionOf.set(stepOutput(L, L.steps[i]!), k);
  });
  const byKey = new Map<string, { regs: Reg[]; inputs: Set<NetId> }>();
  for (const r of L.flat.regs) {
    const name = L.flat.nets[r.q]!.name;
    const instance = name.slice(0, Math.max(0, name.lastIndexOf('.')));
    const e = edgeOf(r);
    const key = `${readsState(L, r) ? 's' : 'd'} ${instance} ${regionOf.get(L.root[r.d]!) ?? 'state'} ${e.clock} ${e.edge}`;
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { regs: [], inputs: new Set() }));
    g.regs.push(r);
    for (const id of [r.d, r.en, r.reset?.net]) if (id !== undefined && !L.consts.has(L.root[id]!)) g.inputs.add(L.root[id]!);
  }
  return writeOrder(L, [...byKey.values()]);
}

/**
 * Orders the groups (and the registers inside each) so that every register is written after the
 * registers that read it: the delay lines of a pipeline then need no shadow copy. Registers that read
 * each other in a cycle (a swap, a rotation) are split into a shadowed group of their own; so are groups
 * that read each other in a cycle although their registers do not.
 */
function writeOrder(L: Layout, groups: readonly { regs: Reg[]; inputs: Set<NetId> }[]): CommitGroup[] {
  const regs = L.flat.regs;
  const regIndex = new Map<NetId, number>();
  regs.forEach((r, k) => regIndex.set(L.root[r.q]!, k));
  // reads[k]: the registers whose value register k's next value reads directly (itself excluded).
  const reads = regs.map((r, k) => [...new Set([r.d, r.en, r.reset?.net].flatMap((id) => (id === undefined ? [] : [regIndex.get(L.root[id]!)]).filter((j): j is number => j !== undefined && j !== k)))]);
  const cyclicReg = inCycles(reads);
  const inputs = (g: { inputs: Set<NetId> }) => [...g.inputs].sort((a, b) => a - b);
  // Each group split in its cyclic registers (shadowed) and the rest.
  const parts: { regs: Reg[]; inputs: NetId[]; shadowed: boolean }[] = [];
  for (const g of groups) {
    const cyc = g.regs.filter((r) => cyclicReg[regIndex.get(L.root[r.q]!)!]);
    const rest = g.regs.filter((r) => !cyclicReg[regIndex.get(L.root[r.q]!)!]);
    if (cyc.length) parts.push({ regs: cyc, inputs: inputs(g), shadowed: true });
    if (rest.length) parts.push({ regs: rest, inputs: inputs(g), shadowed: false });
  }
  // Between the unshadowed parts: p → q when p reads a register of q (p is written first).
  const partOf = new Int32Array(regs.length).fill(-1);
  parts.forEach((p, k) => p.regs.forEach((r) => (partOf[regIndex.get(L.root[r.q]!)!] = k)));
  const edges = parts.map((p, k) => (p.shadowed ? [] : [...new Set(p.regs.flatMap((r) => reads[regIndex.get(L.root[r.q]!)!]!.map((j) => partOf[j]!)))].filter((q) => q !== k && !parts[q]!.shadowed)));
  const cyclicPart = inCycles(edges);
  parts.forEach((p, k) => cyclicPart[k] && (p.shadowed = true));
  // Readers first: a post-order over "read by", registers within a part likewise.
  const readBy = parts.map(() => [] as number[]);
  edges.forEach((qs, p) => !parts[p]!.shadowed && qs.forEach((q) => !parts[q]!.shadowed && readBy[q]!.push(p)));
  const order = [...parts.keys()].filter((k) => parts[k]!.shadowed);
  order.push(...postOrder(parts.length, (k) => (parts[k]!.shadowed ? [] : readBy[k]!), (k) => !parts[k]!.shadowed));
  return order.map((k) => {
    const p = parts[k]!;
    if (p.shadowed) return { regs: p.regs, shadowed: true, inputs: p.inputs };
    const mine = new Set(p.regs.map((r) => regIndex.get(L.root[r.q]!)!));
    const readersOf = new Map<number, number[]>();
    for (const j of mine) for (const i of reads[j]!) if (mine.has(i)) (readersOf.get(i) ?? readersOf.set(i, []).get(i)!).push(j);
    const within = postOrder(regs.length, (j) => readersOf.get(j) ?? [], (j) => mine.has(j), [...mine]);
    return { regs: within.map((j) => regs[j]!), shadowed: false, inputs: p.inputs };
  });
}

/**
 * Depth-first post-order over `next` from every node `take` accepts (`roots` first, in order): each
 * node comes after all the nodes reachable from it.
 */
function postOrder(n: number, next: (k: number) => readonly number[], take: (k: number) => boolean, roots: readonly number[] = [...Array(n).keys()]): number[] {
  const done = new Uint8Array(n);
  const out: number[] = [];
  for (const k0 of roots) {
    if (done[k0] || !take(k0)) continue;
    done[k0] = 1;
    const frames: [number, number][] = [[k0, 0]];
    while (frames.length) {
      const f = frames[frames.length - 1]!;
      const list = next(f[0]);
      if (f[1] < list.length) {
        const g = list[f[1]++]!;
        if (!done[g] && take(g)) {
          done[g] = 1;
          frames.push([g, 0]);
        }
        continue;
      }
      out.push(f[0]);
      frames.pop();
    }
  }
  return out;
}

/** Per node, whether it lies on a cycle of `edges` (a strongly connected component of two or more; Tarjan, iterative). */
function inCycles(edges: readonly (readonly number[])[]): Uint8Array {
  const n = edges.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const cyclic = new Uint8Array(n);
  let counter = 0;
  for (let v0 = 0; v0 < n; v0++) {
    if (index[v0] !== -1) continue;
    const frames: [number, number][] = [[v0, 0]];
    index[v0] = low[v0] = counter++;
    stack.push(v0);
    onStack[v0] = 1;
    while (frames.length) {
      const f = frames[frames.length - 1]!;
      const v = f[0];
      if (f[1] < edges[v]!.length) {
        const w = edges[v]![f[1]++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent[0]] = Math.min(low[parent[0]]!, low[v]!);
      if (low[v] === index[v]) {
        const comp: number[] = [];
        for (let w = -1; w !== v; ) {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        }
        if (comp.length > 1) for (const w of comp) cyclic[w] = 1;
      }
    }
  }
  return cyclic;
}
