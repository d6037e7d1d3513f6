// The RT core's read stage: decodes the issued instruction, names the registers to read, resolves
// branches and `ret` (the thread has nothing else in flight, so its flag and registers are final) and
// says what the instruction will write and whether it ends the thread's run.
import { Enum, fromBits, lit, mux, type BoolValue, type EnumValue, type UIntValue } from '../../hdl/index.ts';
import { BRANCH_TAKEN, REG, VREG } from '../../isa/instructions.ts';
import { isOutsideInstructionMemory } from '../memoryMap.ts';
import { decode, type Decoded } from './decode.ts';
import { fieldOf, opcodeOf, vectorRegisterOf } from './instructionFields.ts';

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
  /** The core has a texture unit (txd is legal). */
  readonly texture: boolean;
  /** Reads the registers at these addresses (R31 as PC + 4 is the stage's own). */
  readonly readRegisters: (addresses: RegisterAddresses) => RegisterValues;
}

export interface RegisterAddresses {
  readonly s1: UIntValue;
  readonly s2: UIntValue;
  readonly v1: UIntValue;
  readonly v2: UIntValue;
  /** txd's RVd (its lanes outside the write mask are kept), `trace RVa`'s query register RVa. */
  readonly v3: UIntValue;
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
  /** A txd: its request leaves now, its write-back comes with the texture unit's answer. */
  readonly txd: BoolValue;
  /** txd's write mask. */
  readonly mask: UIntValue;
  /** `trace RVa` (field A names a vector register other than RV0): the ray's query is RVa (docs/rays.md). */
  readonly traceQuery: BoolValue;
}

export function readStage(r: ReadStageInput): ReadStage {
  const word = r.word;
  const op = opcodeOf(word);
  const fA = fieldOf(word, 'A');
  const fB = fieldOf(word, 'B');
  const fC = fieldOf(word, 'C');
  const imm16 = fieldOf(word, 'imm');
  const d = decode(op, r.texture);
  const trace = d.is('trace');
  // trace reads what the dispatcher needs: R29, and the ray in RV14 and RV15.
  const addresses = {
    s1: mux(trace, lit(REG.sp, 5), fB),
    s2: mux(d.is('s_store_4byte'), fA, fC),
    v1: mux(trace, lit(VREG.traceOrigin, 4), mux(d.is('v_get_from_s', 'v_store_16byte'), vectorRegisterOf(fA), vectorRegisterOf(fB))),
    v2: mux(trace, lit(VREG.traceDirection, 4), vectorRegisterOf(fC)),
    v3: vectorRegisterOf(fA),
  };
  const imm = mux(d.inClass('immediate', 'load', 'store', 'branch'), imm16.sext(32).asUInt(), imm16.zext(32));
  const pcPlus4 = r.pc.add(4);
  const read = r.readRegisters(addresses);
  const values = { ...read, s1: mux(addresses.s1.eq(REG.pc), pcPlus4, read.s1), s2: mux(addresses.s2.eq(REG.pc), pcPlus4, read.s2) };

  const pcFault = isOutsideInstructionMemory(r.pc);
  const endCode = mux(pcFault.or(d.legal.not()), lit(HaltKind.indexOf('fault'), 2), mux(trace, lit(HaltKind.indexOf('trace'), 2), mux(d.is('fin'), lit(HaltKind.indexOf('fin'), 2), lit(HaltKind.indexOf('none'), 2))));
  const end = fromBits(HaltKind, endCode) as EnumValue<HaltKindName>;
  const halts = end.is('none').not();

  const flag = r.flag;
  // A branch is taken on the flag values the ISA's table lists for it; `ret` always jumps.
  const flagValues = [0b00, 0b01, 0b10, 0b11];
  const takenOn = (condition: (flag: number) => boolean) => flagValues.filter(condition).map((f) => flag.eq(f)).reduce<BoolValue>((a, b) => a.or(b), lit(0, 1).asBool());
  const taken = Object.entries(BRANCH_TAKEN).reduce((acc, [mnemonic, condition]) => acc.or(d.is(mnemonic).and(takenOn(condition))), d.is('ret'));
  // The PC keeps all 32 bits (docs/isa.md): fetch ignores its low two bits.
  const target = mux(d.is('ret'), values.s1, pcPlus4.add(imm));
  const live = r.valid.and(halts.not());
  return {
    op,
    d,
    values,
    imm,
    lane: fieldOf(word, 'lane'),
    end,
    halts,
    nextPc: mux(taken, target, pcPlus4),
    dest: fA,
    // A halting or illegal instruction writes nothing.
    writesScalar: live.and(d.writesScalar).and(fA.ne(REG.zero)).and(fA.ne(REG.pc)),
    writesVector: live.and(d.writesVector).and(vectorRegisterOf(fA).ne(VREG.zero)),
    writesFlag: live.and(d.writesFlag),
    txd: live.and(d.is('txd')),
    mask: fieldOf(word, 'mask'),
    traceQuery: trace.and(vectorRegisterOf(fA).ne(VREG.zero)),
  };
}
