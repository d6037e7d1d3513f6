// docs/isa.md's encoding table against the instruction table: one row per instruction, with its opcode and operand fields.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FIELD, INSTRUCTIONS } from '../../src/isa/instructions.ts';

const doc = readFileSync(new URL('../../docs/isa.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('## Instruction encodings'));

/** Rows `| \`mnemonic operands\` | \`bits\` |` of the encoding table: mnemonic → the 32 pattern characters. */
const rows = new Map(
  [...section.matchAll(/^\| `([a-z_0-9]+)[^`]*` \| `([01abcilm ]+)`/gm)].map((m) => [m[1]!, m[2]!.replace(/ /g, '')] as const),
);

/** The pattern letter of each operand kind's field, as the doc's legend names them. */
const LETTER = { A: 'a', B: 'b', C: 'c', imm: 'i', lane: 'l', mask: 'm' } as const;

describe('docs/isa.md encoding table', () => {
  test('lists exactly the instructions of the table', () => {
    expect([...rows.keys()].sort()).toEqual(INSTRUCTIONS.map((i) => i.mnemonic).sort());
  });

  test.each(INSTRUCTIONS.map((i) => [i.mnemonic, i] as const))('%s: 32 bits, its opcode, its operand fields where the table puts them', (mnemonic, spec) => {
    const bits = rows.get(mnemonic)!;
    expect(bits).toHaveLength(32);
    expect(bits.slice(0, 6)).toBe(spec.opcode.toString(2).padStart(6, '0'));
    for (const op of spec.operands) {
      for (const f of op.fields) {
        const { lo, width } = FIELD[f];
        // Bit k of the word is character 31 − k; a vector register leaves its field's top bit 0.
        const field = bits.slice(31 - (lo + width - 1), 32 - lo);
        const letter = f === 'B' && op.fields.length === 2 ? 'a' : LETTER[f];
        expect(field, `${mnemonic} field ${f}`).toBe(op.kind === 'rv' ? `0${letter.repeat(width - 1)}` : letter.repeat(width));
      }
    }
  });
});
