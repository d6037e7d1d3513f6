// The simulators `rtgpu run --sim` can choose, and the backend function of each.
import { runOnIss } from './iss.ts';
import { runOnCoreTs, runOnIcarus, runOnVerilator } from './core.ts';
import type { RunBackend } from './job.ts';

export const RUN_SIMS = ['iss', 'ts', 'verilator', 'icarus'] as const;
export type RunSim = (typeof RUN_SIMS)[number];

/** Backends by simulator: the ISA simulator, or one RT core (TS simulator; Verilator and Icarus in lockstep replay). */
export const runBackends: Record<RunSim, RunBackend> = {
  iss: runOnIss,
  ts: runOnCoreTs,
  verilator: runOnVerilator,
  icarus: runOnIcarus,
};
