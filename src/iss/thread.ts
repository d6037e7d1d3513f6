// One RT core thread of the ISA simulator: explicit architectural state and a step() that retires one instruction.
import { BY_OPCODE, BRANCH_TAKEN, REG, VREG, fieldOf, threadBase, type InstructionSpec } from '../isa/instructions.ts';
import { fadd, fsub, fmul, fdiv, fsqrt, fcmp, itof, ftoi, FLAG_ZERO, FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_UNORDERED } from '../golden/float32.ts';
import { executeTxd } from './txdInstruction.ts';
import type { Vec3, Vec4 } from '../golden/rayCaster.ts';
import type { Memory } from './memory.ts';
import type { RayQuery } from '../golden/rayQuery.ts';

/**
 * Answers a `trace`: RV14 (`hit`) and RV15 (`normal`) after the context switch, and `hitParameters` = (t, u, v,
 * instance) as integer bits (instance 0xFFFFFFFF outside an instance, all zero on a miss), which `trace RVa` writes
 * to RV13; `fault` when the ray read past the loaded BVH. `query` is RVa's (tmin, tmax, flags) for `trace RVa`,
 * undefined for plain `trace` (the casters then use DEFAULT_RAY_QUERY).
 */
export type Tracer = (
  origin: Vec3,
  direction: Vec3,
  query: RayQuery | undefined,
) => { readonly hit: Vec4; readonly normal: Vec4; readonly fault?: boolean; readonly hitParameters: Vec4 };

/** The ray a trace cast and its answer (for lockstep checkers). */
export interface TraceRecord {
  readonly origin: Vec3;
  readonly direction: Vec3;
  /** `trace RVa`: RVa's (tmin, tmax, flags) as the tracer got them; absent for plain `trace`. */
  readonly query?: RayQuery;
  readonly hit: Vec4;
  readonly normal: Vec4;
  /** RV13 after the trace: the tracer's (t, u, v, instance) for `trace RVa`, all zero after plain `trace`. */
  readonly hitParameters: Vec4;
}

/**
 * What one step retired. Writes to R0, RV0 and R31 are not recorded. A load records its effective
 * byte address; a store only when it was performed. `memoryFault` marks a faulting load or store, `traceFault` a trace
 * whose ray read past the loaded BVH (it answers a miss; the thread continues, as after a memory fault).
 */
export interface Retired {
  readonly pc: number;
  /** The instruction word (0 when the PC was outside instruction memory). */
  readonly word: number;
  scalar?: { reg: number; value: number };
  vector?: { reg: number; value: Vec4 };
  flag?: number;
  store?: { addr: number; words: number[] };
  load?: { addr: number };
  memoryFault?: true;
  traceFault?: true;
  /** txd's TxdStatus bits (only when the machine has texture memory and so executed it). */
  textureStatus?: number;
  event?: 'trace' | 'fin' | 'fault-end';
  trace?: TraceRecord;
}

const sext16 = (x: number): number => (x << 16) >> 16;
const INT_MIN = -0x80000000;

/** Signed 32-bit division: truncating; x / 0 = −1; INT_MIN / −1 = INT_MIN. Returns the 32-bit pattern. */
export function idiv(a: number, b: number): number {
  const x = a | 0;
  const y = b | 0;
  if (y === 0) return 0xffffffff;
  if (x === INT_MIN && y === -1) return 0x80000000;
  return Math.trunc(x / y) >>> 0;
}

/** The ISA flag of a signed integer comparison. */
export function icmpFlag(a: number, b: number): number {
  const x = a | 0;
  const y = b | 0;
  return x === y ? FLAG_ZERO : x < y ? FLAG_NEGATIVE : FLAG_POSITIVE;
}

const FLOAT_OPS: Readonly<Record<string, (a: number, b: number) => number>> = {
  add: fadd,
  sub: fsub,
  mul: fmul,
  mul_ele: fmul,
  div: fdiv,
};

const INT_OPS: Readonly<Record<string, (a: number, b: number) => number>> = {
  add: (a, b) => (a + b) >>> 0,
  sub: (a, b) => (a - b) >>> 0,
  mul: (a, b) => Math.imul(a, b) >>> 0,
  div: idiv,
};

const LOGIC_OPS: Readonly<Record<string, (a: number, b: number) => number>> = {
  and: (a, b) => (a & b) >>> 0,
  or: (a, b) => (a | b) >>> 0,
  xor: (a, b) => (a ^ b) >>> 0,
};

/** The operation name after an `xx_` prefix (`vv_mul_ele` → `mul_ele`, `ii_addi` → `addi`). */
const opName = (mnemonic: string): string => mnemonic.slice(3);

