// A recorded run of random, protocol-keeping stimulus on any design: what `rtgpu bench DESIGN.ts` measures the simulators on.
import { flattenDesign } from '../ir/flatten.ts';
import type { Design } from '../ir/netlist.ts';
import { compileSimulator, resetInputs, type Simulator } from '../sim/index.ts';
import { Testbench, driveRandomly, type FoundStream } from '../testbench/index.ts';
import type { Recording } from './recording.ts';
import { RecordingSimulator } from './recordingSimulator.ts';
import { assumptionsHold } from './assumptions.ts';

export interface RandomRun {
  /** Every input of every cycle (resets held as driveRandomly holds them, streams keeping their handshakes, the design's assumptions kept). */
  readonly recording: Recording;
  /** The ready/valid streams driveRandomly found and kept the protocol of. */
  readonly streams: readonly FoundStream[];
}

/**
 * Random stimulus for `design` on `tb`: its resets held as driveRandomly holds them, its ready/valid streams kept,
 * and inputs redrawn until the design's assumptions hold on `engine` (the simulator under `tb`, or what it records).
 */
export function driveDesignRandomly(tb: Testbench, engine: Simulator, design: Design): FoundStream[] {
  return driveRandomly(tb, { resets: resetInputs(flattenDesign(design)), keep: assumptionsHold(engine, design) });
}

/** Runs `design` on the TS simulator for `cycles` cycles of `driveRandomly`'s stimulus from `seed`, recording the inputs. */
export async function recordRandomRun(design: Design, cycles: number, seed: number): Promise<RandomRun> {
  const engine = compileSimulator(design);
  const sim = new RecordingSimulator(engine, design);
  try {
    const tb = new Testbench(sim, { seed });
    const streams = driveDesignRandomly(tb, engine, design);
    await tb.run(() => tb.tick(cycles), { maxCycles: cycles });
    return { recording: sim.recording(), streams };
  } finally {
    sim.close();
  }
}
