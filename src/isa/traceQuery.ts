// `trace RVa`, the ray-query form of trace (docs/rays.md): recognising it in instruction words.
import { BY_MNEMONIC, fieldOf } from './instructions.ts';

const TRACE_OPCODE = BY_MNEMONIC.get('trace')!.opcode;

/**
 * The query register a of a `trace RVa` word (1–15), or 0 for any other word, plain `trace` included.
 * As every vector field, A is read by its low 4 bits (docs/isa.md, "ISA simulator"): a trace word whose
 * A holds only the top bit is a plain trace to the ISS and to the RT core alike.
 */
export function traceQueryRegister(word: number): number {
  return fieldOf(word >>> 0, 'opcode') === TRACE_OPCODE ? fieldOf(word >>> 0, 'A') & 15 : 0;
}

/** The index of the first `trace RVa` word of a program, or −1 (a data word with the same bits counts too). */
export function firstTraceQuery(words: ArrayLike<number>): number {
  for (let i = 0; i < words.length; i++) if (traceQueryRegister(words[i]!) !== 0) return i;
  return -1;
}
