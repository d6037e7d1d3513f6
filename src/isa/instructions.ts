// The RT core's instruction set: one table of every real instruction, its opcode and operand fields.
// The assembler, disassembler, ISA simulator and the core's decoder all read this table.

/** Bit fields of a 32-bit instruction word. */
export const FIELD = {
  opcode: { lo: 26, width: 6 },
  /** [25:21]: destination, or the stored register of stores, or the written vector of v_get_from_s. */
  A: { lo: 21, width: 5 },
  /** [20:16]: first source (address base of loads and stores; the jump register of ret). */
  B: { lo: 16, width: 5 },
  /** [15:11]: second source. */
  C: { lo: 11, width: 5 },
  /** [15:0]: immediate (signed or unsigned by instruction). */
  imm: { lo: 0, width: 16 },
  /** [1:0]: vector lane of s_get_from_v / v_get_from_s. */
  lane: { lo: 0, width: 2 },
  /** [3:0]: write mask of txd (bit k enables lane k). */
  mask: { lo: 0, width: 4 },
} as const;

export type FieldName = 'A' | 'B' | 'C' | 'imm' | 'lane' | 'mask';

/**
 * What an operand is, in assembly order:
 * `rs` scalar register R0–R31, `rv` vector register RV0–RV15 (stored in the low 4 bits of its field),
 * `simm` signed 16-bit immediate, `uimm` unsigned 16-bit immediate, `lane` 0–3,
 * `target` a branch target: a label (or, in `real_jmp`-style use, a byte offset) stored as the signed
 * byte offset from PC+4, `mask` a 4-bit write mask 1–15 (lane k written when bit k is set).
 */
export type OperandKind = 'rs' | 'rv' | 'simm' | 'uimm' | 'lane' | 'target' | 'mask';

export interface Operand {
  readonly kind: OperandKind;
  /** The fields this operand is written to (s_write_high/low write their register into A and B). */
  readonly fields: readonly FieldName[];
}

/** Instruction classes, as the decoder groups them. */
export type InstructionClass =
  | 'vector' // vv_*, vf_*: 4-lane float
  | 'logic' // not, and, or, xor
  | 'int' // ii_add/sub/mul/div, cmp_i
  | 'float' // ff_*, cmp_f, s_sqrt, s_itof, s_ftoi, v_reduce
  | 'move' // s_write_high/low, s_get_from_v, v_get_from_s
  | 'immediate' // ii_addi/subi/muli/divi
  | 'load'
  | 'store'
  | 'branch' // be, bne, bl, bge, bg, ble, jmp
  | 'ret'
  | 'trace'
  | 'fin'
  | 'texture'; // txd: a texture fetch from texture memory

export interface InstructionSpec {
  readonly mnemonic: string;
  readonly opcode: number;
  readonly cls: InstructionClass;
  readonly operands: readonly Operand[];
}

const rs = (...fields: FieldName[]): Operand => ({ kind: 'rs', fields });
const rv = (...fields: FieldName[]): Operand => ({ kind: 'rv', fields });
const simm: Operand = { kind: 'simm', fields: ['imm'] };
const uimm: Operand = { kind: 'uimm', fields: ['imm'] };
const lane: Operand = { kind: 'lane', fields: ['lane'] };
const target: Operand = { kind: 'target', fields: ['imm'] };
const mask: Operand = { kind: 'mask', fields: ['mask'] };

const spec = (mnemonic: string, opcode: number, cls: InstructionClass, ...operands: Operand[]): InstructionSpec => ({ mnemonic, opcode, cls, operands });