export class Thread {
  /** Scalar registers; r[0] stays zero and r[31] is unused (R31 reads as PC + 4). */
  readonly r = new Uint32Array(32);
  /** Vector registers: lane i of RVn at 4n + i; RV0 stays zero. */
  readonly v = new Uint32Array(64);
  flag = FLAG_ZERO;
  pc = 0;
  fault = false;
  done = false;
  /** Instructions retired (a fault-ending fetch is not counted). */
  retired = 0;
  /** Address of the next instruction while one executes (branches, ret and trace change it). */
  private nextPc = 0;

  constructor(
    readonly tid: number,
    readonly pixel: number,
    private readonly mem: Memory,
    private readonly tracer: Tracer,
  ) {
    this.reset(threadBase(tid), 0);
  }

  /** The start state (docs/isa.md), with the given R29 and PC. */
  private reset(sp: number, pc: number): void {
    this.r.fill(0);
    this.v.fill(0);
    this.r[REG.pixelId] = this.pixel >>> 0;
    this.r[REG.sp] = sp >>> 0;
    this.flag = FLAG_ZERO;
    this.pc = pc >>> 0;
  }

  /** Scalar register read: R31 is PC + 4. */
  readS(n: number): number {
    return n === REG.pc ? (this.pc + 4) >>> 0 : this.r[n]!;
  }

  readV(n: number): Vec4 {
    const b = 4 * (n & 15);
    return [this.v[b]!, this.v[b + 1]!, this.v[b + 2]!, this.v[b + 3]!];
  }

  private writeS(rec: Retired, n: number, value: number): void {
    if (n === REG.zero || n === REG.pc) return;
    this.r[n] = value;
    rec.scalar = { reg: n, value: value >>> 0 };
  }

  private writeV(rec: Retired, n: number, value: Vec4): void {
    const reg = n & 15;
    if (reg === VREG.zero) return;
    this.v.set(value, 4 * reg);
    rec.vector = { reg, value: value.map((x) => x >>> 0) as Vec4 };
  }

  /** Execute one instruction. Must not be called once `done`. */
  step(): Retired {
    if (this.done) throw new Error(`internal: step() on finished thread ${this.tid} (pixel ${this.pixel})`);
    const pc = this.pc;
    const word = this.mem.fetch(pc);
    const spec = word === undefined ? undefined : BY_OPCODE.get(fieldOf(word, 'opcode'));
    const rec: Retired = { pc, word: word ?? 0 };
    // Without texture memory txd is illegal, as on an RT core built without a texture unit.
    if (spec === undefined || (spec.cls === 'texture' && !this.mem.texture)) {
      this.fault = true;
      this.done = true;
      rec.event = 'fault-end';
      return rec;
    }
    this.nextPc = (pc + 4) >>> 0;
    this.execute(spec, word!, rec);
    this.pc = this.nextPc;
    this.retired++;
    return rec;
  }

  private execute(spec: InstructionSpec, w: number, rec: Retired): void {
    const A = fieldOf(w, 'A');
    const B = fieldOf(w, 'B');
    const C = fieldOf(w, 'C');
    const imm = fieldOf(w, 'imm');
    const m = spec.mnemonic;
    switch (spec.cls) {
      case 'vector': {
        const op = FLOAT_OPS[opName(m)]!;
        const a = this.readV(B);
        const b = m.startsWith('vv_') ? this.readV(C) : [0, 1, 2, 3].map(() => this.readS(C));
        this.writeV(rec, A, [op(a[0], b[0]!), op(a[1], b[1]!), op(a[2], b[2]!), op(a[3], b[3]!)]);
        return;
      }
      case 'logic':
        this.writeS(rec, A, m === 'not' ? ~this.readS(B) >>> 0 : LOGIC_OPS[m]!(this.readS(B), this.readS(C)));
        return;
      case 'int':
        if (m === 'cmp_i') this.setFlag(rec, icmpFlag(this.readS(B), this.readS(C)));
        else this.writeS(rec, A, INT_OPS[opName(m)]!(this.readS(B), this.readS(C)));
        return;
      case 'immediate':
        this.writeS(rec, A, INT_OPS[opName(m).slice(0, -1)]!(this.readS(B), sext16(imm) >>> 0));
        return;
      case 'float':
        this.executeFloat(m, A, B, C, rec);
        return;
      case 'move':
        this.executeMove(m, A, B, w, rec);
        return;
      case 'load':
        this.executeLoad(m, A, (this.readS(B) + sext16(imm)) >>> 0, rec);
        return;
      case 'store':
        this.executeStore(m, A, (this.readS(B) + sext16(imm)) >>> 0, rec);
        return;
      case 'branch':
        if (BRANCH_TAKEN[m]!(this.flag)) this.nextPc = (this.nextPc + sext16(imm)) >>> 0;
        return;
      case 'ret':
        this.nextPc = this.readS(B);
        return;
      case 'trace':
        this.executeTrace(A & 15, rec);
        return;
      case 'fin':
        this.done = true;
        rec.event = 'fin';
        return;
      case 'texture':
        this.executeTexture(A, B, C, fieldOf(w, 'mask'), rec);
        return;
    }
  }

