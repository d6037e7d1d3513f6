// The RT core: a 5-stage in-order pipeline (IF, DE, EX, MEM, WB) for the scalar/vec4-float ISA, with
// forwarding, multi-cycle float and divide units in EX, a memory handshake in MEM, and the patch
// dispatcher's kernel-mode register ports (seed 004, micro-architecture section 5).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FCmp, FDiv, FMul, FSqrt, FToI, IToF } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { decode } from './decode.ts';
import { INT_DIVIDER_LATENCY, IntDivider } from './intDivider.ts';
import { RegisterFile } from './registerFile.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';

/** Pipeline registers of each float unit (its latency in cycles); flat, so module names read `RtCore_fadd3_…`. */
export interface RtCoreParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  readonly fsqrt: number;
  readonly itof: number;
  readonly ftoi: number;
}

export const defaultRtCoreParams: RtCoreParams = { ...gpuFloatLatencies };

/** What a halting instruction does when it reaches WB. */
const END = { none: 0, fin: 1, trace: 2, fault: 3 } as const;

const lanes = [0, 1, 2, 3] as const;
const laneOf = (v: UIntValue, i: number): UIntValue => v.bits(32 * i + 31, 32 * i);
const vec4 = (xs: readonly UIntValue[]): UIntValue => cat(xs[3]!, xs[2]!, xs[1]!, xs[0]!);
const flipSign = (x: UIntValue, when: BoolValue): UIntValue => cat(x.bit(31).xor(when), x.bits(30, 0));

/**
 * The core's side of the patch dispatcher (kernel mode: the pipeline is idle and the register files
 * are the dispatcher's), its status, and the retired-instruction report. Shared with the systems that
 * wrap the core, which pass these ports straight through.
 */
export const dispatcherPorts = () => ({
  kernel_mode: input(Bool),
  pd_clear: input(Bool),
  pd_scalar_wen: input(Bool),
  pd_scalar_wb_address: input(UInt(5)),
  pd_scalar_wb_data: input(UInt(32)),
  pd_vector_wen: input(Bool),
  pd_vector_wb_address: input(UInt(4)),
  pd_vector_wb_data: input(UInt(128)),
  pd_scalar_read_address1: input(UInt(5)),
  pd_scalar_read_address2: input(UInt(5)),
  pd_vector_read_address1: input(UInt(4)),
  pd_vector_read_address2: input(UInt(4)),
  pd_scalar_read1: output(UInt(32)),
  pd_scalar_read2: output(UInt(32)),
  pd_vector_read1: output(UInt(128)),
  pd_vector_read2: output(UInt(128)),
  pd_start: input(Bool),
  pd_pc: input(UInt(32)),
  thread_id: input(UInt(5)),
  end: output(Bool),
  context_switch: output(Bool),
  fault: output(Bool),
  pc_out: output(UInt(32)),
  busy: output(Bool),
  // Retired instructions, in order (for lockstep comparison with the ISA simulator).
  retire_valid: output(Bool),
  retire_pc: output(UInt(32)),
});

