// Assembler golden tests: every instruction, pseudo-instruction, directive, alias and error, expected words written by hand.
import { describe, expect, test } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsmError, assemble } from '../../src/isa/assembler.ts';
import { INSTRUCTIONS } from '../../src/isa/instructions.ts';

/** A word written as its bit fields in binary (spaces between fields); checked to be 32 bits. */
function b(pattern: string): number {
  const bits = pattern.replace(/\s/g, '');
  if (!/^[01]{32}$/.test(bits)) throw new Error(`test pattern is not 32 bits: ${pattern}`);
  return parseInt(bits, 2);
}

const words = (source: string): number[] => Array.from(assemble(source, 't.s').words);

function asmError(source: string): AsmError {
  try {
    assemble(source, 't.s');
  } catch (e) {
    if (e instanceof AsmError) return e;
    throw e;
  }
  throw new Error(`assembled without error: ${source}`);
}

/** The message of the only error in `source`, which must be `t.s:line:col: error: …`. */
const error = (source: string): string => asmError(source).message;

// Layouts: opcode(6) A(5) B(5) C(5) zero(11), or opcode(6) A(5) B(5) imm(16).
const GOLDEN: readonly (readonly [string, ...string[]])[] = [
  // Seed syntax (section 5 examples) for every real instruction.
  ['vv_add RV3, RV1, RV2', '000000 00011 00001 00010 00000000000'],
  ['vv_sub RV3, RV1, RV2', '000001 00011 00001 00010 00000000000'],
  ['vv_mul_ele RV3, RV1, RV2', '000010 00011 00001 00010 00000000000'],
  ['vv_div RV15, RV14, RV13', '000011 01111 01110 01101 00000000000'],
  ['vf_add RV1, RV2, R1', '001000 00001 00010 00001 00000000000'],
  ['vf_sub RV1, RV2, R31', '001001 00001 00010 11111 00000000000'],
  ['vf_mul RV1, RV2, R1', '001010 00001 00010 00001 00000000000'],
  ['vf_div RV1, RV2, R1', '001011 00001 00010 00001 00000000000'],
  ['not R2, R1', '001100 00010 00001 00000 00000000000'],
  ['and R3, R1, R2', '001101 00011 00001 00010 00000000000'],
  ['or R3, R1, R2', '001110 00011 00001 00010 00000000000'],
  ['xor R3, R1, R2', '001111 00011 00001 00010 00000000000'],
  ['ii_add RS3, RS1, RS2', '011000 00011 00001 00010 00000000000'],
  ['ii_sub RS3, RS1, RS2', '011001 00011 00001 00010 00000000000'],
  ['ii_mul RS3, RS1, RS2', '011010 00011 00001 00010 00000000000'],
  ['ii_div RS3, RS1, RS2', '011011 00011 00001 00010 00000000000'],
  ['Cmp_I R1, R2', '011101 00000 00001 00010 00000000000'],
  ['ff_add RS3, RS1, RS2', '010000 00011 00001 00010 00000000000'],
  ['ff_sub RS3, RS1, RS2', '010001 00011 00001 00010 00000000000'],
  ['ff_mul RS3, RS1, RS2', '010010 00011 00001 00010 00000000000'],
  ['ff_div RS3, RS1, RS2', '010011 00011 00001 00010 00000000000'],
  ['Cmp_f R1, R2', '010101 00000 00001 00010 00000000000'],
  ['s_write_high R2, #-24', '100000 00010 00010 1111111111101000'],
  ['s_write_low R2, #24', '100001 00010 00010 0000000000011000'],
  ['s_itof R2, R1', '100010 00010 00001 0000000000000000'],
  ['s_ftoi R2, R1', '100011 00010 00001 0000000000000000'],
  ['V_reduce R3, RV1', '100100 00011 00001 0000000000000000'],
  ['s_get_from_v R2, RV1, #2', '100101 00010 00001 0000000000000010'],
  ['S_sqrt R2, R1', '100110 00010 00001 0000000000000000'],
  ['v_get_from_s RV1, R2, #3', '100111 00001 00010 0000000000000011'],
  ['ii_addi R2, R1, #7', '101000 00010 00001 0000000000000111'],
  ['ii_subi R2, R1, #7', '101001 00010 00001 0000000000000111'],
  ['ii_muli R2, R1, #-7', '101010 00010 00001 1111111111111001'],
  ['ii_divi R2, R1, #32767', '101011 00010 00001 0111111111111111'],
  ['s_load_4byte R2, R1, #7', '101100 00010 00001 0000000000000111'],
  ['v_load_16byte RV2, R1, #-16', '101111 00010 00001 1111111111110000'],
  ['s_store_4byte R2, R1, #7', '111100 00010 00001 0000000000000111'],
  ['v_store_16byte RV2, R1, #16', '111111 00010 00001 0000000000010000'],
  ['Trace', '111010 00000 00000 0000000000000000'],
  ['FIN', '111011 00000 00000 0000000000000000'],
  ['be #12', '110000 00000 00000 0000000000001100'],
  ['bne #-4', '110001 00000 00000 1111111111111100'],
  ['bl #0', '110010 00000 00000 0000000000000000'],
  ['bge #-32768', '110011 00000 00000 1000000000000000'],
  ['bg #32764', '110100 00000 00000 0111111111111100'],
  ['ble #0x10', '110101 00000 00000 0000000000010000'],
  ['jmp #-8', '110110 00000 00000 1111111111111000'],
  ['ret', '110111 00000 11110 0000000000000000'],
  ['ret R5', '110111 00000 00101 0000000000000000'],
  // txd RVd, RVa, RVb, #mask: the mask in [3:0], all four lanes when it is left out.
  ['txd RV3, RV1, RV2, #0x5', '101110 00011 00001 00010 0000000 0101'],
  ['txd RV15, RV14, RV13', '101110 01111 01110 01101 0000000 1111'],
  ['TXD R1 R2 R3 1', '101110 00001 00010 00011 0000000 0001'],
  // txd_control Rd, #lodClamp, #du, #dv: LodClamp[31:20] | v[19:16] | u[15:12], by s_write_high and s_write_low.
  ['txd_control R4, #0x180, #-1, #7', '100000 00100 00100 0001100000000111', '100001 00100 00100 1111000000000000'],
  // The original team's syntax: white space between operands, no '#', R names for vector registers.
  ['vv_add R3 R1 R2', '000000 00011 00001 00010 00000000000'],
  ['vf_mul R1 R2 R3', '001010 00001 00010 00011 00000000000'],
  ['vf_mul RV1 R2 R3', '001010 00001 00010 00011 00000000000'],
  ['v_reduce R3 R1', '100100 00011 00001 0000000000000000'],
  ['s_get_from_v R2 R1 2', '100101 00010 00001 0000000000000010'],
  ['v_load_16byte R2 R1 -16', '101111 00010 00001 1111111111110000'],
  ['ii_addi R2 R1 7', '101000 00010 00001 0000000000000111'],
  ['ii_addi R2, R1 7', '101000 00010 00001 0000000000000111'],
  ['s_write_high R2 0xFFE8', '100000 00010 00010 1111111111101000'],
  ['\tii_addi\tR1,R0,0x1F', '101000 00001 00000 0000000000011111'],
  ['ii_addi R1, R0, -0x10', '101000 00001 00000 1111111111110000'],
  ['ii_addi R1, R0, 0b101', '101000 00001 00000 0000000000000101'],
  ['ii_addi R1, R0, #+5', '101000 00001 00000 0000000000000101'],
  ['VV_ADD rv3, Rv1, rV2', '000000 00011 00001 00010 00000000000'],
  ['II_ADD rs3 Rs1 r2', '011000 00011 00001 00010 00000000000'],
  ['trace', '111010 00000 00000 0000000000000000'],
  ['Fin', '111011 00000 00000 0000000000000000'],
  // Aliases.
  ['v_get_from_s_d RV1 R2 1', '100111 00001 00010 0000000000000001'],
  ['itof R2, R1', '100010 00010 00001 0000000000000000'],
  ['ftoi R2 R1', '100011 00010 00001 0000000000000000'],
  ['real_jmp #-8', '110110 00000 00000 1111111111111000'],
  ['real_jmp 20', '110110 00000 00000 0000000000010100'],
  ['ret_real R7', '110111 00000 00111 0000000000000000'],
  ['s_write_high_real R1 R2 0x1234', '100000 00001 00010 0001001000110100'],
  ['s_write_low_real R3, R4, #-1', '100001 00011 00100 1111111111111111'],
  // Unsigned immediates: 0..65535, and -32768..-1 as their two's complement.
  ['s_write_low R1, #65535', '100001 00001 00001 1111111111111111'],
  ['s_write_low R1, #-32768', '100001 00001 00001 1000000000000000'],
  // R31 and R0 as sources, R0 as destination, stores of R31.
  ['ii_add R0, R31, R0', '011000 00000 11111 00000 00000000000'],
  ['s_store_4byte R31, R29, #0', '111100 11111 11101 0000000000000000'],
  ['cmp_i R31, R31', '011101 00000 11111 11111 00000000000'],
  // Pseudo-instructions.
  ['s_push R5', '111100 00101 11101 0000000000000000', '101000 11101 11101 0000000000000100'],
  ['s_pop R5', '101000 11101 11101 1111111111111100', '101100 00101 11101 0000000000000000'],
  ['v_push RV3', '111111 00011 11101 0000000000000000', '101000 11101 11101 0000000000010000'],
  ['v_pop RV3', '101000 11101 11101 1111111111110000', '101111 00011 11101 0000000000000000'],
  ['v_push R3', '111111 00011 11101 0000000000000000', '101000 11101 11101 0000000000010000'],
  ['s_mov R4, R5', '011000 00100 00101 00000 00000000000'],
  ['v_mov RV4, RV5', '000001 00100 00101 00000 00000000000'],
  ['v_mov R4 R5', '000001 00100 00101 00000 00000000000'],
  ['s_setzero R6', '001111 00110 00110 00110 00000000000'],
  ['ii_mod R3, R1, R2', '011011 00011 00001 00010 00000000000', '011010 00011 00011 00010 00000000000', '011001 00011 00001 00011 00000000000'],
  ['ii_modi R3, R1, #10', '101011 00011 00001 0000000000001010', '101010 00011 00011 0000000000001010', '011001 00011 00001 00011 00000000000'],
  ['ii_modi R4 R3 -1', '101011 00100 00011 1111111111111111', '101010 00100 00100 1111111111111111', '011001 00100 00011 00100 00000000000'],
  ['jmp_link #8', '101000 11110 11111 0000000000000100', '110110 00000 00000 0000000000001000'],
];

