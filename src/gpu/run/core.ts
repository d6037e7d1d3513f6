// The RT core backends of `rtgpu run`: the core in the TS simulator, or replayed in lockstep on
// Verilator or Icarus (the TS run plays the dispatcher; the external simulator receives exactly the
// same inputs every cycle and must produce the same outputs every cycle, results included).
import { CoreLimitError, runOnCore, type CoreRun } from '../rtCore/coreTestbench.ts';
import { replayRecording } from '../../hdl/cosim/replay.ts';
import { formatMismatch } from '../../hdl/cosim/runCosim.ts';
import { RunError, sourceOf, type RunJob, type RunResult } from './job.ts';

function runTs(job: RunJob): CoreRun {
  try {
    return runOnCore({ program: job.program, constants: job.constants, scene: job.scene, pixels: job.pixels, maxInstructionsPerThread: job.maxInstructions });
  } catch (e) {
    if (!(e instanceof CoreLimitError)) throw e;
    const at = `PC 0x${e.pc.toString(16).padStart(4, '0')}${sourceOf(job, e.pc)}`;
    if (e.stuck) throw new RunError(`${e.message} (last retired ${at}): a hardware fault, please report it with this program`);
    throw new RunError(`${e.message} (last retired ${at}); raise --max-instructions if the kernel is just long`);
  }
}

const result = (r: CoreRun): RunResult => ({ cycles: r.coreCycles, instructions: r.instructions, pixels: r.pixels, faults: r.faults });

export async function runOnCoreTs(job: RunJob): Promise<RunResult> {
  return result(runTs(job));
}

function external(sim: 'verilator' | 'icarus') {
  return async (job: RunJob): Promise<RunResult> => {
    const run = runTs(job);
    const replay = await replayRecording(run.design, run.recording, ['ts', sim]);
    if (replay.mismatch) throw new RunError(`${sim} disagrees with the TS simulator:\n${formatMismatch(replay.mismatch)}`);
    return result(run);
  };
}

export const runOnVerilator = external('verilator');
export const runOnIcarus = external('icarus');
