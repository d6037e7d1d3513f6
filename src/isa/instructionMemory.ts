// Whether an assembled program fits the RT core's instruction memory: `assemble` accepts longer images
// (up to MAX_PROGRAM_BYTES), a kernel must not be.
import { AsmError } from './asmError.ts';
import { MEMORY_MAP } from './instructions.ts';
import type { Program } from './assembler.ts';

/** `program`, or an AsmError at the source line of its first word past the instruction memory (MEMORY_MAP.instructionWords). */
export function checkFitsInstructionMemory(program: Program): Program {
  const limit = MEMORY_MAP.instructionWords;
  if (program.words.length <= limit) return program;
  const file = program.files[program.sourceFiles[limit]!]!;
  const message = `the program does not fit the instruction memory: it holds ${limit} words (bytes 0x0000-0x${(4 * limit - 1).toString(16)}), the program has ${program.words.length}; word ${limit} is the first past it`;
  throw new AsmError([{ file, line: program.sourceLines[limit]!, col: 1, message }]);
}