describe('assemble: one statement', () => {
  test.each(GOLDEN.map((row) => [row[0], row.slice(1)] as const))('%s', (source, patterns) => {
    expect(words(source).map((w) => w.toString(2).padStart(32, '0'))).toEqual(patterns.map((p) => b(p).toString(2).padStart(32, '0')));
  });

  test('the golden table covers every instruction of the table', () => {
    const seen = new Set(GOLDEN.map((row) => b(row[1]!) >>> 26));
    for (const spec of INSTRUCTIONS) expect(seen.has(spec.opcode), spec.mnemonic).toBe(true);
  });
});

describe('assemble: programs', () => {
  test('branches to labels before and after use; offsets from PC + 4', () => {
    const p = assemble(
      [
        'top:  be top        // 0x00: 0 - 4',
        '      bne end       ; 0x04: 0x1c - 0x08',
        '      bl top        // 0x08: 0 - 0x0c',
        '      bge #0',
        '      bg #-32768',
        '      ble #32764',
        '      jmp top       // 0x18: 0 - 0x1c',
        'end:  real_jmp #-8',
      ].join('\n'),
      't.s',
    );
    expect(Array.from(p.words)).toEqual([
      b('110000 00000 00000 1111111111111100'),
      b('110001 00000 00000 0000000000010100'),
      b('110010 00000 00000 1111111111110100'),
      b('110011 00000 00000 0000000000000000'),
      b('110100 00000 00000 1000000000000000'),
      b('110101 00000 00000 0111111111111100'),
      b('110110 00000 00000 1111111111100100'),
      b('110110 00000 00000 1111111111111000'),
    ]);
    expect([...p.labels]).toEqual([
      ['top', 0],
      ['end', 0x1c],
    ]);
  });

  test('jmp_link to a label: the link is the address after the jmp; ret returns through R30', () => {
    const p = assemble('  jmp_link f\n  fin\nf:\n  ret\n', 't.s');
    expect(Array.from(p.words)).toEqual([
      b('101000 11110 11111 0000000000000100'), // ii_addi R30, R31, 4 (R31 reads 0x04, the jmp)
      b('110110 00000 00000 0000000000000100'), // jmp at 0x04 to 0x0c: 0x0c - 0x08
      b('111011 00000 00000 0000000000000000'),
      b('110111 00000 11110 0000000000000000'),
    ]);
    expect(p.labels.get('f')).toBe(0x0c);
  });

  test('labels: own line, several on one line, before an instruction, case-sensitive, on data', () => {
    const p = assemble('a:\nb: c: .word 1, 2\nd: .byte 1\n_x.y$: Loop: jmp _x.y$\n  jmp c\n', 't.s');
    expect([...p.labels]).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 8],
      ['_x.y$', 12],
      ['Loop', 12],
    ]);
    expect(Array.from(p.words)).toEqual([1, 2, 1, b('110110 00000 00000 1111111111111100'), b('110110 00000 00000 1111111111101100')]);
  });

  test('sourceLines: the line of the statement each word came from', () => {
    const p = assemble('// comment\n  s_push R1\n\nlab:\n  .word 7\n  .string "abcdefg"\n  fin', 't.s');
    expect(Array.from(p.sourceLines)).toEqual([2, 2, 5, 6, 6, 7]);
    expect(p.words.length).toBe(6);
  });

  test('comments, @ lines, blank lines, CRLF, an empty program', () => {
    expect(words('@ 0x0000 ignored: foo bar\n  @anything\n; semicolon\n// slashes\n\r\n  fin ; trailing\r\n  trace// no space\n')).toEqual([b('111011 00000 00000 0000000000000000'), b('111010 00000 00000 0000000000000000')]);
    const empty = assemble('', 't.s');
    expect(empty.words.length).toBe(0);
    expect(empty.sourceLines.length).toBe(0);
    expect(empty.labels.size).toBe(0);
  });
});

