// The RT core's execute stage: operands registered per unit in the read stage, the integer ALU and the
// float units (four lanes of add, multiply and divide; square root, conversions, compare, v_reduce's second
// addition) and the integer divider, each result ready at its unit's latency after EX starts.
import { UInt, cat, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FCmp, FDiv, FMul, FSqrt, FToI, IToF } from '../../hdl/lib/index.ts';
import { decode, opcodeFor, type Decoded, type UnitLatencyParams } from './decode.ts';
import { IntDivider } from './intDivider.ts';
import { ThreadEvent } from './interfaces.ts';

const lanes = [0, 1, 2, 3] as const;
/** A plain trace's query (docs/rays.md): tmin +0, tmax +∞, flags 0x0000FF00 (closest hit, every mask bit). */
const PLAIN_TRACE_QUERY = (0x0000ff00n << 64n) | (0x7f800000n << 32n);
export const laneOf = (v: UIntValue, i: number): UIntValue => v.bits(32 * i + 31, 32 * i);
export const vec4 = (xs: readonly UIntValue[]): UIntValue => cat(xs[3]!, xs[2]!, xs[1]!, xs[0]!);
const flipSign = (x: UIntValue, when: BoolValue): UIntValue => cat(x.bit(31).xor(when), x.bits(30, 0));
/** A unit the instruction does not use sees zeros, so it does not toggle (power; regions the simulator skips). */
const isolate = (use: BoolValue, value: UIntValue): UIntValue => mux(use, value, lit(0, value.width));

/** The instruction leaving the read stage: decoded, with its register operands read. */
export interface ReadOperands {
  readonly valid: BoolValue;
  readonly op: UIntValue;
  readonly d: Decoded;
  /** First and second scalar source, first and second vector source. */
  readonly s1: UIntValue;
  readonly s2: UIntValue;
  readonly v1: UIntValue;
  readonly v2: UIntValue;
  /** The third vector source: RVa of `trace RVa`. */
  readonly v3: UIntValue;
  /** The instruction is `trace RVa`. */
  readonly traceQuery: BoolValue;
  readonly imm: UIntValue;
  readonly lane: UIntValue;
  /** The instruction halts the thread (it executes no unit, except that `trace` passes its operands on). */
  readonly halts: BoolValue;
}

/** What EX produces, and what each unit produces at its latency. */
export interface ExecuteResults {
  /** The instruction in EX (valid, opcode decoded). */
  readonly valid: BoolValue;
  readonly x: Decoded;
  readonly halts: BoolValue;
  /** One-cycle results: scalar, vector, compare flag; memory address and store data. */
  readonly scalar: UIntValue;
  readonly vector: UIntValue;
  readonly flag: UIntValue;
  /** A `trace`'s ray direction (RV15). */
  readonly direction: UIntValue;
  /** A `trace`'s query: RVa.xyz of `trace RVa`, a plain trace's (+0, +∞, 0xFF00) otherwise (docs/rays.md). */
  readonly query: UIntValue;
  /** The trace is `trace RVa`. */
  readonly queried: BoolValue;
  readonly adders: readonly UIntValue[];
  readonly multipliers: readonly UIntValue[];
  readonly dividers: readonly UIntValue[];
  readonly sqrt: UIntValue;
  readonly itof: UIntValue;
  readonly ftoi: UIntValue;
  readonly reduced: UIntValue;
  readonly quotient: UIntValue;
}

