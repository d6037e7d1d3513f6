// `trace RVa` (docs/rays.md, docs/isa.md): its encoding, the RV0 error, the malformed words, and KEVIN's programs
// assembling byte-identically (the words of every standalone .s file of the repository, as the assembler before
// `trace RVa` produced them: test/isa/kevinPrograms.json).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { AsmError, assemble } from '../../src/isa/assembler.ts';
import { disassemble, disassembleWord } from '../../src/isa/disassembler.ts';
import { firstTraceQuery, traceQueryRegister } from '../../src/isa/traceQuery.ts';
import { generateProgram } from '../../src/stimulus/randomProgram.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`isa traceQuery.test seed=${seed} (rerun with SEED=${seed})`);

const PLAIN = 0xe8000000;
const TRACE_OPCODE = 0b111010;
const word = (source: string): number => assemble(source, 't.s').words[0]!;
const hex = (w: number): string => `0x${(w >>> 0).toString(16).padStart(8, '0')}`;

function asmError(source: string, file = 't.s'): AsmError {
  try {
    assemble(source, file);
  } catch (e) {
    if (e instanceof AsmError) return e;
    throw e;
  }
  throw new Error(`assembled without error: ${source}`);
}

const RV0_MESSAGE = "trace RV0 is not allowed: RV0 reads zeros, the empty interval [0, 0] that accepts no hit; write plain 'trace' for the default ray (tmin +0, tmax +inf, every mask bit)";

describe('trace RVa: encoding 111010 0aaaa 00000 0000000000000000', () => {
  test('plain trace is KEVIN’s word, field A = 0, and disassembles as `trace`', () => {
    expect(word('trace')).toBe(PLAIN);
    expect(word('  TRACE ; comment')).toBe(PLAIN);
    expect(disassembleWord(PLAIN, 0)).toBe('trace');
    expect(traceQueryRegister(PLAIN)).toBe(0);
  });

  test.each(Array.from({ length: 15 }, (_, i) => i + 1))('trace RV%i: both dialects, the disassembly and the round trip', (a) => {
    const w = (TRACE_OPCODE << 26 | a << 21) >>> 0;
    expect(word(`trace RV${a}`)).toBe(w);
    expect(word(`Trace rv${a}`)).toBe(w);
    // The original team's dialect: R names in a vector register's position.
    expect(word(`trace R${a}`)).toBe(w);
    expect(disassembleWord(w, 0)).toBe(`trace RV${a}`);
    expect(word(disassembleWord(w, 0))).toBe(w);
    expect(traceQueryRegister(w)).toBe(a);
  });

  test('a listing of every form reassembles to the same words', () => {
    const words = Uint32Array.from([PLAIN, ...Array.from({ length: 15 }, (_, i) => (PLAIN | ((i + 1) << 21)) >>> 0), PLAIN]);
    const listing = disassemble(words);
    expect(listing.split('\n')[3]).toBe(`    ${'trace RV3'.padEnd(32)} // 0x000c`);
    expect(Array.from(assemble(listing, 'listing').words)).toEqual(Array.from(words));
  });
});

describe('trace RVa: assembler errors name file:line:col', () => {
  test.each([
    ['trace RV0', `t.s:1:7: error: ${RV0_MESSAGE}`],
    ['fin\n  trace   R0', `t.s:2:11: error: ${RV0_MESSAGE}`],
    ['trace RV1, RV2', 't.s:1:12: error: trace takes no operands or 1 operand (RV), got 2'],
    ['trace RV16', "t.s:1:7: error: vector register 'RV16' out of range (RV0 to RV15)"],
    ['trace RS3', "t.s:1:7: error: expected a vector register, got scalar register 'RS3'"],
    ['trace #3', "t.s:1:7: error: expected a vector register, got '#3'"],
  ])('%j', (source, message) => {
    expect(asmError(source).message).toBe(message);
  });

  test('the RV0 error in an included file names that file and line', () => {
    const readInclude = (path: string) => ({ file: path, id: path, source: 'fin\n  trace RV0\n' });
    let message = '';
    try {
      assemble('  trace RV1\n  .include "lib.s"\n', 'main.s', { readInclude });
    } catch (e) {
      message = (e as AsmError).message;
    }
    expect(message).toBe(`lib.s:2:9: error: ${RV0_MESSAGE} (included from main.s:2)`);
  });
});

