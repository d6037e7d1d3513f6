// What `rtgpu run` hands a simulator backend and what it gets back: one job type for the ISS and the RT core.
import type { Scene } from '../../golden/scene.ts';

/** A kernel run: the program, constant memory, the scene, and how many pixels (0 .. pixels − 1). */
export interface RunJob {
  /** Instruction words from address 0. */
  readonly program: Uint32Array;
  /** For messages: the source file of the program and the 1-based source line of each word (≤ 0: unknown). */
  readonly sourceFile?: string;
  readonly sourceLines?: Int32Array;
  /** Constant memory words from 0x20000000. */
  readonly constants: Uint32Array;
  readonly scene: Scene;
  readonly pixels: number;
  /** Per-thread instruction limit (an endless loop becomes a RunError). */
  readonly maxInstructions: number;
}

export interface RunPixel {
  readonly pixel: number;
  /** The 4 words the thread left at offset 0xFFF0 of its main memory. */
  readonly ret: readonly [number, number, number, number];
}

export interface RunResult {
  /** Clock cycles of the run (the ISS counts one per instruction). */
  readonly cycles: number;
  readonly instructions: number;
  readonly pixels: readonly RunPixel[];
  /** Pixels whose thread faulted. */
  readonly faults: readonly number[];
}

export type RunBackend = (job: RunJob) => Promise<RunResult>;

/** A run that could not complete (instruction limit, image too large …): a clean one-line message. */
export class RunError extends Error {
  override name = 'RunError';
}

/** ` in file:line` for the instruction at byte address pc, when the job knows its source. */
export function sourceOf(job: RunJob, pc: number): string {
  const line = job.sourceLines?.[pc >>> 2];
  return job.sourceFile && line !== undefined && line > 0 ? ` in ${job.sourceFile}:${line}` : '';
}
