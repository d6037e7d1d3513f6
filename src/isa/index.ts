// The RT core's instruction set: the instruction table, txd's operand words, assembler, disassembler, hex word files.
export * from './instructions.ts';
export { assemble, parseNumber, sourceLocationOf, MAX_PROGRAM_BYTES, type AssembleOptions, type IncludeReader, type IncludedFile, type Program } from './assembler.ts';
export { AsmError, formatDiagnostic as formatAsmDiagnostic, type AsmDiagnostic } from './asmError.ts';
export { disassemble, disassembleWord } from './disassembler.ts';
export { parseHexWords, formatHexWords, wordsFromBytes, wordsToBytes, HexWordsError } from './hexWords.ts';
export { TXD_HANDLE, TXD_CONTROL, TXD_OFFSET_MIN, TXD_OFFSET_MAX, TXD_LOD_CLAMP_MAX, encodeTxdHandle, txdHandleAddresses, encodeTxdControl, decodeTxdControl } from './textureOperands.ts';
