// Activity regions: runs of an instance's combinational steps that the WebAssembly back end skips when none of their inputs changed.
import type { NetId } from '../../ir/netlist.ts';
import { stepInputs, stepOutput, type Layout, type StepRun } from './layout.ts';
import type { InPlaceRegisters } from './inPlace.ts';

/**
 * Runs shorter than this are always evaluated: comparing their inputs would cost about as much as
 * computing them.
 */
export const MIN_REGION_STEPS = 16;

/**
 * Longer runs are cut into regions of at most this many steps: a region is the unit the back end
 * places in one function, and a finer cut skips more.
 */
export const MAX_REGION_STEPS = 8192;

/** What a region's output depends on besides its own steps: nets (every word) and memory contents. */
export interface RegionInputs {
  readonly nets: readonly NetId[];
  /** Memories read asynchronously inside the region: their contents count as an input. */
  readonly memories: readonly number[];
}

export interface ActivityRegion extends StepRun {
  /** null: evaluated every cycle. */
  readonly inputs: RegionInputs | null;
}

/**
 * Every run of the layout, with the inputs of those long enough to be worth skipping (and of the
 * registers the run loop writes in place inside them).
 */
export function activityRegions(L: Layout, inPlace?: InPlaceRegisters): ActivityRegion[] {
  const pieces = L.runs.flatMap((run) => {
    const out: StepRun[] = [];
    for (let start = run.start; start < run.end; start += MAX_REGION_STEPS) out.push({ ...run, start, end: Math.min(run.end, start + MAX_REGION_STEPS) });
    return out;
  });
  return pieces.map((run) => {
    if (run.end - run.start < MIN_REGION_STEPS) return { ...run, inputs: null };
    const own = new Set<NetId>();
    for (let i = run.start; i < run.end; i++) own.add(stepOutput(L, L.steps[i]!));
    const nets = new Set<NetId>();
    const memories = new Set<number>();
    for (let i = run.start; i < run.end; i++) {
      const st = L.steps[i]!;
      if (st.kind === 'aread') memories.add(st.mem);
      for (const id of [...stepInputs(L, st), ...(inPlace?.controls.get(i) ?? [])]) {
        const r = L.root[id]!;
        if (!own.has(r) && !L.consts.has(r)) nets.add(r);
      }
    }
    return { ...run, inputs: { nets: [...nets].sort((a, b) => a - b), memories: [...memories].sort((a, b) => a - b) } };
  });
}

/** Nets computed in one region and read in another: they must live in memory, since their producer may be skipped. */
export function crossingNets(L: Layout, regions: readonly ActivityRegion[]): Set<NetId> {
  const regionOf = new Map<NetId, number>();
  regions.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) regionOf.set(stepOutput(L, L.steps[i]!), k);
  });
  const crossing = new Set<NetId>();
  regions.forEach((r, k) => {
    for (let i = r.start; i < r.end; i++) {
      for (const id of stepInputs(L, L.steps[i]!)) {
        const from = regionOf.get(L.root[id]!);
        if (from !== undefined && from !== k) crossing.add(L.root[id]!);
      }
    }
  });
  return crossing;
}
