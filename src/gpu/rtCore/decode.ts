// Instruction decoding for the RT core: which class an opcode belongs to, read from the ISA table.
import { type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { BY_MNEMONIC, INSTRUCTIONS, type InstructionClass } from '../../isa/instructions.ts';

const opcodeOf = (mnemonic: string): number => {
  const spec = BY_MNEMONIC.get(mnemonic);
  if (!spec) throw new Error(`internal: no instruction '${mnemonic}' in the ISA table`);
  return spec.opcode;
};

/** The decoded meaning of a 6-bit opcode, as 1-bit signals. */
export interface Decoded {
  is(...mnemonics: string[]): BoolValue;
  inClass(...classes: InstructionClass[]): BoolValue;
  readonly legal: BoolValue;
  /** vv_*, vf_*: 4-lane float. */
  readonly vector: BoolValue;
  /** vf_*: the second operand is the scalar in field C. */
  readonly vectorScalar: BoolValue;
  /** Operation of the add/sub/mul/div groups (vv, vf, ff, ii, ii_*i) and of logic (not/and/or/xor): opcode[1:0]. */
  readonly sub: BoolValue;
  readonly mul: BoolValue;
  readonly div: BoolValue;
  readonly load: BoolValue;
  readonly store: BoolValue;
  /** Vector memory access. */
  readonly vectorMemory: BoolValue;
  readonly branch: BoolValue;
  readonly writesScalar: BoolValue;
  readonly writesVector: BoolValue;
  readonly writesFlag: BoolValue;
}

export function decode(op: UIntValue): Decoded {
  const is = (...names: string[]): BoolValue => names.map((n) => op.eq(opcodeOf(n))).reduce((a, b) => a.or(b));
  const inClass = (...classes: InstructionClass[]): BoolValue =>
    is(...INSTRUCTIONS.filter((i) => classes.includes(i.cls)).map((i) => i.mnemonic));
  const vector = inClass('vector');
  const load = inClass('load');
  const store = inClass('store');
  return {
    is,
    inClass,
    legal: is(...INSTRUCTIONS.map((i) => i.mnemonic)),
    vector,
    vectorScalar: is('vf_add', 'vf_sub', 'vf_mul', 'vf_div'),
    sub: op.bits(1, 0).eq(1),
    mul: op.bits(1, 0).eq(2),
    div: op.bits(1, 0).eq(3),
    load,
    store,
    vectorMemory: is('v_load_16byte', 'v_store_16byte'),
    branch: inClass('branch'),
    writesScalar: inClass('logic', 'int', 'float', 'move', 'immediate')
      .and(is('cmp_i', 'cmp_f', 'v_get_from_s').not())
      .or(is('s_load_4byte')),
    writesVector: vector.or(is('v_get_from_s', 'v_load_16byte')),
    writesFlag: is('cmp_i', 'cmp_f'),
  };
}