describe('directives', () => {
  test('.word: one or more 32-bit values, signed or unsigned', () => {
    expect(words('.word 0xdeadbeef, -1 0\n.WORD 4294967295 -2147483648 #5')).toEqual([0xdeadbeef, 0xffffffff, 0, 0xffffffff, 0x80000000, 5]);
  });

  test('.byte: packed little-endian, last word padded with zeros', () => {
    expect(words('.byte 1, 2, 3, 4, 5')).toEqual([0x04030201, 0x00000005]);
    expect(words('.byte 0xff -1 -128')).toEqual([0x0080ffff]);
    expect(words('.byte 1 2 3 4')).toEqual([0x04030201]);
  });

  test('.space: bytes rounded up to whole words of zeros', () => {
    expect(words('.space 5\n.word 9')).toEqual([0, 0, 9]);
    expect(words('.space 0\n.word 9')).toEqual([9]);
    expect(words('.space 8')).toEqual([0, 0]);
    expect(words('.space 0x4')).toEqual([0]);
  });

  test('.string: bytes, a terminating 0, escapes, UTF-8, padded to a word', () => {
    expect(words('.string "Hi\\n"')).toEqual([0x000a6948]);
    expect(words('.string "abcd"')).toEqual([0x64636261, 0x00000000]);
    expect(words('.string "\\t\\\\\\"\\0"')).toEqual([0x00225c09, 0x00000000]);
    expect(words('.string ""')).toEqual([0]);
    expect(words('.string "\\r\\x7f; not // a comment"')).toEqual(words('.byte 13 127 59 32 110 111 116 32 47 47 32 97 32 99 111 109 109 101 110 116 0'));
    expect(words('.string "é"')).toEqual([0x0000a9c3]);
  });
});

