// Test helper: a frame's job with the id kernel changed to return RV15 after its trace (the normal and the hit triangle index).
import { assemble } from '../../src/isa/assembler.ts';
import { kernelSource } from '../../src/host/kernels/index.ts';
import type { GpuJob } from '../../src/host/runtime/index.ts';

/** `job` (an id-kernel frame: its camera constants) running the id kernel that stores RV15 instead of RV14. */
export function returningRv15(job: GpuJob): GpuJob {
  const source = kernelSource('id').source.replace('v_store_16byte RV14', 'v_store_16byte RV15');
  if (!source.includes('v_store_16byte RV15')) throw new Error('the id kernel no longer stores RV14 as this helper expects');
  const { words, sourceLines } = assemble(source, 'rv15.s');
  return { ...job, program: words, sourceLines, sourceFile: 'rv15.s' };
}
