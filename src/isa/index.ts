// The RT core's instruction set: the instruction table, assembler, disassembler, hex word files and random programs.
export * from './instructions.ts';
export { assemble, parseNumber, sourceLocationOf, MAX_PROGRAM_BYTES, type AssembleOptions, type IncludeReader, type IncludedFile, type Program } from './assembler.ts';
export { AsmError, formatDiagnostic as formatAsmDiagnostic, type AsmDiagnostic } from './asmError.ts';
export { disassemble, disassembleWord } from './disassembler.ts';
export { parseHexWords, formatHexWords, wordsFromBytes, wordsToBytes, HexWordsError } from './hexWords.ts';
export { generateProgram, generateScene } from './randomProgram.ts';
