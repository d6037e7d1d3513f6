// The simulation engines a multi-clock test runs on: each as soon as it drives several clocks in time.
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

/**
 * The design on `engine` (lockstep: js, wasm, Verilator and Icarus compared at every instant), or
 * undefined, with the reason printed, while the engine does not yet run several clocks (issue 40 adds
 * them engine by engine): the test then skips. Build errors and wrong results still fail.
 */
export async function multiClockEngine(design: Design, engine: Engine, clocks: readonly string[]): Promise<Simulator | undefined> {
  const sim = engine === 'lockstep' ? await compileSimulator(design, { backend: 'lockstep', backends: ['js', 'wasm', 'verilator', 'icarus'] }) : await compileSimulator(design, { backend: engine });
  if (sim.backend !== engine) {
    sim.close();
    console.log(`skipped: the ${engine} engine fell back to ${sim.backend} for ${design.top}`);
    return undefined;
  }
  const missing = missingClockApi(sim, clocks);
  if (missing === undefined) return sim;
  sim.close();
  console.log(`skipped until the ${engine} engine runs several clocks: ${missing}`);
  return undefined;
}
