// The simulation engines a multi-clock test runs on, each required to drive several clocks in time (a fallback or a missing call fails the test).
import type { Design } from '../../../src/hdl/index.ts';
import { compileSimulator, type Simulator } from '../../../src/hdl/sim/index.ts';

export type Engine = 'js' | 'wasm' | 'verilator' | 'icarus' | 'lockstep';

/** What a multi-clock test needs of an engine; undefined when it has all of it. */
export function missingClockApi(sim: Simulator, clocks: readonly string[]): string | undefined {
  const s = sim as Partial<Simulator>;
  const missing = (['setClockTiming', 'advance', 'setClocks'] as const).filter((k) => typeof s[k] !== 'function');
  if (missing.length) return `no ${missing.join(', ')}`;
  if (!Array.isArray(s.clocks) || clocks.some((c) => !s.clocks!.includes(c))) return `clocks ${JSON.stringify(s.clocks)}, expected ${clocks.join(', ')}`;
  return undefined;
}

/** The design on `engine` (lockstep: js, wasm, Verilator and Icarus compared at every instant); an engine that falls back to another, or lacks a clock call, fails the test. */
export async function multiClockEngine(design: Design, engine: Engine, clocks: readonly string[]): Promise<Simulator> {
  const sim = engine === 'lockstep' ? await compileSimulator(design, { backend: 'lockstep', backends: ['js', 'wasm', 'verilator', 'icarus'] }) : await compileSimulator(design, { backend: engine });
  if (sim.backend !== engine) {
    sim.close();
    throw new Error(`the ${engine} engine fell back to ${sim.backend} for ${design.top}`);
  }
  const missing = missingClockApi(sim, clocks);
  if (missing !== undefined) {
    sim.close();
    throw new Error(`the ${engine} engine does not run several clocks: ${missing}`);
  }
  return sim;
}
