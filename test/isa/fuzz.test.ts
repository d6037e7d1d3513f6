// Assembler fuzzing: garbage, mutated programs, huge lines and random bytes either assemble or throw AsmError, quickly.
import { describe, expect, test } from 'vitest';
import { AsmError, assemble } from '../../src/isa/assembler.ts';
import { disassemble } from '../../src/isa/disassembler.ts';
import { INSTRUCTIONS } from '../../src/isa/instructions.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`isa fuzz.test seed=${seed} (rerun with SEED=${seed})`);

/** Assemble `source`: success must give consistent arrays that round-trip through the disassembler; failure must be an AsmError. */
function check(source: string): 'ok' | 'error' {
  let words: Uint32Array;
  try {
    const p = assemble(source, 'fuzz.s');
    if (p.sourceLines.length !== p.words.length) throw new Error('sourceLines and words differ in length');
    words = p.words;
  } catch (e) {
    if (e instanceof AsmError) {
      if (!/^fuzz\.s:\d+:\d+: error: /.test(e.message) || e.diagnostics.length > 20) throw new Error(`malformed AsmError message: ${e.message.slice(0, 200)}`);
      return 'error';
    }
    throw new Error(`not an AsmError for input ${JSON.stringify(source.slice(0, 300))}: ${(e as Error).stack}`);
  }
  const back = assemble(disassemble(words), 'listing').words;
  if (back.length !== words.length || back.some((w, i) => w !== words[i])) throw new Error(`round trip changed the words of ${JSON.stringify(source.slice(0, 300))}`);
  return 'ok';
}

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;

const MNEMONICS = [...INSTRUCTIONS.map((i) => i.mnemonic), 's_push', 's_pop', 'v_push', 'v_pop', 'jmp_link', 's_mov', 'v_mov', 's_setzero', 'ii_mod', 'ii_modi', 'real_jmp', 'ret_real', 'itof', 'ftoi', 'v_get_from_s_d', 's_write_high_real', 's_write_low_real', 'txd_control', '.word', '.byte', '.space', '.string'];
const PIECES = ['R0', 'R1', 'R31', 'R32', 'RV0', 'RV15', 'RV16', 'RS5', 'r7', '#', '#-4', '0x1F', '-0x8000', '65535', '4294967296', '99999999999999999999', '0b101', 'loop', 'end', 'x:', ':', ',', ',,', '"', '"ab\\n"', '"\\q"', '\\', '//', ';', '@', '-', '+', '.', '$', '\t', '  ', 'é', '\u0000', '\ud800', '0', '4', '-8', '32764', '32768'];

function garbageLine(rng: Rng): string {
  const parts: string[] = [];
  if (rng.int(4) === 0) parts.push(`${pick(rng, ['loop', 'end', 'a', 'L1', '1x', 'R3'])}:`);
  if (rng.int(8) !== 0) parts.push(pick(rng, MNEMONICS));
  for (let k = rng.int(5); k > 0; k--) parts.push(pick(rng, PIECES));
  return parts.join(pick(rng, [' ', ', ', ',', '\t', '']));
}

const VALID = `
start:  ii_addi R2, R1, #7
        vv_add RV3 RV1 RV2
        s_push R2
        s_pop R3
        v_push RV4
        v_pop R4
        jmp_link sub
        cmp_i R2, R3
        bge start
        s_write_high R5, #0x3f80
        s_write_low_real R5 R6 -1
        ii_mod R7, R1, R2
        ii_modi R8, R1, 10
        s_get_from_v R9, RV3, #2
        v_get_from_s_d RV5 R9 1
        real_jmp #4
        fin
sub:    ret
data:   .word 0xdeadbeef, -1
        .byte 1 2 3
        .space 6
        .string "hi\\n"
`;