export const RtCore = defineModule(
  'RtCore',
  (_p: RtCoreParams) => ({
    ...dispatcherPorts(),
    // Instruction memory (synchronous read: data the cycle after the address).
    imem_addr: output(UInt(32)),
    imem_data: input(UInt(32)),
    // Constant memory (synchronous read, word address).
    cmem_addr: output(UInt(13)),
    cmem_data: input(UInt(32)),
    // Main memory: a request is held until mem_done.
    mem_addr: output(UInt(32)),
    mem_data_write: output(UInt(128)),
    mem_data_read: input(UInt(128)),
    mem_read_en: output(Bool),
    mem_write_en: output(Bool),
    mem_s_or_v: output(Bool),
    mem_done: input(Bool),
  }),
  (m, io, p) => {
    // EX counts up to the longest latency in 6 bits (v_reduce takes 2 x fadd + 1).
    for (const [k, v] of Object.entries(p)) if (!Number.isInteger(v) || v < 0 || v > 30) throw new Error(`RtCore: ${k} latency must be an integer from 0 to 30, got ${v}`);
    const srf = m.instance(RegisterFile, { count: 32, width: 32, readPorts: 2 }, { name: 'scalar_rf' });
    const vrf = m.instance(RegisterFile, { count: 16, width: 128, readPorts: 2 }, { name: 'vector_rf' });
    const flag = m.reg(UInt(2), { reset: 0 });

    // ------------------------------------------------------------------ pipeline registers
    // DE: the instruction word arrives from the instruction memory; dePc is the address it was read from.
    const deValid = m.reg(Bool, { reset: 0 });
    const dePc = m.reg(UInt(32), { reset: 0 });
    // DE -> EX
    const exValid = m.reg(Bool, { reset: 0 });
    const exPc = m.reg(UInt(32));
    const exOp = m.reg(UInt(6));
    const exS1 = m.reg(UInt(32));
    const exS2 = m.reg(UInt(32));
    const exV1 = m.reg(UInt(128));
    const exV2 = m.reg(UInt(128));
    const exImm = m.reg(UInt(32));
    const exLane = m.reg(UInt(2));
    const exDest = m.reg(UInt(5));
    const exS1Addr = m.reg(UInt(5));
    const exS2Addr = m.reg(UInt(5));
    const exV1Addr = m.reg(UInt(4));
    const exV2Addr = m.reg(UInt(4));
    const exUse = { s1: m.reg(Bool), s2: m.reg(Bool), v1: m.reg(Bool), v2: m.reg(Bool) };
    const exEnd = m.reg(UInt(2));
    const exCycle = m.reg(UInt(6), { reset: 0 });
    // EX -> MEM
    const memValid = m.reg(Bool, { reset: 0 });
    const memPc = m.reg(UInt(32));
    const memLoad = m.reg(Bool);
    const memStore = m.reg(Bool);
    const memVector = m.reg(Bool);
    const memWritesS = m.reg(Bool);
    const memWritesV = m.reg(Bool);
    const memDest = m.reg(UInt(5));
    const memResultS = m.reg(UInt(32));
    const memResultV = m.reg(UInt(128));
    const memAddr = m.reg(UInt(32));
    const memStoreData = m.reg(UInt(128));
    const memEnd = m.reg(UInt(2));
    const memWaited = m.reg(Bool, { reset: 0 });
    // MEM -> WB
    const wbValid = m.reg(Bool, { reset: 0 });
    const wbPc = m.reg(UInt(32));
    const wbWritesS = m.reg(Bool);
    const wbWritesV = m.reg(Bool);
    const wbDest = m.reg(UInt(5));
    const wbResultS = m.reg(UInt(32));
    const wbResultV = m.reg(UInt(128));
    const wbEnd = m.reg(UInt(2));
    const wbFault = m.reg(Bool);

    // ------------------------------------------------------------------ WB
    const wbWriteS = wbValid.and(wbWritesS);
    const wbWriteV = wbValid.and(wbWritesV);
    for (const [rf, we, data, kwe, kaddr, kdata] of [
      [srf, wbWriteS, wbResultS, io.pd_scalar_wen, io.pd_scalar_wb_address, io.pd_scalar_wb_data],
      [vrf, wbWriteV, wbResultV, io.pd_vector_wen, io.pd_vector_wb_address, io.pd_vector_wb_data],
    ] as const) {
      rf.io.we.set(we);
      rf.io.wdata.set(data);
      rf.io.kernel_we.set(io.kernel_mode.and(kwe));
      rf.io.kernel_waddr.set(kaddr);
      rf.io.kernel_wdata.set(kdata);
      rf.io.clear.set(io.kernel_mode.and(io.pd_clear));
    }
    srf.io.waddr.set(wbDest);
    vrf.io.waddr.set(wbDest.bits(3, 0));
    io.retire_valid.set(wbValid);
    io.retire_pc.set(wbPc);
    io.end.set(wbValid.and(wbEnd.eq(END.fin).or(wbEnd.eq(END.fault))));
    io.context_switch.set(wbValid.and(wbEnd.eq(END.trace)));
    io.fault.set(wbValid.and(wbFault.or(wbEnd.eq(END.fault))));
    const pcOut = m.reg(UInt(32), { reset: 0 });
    m.when(wbValid.and(wbEnd.eq(END.trace)), () => pcOut.set(wbPc.add(4)));
    io.pc_out.set(pcOut);

    // ------------------------------------------------------------------ DE: decode and register read
    const word = io.imem_data;
    const op = word.bits(31, 26);
    const fA = word.bits(25, 21);
    const fB = word.bits(20, 16);
    const fC = word.bits(15, 11);
    const imm16 = word.bits(15, 0);
    const d = decode(op);
    const storeScalar = d.is('s_store_4byte');
    const s1Addr = fB;
    const s2Addr = mux(storeScalar, fA, fC);
    const v1Addr = mux(d.is('v_get_from_s', 'v_store_16byte'), fA.bits(3, 0), fB.bits(3, 0));
    const v2Addr = fC.bits(3, 0);
    srf.io.raddr.at(0).set(mux(io.kernel_mode, io.pd_scalar_read_address1, s1Addr));
    srf.io.raddr.at(1).set(mux(io.kernel_mode, io.pd_scalar_read_address2, s2Addr));
    vrf.io.raddr.at(0).set(mux(io.kernel_mode, io.pd_vector_read_address1, v1Addr));
    vrf.io.raddr.at(1).set(mux(io.kernel_mode, io.pd_vector_read_address2, v2Addr));
    io.pd_scalar_read1.set(srf.io.rdata.at(0));
    io.pd_scalar_read2.set(srf.io.rdata.at(1));
    io.pd_vector_read1.set(vrf.io.rdata.at(0));
    io.pd_vector_read2.set(vrf.io.rdata.at(1));
    const pcPlus4 = dePc.add(4);
    // R31 reads as PC + 4; a register WB writes this cycle is read through (write-first).
    const readS = (addr: UIntValue, rf: UIntValue) => mux(addr.eq(31), pcPlus4, mux(wbWriteS.and(wbDest.eq(addr)), wbResultS, rf));
    const readV = (addr: UIntValue, rf: UIntValue) => mux(wbWriteV.and(wbDest.bits(3, 0).eq(addr)), wbResultV, rf);
    const deS1 = readS(s1Addr, srf.io.rdata.at(0));
    const deS2 = readS(s2Addr, srf.io.rdata.at(1));
    const deV1 = readV(v1Addr, vrf.io.rdata.at(0));
    const deV2 = readV(v2Addr, vrf.io.rdata.at(1));
    const immediateSigned = d.inClass('immediate', 'load', 'store', 'branch');
    const deImm = mux(immediateSigned, imm16.sext(32).asUInt(), imm16.zext(32));
    const writesS = d.writesScalar.and(fA.ne(0)).and(fA.ne(31));
    const writesV = d.writesVector.and(fA.bits(3, 0).ne(0));
    const use = {
      s1: d.inClass('logic', 'int', 'immediate', 'load', 'store', 'ret').or(d.is('ff_add', 'ff_sub', 'ff_mul', 'ff_div', 'cmp_f', 's_write_high', 's_write_low', 's_itof', 's_ftoi', 's_sqrt', 'v_get_from_s')),
      s2: d.is('and', 'or', 'xor', 'ii_add', 'ii_sub', 'ii_mul', 'ii_div', 'cmp_i', 'ff_add', 'ff_sub', 'ff_mul', 'ff_div', 'cmp_f', 's_store_4byte').or(d.vectorScalar),
      v1: d.vector.or(d.is('v_reduce', 's_get_from_v', 'v_get_from_s', 'v_store_16byte')),
      v2: d.vector.and(d.vectorScalar.not()),
    };
    const pcFault = dePc.bits(31, 14).ne(0);
    const endKind = mux(pcFault.or(d.legal.not()), lit(END.fault, 2), mux(d.is('trace'), lit(END.trace, 2), mux(d.is('fin'), lit(END.fin, 2), lit(END.none, 2))));
    const halts = endKind.ne(END.none);

    // ------------------------------------------------------------------ EX: forwarding and execution
    const x = decode(exOp);
    const fwdS = (addr: UIntValue, value: UIntValue) =>
      mux(memValid.and(memWritesS).and(memLoad.not()).and(memDest.eq(addr)), memResultS, mux(wbWriteS.and(wbDest.eq(addr)), wbResultS, value));
    const fwdV = (addr: UIntValue, value: UIntValue) =>
      mux(memValid.and(memWritesV).and(memLoad.not()).and(memDest.bits(3, 0).eq(addr)), memResultV, mux(wbWriteV.and(wbDest.bits(3, 0).eq(addr)), wbResultV, value));
    // R31 was resolved in DE (never written, so never forwarded).
    const a = mux(exS1Addr.eq(31), exS1, fwdS(exS1Addr, exS1));
    const s2 = mux(exS2Addr.eq(31), exS2, fwdS(exS2Addr, exS2));
    const va = fwdV(exV1Addr, exV1);
    const vb = fwdV(exV2Addr, exV2);
    // A load in MEM whose result EX needs: wait until it reaches WB.
    const loadPending = (uses: BoolValue, hit: BoolValue) => uses.and(memValid).and(memLoad).and(hit);
    const waitLoad = loadPending(exUse.s1, memWritesS.and(memDest.eq(exS1Addr)))
      .or(loadPending(exUse.s2, memWritesS.and(memDest.eq(exS2Addr))))
      .or(loadPending(exUse.v1, memWritesV.and(memDest.bits(3, 0).eq(exV1Addr))))
      .or(loadPending(exUse.v2, memWritesV.and(memDest.bits(3, 0).eq(exV2Addr))));
    const ready = exValid.and(waitLoad.not());
    const b = mux(x.inClass('immediate'), exImm, s2);

    // Float units: four lanes of add, multiply and divide; one square root, conversions, compare.
    // Their operands are registered first: the forwarding network and a unit's first step would
    // otherwise share one cycle (13 LUT levels). So a float result is ready `latency + 1` cycles
    // into EX; the operands hold still while the instruction waits there.
    const operand = (v: UIntValue, name: string) => m.regNext(v, { name });
    const cycles = (unitLatency: number) => unitLatency + 1;
    const reducing = x.is('v_reduce');
    const reduceSecond = exCycle.gt(cycles(p.fadd));
    const reduceT0 = m.reg(UInt(32));
    const reduceT1 = m.reg(UInt(32));
    const scalarFloat = x.inClass('float');
    const laneB = (i: number) => mux(x.vectorScalar, s2, laneOf(vb, i));
    const opA = (i: number) => (i === 0 ? mux(scalarFloat, a, laneOf(va, 0)) : laneOf(va, i));
    const opB = (i: number) => (i === 0 ? mux(scalarFloat, s2, laneB(0)) : laneB(i));
    const adders = lanes.map((i) => {
      const u = m.instance(FAdd, { stages: p.fadd }, { name: `fadd${i}` });
      u.io.in_valid.set(true);
      const setOperands = (a: UIntValue, b: UIntValue) => {
        u.io.a.set(operand(a, `fadd${i}_a`));
        u.io.b.set(operand(b, `fadd${i}_b`));
      };
      if (i === 0) setOperands(mux(reducing, mux(reduceSecond, reduceT0, laneOf(va, 0)), opA(0)), mux(reducing, mux(reduceSecond, reduceT1, laneOf(va, 1)), flipSign(opB(0), x.sub)));
      else if (i === 1) setOperands(mux(reducing, laneOf(va, 2), opA(1)), mux(reducing, laneOf(va, 3), flipSign(opB(1), x.sub)));
      else setOperands(opA(i), flipSign(opB(i), x.sub));
      return u.io.result;
    });
    m.when(reducing.and(ready).and(exCycle.eq(cycles(p.fadd))), () => {
      reduceT0.set(adders[0]!);
      reduceT1.set(adders[1]!);
    });
    // Operand isolation: a unit that the instruction in EX does not use sees zeros, so its logic does not
    // toggle (less power in silicon, and regions the simulator can skip). Adders serve too many
    // instructions to be worth it.
    const isolate = (use: BoolValue, value: UIntValue) => mux(use, value, lit(0, value.width));
    const floatClass = x.vector.or(x.is('ff_add', 'ff_sub', 'ff_mul', 'ff_div'));
    const binaryUnit = (def: typeof FMul | typeof FDiv, stages: number, name: string, use: BoolValue) =>
      lanes.map((i) => {
        const u = m.instance(def, { stages }, { name: `${name}${i}` });
        u.io.in_valid.set(true);
        u.io.a.set(operand(isolate(use, opA(i)), `${name}${i}_a`));
        u.io.b.set(operand(isolate(use, opB(i)), `${name}${i}_b`));
        return u.io.result;
      });
    const multipliers = binaryUnit(FMul, p.fmul, 'fmul', floatClass.and(x.mul));
    const dividers = binaryUnit(FDiv, p.fdiv, 'fdiv', floatClass.and(x.div));
    const unary = (def: typeof FSqrt | typeof IToF | typeof FToI, stages: number, name: string, use: BoolValue) => {
      const u = m.instance(def, { stages }, { name });
      u.io.in_valid.set(true);
      u.io.a.set(operand(isolate(use, a), `${name}_a`));
      return u.io.result;
    };
    const sqrt = unary(FSqrt, p.fsqrt, 'fsqrt', x.is('s_sqrt'));
    const itof = unary(IToF, p.itof, 'itof', x.is('s_itof'));
    const ftoi = unary(FToI, p.ftoi, 'ftoi', x.is('s_ftoi'));
    const fcmp = m.instance(FCmp, { stages: 0 }, { name: 'fcmp' });
    fcmp.io.in_valid.set(true);
    fcmp.io.a.set(isolate(x.is('cmp_f'), a));
    fcmp.io.b.set(isolate(x.is('cmp_f'), s2));
    const divider = m.instance(IntDivider, undefined, { name: 'int_divider' });
    const intDivide = x.is('ii_div', 'ii_divi');
    divider.io.start.set(ready.and(intDivide).and(exCycle.eq(0)));
    divider.io.a.set(a);
    divider.io.b.set(b);

    // Cycles in EX before the result is ready (counted once the operands are ready).
    const latency = mux(
      intDivide,
      lit(INT_DIVIDER_LATENCY, 6),
      mux(
        reducing,
        lit(2 * cycles(p.fadd) + 1, 6),
        mux(
          floatClass,
          mux(x.mul, lit(cycles(p.fmul), 6), mux(x.div, lit(cycles(p.fdiv), 6), lit(cycles(p.fadd), 6))),
          mux(x.is('s_sqrt'), lit(cycles(p.fsqrt), 6), mux(x.is('s_itof'), lit(cycles(p.itof), 6), mux(x.is('s_ftoi'), lit(cycles(p.ftoi), 6), lit(0, 6)))),
        ),
      ),
    );
    const exDone = ready.and(exCycle.eq(latency));

    const vectorResult = (units: readonly UIntValue[]) => vec4(units);
    const signedLess = a.asSInt().lt(b.asSInt());
    const intFlag = mux(a.eq(b), lit(0b00, 2), mux(signedLess, lit(0b11, 2), lit(0b10, 2)));
    const exFlag = mux(x.is('cmp_f'), fcmp.io.flags, intFlag);
    const lane = (i: number) => exLane.eq(i);
    const scalarResult = m.wire(UInt(32), { default: 0 });
    m.switch(exOp)
      .is(0b001100, () => scalarResult.set(a.not()))
      .is(0b001101, () => scalarResult.set(a.and(b)))
      .is(0b001110, () => scalarResult.set(a.or(b)))
      .is(0b001111, () => scalarResult.set(a.xor(b)))
      .is([0b011000, 0b101000], () => scalarResult.set(a.add(b)))
      .is([0b011001, 0b101001], () => scalarResult.set(a.sub(b)))
      .is([0b011010, 0b101010], () => scalarResult.set(a.mul(b)))
      .is([0b011011, 0b101011], () => scalarResult.set(divider.io.quotient))
      .is([0b010000, 0b010001], () => scalarResult.set(adders[0]!))
      .is(0b010010, () => scalarResult.set(multipliers[0]!))
      .is(0b010011, () => scalarResult.set(dividers[0]!))
      .is(0b100000, () => scalarResult.set(cat(exImm.bits(15, 0), a.bits(15, 0))))
      .is(0b100001, () => scalarResult.set(cat(a.bits(31, 16), exImm.bits(15, 0))))
      .is(0b100010, () => scalarResult.set(itof))
      .is(0b100011, () => scalarResult.set(ftoi))
      .is(0b100100, () => scalarResult.set(adders[0]!))
      .is(0b100101, () => scalarResult.set(mux(lane(0), laneOf(va, 0), mux(lane(1), laneOf(va, 1), mux(lane(2), laneOf(va, 2), laneOf(va, 3))))))
      .is(0b100110, () => scalarResult.set(sqrt))
      .is([0b101100, 0b101111, 0b111100, 0b111111], () => scalarResult.set(a.add(exImm)));
    const vectorOut = m.wire(UInt(128), { default: 0 });
    m.when(x.vector, () => vectorOut.set(mux(x.mul, vectorResult(multipliers), mux(x.div, vectorResult(dividers), vectorResult(adders)))))
      .elsewhen(x.is('v_get_from_s'), () => vectorOut.set(vec4(lanes.map((i) => mux(lane(i), a, laneOf(va, i))))))
      .elsewhen(x.is('v_store_16byte'), () => vectorOut.set(va))
      .elsewhen(x.is('s_store_4byte'), () => vectorOut.set(s2.zext(128)));

    // ------------------------------------------------------------------ MEM
    const ownBase = cat(lit(0x80, 8), lit(0, 3), io.thread_id);
    const isOwn = memAddr.bits(31, 16).eq(ownBase).and(memVector.not().or(memAddr.bits(15, 2).le(0x3ffc)));
    const isConst = memAddr.bits(31, 15).eq(MEMORY_MAP.constantBase >>> 15).and(memLoad).and(memVector.not());
    const access = memValid.and(memLoad.or(memStore));
    const mainAccess = access.and(isOwn);
    const constAccess = access.and(isConst);
    const memFaulted = access.and(isOwn.not()).and(isConst.not());
    // Isolated like the float units: the main memory's port logic only toggles for real accesses.
    io.mem_addr.set(isolate(mainAccess, memAddr));
    io.mem_data_write.set(isolate(mainAccess.and(memStore), memStoreData));
    io.mem_read_en.set(mainAccess.and(memLoad));
    io.mem_write_en.set(mainAccess.and(memStore));
    io.mem_s_or_v.set(mainAccess.and(memVector));
    io.cmem_addr.set(memAddr.bits(14, 2));
    // Constant memory answers the cycle after the address; main memory when it raises mem_done.
    const memDone = mux(mainAccess, io.mem_done, mux(constAccess, memWaited, lit(1, 1).asBool()));
    memWaited.set(constAccess.and(memWaited.not()));
    const memStall = memValid.and(memDone.not());
    const loadedS = mux(memFaulted, lit(0, 32), mux(constAccess, io.cmem_data, io.mem_data_read.bits(31, 0)));
    const loadedV = mux(memFaulted, lit(0, 128), io.mem_data_read);

    // ------------------------------------------------------------------ stalls and stage movement
    const exAdvance = exDone.and(memStall.not());
    const exHold = exValid.and(exAdvance.not());
    // Branches in DE read the flag; a compare still in EX must finish first (then its flag is forwarded).
    const flagPending = exValid.and(x.writesFlag);
    const flagNow = mux(flagPending, exFlag, flag);
    const isBranch = d.branch;
    const isRet = d.is('ret');
    const flagWait = isBranch.and(flagPending).and(exDone.not());
    // ret reads its register in DE: wait while an older instruction in EX, or a load in MEM, will write it.
    const retWait = isRet.and(exValid.and(decode(exOp).writesScalar).and(exDest.eq(fB)).or(memValid.and(memLoad).and(memWritesS).and(memDest.eq(fB))));
    const retTarget = fwdS(fB, deS1);
    const deStall = deValid.and(exHold.or(flagWait).or(retWait));
    const deIssue = deValid.and(deStall.not());
    const taken = m.wire(Bool, { default: false });
    m.switch(op)
      .is(0b110000, () => taken.set(flagNow.eq(0b00)))
      .is(0b110001, () => taken.set(flagNow.ne(0b00)))
      .is(0b110010, () => taken.set(flagNow.eq(0b11)))
      .is(0b110011, () => taken.set(flagNow.eq(0b10).or(flagNow.eq(0b00))))
      .is(0b110100, () => taken.set(flagNow.eq(0b10)))
      .is(0b110101, () => taken.set(flagNow.eq(0b11).or(flagNow.eq(0b00))))
      .is(0b110110, () => taken.set(true))
      .is(0b110111, () => taken.set(true));
    // The PC keeps all 32 bits (docs/isa.md): fetch ignores its low two bits.
    const target = mux(isRet, retTarget, pcPlus4.add(deImm));
    const nextPc = mux(halts, dePc, mux(taken.and(halts.not()), target, pcPlus4));
    io.imem_addr.set(mux(io.pd_start.and(deValid.not()), io.pd_pc, mux(deValid.and(deStall.or(halts)), dePc, nextPc)));
    m.when(io.pd_start.and(deValid.not()), () => {
      deValid.set(true);
      dePc.set(io.pd_pc);
    }).elsewhen(deIssue, () => {
      deValid.set(halts.not());
      dePc.set(nextPc);
    });
    io.busy.set(deValid.or(exValid).or(memValid).or(wbValid));

    // DE -> EX
    m.when(deIssue, () => {
      exValid.set(true);
      exPc.set(dePc);
      exOp.set(op);
      exS1.set(deS1);
      exS2.set(deS2);
      exV1.set(deV1);
      exV2.set(deV2);
      exImm.set(deImm);
      exLane.set(word.bits(1, 0));
      exDest.set(fA);
      exS1Addr.set(s1Addr);
      exS2Addr.set(s2Addr);
      exV1Addr.set(v1Addr);
      exV2Addr.set(v2Addr);
      exUse.s1.set(use.s1);
      exUse.s2.set(use.s2);
      exUse.v1.set(use.v1);
      exUse.v2.set(use.v2);
      exEnd.set(endKind);
      exCycle.set(0);
    })
      .elsewhen(exAdvance, () => {
        exValid.set(false);
        exCycle.set(0);
      })
      .elsewhen(exValid, () => {
        // Held in EX: keep the forwarded operands (their producers may leave the pipeline meanwhile).
        exS1.set(a);
        exS2.set(s2);
        exV1.set(va);
        exV2.set(vb);
        m.when(ready.and(exCycle.ne(latency)), () => exCycle.set(exCycle.add(1)));
      });
    // Register writes recorded for EX's instruction (a halting or illegal one writes nothing).
    const exWritesS = x.writesScalar.and(exDest.ne(0)).and(exDest.ne(31)).and(exEnd.eq(END.none));
    const exWritesV = x.writesVector.and(exDest.bits(3, 0).ne(0)).and(exEnd.eq(END.none));
    m.when(exAdvance.and(x.writesFlag), () => flag.set(exFlag));
    m.when(io.kernel_mode.and(io.pd_clear), () => flag.set(0));

    // EX -> MEM
    m.when(exAdvance, () => {
      memValid.set(true);
      memPc.set(exPc);
      memLoad.set(x.load.and(exEnd.eq(END.none)));
      memStore.set(x.store.and(exEnd.eq(END.none)));
      memVector.set(x.vectorMemory);
      memWritesS.set(exWritesS);
      memWritesV.set(exWritesV);
      memDest.set(exDest);
      memResultS.set(scalarResult);
      memResultV.set(vectorOut);
      memAddr.set(scalarResult);
      memStoreData.set(vectorOut);
      memEnd.set(exEnd);
    }).elsewhen(memStall.not(), () => memValid.set(false));

    // MEM -> WB
    m.when(memValid.and(memDone), () => {
      wbValid.set(true);
      wbPc.set(memPc);
      wbWritesS.set(memWritesS);
      wbWritesV.set(memWritesV);
      wbDest.set(memDest);
      wbResultS.set(mux(memLoad, loadedS, memResultS));
      wbResultV.set(mux(memLoad, loadedV, memResultV));
      wbEnd.set(memEnd);
      wbFault.set(memFaulted);
    }).otherwise(() => wbValid.set(false));
  },
);
