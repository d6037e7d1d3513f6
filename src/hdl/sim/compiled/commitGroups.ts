// Commit groups: registers the clock edge updates together, skipped while nothing they read has changed.
import type { NetId } from '../../ir/netlist.ts';
import { readsState, stepOutput, type Layout } from './layout.ts';
import type { ActivityRegion } from './activityRegions.ts';

type Reg = Layout['flat']['regs'][number];

/**
 * Registers of one instance whose next value comes from the same activity region (or straight from
 * state), all shadowed or all direct (`shadowed`: the next value reads a register or a sync read, so it
 * is computed into the shadow before any register changes). A register's update is idempotent while
 * its inputs hold (q = en ? d : q, or the reset value), so a group whose inputs did not change since
 * its last update keeps its value and is skipped.
 */
export interface CommitGroup {
  readonly regs: readonly Reg[];
  readonly shadowed: boolean;
  /** The root nets the group's next values read (d, en, reset), constants excluded. */
  readonly inputs: readonly NetId[];
}

export function commitGroups(L: Layout, regions: readonly ActivityRegion[]): CommitGroup[] {
  const regionOf = new Map<NetId, number>();
  regions.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) regionOf.set(stepOutput(L, L.steps[i]!), k);
  });
  const groups = new Map<string, { regs: Reg[]; shadowed: boolean; inputs: Set<NetId> }>();
  for (const r of L.flat.regs) {
    const shadowed = readsState(L, r);
    const name = L.flat.nets[r.q]!.name;
    const instance = name.slice(0, Math.max(0, name.lastIndexOf('.')));
    const key = `${shadowed ? 's' : 'd'} ${instance} ${regionOf.get(L.root[r.d]!) ?? 'state'}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { regs: [], shadowed, inputs: new Set() }));
    g.regs.push(r);
    for (const id of [r.d, r.en, r.reset?.net]) if (id !== undefined && !L.consts.has(L.root[id]!)) g.inputs.add(L.root[id]!);
  }
  return [...groups.values()].map((g) => ({ regs: g.regs, shadowed: g.shadowed, inputs: [...g.inputs].sort((a, b) => a - b) }));
}