function mutate(rng: Rng, text: string): string {
  let s = text;
  for (let k = 1 + rng.int(4); k > 0; k--) {
    const at = rng.int(s.length + 1);
    const r = rng.int(5);
    if (r === 0) s = s.slice(0, at) + s.slice(at + 1 + rng.int(6));
    else if (r === 1) s = s.slice(0, at) + String.fromCharCode(rng.int(128)) + s.slice(at);
    else if (r === 2) s = s.slice(0, at) + pick(rng, PIECES) + s.slice(at);
    else if (r === 3) s = s.slice(0, at) + String.fromCharCode(32 + rng.int(95)) + s.slice(at + 1);
    else {
      const lines = s.split('\n');
      const i = rng.int(lines.length);
      lines.splice(rng.int(lines.length), 0, lines[i]!);
      s = lines.join('\n');
    }
  }
  return s;
}

describe('every input assembles or throws AsmError', () => {
  test('random garbage lines', () => {
    const rng = createRng(seed);
    const tally = { ok: 0, error: 0 };
    for (let i = 0; i < 3000; i++) tally[check(Array.from({ length: 1 + rng.int(12) }, () => garbageLine(rng)).join('\n'))]++;
    expect(tally.error).toBeGreaterThan(0);
  }, 60_000);

  test('random mutations of a valid program', () => {
    const rng = createRng(seed ^ 0x1111);
    expect(check(VALID)).toBe('ok');
    const tally = { ok: 0, error: 0 };
    for (let i = 0; i < 3000; i++) tally[check(mutate(rng, VALID))]++;
    // Both outcomes happen: some mutations keep the program valid.
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.error).toBeGreaterThan(0);
  }, 60_000);

  test('random bytes, as Latin-1 and as UTF-8', () => {
    const rng = createRng(seed ^ 0x2222);
    const utf8 = new TextDecoder();
    for (let i = 0; i < 1000; i++) {
      const bytes = Uint8Array.from({ length: rng.int(400) }, () => rng.int(256));
      check(String.fromCharCode(...bytes));
      check(utf8.decode(bytes));
    }
  }, 60_000);

  // Wall-clock limits fail on a loaded machine; a work that grows faster than the input shows as a ratio
  // instead: four times the input in at most eight times the time (quadratic work takes sixteen).
  test('very long lines and huge inputs: time grows linearly with their size', () => {
    const big = 200_000;
    const inputs: ((n: number) => string)[] = [
      (n) => 'R1,'.repeat(n),
      (n) => `ii_add ${'R1 '.repeat(n)}`,
      (n) => '"'.repeat(n),
      (n) => `.string "${'\\'.repeat(n)}`,
      (n) => `.string "${'a'.repeat(n)}"`,
      (n) => `.word ${'1 '.repeat(n)}`,
      (n) => `.byte ${'255,'.repeat(n)}0`,
      (n) => 'a:'.repeat(n),
      (n) => Array.from({ length: n / 4 }, (_, i) => `l${i}: jmp m${i}`).join('\n'),
      (n) => Array.from({ length: n / 4 }, (_, i) => `x${i % 100}: fin`).join('\n'),
      (n) => '.space 1048576\n'.repeat(n / 2000),
      (n) => `ii_addi R1, R1, ${'9'.repeat(n)}`,
      (n) => '#'.repeat(n),
      (n) => `${'x'.repeat(n)}: fin`,
      (n) => {
        const rng = createRng(seed ^ 0x3333);
        return Array.from({ length: n / 200 }, () => String.fromCharCode(rng.int(0x10000)).repeat(rng.int(300))).join('');
      },
      (n) => `be far\n.space ${n / 5}\nfar: fin`,
    ];
    const timeOf = (source: string) => {
      const t0 = performance.now();
      check(source);
      return performance.now() - t0;
    };
    for (const input of inputs) {
      const [small, large] = [input(big / 4), input(big)];
      let tSmall = timeOf(small);
      let tLarge = timeOf(large);
      // A second measurement of each when the first looks superlinear: another process may have taken the CPU.
      if (tLarge >= 8 * tSmall + 250) [tSmall, tLarge] = [Math.min(tSmall, timeOf(small)), Math.min(tLarge, timeOf(large))];
      expect(tLarge, `${large.slice(0, 40)}: ${tSmall.toFixed(0)} ms at a quarter of the size, ${tLarge.toFixed(0)} ms at full size`).toBeLessThan(8 * tSmall + 250);
    }
  }, 300_000);
});
