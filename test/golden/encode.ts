// Test helper: hand-encode instruction words from the ISA table (operands in assembly order, offsets as numbers).
import { BY_MNEMONIC, FIELD, type FieldName } from '../../src/isa/instructions.ts';

/** One instruction word: registers and lanes as numbers, immediates and branch offsets (bytes from PC+4) as signed numbers. */
export function enc(mnemonic: string, ...given: number[]): number {
  const spec = BY_MNEMONIC.get(mnemonic);
  // `trace` alone is the plain trace: field A = 0 (`trace RVa` names its query register).
  const operands = mnemonic === 'trace' && given.length === 0 ? [0] : given;
  if (!spec) throw new Error(`enc: unknown mnemonic ${mnemonic}`);
  if (operands.length !== spec.operands.length) throw new Error(`enc: ${mnemonic} takes ${spec.operands.length} operands`);
  let word = spec.opcode << 26;
  spec.operands.forEach((op, i) => {
    for (const f of op.fields as FieldName[]) {
      const { lo, width } = FIELD[f];
      word |= (operands[i]! & ((1 << width) - 1)) << lo;
    }
  });
  return word >>> 0;
}

/** A program from [mnemonic, ...operands] rows. */
export const program = (...rows: [string, ...number[]][]): Uint32Array => Uint32Array.from(rows.map(([m, ...ops]) => enc(m, ...ops)));

/** Bit pattern of a binary32 value written as a JS number that is exact in binary32. */
export function f32(x: number): number {
  const b = new Float32Array([x]);
  if (b[0] !== x && !Number.isNaN(x)) throw new Error(`f32: ${x} is not exact in binary32`);
  return new Uint32Array(b.buffer)[0]!;
}
