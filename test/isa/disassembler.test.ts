// Disassembler: canonical text, the `.word` fallback, random round trips through the assembler, and the hex word files.
import { describe, expect, test } from 'vitest';
import { assemble } from '../../src/isa/assembler.ts';
import { disassemble, disassembleWord } from '../../src/isa/disassembler.ts';
import { FIELD, INSTRUCTIONS, type InstructionSpec } from '../../src/isa/instructions.ts';
import { HexWordsError, formatHexWords, parseHexWords, wordsFromBytes, wordsToBytes } from '../../src/isa/hexWords.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`isa disassembler.test seed=${seed} (rerun with SEED=${seed})`);

const b = (pattern: string): number => parseInt(pattern.replace(/\s/g, ''), 2);

describe('disassembleWord', () => {
  // Words written by hand from the encoding; the expected text is the canonical syntax.
  const cases: readonly (readonly [string, string])[] = [
    ['000000 00011 00001 00010 00000000000', 'vv_add RV3, RV1, RV2'],
    ['001011 01111 00010 11111 00000000000', 'vf_div RV15, RV2, R31'],
    ['001100 00010 00001 00000 00000000000', 'not R2, R1'],
    ['011101 00000 00001 00010 00000000000', 'cmp_i R1, R2'],
    ['100000 00010 00010 1111111111101000', 's_write_high R2, #0xffe8'],
    ['100001 00011 00100 0000000000000001', 's_write_low_real R3, R4, #0x0001'],
    ['100100 00011 00001 0000000000000000', 'v_reduce R3, RV1'],
    ['100101 00010 00001 0000000000000010', 's_get_from_v R2, RV1, #2'],
    ['100111 00001 00010 0000000000000011', 'v_get_from_s RV1, R2, #3'],
    ['101000 00010 00001 1111111111111001', 'ii_addi R2, R1, #-7'],
    ['101111 00010 00001 0000000000010000', 'v_load_16byte RV2, R1, #16'],
    ['111100 11111 11101 0000000000000000', 's_store_4byte R31, R29, #0'],
    ['111010 00000 00000 0000000000000000', 'trace'],
    ['111011 00000 00000 0000000000000000', 'fin'],
    ['110000 00000 00000 0000000000001100', 'be #12  // -> 0x0014'],
    ['110110 00000 00000 1111111111111000', 'real_jmp #-8  // -> 0x0000'],
    ['110111 00000 11110 0000000000000000', 'ret R30'],
    ['101110 00011 00001 00010 00000001010', 'txd RV3, RV1, RV2, #0xa'],
    ['101110 01111 01110 01101 00000001111', 'txd RV15, RV14, RV13, #0xf'],
    // Not instructions the assembler produces: data.
    ['000100 00000 00000 00000 00000000000', '.word 0x10000000'], // unknown opcode
    ['000000 00011 00001 00010 00000000001', '.word 0x00611001'], // unused bits set
    ['000000 10011 00001 00010 00000000000', '.word 0x02611000'], // top bit of a vector register field
    ['100101 00010 00001 0000000000000110', '.word 0x94410006'], // lane field beyond [1:0]
    ['110111 00001 11110 0000000000000000', '.word 0xdc3e0000'], // ret with field A set
    ['011000 11111 00001 00010 00000000000', '.word 0x63e11000'], // writes R31
    ['110000 00000 00000 0000000000000110', '.word 0xc0000006'], // offset not a multiple of 4
    ['101110 00011 00001 00010 00000000000', '.word 0xb8611000'], // txd with write mask 0
    ['101110 00011 00001 00010 00000010001', '.word 0xb8611011'], // txd with bits above the mask
    ['101110 00011 10001 00010 00000000001', '.word 0xb8711001'], // txd with the top bit of RVa's field
  ];
  test.each(cases)('%s', (pattern, text) => {
    expect(disassembleWord(b(pattern), 4)).toBe(text);
  });

  test('branch targets in the comment are absolute: pc + 4 + offset', () => {
    expect(disassembleWord(b('110011 00000 00000 1111111111111100'), 0x100)).toBe('bge #-4  // -> 0x0100');
    expect(disassembleWord(b('110011 00000 00000 0111111111111100'), 0x10000)).toBe('bge #32764  // -> 0x18000');
  });
});

describe('disassemble', () => {
  test('a listing with addresses, branch targets and why a word is data', () => {
    const text = disassemble(Uint32Array.from([b('101000 00010 00001 0000000000000111'), b('110001 00000 00000 1111111111111000'), 0xffffffff, 0x10000000]));
    expect(text).toBe(
      [
        `    ${'ii_addi R2, R1, #7'.padEnd(32)} // 0x0000`,
        `    ${'bne #-8'.padEnd(32)} // 0x0004 -> 0x0000`,
        `    ${'.word 0xffffffff'.padEnd(32)} // 0x0008 (v_store_16byte with non-zero unused bits)`,
        `    ${'.word 0x10000000'.padEnd(32)} // 0x000c (unknown opcode 0b000100)`,
        '',
      ].join('\n'),
    );
    expect(disassemble(new Uint32Array(0))).toBe('');
  });

  test('a program with every kind of statement reassembles to the same words', () => {
    const source = `
      start: s_push R5
             v_pop R3
             jmp_link sub
             s_write_high R1, #0x3f80
             s_write_low_real R2 R3 7
             ii_modi R4, R1, 10
             be start
             fin
      sub:   ret
             .string "hello"
             .word 0xffffffff 0x10000000
    `;
    const words = assemble(source).words;
    expect(Array.from(assemble(disassemble(words)).words)).toEqual(Array.from(words));
  });
});