/** Build the execute stage from the read stage's outputs (registered here: EX is the next cycle). */
export function executeStage(m: ModuleBuilder, r: ReadOperands, p: UnitLatencyParams): ExecuteResults {
  const exValid = m.regNext(r.valid, { name: 'ex_valid', reset: 0 });
  const exOp = m.regNext(r.op, { name: 'ex_op' });
  const exHalts = m.regNext(r.halts, { name: 'ex_halts' });
  const a = m.regNext(r.s1, { name: 'ex_s1' });
  const s2 = m.regNext(r.s2, { name: 'ex_s2' });
  const va = m.regNext(r.v1, { name: 'ex_v1' });
  const vb = m.regNext(r.v2, { name: 'ex_v2' });
  const imm = m.regNext(r.imm, { name: 'ex_imm' });
  const exLane = m.regNext(r.lane, { name: 'ex_lane' });
  const exQueried = m.regNext(r.valid.and(r.traceQuery), { name: 'ex_trace_query', reset: 0 });
  const exQuery = m.regNext(isolate(r.traceQuery, r.v3.trunc(ThreadEvent.fields.query.width)), { name: 'ex_query' });
  const x = decode(exOp);
  const b = mux(x.inClass('immediate'), imm, s2);
  const units = floatUnits(m, r, p);

  // The integer divider starts in EX (one division at a time: issue waits while it is busy).
  const divider = m.instance(IntDivider, undefined, { name: 'int_divider' });
  divider.io.start.set(exValid.and(exHalts.not()).and(x.is('ii_div', 'ii_divi')));
  divider.io.a.set(a);
  divider.io.b.set(b);

  const fcmp = m.instance(FCmp, { stages: 0 }, { name: 'fcmp' });
  fcmp.io.in_valid.set(true);
  fcmp.io.a.set(isolate(x.is('cmp_f'), a));
  fcmp.io.b.set(isolate(x.is('cmp_f'), s2));
  const signedLess = a.asSInt().lt(b.asSInt());
  const intFlag = mux(a.eq(b), lit(0b00, 2), mux(signedLess, lit(0b11, 2), lit(0b10, 2)));
  const lane = (i: number) => exLane.eq(i);

  const scalar = m.wire(UInt(32), { default: 0 });
  const ops = (...mnemonics: string[]) => mnemonics.map(opcodeFor);
  m.switch(exOp)
    .is(ops('not'), () => scalar.set(a.not()))
    .is(ops('and'), () => scalar.set(a.and(b)))
    .is(ops('or'), () => scalar.set(a.or(b)))
    .is(ops('xor'), () => scalar.set(a.xor(b)))
    .is(ops('ii_add', 'ii_addi'), () => scalar.set(a.add(b)))
    .is(ops('ii_sub', 'ii_subi'), () => scalar.set(a.sub(b)))
    .is(ops('ii_mul', 'ii_muli'), () => scalar.set(a.mul(b)))
    .is(ops('s_write_high'), () => scalar.set(cat(imm.bits(15, 0), a.bits(15, 0))))
    .is(ops('s_write_low'), () => scalar.set(cat(a.bits(31, 16), imm.bits(15, 0))))
    .is(ops('s_get_from_v'), () => scalar.set(mux(lane(0), laneOf(va, 0), mux(lane(1), laneOf(va, 1), mux(lane(2), laneOf(va, 2), laneOf(va, 3))))))
    // Loads and stores: the byte address. trace: R29, which survives the context switch.
    .is(ops('s_load_4byte', 'v_load_16byte', 's_store_4byte', 'v_store_16byte'), () => scalar.set(a.add(imm)))
    .is(ops('trace'), () => scalar.set(a));
  const vector = m.wire(UInt(128), { default: 0 });
  m.when(x.is('v_get_from_s'), () => vector.set(vec4(lanes.map((i) => mux(lane(i), a, laneOf(va, i))))))
    .elsewhen(x.is('v_store_16byte', 'trace'), () => vector.set(va))
    .elsewhen(x.is('s_store_4byte'), () => vector.set(s2.zext(128)));

  return {
    valid: exValid,
    x,
    halts: exHalts,
    scalar,
    vector,
    flag: mux(x.is('cmp_f'), fcmp.io.flags, intFlag),
    direction: vb.trunc(ThreadEvent.fields.direction.width),
    query: mux(exQueried, exQuery, lit(PLAIN_TRACE_QUERY, ThreadEvent.fields.query.width)),
    queried: exQueried,
    ...units,
    quotient: divider.io.quotient,
  };
}

/** The float units, each fed by operand registers written in the read stage. */
function floatUnits(m: ModuleBuilder, r: ReadOperands, p: UnitLatencyParams) {
  const d = r.d;
  const operand = (v: UIntValue, name: string) => m.regNext(v, { name });
  const scalarFloat = d.inClass('float');
  const laneB = (i: number) => mux(d.vectorScalar, r.s2, laneOf(r.v2, i));
  const opA = (i: number) => (i === 0 ? mux(scalarFloat, r.s1, laneOf(r.v1, 0)) : laneOf(r.v1, i));
  const opB = (i: number) => (i === 0 ? mux(scalarFloat, r.s2, laneB(0)) : laneB(i));
  const reducing = d.is('v_reduce');
  // v_reduce: (x + y) and (z + w) on lanes 0 and 1, then their sum on an adder of its own.
  const adders = lanes.map((i) => {
    const u = m.instance(FAdd, { stages: p.fadd }, { name: `fadd${i}` });
    u.io.in_valid.set(true);
    const a = i < 2 ? mux(reducing, laneOf(r.v1, 2 * i), opA(i)) : opA(i);
    const b = i < 2 ? mux(reducing, laneOf(r.v1, 2 * i + 1), flipSign(opB(i), d.sub)) : flipSign(opB(i), d.sub);
    u.io.a.set(operand(a, `fadd${i}_a`));
    u.io.b.set(operand(b, `fadd${i}_b`));
    return u.io.result;
  });
  const reduceAdd = m.instance(FAdd, { stages: p.fadd }, { name: 'freduce' });
  reduceAdd.io.in_valid.set(true);
  reduceAdd.io.a.set(m.regNext(adders[0]!, { name: 'freduce_a' }));
  reduceAdd.io.b.set(m.regNext(adders[1]!, { name: 'freduce_b' }));

  const floatOp = d.vector.or(d.is('ff_add', 'ff_sub', 'ff_mul', 'ff_div'));
  const binary = (def: typeof FMul | typeof FDiv, stages: number, name: string, use: BoolValue) =>
    lanes.map((i) => {
      const u = m.instance(def, { stages }, { name: `${name}${i}` });
      u.io.in_valid.set(true);
      u.io.a.set(operand(isolate(use, opA(i)), `${name}${i}_a`));
      u.io.b.set(operand(isolate(use, opB(i)), `${name}${i}_b`));
      return u.io.result;
    });
  const unary = (def: typeof FSqrt | typeof IToF | typeof FToI, stages: number, name: string, use: BoolValue) => {
    const u = m.instance(def, { stages }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(operand(isolate(use, r.s1), `${name}_a`));
    return u.io.result;
  };
  const live = r.valid.and(r.halts.not());
  return {
    adders,
    reduced: reduceAdd.io.result,
    multipliers: binary(FMul, p.fmul, 'fmul', live.and(floatOp).and(d.mul)),
    dividers: binary(FDiv, p.fdiv, 'fdiv', live.and(floatOp).and(d.div)),
    sqrt: unary(FSqrt, p.fsqrt, 'fsqrt', live.and(d.is('s_sqrt'))),
    itof: unary(IToF, p.itof, 'itof', live.and(d.is('s_itof'))),
    ftoi: unary(FToI, p.ftoi, 'ftoi', live.and(d.is('s_ftoi'))),
  };
}

