// The ISA-simulator backend of `rtgpu run`: the golden model runs the job; cycles = instructions.
import { Machine, InstructionLimitError, MemoryImageError } from '../../golden/iss/index.ts';
import { RunError, sourceOf, type RunJob, type RunResult } from './job.ts';

export async function runOnIss(job: RunJob): Promise<RunResult> {
  try {
    const machine = new Machine({ program: job.program, constants: job.constants, scene: job.scene, maxInstructions: job.maxInstructions });
    const r = machine.run(job.pixels);
    return { cycles: r.instructions, instructions: r.instructions, pixels: r.pixels, faults: r.faults };
  } catch (e) {
    if (e instanceof InstructionLimitError) {
      const at = `PC 0x${e.pc.toString(16).padStart(4, '0')}${sourceOf(job, e.pc)}`;
      throw new RunError(`pixel ${e.pixel}: no fin after ${e.limit} instructions (stopped at ${at}); raise --max-instructions if the kernel is just long`);
    }
    if (e instanceof MemoryImageError) throw new RunError(e.message);
    throw e;
  }
}