/** A random word of `spec` with in-range fields and unused bits zero (R31 destinations included). */
function randomWord(rng: Rng, spec: InstructionSpec): number {
  let word = spec.opcode << FIELD.opcode.lo;
  for (const op of spec.operands) {
    const value = op.kind === 'rv' ? rng.int(16) : op.kind === 'lane' ? rng.int(4) : op.kind === 'mask' ? 1 + rng.int(15) : op.kind === 'target' ? rng.int(0x4000) * 4 : op.kind === 'rs' ? rng.int(32) : rng.int(0x10000);
    for (const f of op.fields) {
      // s_write_high/low: sometimes a different register in B (the _real form).
      const v = f === 'B' && op.fields.length === 2 && rng.int(4) === 0 ? rng.int(32) : value;
      word |= (v & ((1 << FIELD[f].width) - 1)) << FIELD[f].lo;
    }
  }
  return word >>> 0;
}

describe('random round trips: disassemble, then assemble, gives the same words', () => {
  test('valid words of every opcode', () => {
    const rng = createRng(seed);
    const words = new Uint32Array(20_000);
    for (let i = 0; i < words.length; i++) words[i] = randomWord(rng, INSTRUCTIONS[i % INSTRUCTIONS.length]!);
    const back = assemble(disassemble(words), 'listing').words;
    const bad = [...words].flatMap((w, i) => (back[i] === w ? [] : [`${w.toString(16)} -> ${disassembleWord(w, i * 4)} -> ${back[i]?.toString(16)}`]));
    expect(bad.slice(0, 10)).toEqual([]);
    expect(back.length).toBe(words.length);
    // Only words writing R31 fall back to data.
    for (const w of words) {
      const text = disassembleWord(w, 0);
      if (text.startsWith('.word')) expect((w >>> 21) & 31, text).toBe(31);
    }
  });

  test('random 32-bit words, valid or not; one word at a time too', () => {
    const rng = createRng(seed ^ 0x5a5a5a5a);
    const words = Uint32Array.from({ length: 50_000 }, () => rng.u32());
    expect(Array.from(assemble(disassemble(words)).words)).toEqual(Array.from(words));
    for (let i = 0; i < 2000; i++) {
      const pc = rng.int(0x1000) * 4;
      // A lone line assembles at address 0; its branch offset does not depend on the address.
      expect(assemble(disassembleWord(words[i]!, pc)).words[0]).toBe(words[i]);
    }
  }, 30_000);
});

describe('hex word files', () => {
  test('parseHexWords: optional 0x, several words a line, blank lines, // and # comments', () => {
    const words = parseHexWords('0000abcd\n\n  0xDEADBEEF ffffffff // two words\r\n# comment line\n1 // short\n', 'w.hex');
    expect(Array.from(words)).toEqual([0xabcd, 0xdeadbeef, 0xffffffff, 1]);
    expect(parseHexWords('', 'w.hex').length).toBe(0);
  });

  test('parseHexWords errors name file:line', () => {
    const bad = (text: string): string => {
      try {
        parseHexWords(text, 'w.hex');
      } catch (e) {
        expect(e).toBeInstanceOf(HexWordsError);
        return (e as Error).message;
      }
      throw new Error('parsed');
    };
    expect(bad('00000000\n\n12345678g\n')).toBe("w.hex:3: '12345678g' is not a 32-bit hex word");
    expect(bad('123456789')).toBe("w.hex:1: '123456789' is not a 32-bit hex word");
    expect(bad('0x')).toBe("w.hex:1: '0x' is not a 32-bit hex word");
    expect(bad('@10')).toBe("w.hex:1: '@10' is not a 32-bit hex word");
  });

  test('formatHexWords: 8 lowercase digits a line', () => {
    expect(formatHexWords(Uint32Array.from([0xabcd, 0xdeadbeef]))).toBe('0000abcd\ndeadbeef\n');
    expect(formatHexWords(new Uint32Array(0))).toBe('');
  });

  test('raw little-endian words', () => {
    expect(Array.from(wordsToBytes(Uint32Array.from([0x04030201, 0xdeadbeef])))).toEqual([1, 2, 3, 4, 0xef, 0xbe, 0xad, 0xde]);
    expect(Array.from(wordsFromBytes(Uint8Array.from([1, 2, 3, 4, 0xef, 0xbe, 0xad, 0xde]), 'w.bin'))).toEqual([0x04030201, 0xdeadbeef]);
    expect(() => wordsFromBytes(new Uint8Array(5), 'w.bin')).toThrow('w.bin: 5 bytes is not a whole number of 32-bit words');
  });
});
