// txd in the ISA: every encoding field, the default write mask, assembler errors, disassembly, txd_control and the handle/control words.
import { describe, expect, test } from 'vitest';
import { AsmError, assemble } from '../../src/isa/assembler.ts';
import { disassembleWord } from '../../src/isa/disassembler.ts';
import { BY_MNEMONIC, fieldOf } from '../../src/isa/instructions.ts';
import { decodeTxdControl, encodeTxdControl, encodeTxdHandle, txdHandleAddresses } from '../../src/isa/textureOperands.ts';

const word = (source: string): number => assemble(source, 't.s').words[0]!;

function error(source: string): string {
  try {
    assemble(source, 't.s');
  } catch (e) {
    if (e instanceof AsmError) return e.message;
    throw e;
  }
  throw new Error(`assembled without error: ${source}`);
}

describe('txd encoding', () => {
  test('opcode 0b101110, RVd in A, RVa in B, RVb in C, the mask in [3:0], nothing else set: every register and mask', () => {
    expect(BY_MNEMONIC.get('txd')!.opcode).toBe(0b101110);
    for (let r = 0; r < 16; r++) {
      for (let mask = 1; mask < 16; mask++) {
        const [d, a, b] = [r, (r + 5) % 16, (r + 11) % 16];
        const w = word(`txd RV${d}, RV${a}, RV${b}, #${mask}`);
        expect(w >>> 26).toBe(0b101110);
        expect([fieldOf(w, 'A'), fieldOf(w, 'B'), fieldOf(w, 'C'), fieldOf(w, 'mask')]).toEqual([d, a, b, mask]);
        expect(w & 0x0210_87f0).toBe(0); // top bits of the three vector fields and [10:4]
        // The canonical text assembles back to the same word.
        expect(disassembleWord(w, 0)).toBe(`txd RV${d}, RV${a}, RV${b}, #0x${mask.toString(16)}`);
        expect(word(disassembleWord(w, 0))).toBe(w);
      }
    }
  });

  test('without a mask all four lanes are written (seed 003: #wmskU04 defaults to 0xf)', () => {
    expect(word('txd RV1, RV2, RV3')).toBe(word('txd RV1, RV2, RV3, #0xf'));
    expect(fieldOf(word('txd R1 R2 R3'), 'mask')).toBe(0xf);
  });
});

describe('txd assembler errors', () => {
  test.each([
    ['txd RV1, RV2, RV3, #0', "t.s:1:20: error: write mask '0' out of range (1 to 15: bit k writes lane k; 0 would write nothing)"],
    ['txd RV1, RV2, RV3, #16', "t.s:1:20: error: write mask '16' out of range (1 to 15: bit k writes lane k; 0 would write nothing)"],
    ['txd RV1, RV2, RV3, -1', "t.s:1:20: error: write mask '-1' out of range (1 to 15: bit k writes lane k; 0 would write nothing)"],
    ['txd RV1, RV2, RV3, R4', "t.s:1:20: error: expected a write mask (1 to 15), got register 'R4'"],
    ['txd RV1, RV2', 't.s:1:1: error: txd takes 3 operands (RV, RV, RV) or 4 operands (RV, RV, RV, #mask), got 2'],
    ['txd RV1, RS2, RV3', "t.s:1:10: error: expected a vector register, got scalar register 'RS2'"],
    ['txd RV16, RV2, RV3', "t.s:1:5: error: vector register 'RV16' out of range (RV0 to RV15)"],
    ['txd_control R4, #4096, #0, #0', "t.s:1:17: error: LOD clamp '4096' out of range (u4.8: 0 to 4095, i.e. 0 to 16 - 1/256 levels)"],
    ['txd_control R4, #-1, #0, #0', "t.s:1:17: error: LOD clamp '-1' out of range (u4.8: 0 to 4095, i.e. 0 to 16 - 1/256 levels)"],
    ['txd_control R4, #70000, #0, #0', "t.s:1:17: error: LOD clamp '70000' out of range (u4.8: 0 to 4095, i.e. 0 to 16 - 1/256 levels)"],
    ['txd_control R4, #0, R1, #0', "t.s:1:21: error: expected a texel offset, got register 'R1'"],
    ['txd_control R4, #0, #8, #0', "t.s:1:21: error: texel offset '8' out of range (-8 to 7)"],
    ['txd_control R4, #0, #0, #-9', "t.s:1:25: error: texel offset '-9' out of range (-8 to 7)"],
    ['txd_control R31, #0, #0, #0', 't.s:1:13: error: R31 is the program counter and cannot be written'],
    ['txd_control R4, #0, #0', 't.s:1:1: error: txd_control takes 4 operands (R, #imm, #imm, #imm), got 3'],
  ])('%s', (source, message) => {
    expect(error(source)).toBe(message);
  });

  test('an error on a later line names that line', () => {
    expect(error('fin\nfin\n  txd RV1, RV2, RV3, #32')).toMatch(/^t\.s:3:22: error: write mask '32'/);
  });
});

describe('txd_control', () => {
  test('builds LodClamp[31:20] | v[19:16] | u[15:12] in two words', () => {
    const p = assemble('txd_control R4, #0x180, #-1, #7', 't.s');
    expect(p.words.length).toBe(2);
    // s_write_high then s_write_low define every bit of R4.
    expect([fieldOf(p.words[0]!, 'imm'), fieldOf(p.words[1]!, 'imm')]).toEqual([0x1807, 0xf000]);
    expect(Array.from(p.sourceLines)).toEqual([1, 1]);
  });
});

describe('handle and control words', () => {
  test('the handle: header pool index in [19:0] (4 words each), sampler pool index in [31:20] (2 words each)', () => {
    expect(encodeTxdHandle(3, 5)).toBe(0x00500003);
    expect(txdHandleAddresses(0x00500003)).toEqual({ header: 12, sampler: 10 });
    expect(txdHandleAddresses(0xffffffff)).toEqual({ header: 4 * 0xfffff, sampler: 2 * 0xfff });
    expect(() => encodeTxdHandle(1 << 20, 0)).toThrow('header index must be an integer 0 … 1048575, got 1048576');
    expect(() => encodeTxdHandle(0, 4096)).toThrow('sampler index must be an integer 0 … 4095, got 4096');
  });

  test('the control word: LOD clamp u4.8 and the .AOFFI byte (u in 3:0, v in 7:4); bits 11:0 ignored', () => {
    expect(encodeTxdControl(0xfff, -8, 7)).toBe(0xfff78000);
    expect(decodeTxdControl(0xfff78000)).toEqual({ lodClamp: 0xfff, offset: 0x78 });
    expect(decodeTxdControl(0x00123fff)).toEqual({ lodClamp: 1, offset: 0x23 });
    for (let du = -8; du <= 7; du++) {
      for (let dv = -8; dv <= 7; dv++) expect(decodeTxdControl(encodeTxdControl(256, du, dv))).toEqual({ lodClamp: 256, offset: ((dv & 15) << 4) | (du & 15) });
    }
    expect(() => encodeTxdControl(0, 8, 0)).toThrow('texel offset u must be an integer -8 … 7, got 8');
    expect(() => encodeTxdControl(4096, 0, 0)).toThrow('LOD clamp must be an integer 0 … 4095, got 4096');
  });
});
