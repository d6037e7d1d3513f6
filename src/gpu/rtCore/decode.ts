// Instruction decoding for the RT core: which class an opcode belongs to, read from the ISA table.
import { Enum, fromBits, lit, mux, type BoolValue, type EnumValue, type UIntValue } from '../../hdl/index.ts';
import { BY_MNEMONIC, INSTRUCTIONS, type InstructionClass } from '../../isa/instructions.ts';

/** The opcode of `mnemonic` in the ISA table. */
export const opcodeFor = (mnemonic: string): number => {
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

/** `texture`: the core has a texture unit, so txd is legal. */
export function decode(op: UIntValue, texture = false): Decoded {
  const is = (...names: string[]): BoolValue => names.map((n) => op.eq(opcodeFor(n))).reduce((a, b) => a.or(b));
  const inClass = (...classes: InstructionClass[]): BoolValue =>
    is(...INSTRUCTIONS.filter((i) => classes.includes(i.cls)).map((i) => i.mnemonic));
  const vector = inClass('vector');
  const load = inClass('load');
  const store = inClass('store');
  return {
    is,
    inClass,
    // Without a texture unit txd is illegal, so a thread that uses it ends with a fault.
    legal: is(...INSTRUCTIONS.filter((i) => texture || i.cls !== 'texture').map((i) => i.mnemonic)),
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

/**
 * The unit whose result an instruction writes back; the issue stage schedules its write-back slot from
 * it. `simple`: one EX cycle (integer, logic, moves, compares, branches, stores, halting instructions).
 */
export const ExecUnit = Enum('ExecUnit', ['simple', 'fadd', 'fmul', 'fdiv', 'fsqrt', 'itof', 'ftoi', 'reduce', 'intdiv', 'load']);
export type ExecUnitName = (typeof ExecUnit.members)[number];

export interface UnitLatencyParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  readonly fsqrt: number;
  readonly itof: number;
  readonly ftoi: number;
}

/** Cycles in the pipeline before the result: issue, register read, then the unit (EX is its first cycle). */
export const PIPELINE_BEFORE_UNIT = 3;

/**
 * Cycles from issue to write-back per unit. Operands are registered in the read stage, so a unit of
 * latency s fed in EX (issue + 2) has its result s cycles later and writes back the cycle after that.
 * v_reduce is two additions in a row with a register between; a load answers two cycles after EX.
 */
export function unitLatencies(p: UnitLatencyParams, intDivider: number): Record<ExecUnitName, number> {
  const at = (s: number) => PIPELINE_BEFORE_UNIT + s;
  return { simple: at(0), fadd: at(p.fadd), fmul: at(p.fmul), fdiv: at(p.fdiv), fsqrt: at(p.fsqrt), itof: at(p.itof), ftoi: at(p.ftoi), reduce: at(2 * p.fadd + 1), intdiv: at(intDivider), load: at(2) };
}

/** The unit of a decoded instruction (anything illegal or halting is `simple`: it only retires). */
export function unitOf(d: Decoded): EnumValue<ExecUnitName> {
  const floatOp = d.vector.or(d.is('ff_add', 'ff_sub', 'ff_mul', 'ff_div'));
  const choices: [BoolValue, ExecUnitName][] = [
    [floatOp.and(d.mul), 'fmul'],
    [floatOp.and(d.div), 'fdiv'],
    [floatOp, 'fadd'],
    [d.is('s_sqrt'), 'fsqrt'],
    [d.is('s_itof'), 'itof'],
    [d.is('s_ftoi'), 'ftoi'],
    [d.is('v_reduce'), 'reduce'],
    [d.is('ii_div', 'ii_divi'), 'intdiv'],
    [d.load, 'load'],
  ];
  let unit: UIntValue = lit(ExecUnit.indexOf('simple'), ExecUnit.width);
  for (const [cond, name] of choices.reverse()) unit = mux(cond, lit(ExecUnit.indexOf(name), ExecUnit.width), unit);
  return fromBits(ExecUnit, unit) as EnumValue<ExecUnitName>;
}