describe('trace words the assembler never produces are data', () => {
  test('every bit outside the opcode and A’s low 4 bits, alone or with a query register, gives .word', () => {
    for (let bit = 0; bit < 26; bit++) {
      if (bit >= 21 && bit <= 24) continue;
      for (const a of [0, 5, 15]) {
        const w = (PLAIN | (a << 21) | (1 << bit)) >>> 0;
        expect(disassembleWord(w, 0), `bit ${bit}, a ${a}`).toBe(`.word ${hex(w)}`);
        expect(disassemble(Uint32Array.of(w))).toContain('(trace with non-zero unused bits)');
        // Data survives reassembly unchanged.
        expect(word(disassembleWord(w, 0))).toBe(w);
      }
    }
  });

  test('A’s top bit alone (RV0 through the low 4 bits) is data too, and not a query to the GPU loaders', () => {
    const w = (PLAIN | (16 << 21)) >>> 0;
    expect(disassembleWord(w, 0)).toBe('.word 0xea000000');
    expect(traceQueryRegister(w)).toBe(0);
    expect(traceQueryRegister((w | (3 << 21)) >>> 0)).toBe(3);
  });

  test('firstTraceQuery finds the first trace RVa word and nothing else', () => {
    const words = assemble('trace\n.word 0xea000000\nfin\ntrace RV7\ntrace RV2\n', 't.s').words;
    expect(firstTraceQuery(words)).toBe(3);
    expect(firstTraceQuery(words.subarray(0, 3))).toBe(-1);
    // Another opcode with the same A field is not a trace.
    expect(firstTraceQuery(Uint32Array.of((0b111011 << 26 | 7 << 21) >>> 0))).toBe(-1);
  });
});

describe('KEVIN’s programs assemble byte-identically', () => {
  const golden = JSON.parse(readFileSync(new URL('./kevinPrograms.json', import.meta.url), 'utf8')) as Record<string, { words: number; sha256: string }>;

  // The built-in shade, textured and lighting kernels left the fixture when their shadow rays became `trace RV3` (and
  // textured's camera ray `trace RV13`); the corpus keeps a copy of shade.s as it was.
  test('the fixture covers the built-in kernels as they were and the hand-written programs', () => {
    const files = Object.keys(golden);
    expect(files).toContain('test/fuzz/corpus/asm/shade.s');
    expect(files).toContain('src/host/kernels/id.s');
    expect(files).toContain('test/programs/trace_save.s');
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  test.each(Object.entries(golden))('%s: the words of the assembler before trace RVa', (file, want) => {
    const path = new URL(`../../${file}`, import.meta.url).pathname;
    const p = assemble(readFileSync(path, 'utf8'), path);
    const bytes = Buffer.from(p.words.buffer, p.words.byteOffset, p.words.byteLength);
    expect({ words: p.words.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual(want);
    // Their traces are the plain trace.
    expect(firstTraceQuery(p.words)).toBe(-1);
  });

  test('the RT core’s random programs emit both forms of trace', () => {
    const rng = createRng(seed);
    let plain = 0;
    let queries = 0;
    for (let i = 0; i < 40; i++) {
      const words = assemble(generateProgram(rng).source, 'random.s').words;
      const traces = words.filter((w) => w >>> 26 === TRACE_OPCODE);
      queries += traces.filter((w) => traceQueryRegister(w) !== 0).length;
      plain += traces.filter((w) => traceQueryRegister(w) === 0).length;
    }
    expect(plain, `SEED=${seed}`).toBeGreaterThan(0);
    expect(queries, `SEED=${seed}`).toBeGreaterThan(0);
  });
});
