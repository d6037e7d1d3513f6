// The RT core's read stage: decodes the issued instruction, names the registers to read, resolves
// branches and `ret` (the thread has nothing else in flight, so its flag and registers are final) and
// says what the instruction will write and whether it ends the thread's run.
import { Bool, Enum, fromBits, lit, mux, type BoolValue, type EnumValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { REG, VREG } from '../../isa/instructions.ts';
import { decode, type Decoded } from './decode.ts';

/** How an instruction ends its thread's run: not at all, `fin`, `trace`, or a fault (illegal opcode, PC outside instruction memory). */
export const HaltKind = Enum('HaltKind', ['none', 'fin', 'trace', 'fault']);
export type HaltKindName = (typeof HaltKind.members)[number];

export interface ReadStageInput {
  /** An instruction (not a launch) is in R. */
  readonly valid: BoolValue;
  readonly word: UIntValue;
  readonly pc: UIntValue;
  /** The thread's flag. */
  readonly flag: UIntValue;
  /** Reads the registers at these addresses (R31 as PC + 4 is the stage's own). */
  readonly readRegisters: (addresses: RegisterAddresses) => RegisterValues;
}

export interface RegisterAddresses {
  readonly s1: UIntValue;
  readonly s2: UIntValue;
  readonly v1: UIntValue;
  readonly v2: UIntValue;
}
export type RegisterValues = RegisterAddresses;

export interface ReadStage {
  readonly op: UIntValue;
  readonly d: Decoded;
  /** The operands read: two scalar and two vector registers. */
  readonly values: RegisterValues;
  readonly imm: UIntValue;
  readonly lane: UIntValue;
  readonly end: EnumValue<HaltKindName>;
  readonly halts: BoolValue;
  /** The address of the thread's next instruction (the branch target when taken). */
  readonly nextPc: UIntValue;
  readonly dest: UIntValue;
  readonly writesScalar: BoolValue;
  readonly writesVector: BoolValue;
  readonly writesFlag: BoolValue;
}

export function readStage(m: ModuleBuilder, r: ReadStageInput): ReadStage {
  const word = r.word;
  const op = word.bits(31, 26);
  const fA = word.bits(25, 21);
  const fB = word.bits(20, 16);
  const fC = word.bits(15, 11);
  const imm16 = word.bits(15, 0);
  const d = decode(op);
  const trace = d.is('trace');
  // trace reads what the dispatcher needs: R29, and the ray in RV14 and RV15.
  const addresses = {
    s1: mux(trace, lit(REG.sp, 5), fB),
    s2: mux(d.is('s_store_4byte'), fA, fC),
    v1: mux(trace, lit(VREG.traceOrigin, 4), mux(d.is('v_get_from_s', 'v_store_16byte'), fA.bits(3, 0), fB.bits(3, 0))),
    v2: mux(trace, lit(VREG.traceDirection, 4), fC.bits(3, 0)),
  };
  const imm = mux(d.inClass('immediate', 'load', 'store', 'branch'), imm16.sext(32).asUInt(), imm16.zext(32));
  const pcPlus4 = r.pc.add(4);
  const read = r.readRegisters(addresses);
  const values = { ...read, s1: mux(addresses.s1.eq(31), pcPlus4, read.s1), s2: mux(addresses.s2.eq(31), pcPlus4, read.s2) };

  const pcFault = r.pc.bits(31, 14).ne(0);
  const endCode = mux(pcFault.or(d.legal.not()), lit(HaltKind.indexOf('fault'), 2), mux(trace, lit(HaltKind.indexOf('trace'), 2), mux(d.is('fin'), lit(HaltKind.indexOf('fin'), 2), lit(HaltKind.indexOf('none'), 2))));
  const end = fromBits(HaltKind, endCode) as EnumValue<HaltKindName>;
  const halts = end.is('none').not();

  const flag = r.flag;
  const taken = m.wire(Bool, { default: false });
  m.switch(op)
    .is(0b110000, () => taken.set(flag.eq(0b00)))
    .is(0b110001, () => taken.set(flag.ne(0b00)))
    .is(0b110010, () => taken.set(flag.eq(0b11)))
    .is(0b110011, () => taken.set(flag.eq(0b10).or(flag.eq(0b00))))
    .is(0b110100, () => taken.set(flag.eq(0b10)))
    .is(0b110101, () => taken.set(flag.eq(0b11).or(flag.eq(0b00))))
    .is([0b110110, 0b110111], () => taken.set(true));
  // The PC keeps all 32 bits (docs/isa.md): fetch ignores its low two bits.
  const target = mux(d.is('ret'), values.s1, pcPlus4.add(imm));
  const live = r.valid.and(halts.not());
  return {
    op,
    d,
    values,
    imm,
    lane: word.bits(1, 0),
    end,
    halts,
    nextPc: mux(taken, target, pcPlus4),
    dest: fA,
    // A halting or illegal instruction writes nothing.
    writesScalar: live.and(d.writesScalar).and(fA.ne(0)).and(fA.ne(31)),
    writesVector: live.and(d.writesVector).and(fA.bits(3, 0).ne(0)),
    writesFlag: live.and(d.writesFlag),
  };
}
