// Test helper: a frame's job with the id kernel changed to return RV15 after its trace (the normal and the hit triangle index).
import { assemble } from '../../src/isa/assembler.ts';
import { kernelSource } from '../../src/host/kernels/index.ts';
import type { GpuJob } from '../../src/host/runtime/index.ts';

/** `job` (an id-kernel frame: its camera constants) running the id kernel that stores RV15 instead of RV14. */
export function returningRv15(job: GpuJob): GpuJob {
  const id = kernelSource('id');
  const source = id.source.replace('v_store_16byte RV14', 'v_store_16byte RV15');
  if (!source.includes('v_store_16byte RV15')) throw new Error('the id kernel no longer stores RV14 as this helper expects');
  // Under id.s's own path, so that its .include of primaryRay.s resolves.
  const { words, sourceLines, files, sourceFiles } = assemble(source, id.path);
  return { ...job, program: words, sourceLines, sourceFile: id.path, includedFiles: files, sourceFileOf: sourceFiles };
}