describe('errors name file:line:col', () => {
  const cases: readonly (readonly [string, string])[] = [
    // Mnemonics and directives.
    ['  foo R1', "t.s:1:3: error: unknown mnemonic 'foo'"],
    ['vv_mul_dot R3, RV1', "t.s:1:1: error: unknown mnemonic 'vv_mul_dot' (did you mean v_reduce?)"],
    ['v_store_4byte RV1, R29, 0', "t.s:1:1: error: unknown mnemonic 'v_store_4byte' (did you mean v_store_16byte?)"],
    ['.align 4', "t.s:1:1: error: unknown directive '.align' (directives: .word, .byte, .space, .string, .include)"],
    ['fin\n5 R1', "t.s:2:1: error: expected a mnemonic or directive, got '5'"],
    [', R1', "t.s:1:1: error: expected a mnemonic or directive, got ','"],
    ['"fin"', 't.s:1:1: error: expected a mnemonic or directive, got a string'],
    // Operand counts.
    ['vv_add RV1, RV2', 't.s:1:1: error: vv_add takes 3 operands (RV, RV, RV), got 2'],
    ['not R1, R2, R3', 't.s:1:13: error: not takes 2 operands (R, R), got 3'],
    ['fin R1', 't.s:1:5: error: fin takes no operands, got 1'],
    ['ret R1 R2', 't.s:1:8: error: ret takes no operands or 1 operand (R), got 2'],
    ['ii_addi R1, R2', 't.s:1:1: error: ii_addi takes 3 operands (R, R, #imm), got 2'],
    ['s_get_from_v R1 RV1', 't.s:1:1: error: s_get_from_v takes 3 operands (R, RV, #lane), got 2'],
    ['be', 't.s:1:1: error: be takes 1 operand (label), got 0'],
    ['s_push', 't.s:1:1: error: s_push takes 1 operand (R), got 0'],
    ['.word', 't.s:1:1: error: .word needs at least one value'],
    ['.space 1 2', 't.s:1:10: error: .space takes one size, got 2'],
    ['.string "a" "b"', 't.s:1:13: error: .string takes one string, got 2'],
    // Operand kinds.
    ['not R1, RV2', "t.s:1:9: error: expected a scalar register, got vector register 'RV2'"],
    ['vf_add RV1, RV2, RV3', "t.s:1:18: error: expected a scalar register, got vector register 'RV3'"],
    ['vv_add RS1, R2, R3', "t.s:1:8: error: expected a vector register, got scalar register 'RS1'"],
    ['ii_add R1, 5, R2', "t.s:1:12: error: expected a scalar register, got '5'"],
    ['ii_add R1, #R2, R3', "t.s:1:12: error: expected a scalar register, got '#R2'"],
    ['v_reduce R1, foo', "t.s:1:14: error: expected a vector register, got 'foo'"],
    ['ii_addi R1, R2, R3', "t.s:1:17: error: expected an immediate, got register 'R3'"],
    ['ii_addi R1, R2, x', "t.s:1:17: error: expected an immediate, got 'x'"],
    ['ii_addi R1, R2, 12ab', "t.s:1:17: error: expected an immediate, got '12ab'"],
    ['s_get_from_v R1, RV1, R2', "t.s:1:23: error: expected a lane (0 to 3), got register 'R2'"],
    ['ii_addi R1, R2, "7"', 't.s:1:17: error: expected an immediate, got a string'],
    ['be R30', "t.s:1:4: error: expected a label or byte offset, got register 'R30' (ret jumps through a register)"],
    ['be #foo', "t.s:1:4: error: expected a label or byte offset, got '#foo'"],
    ['.word R1', "t.s:1:7: error: expected a 32-bit value, got register 'R1'"],
    ['.string 5', "t.s:1:9: error: expected a string, got '5'"],
    // Registers out of range.
    ['ii_add R32, R1, R2', "t.s:1:8: error: scalar register 'R32' out of range (R0 to R31)"],
    ['vv_add RV16, RV1, RV2', "t.s:1:8: error: vector register 'RV16' out of range (RV0 to RV15)"],
    ['vv_add R3, R16, R2', "t.s:1:12: error: vector register 'R16' out of range (RV0 to RV15)"],
    // Immediates out of range.
    ['ii_addi R1, R2, 32768', "t.s:1:17: error: immediate '32768' out of range (signed 16 bits: -32768 to 32767)"],
    ['s_load_4byte R1, R2, #-32769', "t.s:1:22: error: immediate '-32769' out of range (signed 16 bits: -32768 to 32767)"],
    ['ii_divi R1, R2, 0xFFFF', "t.s:1:17: error: immediate '0xFFFF' out of range (signed 16 bits: -32768 to 32767)"],
    ['s_write_low R1, 65536', "t.s:1:17: error: immediate '65536' out of range (16 bits: 0 to 65535, or -32768 to -1 for its two's complement)"],
    ['s_write_high R1, #-32769', "t.s:1:18: error: immediate '-32769' out of range (16 bits: 0 to 65535, or -32768 to -1 for its two's complement)"],
    ['v_get_from_s RV1, R1, #4', "t.s:1:23: error: lane '4' out of range (0 to 3)"],
    ['.word 0x100000000', "t.s:1:7: error: value '0x100000000' out of range (32 bits: -2147483648 to 4294967295)"],
    ['.byte 1, 256', "t.s:1:10: error: byte '256' out of range (-128 to 255)"],
    ['.space -1', "t.s:1:8: error: size '-1' out of range (0 to 1048576)"],
    ['be 6', "t.s:1:4: error: branch offset '6' is not a multiple of 4"],
    ['jmp #32768', "t.s:1:5: error: branch offset '32768' out of range (-32768 to 32767)"],
    // Labels.
    ['  jmp nowhere', "t.s:1:7: error: undefined label 'nowhere'"],
    ['Loop: fin\n  bne loop', "t.s:2:7: error: undefined label 'loop' (did you mean 'Loop'?)"],
    ['a: fin\n\n  a: trace', "t.s:3:3: error: duplicate label 'a' (first defined on line 1)"],
    ['1abc: fin', "t.s:1:1: error: '1abc' is not a valid label name"],
    ['R5: fin', "t.s:1:1: error: 'R5' is a register name and cannot be a label"],
    ['  be far\n  .space 32768\nfar: fin', "t.s:1:6: error: branch out of reach: 'far' is 32768 bytes from the next instruction (a branch reaches -32768 to 32767)"],
    ['back: .space 32768\n  jmp_link back', "t.s:2:12: error: branch out of reach: 'back' is -32776 bytes from the next instruction (a branch reaches -32768 to 32767)"],
    // R31 as a destination, including through pseudo-instructions.
    ['ii_add R31, R1, R2', 't.s:1:8: error: R31 is the program counter and cannot be written'],
    ['s_load_4byte RS31, R1, 0', 't.s:1:14: error: R31 is the program counter and cannot be written'],
    ['s_write_high R31, 1', 't.s:1:14: error: R31 is the program counter and cannot be written'],
    ['s_write_low_real R31 R1 1', 't.s:1:18: error: R31 is the program counter and cannot be written'],
    ['s_get_from_v R31, RV1, 0', 't.s:1:14: error: R31 is the program counter and cannot be written'],
    ['s_pop R31', 't.s:1:7: error: R31 is the program counter and cannot be written'],
    ['s_mov R31, R30', 't.s:1:7: error: R31 is the program counter and cannot be written'],
    ['s_setzero R31', 't.s:1:11: error: R31 is the program counter and cannot be written'],
    ['ii_modi R31, R1, 3', 't.s:1:9: error: R31 is the program counter and cannot be written'],
    // ii_mod / ii_modi registers.
    ['ii_mod R1, R1, R2', 't.s:1:8: error: ii_mod destination R1 must differ from its source registers (it holds the intermediate quotient)'],
    ['ii_mod R2, R1, R2', 't.s:1:8: error: ii_mod destination R2 must differ from its source registers (it holds the intermediate quotient)'],
    ['ii_mod R0, R1, R2', 't.s:1:8: error: ii_mod cannot write R0: its destination holds the intermediate quotient'],
    ['ii_modi R1, R1, 3', 't.s:1:9: error: ii_modi destination R1 must differ from its source registers (it holds the intermediate quotient)'],
    ['ii_modi R0, R1, 3', 't.s:1:9: error: ii_modi cannot write R0: its destination holds the intermediate quotient'],
    // Lexical.
    ['ii_add R1,, R2, R3', "t.s:1:11: error: expected an operand, got ','"],
    ['ii_add R1, R2, R3,', "t.s:1:18: error: expected an operand after ','"],
    ['ii_addi R1, R2, #', "t.s:1:17: error: '#' must be followed by a number"],
    ['ii_add R1 : R2', "t.s:1:11: error: expected an operand, got ':'"],
    ['.string "abc', 't.s:1:9: error: unterminated string (missing closing ")'],
    ['.string "a\\qb"', "t.s:1:11: error: unknown escape '\\q' (known: \\n \\t \\r \\\\ \\\" \\0 \\xHH)"],
    ['.string "\\x4"', "t.s:1:10: error: \\x needs two hex digits, got '4\"'"],
  ];
  test.each(cases)('%s', (source, message) => {
    const e = asmError(source);
    expect(e.message).toBe(message);
    const [, line, col] = /^t\.s:(\d+):(\d+):/.exec(message)!;
    expect([e.file, e.line, e.col]).toEqual(['t.s', Number(line), Number(col)]);
    expect(e.diagnostics.length).toBe(1);
  });

  test('the default file name is <input>', () => {
    expect(() => assemble('foo')).toThrow("<input>:1:1: error: unknown mnemonic 'foo'");
  });

  test('several errors: one line each, in source order, the first in the fields', () => {
    const e = asmError('  jmp nowhere\n  foo\n  fin\n  ii_addi R1, R1, 99999\n');
    expect(e.message.split('\n')).toEqual(["t.s:1:7: error: undefined label 'nowhere'", "t.s:2:3: error: unknown mnemonic 'foo'", "t.s:4:19: error: immediate '99999' out of range (signed 16 bits: -32768 to 32767)"]);
    expect([e.line, e.col]).toEqual([1, 7]);
  });

  test('at most 20 errors are listed, the rest counted', () => {
    const e = asmError(Array.from({ length: 25 }, (_, i) => `bad${i}`).join('\n'));
    const lines = e.message.split('\n');
    expect(lines.length).toBe(21);
    expect(lines[19]).toBe("t.s:20:1: error: unknown mnemonic 'bad19'");
    expect(lines[20]).toBe('(5 more errors not shown)');
  });

  test('a bad line keeps its labels and its likely size, so later lines are checked normally', () => {
    const e = asmError('x: ii_mod R1, R1, R2\n  jmp x\n  jmp y\n');
    expect(e.message.split('\n')).toEqual(['t.s:1:11: error: ii_mod destination R1 must differ from its source registers (it holds the intermediate quotient)', "t.s:3:7: error: undefined label 'y'"]);
  });

  test('one error per line: the first', () => {
    const e = asmError('a: fin\na: foo R1');
    expect(e.message).toBe("t.s:2:1: error: duplicate label 'a' (first defined on line 1)");
  });

  test('a program over 1 MiB is refused', () => {
    expect(error('.space 1048576\n.word 1\n.word 2')).toBe('t.s:2:1: error: program too large: more than 1048576 bytes');
    expect(assemble('.space 1048576').words.length).toBe(262144);
  });

  test('messages quote long or control-character text briefly', () => {
    expect(error(`${'z'.repeat(100)}`)).toBe(`t.s:1:1: error: unknown mnemonic '${'z'.repeat(40)}…'`);
    expect(error('ii_add R1, R\u0001, R2')).toBe("t.s:1:12: error: expected a scalar register, got 'R\\x01'");
  });
});