export const INSTRUCTIONS: readonly InstructionSpec[] = [
  spec('vv_add', 0b000000, 'vector', rv('A'), rv('B'), rv('C')),
  spec('vv_sub', 0b000001, 'vector', rv('A'), rv('B'), rv('C')),
  spec('vv_mul_ele', 0b000010, 'vector', rv('A'), rv('B'), rv('C')),
  spec('vv_div', 0b000011, 'vector', rv('A'), rv('B'), rv('C')),
  spec('vf_add', 0b001000, 'vector', rv('A'), rv('B'), rs('C')),
  spec('vf_sub', 0b001001, 'vector', rv('A'), rv('B'), rs('C')),
  spec('vf_mul', 0b001010, 'vector', rv('A'), rv('B'), rs('C')),
  spec('vf_div', 0b001011, 'vector', rv('A'), rv('B'), rs('C')),
  spec('not', 0b001100, 'logic', rs('A'), rs('B')),
  spec('and', 0b001101, 'logic', rs('A'), rs('B'), rs('C')),
  spec('or', 0b001110, 'logic', rs('A'), rs('B'), rs('C')),
  spec('xor', 0b001111, 'logic', rs('A'), rs('B'), rs('C')),
  spec('ii_add', 0b011000, 'int', rs('A'), rs('B'), rs('C')),
  spec('ii_sub', 0b011001, 'int', rs('A'), rs('B'), rs('C')),
  spec('ii_mul', 0b011010, 'int', rs('A'), rs('B'), rs('C')),
  spec('ii_div', 0b011011, 'int', rs('A'), rs('B'), rs('C')),
  spec('cmp_i', 0b011101, 'int', rs('B'), rs('C')),
  spec('ff_add', 0b010000, 'float', rs('A'), rs('B'), rs('C')),
  spec('ff_sub', 0b010001, 'float', rs('A'), rs('B'), rs('C')),
  spec('ff_mul', 0b010010, 'float', rs('A'), rs('B'), rs('C')),
  spec('ff_div', 0b010011, 'float', rs('A'), rs('B'), rs('C')),
  spec('cmp_f', 0b010101, 'float', rs('B'), rs('C')),
  spec('s_write_high', 0b100000, 'move', rs('A', 'B'), uimm),
  spec('s_write_low', 0b100001, 'move', rs('A', 'B'), uimm),
  spec('s_itof', 0b100010, 'float', rs('A'), rs('B')),
  spec('s_ftoi', 0b100011, 'float', rs('A'), rs('B')),
  spec('v_reduce', 0b100100, 'float', rs('A'), rv('B')),
  spec('s_get_from_v', 0b100101, 'move', rs('A'), rv('B'), lane),
  spec('s_sqrt', 0b100110, 'float', rs('A'), rs('B')),
  spec('v_get_from_s', 0b100111, 'move', rv('A'), rs('B'), lane),
  spec('ii_addi', 0b101000, 'immediate', rs('A'), rs('B'), simm),
  spec('ii_subi', 0b101001, 'immediate', rs('A'), rs('B'), simm),
  spec('ii_muli', 0b101010, 'immediate', rs('A'), rs('B'), simm),
  spec('ii_divi', 0b101011, 'immediate', rs('A'), rs('B'), simm),
  spec('s_load_4byte', 0b101100, 'load', rs('A'), rs('B'), simm),
  spec('v_load_16byte', 0b101111, 'load', rv('A'), rs('B'), simm),
  spec('s_store_4byte', 0b111100, 'store', rs('A'), rs('B'), simm),
  spec('v_store_16byte', 0b111111, 'store', rv('A'), rs('B'), simm),
  // trace RVa: the ray query (tmin, tmax, flags) in RVa (docs/rays.md); A = 0 is KEVIN's plain trace, written `trace`.
  spec('trace', 0b111010, 'trace', rv('A')),
  spec('fin', 0b111011, 'fin'),
  spec('be', 0b110000, 'branch', target),
  spec('bne', 0b110001, 'branch', target),
  spec('bl', 0b110010, 'branch', target),
  spec('bge', 0b110011, 'branch', target),
  spec('bg', 0b110100, 'branch', target),
  spec('ble', 0b110101, 'branch', target),
  spec('jmp', 0b110110, 'branch', target),
  spec('ret', 0b110111, 'ret', rs('B')),
  // Seed 003's TXD: RVa = (s, t, handle, LOD clamp | offsets), RVb = the four derivatives (docs/isa.md).
  spec('txd', 0b101110, 'texture', rv('A'), rv('B'), rv('C'), mask),
];

export const BY_MNEMONIC: ReadonlyMap<string, InstructionSpec> = new Map(INSTRUCTIONS.map((i) => [i.mnemonic, i]));
export const BY_OPCODE: ReadonlyMap<number, InstructionSpec> = new Map(INSTRUCTIONS.map((i) => [i.opcode, i]));

/** Register conventions (seed section 2, issue conventions). */
export const REG = { zero: 0, pixelId: 1, stackBase: 28, sp: 29, link: 30, pc: 31 } as const;
export const VREG = { zero: 0, traceHitParameters: 13, traceOrigin: 14, traceDirection: 15 } as const;

/** Memory map. */
export const MEMORY_MAP = {
  constantBase: 0x20000000,
  constantBytes: 0x8000,
  /** A thread's main memory is 0x80(TID)0000 .. 0x80(TID)FFFF. */
  mainBase: 0x80000000,
  threadBytes: 0x10000,
  threads: 32,
  /** The 16 bytes a thread returns to the host (offset in its main memory). */
  returnOffset: 0xfff0,
  /** Instruction memory: 4096 words at byte addresses 0 .. 0x3FFC. */
  instructionWords: 4096,
  /** Texture memory: its own word-addressed space (1 MiB), loaded by the host, read only by txd. */
  textureWords: 0x40000,
} as const;

export const threadBase = (tid: number): number => (MEMORY_MAP.mainBase | (tid << 16)) >>> 0;

/** Branch conditions on the 2-bit flag (Z 00, unordered 01, P 10, N 11). */
export const BRANCH_TAKEN: Readonly<Record<string, (flag: number) => boolean>> = {
  be: (f) => f === 0b00,
  bne: (f) => f !== 0b00,
  bl: (f) => f === 0b11,
  bge: (f) => f === 0b10 || f === 0b00,
  bg: (f) => f === 0b10,
  ble: (f) => f === 0b11 || f === 0b00,
  jmp: () => true,
};

export const fieldOf = (word: number, f: keyof typeof FIELD): number => (word >>> FIELD[f].lo) & ((1 << FIELD[f].width) - 1);
