// From the activity a fused run loop measured over its first cycles: which regions and commit groups keep their dirty flags.
import type { Layout } from './layout.ts';
import type { ActivityRegion } from './activityRegions.ts';
import type { CommitGroup } from './commitGroups.ts';
import { wordsOf } from './wideOps.ts';

/** Cycles of a fused loop's first batches that measure how busy each region and commit group is. */
export const PROFILE_CYCLES = 4096;

/** A guard (load, test and clear a dirty flag) costs about as much as this many steps. */
export const GUARD_STEPS = 4;
/** Flagging a change for one reader (the compare of the stored value, OR into the reader's flag) per input word, in steps. */
export const MARK_STEPS = 1.5;
/** Updating one register word at the clock edge (load the next value, store it, flag its readers), in steps. */
export const COMMIT_STEPS = 2;
/**
 * Below this share of the live steps saved per cycle by what is still skipped, the loop runs without
 * flags at all: what the flags cost besides guards (comparing the inputs, storing and comparing every
 * value a region passes on) is then not paid back. Measured: ic_core, 57 % of its steps evaluated per
 * cycle, ran 310 k cycles/s with flags and 400 k without; rtcore (30 %) 930 k with and 760 k without.
 */
export const UNGATED_SAVING = 0.35;

export interface ActivityPlan {
  /** Regions evaluated every cycle without testing a flag (nothing flags them either). */
  readonly regions: ReadonlySet<number>;
  /** Commit groups updated every cycle without testing a flag. */
  readonly groups: ReadonlySet<number>;
  /** No flags at all: every region evaluated, every register committed, nothing compared. */
  readonly ungated: boolean;
}

/**
 * A region or a group keeps its flag while what skipping it saves (its idle share of its steps or its
 * register updates) exceeds what the flag costs (the guard, and flagging each of its input words when
 * they are stored). When what all flags still save is small, none is kept (ungated).
 */
export function planActivity(
  L: Layout,
  regions: readonly ActivityRegion[],
  groups: readonly CommitGroup[],
  regionCounts: ArrayLike<number>,
  groupCounts: ArrayLike<number>,
  cycles: number,
): ActivityPlan {
  const idle = (count: number) => (cycles > 0 ? 1 - Math.min(1, count / cycles) : 0);
  const inputWords = (nets: readonly number[]) => nets.reduce((n, id) => n + wordsOf(L.flat.nets[id]!.width), 0);
  const busyRegions = new Set<number>();
  const busyGroups = new Set<number>();
  let saving = 0;
  // Flagging an input costs when its producer stores it: about as often as the reader itself is busy.
  regions.forEach((r, k) => {
    if (!r.inputs) return;
    const rest = idle(regionCounts[k]!);
    const saved = rest * (r.end - r.start);
    if (saved < GUARD_STEPS + MARK_STEPS * (1 - rest) * (inputWords(r.inputs.nets) + r.inputs.memories.length)) busyRegions.add(k);
    else saving += saved;
  });
  groups.forEach((g, k) => {
    const rest = idle(groupCounts[k]!);
    const saved = rest * COMMIT_STEPS * g.regs.reduce((n, r) => n + wordsOf(L.flat.nets[r.q]!.width), 0);
    if (saved < GUARD_STEPS + MARK_STEPS * (1 - rest) * inputWords(g.inputs)) busyGroups.add(k);
    else saving += saved;
  });
  const ungated = saving < UNGATED_SAVING * L.liveSteps;
  return { regions: busyRegions, groups: busyGroups, ungated };
}

/** The share of the live steps evaluated per cycle, from each region's evaluations over `cycles` cycles. */
export function evaluatedShare(L: Layout, regions: readonly ActivityRegion[], evaluations: ArrayLike<number>, cycles: number): number {
  let steps = 0;
  regions.forEach((r, k) => (steps += (r.end - r.start) * (r.inputs && cycles > 0 ? Math.min(1, evaluations[k]! / cycles) : 1)));
  return steps / Math.max(1, L.liveSteps);
}
