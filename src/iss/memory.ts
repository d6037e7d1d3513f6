// Memories of the ISA simulator: instruction, constant, texture and per-thread main memory, with the ISA's fault rules.
import { MEMORY_MAP, threadBase } from '../isa/instructions.ts';

export const CONSTANT_WORDS = MEMORY_MAP.constantBytes / 4; // 8192
export const THREAD_WORDS = MEMORY_MAP.threadBytes / 4; // 16384
export const INSTRUCTION_BYTES = MEMORY_MAP.instructionWords * 4; // 0x4000
export const TEXTURE_WORDS = MEMORY_MAP.textureWords; // 262144

/** An input that does not fit a memory (program or constants too long). */
export class MemoryImageError extends Error {
  override name = 'MemoryImageError';
}

/** A load's outcome: `ok` false means the access faulted (and `words` are zero). */
export interface LoadResult {
  readonly ok: boolean;
  readonly words: number[];
}

/**
 * All memories one machine sees. Instruction and constant memory are shared and read-only; main
 * memory is one array per thread id, kept across patches (zero at power-on, never cleared).
 */
export class Memory {
  readonly instructions = new Uint32Array(MEMORY_MAP.instructionWords);
  readonly constants = new Uint32Array(CONSTANT_WORDS);
  readonly main: readonly Uint32Array[] = Array.from({ length: MEMORY_MAP.threads }, () => new Uint32Array(THREAD_WORDS));
  /**
   * Texture memory (TEXTURE_WORDS words, the given image from word 0, the rest zero), read only by txd;
   * undefined when the machine has none, as a GPU built without a texture unit (txd is then illegal).
   */
  readonly texture?: Uint32Array;

  constructor(program: Uint32Array, constants: Uint32Array = new Uint32Array(0), texture?: Uint32Array) {
    if (program.length > this.instructions.length) throw new MemoryImageError(`the program has ${program.length} words; instruction memory holds ${this.instructions.length}`);
    if (constants.length > this.constants.length) throw new MemoryImageError(`the constants have ${constants.length} words; constant memory holds ${this.constants.length}`);
    if (texture && texture.length > TEXTURE_WORDS) throw new MemoryImageError(`the texture image has ${texture.length} words; texture memory holds ${TEXTURE_WORDS}`);
    this.instructions.set(program);
    this.constants.set(constants);
    if (texture) {
      this.texture = new Uint32Array(TEXTURE_WORDS);
      this.texture.set(texture);
    }
  }

  /** The instruction at byte address pc, or undefined when pc is outside instruction memory. */
  fetch(pc: number): number | undefined {
    return pc >>> 0 < INSTRUCTION_BYTES ? this.instructions[pc >>> 2]! : undefined;
  }

  /** Scalar load: constant memory or the thread's own main memory. */
  loadScalar(tid: number, addr: number): LoadResult {
    const c = constantIndex(addr);
    if (c !== undefined) return { ok: true, words: [this.constants[c]!] };
    const m = mainIndex(tid, addr, 1);
    return m === undefined ? { ok: false, words: [0] } : { ok: true, words: [this.main[tid]![m]!] };
  }

  /** Vector load: four words wholly inside the thread's own main memory. */
  loadVector(tid: number, addr: number): LoadResult {
    const m = mainIndex(tid, addr, 4);
    return m === undefined ? { ok: false, words: [0, 0, 0, 0] } : { ok: true, words: Array.from(this.main[tid]!.subarray(m, m + 4)) };
  }

  /** Store `words` (1 or 4) at addr in the thread's own main memory; false (nothing written) on a fault. */
  store(tid: number, addr: number, words: readonly number[]): boolean {
    const m = mainIndex(tid, addr, words.length);
    if (m === undefined) return false;
    this.main[tid]!.set(words, m);
    return true;
  }

  /** The 4 words a thread returns to the host (offset 0xFFF0 of its main memory). */
  result(tid: number): [number, number, number, number] {
    const at = MEMORY_MAP.returnOffset / 4;
    const m = this.main[tid]!;
    return [m[at]!, m[at + 1]!, m[at + 2]!, m[at + 3]!];
  }
}

/** Word index into constant memory, or undefined if addr is outside it. */
function constantIndex(addr: number): number | undefined {
  const off = (addr >>> 0) - MEMORY_MAP.constantBase;
  return off >= 0 && off < MEMORY_MAP.constantBytes ? off >>> 2 : undefined;
}

/** Word index of a `count`-word access into the thread's main memory, or undefined if any word falls outside. */
function mainIndex(tid: number, addr: number, count: number): number | undefined {
  const off = (addr >>> 0) - threadBase(tid);
  if (off < 0 || off >= MEMORY_MAP.threadBytes) return undefined;
  const w = off >>> 2;
  return w + count <= THREAD_WORDS ? w : undefined;
}