  private setFlag(rec: Retired, flag: number): void {
    this.flag = flag;
    rec.flag = flag;
  }

  private executeFloat(m: string, A: number, B: number, C: number, rec: Retired): void {
    const b = this.readS(B);
    switch (m) {
      case 'cmp_f':
        return this.setFlag(rec, fcmp(b, this.readS(C)).flags);
      case 's_itof':
        return this.writeS(rec, A, itof(b));
      case 's_ftoi':
        return this.writeS(rec, A, ftoi(b));
      case 's_sqrt':
        return this.writeS(rec, A, fsqrt(b));
      case 'v_reduce': {
        const [x, y, z, u] = this.readV(B);
        return this.writeS(rec, A, fadd(fadd(x, y), fadd(z, u)));
      }
      default:
        return this.writeS(rec, A, FLOAT_OPS[opName(m)]!(b, this.readS(C)));
    }
  }

  private executeMove(m: string, A: number, B: number, w: number, rec: Retired): void {
    const lane = fieldOf(w, 'lane');
    const imm = fieldOf(w, 'imm');
    switch (m) {
      case 's_write_high':
        return this.writeS(rec, A, ((imm << 16) | (this.readS(B) & 0xffff)) >>> 0);
      case 's_write_low':
        return this.writeS(rec, A, ((this.readS(B) & 0xffff0000) | imm) >>> 0);
      case 's_get_from_v':
        return this.writeS(rec, A, this.readV(B)[lane]!);
      default: {
        // v_get_from_s: only the chosen lane changes.
        const vec = this.readV(A);
        vec[lane] = this.readS(B);
        return this.writeV(rec, A, vec);
      }
    }
  }

  private executeLoad(m: string, A: number, addr: number, rec: Retired): void {
    rec.load = { addr };
    const vector = m === 'v_load_16byte';
    const res = vector ? this.mem.loadVector(this.tid, addr) : this.mem.loadScalar(this.tid, addr);
    if (!res.ok) this.memoryFault(rec);
    if (vector) this.writeV(rec, A, res.words as Vec4);
    else this.writeS(rec, A, res.words[0]!);
  }

  private executeStore(m: string, A: number, addr: number, rec: Retired): void {
    const words = m === 'v_store_16byte' ? this.readV(A) : [this.readS(A)];
    if (this.mem.store(this.tid, addr, words)) rec.store = { addr, words };
    else this.memoryFault(rec);
  }

  private memoryFault(rec: Retired): void {
    this.fault = true;
    rec.memoryFault = true;
  }

  /**
   * txd RVd, RVa, RVb, #mask: the golden sampleTxd with RVa = (s, t, handle, control) and RVb = (ds/dx,
   * ds/dy, dt/dx, dt/dy); the masked lanes of RVd are written, the flag is Z on success and unordered
   * when a status bit is set. Only called with texture memory (without, step() ends the thread with a fault).
   */
  private executeTexture(dest: number, coords: number, derivatives: number, writeMask: number, rec: Retired): void {
    const r = executeTxd(this.mem.texture!, this.readV(coords), this.readV(derivatives), writeMask, this.readV(dest));
    this.writeV(rec, dest, r.rgba);
    this.setFlag(rec, r.status === 0 ? FLAG_ZERO : FLAG_UNORDERED);
    rec.textureStatus = r.status;
  }

  /**
   * Cast the ray of RV14/RV15, then resume in the start state with R29 kept and the answer in RV14/RV15.
   * `query` = a of `trace RVa` (the low 4 bits of field A): RVa = (tmin, tmax, flags, unused) is read before the
   * context switch and the answer's (t, u, v, instance) lands in RV13; 0 is plain `trace`, which leaves RV13 zero.
   */
  private executeTrace(queryRegister: number, rec: Retired): void {
    const o = this.readV(VREG.traceOrigin);
    const d = this.readV(VREG.traceDirection);
    const origin: Vec3 = [o[0], o[1], o[2]];
    const direction: Vec3 = [d[0], d[1], d[2]];
    const q = queryRegister === 0 ? undefined : this.readV(queryRegister);
    const query: RayQuery | undefined = q && { tmin: q[0], tmax: q[1], flags: q[2] };
    const { hit, normal, fault, hitParameters } = this.tracer(origin, direction, query);
    if (fault) {
      this.fault = true;
      rec.traceFault = true;
    }
    this.reset(this.r[REG.sp]!, this.nextPc);
    this.v.set(hit, 4 * VREG.traceOrigin);
    this.v.set(normal, 4 * VREG.traceDirection);
    if (query) this.v.set(hitParameters, 4 * VREG.traceHitParameters);
    rec.event = 'trace';
    rec.trace = { origin, direction, ...(query ? { query } : {}), hit: [...hit], normal: [...normal], hitParameters: this.readV(VREG.traceHitParameters) };
  }
}
