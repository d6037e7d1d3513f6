// `trace RVa`, the ray-query form of trace (docs/rays.md): recognising it in instruction words.
import { BY_MNEMONIC, fieldOf } from './instructions.ts';
import { disassembleWord } from './disassembler.ts';

const TRACE_OPCODE = BY_MNEMONIC.get('trace')!.opcode;

/**
 * The query register a of a `trace RVa` word (1–15), or 0 for any other word, plain `trace` included.
 * As every vector field, A is read by its low 4 bits (docs/isa.md, "ISA simulator"): a trace word whose
 * A holds only the top bit is a plain trace to the ISS and to the RT core alike.
 */
export function traceQueryRegister(word: number): number {
  return fieldOf(word >>> 0, 'opcode') === TRACE_OPCODE ? fieldOf(word >>> 0, 'A') & 15 : 0;
}

/**
 * The index of the first `trace RVa` word of a program, or −1. The RT core does not run the form yet
 * (it decodes trace by its opcode and would cast a plain trace), so the GPU's program loaders refuse a
 * program that holds one. A data word with the same bits is refused too: the scan cannot tell data
 * from code.
 */
export function firstTraceQuery(words: ArrayLike<number>): number {
  for (let i = 0; i < words.length; i++) if (traceQueryRegister(words[i]!) !== 0) return i;
  return -1;
}

/**
 * Why the simulated GPU refuses a program: its word at `at` is `trace RVa`, which the RT core does not implement yet
 * (it decodes trace by its opcode and would cast a plain trace, answering otherwise than the ISS).
 */
export function traceQueryNotOnGpu(at: string, word: number): string {
  return `${at}: '${disassembleWord(word, 0)}' (0x${(word >>> 0).toString(16).padStart(8, '0')}) casts a ray query (interval, flags, mask: docs/rays.md), which the simulated GPU does not run yet (its RT core would cast a plain trace)`;
}

/** Where word `i` of a program is, for messages without a source line. */
export const wordAt = (i: number): string => `word ${i} (PC 0x${(4 * i).toString(16).padStart(4, '0')})`;
