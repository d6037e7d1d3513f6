// The RT core disassembler: words to canonical assembly that assembles back to the same words.
import { BY_OPCODE, FIELD, INSTRUCTIONS, REG, fieldOf, type InstructionSpec, type Operand } from './instructions.ts';
import { writesScalarA } from './assembler.ts';

/** A decoded word: its assembly text, and for branches the absolute target; or why it is only data. */
type Decoded = { readonly text: string; readonly offset?: number } | { readonly text: string; readonly invalid: string };

const hex = (x: number, digits: number): string => (x >>> 0).toString(16).padStart(digits, '0');
const fieldMask = (lo: number, width: number): number => (((1 << width) - 1) << lo) >>> 0;
const signed16 = (x: number): number => (x << 16) >> 16;

/** The bits an operand occupies; a vector register leaves the top bit of its 5-bit field unused. */
function operandMask(op: Operand): number {
  let mask = 0;
  for (const f of op.fields) {
    const { lo, width } = FIELD[f];
    mask |= fieldMask(lo, op.kind === 'rv' ? width - 1 : width);
  }
  return mask >>> 0;
}

/** Per opcode, the bits its encoding uses. */
const USED: ReadonlyMap<number, number> = new Map(
  INSTRUCTIONS.map((spec) => [spec.opcode, spec.operands.reduce((m, op) => (m | operandMask(op)) >>> 0, fieldMask(FIELD.opcode.lo, FIELD.opcode.width))]),
);

function formatOperand(op: Operand, word: number): string {
  const v = fieldOf(word, op.fields[0]!);
  switch (op.kind) {
    case 'rs':
      return `R${v}`;
    case 'rv':
      return `RV${v}`;
    case 'simm':
    case 'target':
      return `#${signed16(v)}`;
    case 'uimm':
      return `#0x${hex(v, 4)}`;
    case 'lane':
      return `#${v}`;
    case 'mask':
      return `#0x${v.toString(16)}`;
  }
}

/** Why `word` is not something the assembler would produce, or undefined if it is. */
function whyInvalid(spec: InstructionSpec | undefined, word: number): string | undefined {
  if (!spec) return `unknown opcode 0b${fieldOf(word, 'opcode').toString(2).padStart(6, '0')}`;
  if ((word & ~USED.get(spec.opcode)!) >>> 0) return `${spec.mnemonic} with non-zero unused bits`;
  if (writesScalarA(spec) && fieldOf(word, 'A') === REG.pc) return `${spec.mnemonic} writing R31`;
  if (spec.operands.some((op) => op.kind === 'mask') && fieldOf(word, 'mask') === 0) return `${spec.mnemonic} with write mask 0`;
  if (spec.cls === 'branch' && signed16(fieldOf(word, 'imm')) % 4 !== 0) return `${spec.mnemonic} with an offset that is not a multiple of 4`;
  return undefined;
}

function decode(word: number): Decoded {
  word >>>= 0;
  const spec = BY_OPCODE.get(fieldOf(word, 'opcode'));
  const invalid = whyInvalid(spec, word);
  const asData = `.word 0x${hex(word, 8)}`;
  if (invalid || !spec) return { text: asData, invalid: invalid ?? '' };
  // s_write_high/low name one register for fields A and B; when they differ, the explicit form.
  if (spec.mnemonic === 's_write_high' || spec.mnemonic === 's_write_low') {
    const a = fieldOf(word, 'A'), b = fieldOf(word, 'B'), imm = `#0x${hex(fieldOf(word, 'imm'), 4)}`;
    return { text: a === b ? `${spec.mnemonic} R${a}, ${imm}` : `${spec.mnemonic}_real R${a}, R${b}, ${imm}` };
  }
  // Field A = 0 is KEVIN's plain trace; `trace RVa` (a = 1..15) is the ray query (docs/rays.md).
  if (spec.mnemonic === 'trace' && fieldOf(word, 'A') === 0) return { text: 'trace' };
  // `real_jmp`: the original team's name for jmp with a numeric byte offset.
  const mnemonic = spec.mnemonic === 'jmp' ? 'real_jmp' : spec.mnemonic;
  const operands = spec.operands.map((op) => formatOperand(op, word));
  const text = operands.length ? `${mnemonic} ${operands.join(', ')}` : mnemonic;
  return spec.cls === 'branch' ? { text, offset: signed16(fieldOf(word, 'imm')) } : { text };
}

const address = (a: number): string => (a < 0 ? `-0x${hex(-a, 4)}` : `0x${hex(a, 4)}`);

/**
 * One word as canonical assembly: lowercase mnemonic, `R`/`RV` registers, `#` before immediates,
 * branch targets as `#offset` (bytes from PC+4) followed by a comment with the absolute target.
 * Anything the assembler would not produce prints as `.word 0x…`.
 */
export function disassembleWord(word: number, pc: number): string {
  const d = decode(word);
  return 'offset' in d && d.offset !== undefined ? `${d.text}  // -> ${address(pc + 4 + d.offset)}` : d.text;
}

/** A listing, one word per line from address 0, each with its address (and a branch's target, or why a word is data) in a comment. */
export function disassemble(words: Uint32Array): string {
  const lines: string[] = [];
  words.forEach((word, i) => {
    const d = decode(word);
    const pc = i * 4;
    const note = 'invalid' in d ? (d.invalid ? ` (${d.invalid})` : '') : d.offset !== undefined ? ` -> ${address(pc + 4 + d.offset)}` : '';
    lines.push(`    ${d.text.padEnd(32)} // ${address(pc)}${note}`);
  });
  return lines.length ? `${lines.join('\n')}\n` : '';
}
