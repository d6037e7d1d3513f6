// Registers the fused run loop updates in place during the comb, right after their next value is computed, instead of at the clock edge.
//
// Inside the run loop nothing looks at the state between the comb and the clock edge, so a register
// may take its next value as soon as that value is known, provided every step that reads the register
// has run already (they read the value before the edge) and nothing read at the clock edge (another
// register's next value, a memory port, an output port) or sampled by the run loop after the comb
// (a net a `runVectors` call asks for) reads it. The next value is then still in a
// local: no store of it, no load of it, no commit group. (Verilator orders its clocked assignments the
// same way to avoid temporaries.)
import type { NetId } from '../../ir/netlist.ts';
import { stepInputs, stepOutput, type Layout } from './layout.ts';
import { edgeInputs, readsState } from './stepPlan.ts';

type Reg = Layout['flat']['regs'][number];

export interface InPlaceRegisters {
  /** Per step index: the registers written right after that step. */
  readonly after: ReadonlyMap<number, readonly Reg[]>;
  readonly regs: ReadonlySet<Reg>;
  /** Those written right after the step computing their next value: it need not be stored for them. */
  readonly atOwnStep: ReadonlySet<Reg>;
  /** Per step index: the nets the registers written after it read (next value, enable, reset): inputs of the region that writes them. */
  readonly controls: ReadonlyMap<number, readonly NetId[]>;
}

/**
 * `sampled`: nets a run loop reads after the comb besides the output ports (runVectors's list). Leaving
 * them out only removes registers, so the result is a subset of the one without them: the activity
 * regions, built once from the largest set, stay valid for every run loop.
 */
export function inPlaceRegisters(L: Layout, sampled: Iterable<NetId> = []): InPlaceRegisters {
  const flat = L.flat;
  const root = (id: NetId) => L.root[id]!;
  const producer = new Map<NetId, number>();
  for (let i = 0; i < L.liveSteps; i++) producer.set(stepOutput(L, L.steps[i]!), i);
  const lastReader = new Map<NetId, number>();
  for (let i = 0; i < L.liveSteps; i++) for (const id of stepInputs(L, L.steps[i]!)) lastReader.set(root(id), i);
  // Read at the clock edge, or shown at a port or sampled after the comb: such a register keeps its commit.
  const edgeRead = new Set<NetId>();
  for (const id of edgeInputs(flat, { syncReadsOnly: true })) edgeRead.add(root(id));
  for (const n of flat.nets) if (n.kind === 'output') edgeRead.add(root(n.id));
  for (const id of sampled) edgeRead.add(root(id));
  const after = new Map<number, Reg[]>();
  const regs = new Set<Reg>();
  const atOwnStep = new Set<Reg>();
  const controls = new Map<number, NetId[]>();
  for (const r of flat.regs) {
    const d = producer.get(root(r.d));
    // The next value computed by a live step, and no input of it read from state (that could change first).
    if (d === undefined || readsState(L, r)) continue;
    const q = root(r.q);
    if (edgeRead.has(q)) continue;
    const inputs = [r.en, r.reset?.net].flatMap((id) => (id === undefined || L.consts.has(root(id)) ? [] : [root(id)]));
    const at = Math.max(d, ...inputs.map((id) => producer.get(id) ?? -1));
    // Every reader has read the old value by then.
    if ((lastReader.get(q) ?? -1) >= at) continue;
    (after.get(at) ?? after.set(at, []).get(at)!).push(r);
    regs.add(r);
    if (at === d) atOwnStep.add(r);
    (controls.get(at) ?? controls.set(at, []).get(at)!).push(root(r.d), ...inputs);
  }
  return { after, regs, atOwnStep, controls };
}
