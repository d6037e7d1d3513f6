// The ISA simulator's public surface: threads, memories and the pixel-running machine.
export { Thread, idiv, icmpFlag, type Retired, type Tracer, type TraceRecord } from './thread.ts';
export { Memory, MemoryImageError, CONSTANT_WORDS, THREAD_WORDS, INSTRUCTION_BYTES, TEXTURE_WORDS, type LoadResult } from './memory.ts';
export { Machine, runIss, InstructionLimitError, DEFAULT_MAX_INSTRUCTIONS, type MachineOptions, type MachineResult, type PixelResult } from './machine.ts';
export { sceneTracer, type SceneTracer, type SceneTracerOptions, type TraceCounters, type Traversal } from './sceneTracer.ts';
export { executeTxd } from './txdInstruction.ts';