describe('.include', () => {
  /** An in-memory file system for the reader option: names are the paths as written. */
  const fromFiles = (files: Record<string, string>) => ({
    readInclude: (path: string) => {
      if (!(path in files)) throw new Error(`cannot include ${path}: no such file`);
      return { file: path, id: path, source: files[path]! };
    },
  });

  test('the included statements take the place of the line; labels are shared both ways; words know their file', () => {
    const lib = 'helper:\n  ii_addi R3, R0, 1\n  jmp back\n';
    const p = assemble('  ii_addi R2, R0, 5\n  .include "lib.s"\nback:\n  jmp helper\n  fin', 'main.s', fromFiles({ 'lib.s': lib }));
    const inline = assemble('  ii_addi R2, R0, 5\nhelper:\n  ii_addi R3, R0, 1\n  jmp back\nback:\n  jmp helper\n  fin', 'one.s');
    expect(Array.from(p.words)).toEqual(Array.from(inline.words));
    expect(p.files).toEqual(['main.s', 'lib.s']);
    expect(Array.from(p.sourceFiles)).toEqual([0, 1, 1, 0, 0]);
    expect(Array.from(p.sourceLines)).toEqual([1, 2, 3, 4, 5]);
    expect(p.labels.get('helper')).toBe(4);
  });

  test('errors name the included file and line, and where it was included from', () => {
    const e = (() => {
      try {
        assemble('  .include "a.s"\n  fin', 'main.s', fromFiles({ 'a.s': 'nop_x R1\n.include "b.s"', 'b.s': 'x:\n.include "a.s"\nx: fin' }));
      } catch (err) {
        return err as AsmError;
      }
      throw new Error('expected an AsmError');
    })();
    expect(e.message.split('\n')).toEqual([
      "a.s:1:1: error: unknown mnemonic 'nop_x' (included from main.s:1)",
      'b.s:2:10: error: .include cycle: a.s -> b.s -> a.s (included from a.s:2)',
      "b.s:3:1: error: duplicate label 'x' (first defined on line 1) (included from a.s:2)",
    ]);
  });

  test('a missing file, a bad operand, too deep nesting', () => {
    expect(asmErrorWith('.include "nope.s"', {}).message).toBe('t.s:1:10: error: cannot include nope.s: no such file');
    expect(asmErrorWith('.include nope.s', {}).message).toBe('t.s:1:10: error: .include takes one file name in double quotes, e.g. .include "lib.s"');
    const chain = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.s`, `.include "f${i + 1}.s"`]));
    expect(asmErrorWith('.include "f0.s"', chain).message).toBe('f14.s:1:10: error: .include nested more than 16 files deep (included from f13.s:1)');
  });

  test('from disk: relative to the including file; a label defined twice across files names the other file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtgpu-include-'));
    try {
      mkdirSync(join(dir, 'lib'));
      writeFileSync(join(dir, 'lib', 'util.s'), 'start:\n  .include "more.s"\n');
      writeFileSync(join(dir, 'lib', 'more.s'), '  fin\n');
      writeFileSync(join(dir, 'lib', 'binary.s'), Buffer.from([0x66, 0, 0x69]));
      const main = join(dir, 'main.s');
      const p = assemble('  .include "lib/util.s"\n  trace', main);
      expect(p.files).toEqual([main, join(dir, 'lib', 'util.s'), join(dir, 'lib', 'more.s')]);
      expect(p.words.length).toBe(2);
      expect(() => assemble('start:\n  .include "lib/util.s"', main)).toThrow(`${join(dir, 'lib', 'util.s')}:1:1: error: duplicate label 'start' (first defined on ${main}:1) (included from ${main}:2)`);
      expect(() => assemble('  .include "lib/binary.s"', main)).toThrow(`cannot include ${join(dir, 'lib', 'binary.s')}: not a text file`);
      expect(() => assemble('  .include "lib"', main)).toThrow(`cannot include ${join(dir, 'lib')}: it is a directory`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function asmErrorWith(source: string, files: Record<string, string>): AsmError {
  try {
    assemble(source, 't.s', {
      readInclude: (path: string) => {
        if (!(path in files)) throw new Error(`cannot include ${path}: no such file`);
        return { file: path, id: path, source: files[path]! };
      },
    });
  } catch (e) {
    if (e instanceof AsmError) return e;
    throw e;
  }
  throw new Error('expected an AsmError');
}
