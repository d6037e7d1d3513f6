// Verification helpers for the float units (tests, soak script, co-simulation): the unit catalogue,
// operand generators biased toward exponent edge cases, and a vector runner on the TS simulator.
// Not hardware: it uses the golden reference, which the units never see.
import { elaborate, type Design, type ModuleDef, type PortSpecs } from '../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../hdl/sim/index.ts';
import type { Rng } from '../../util/seededRandom.ts';
import * as ref from '../../golden/float32.ts';
import {
  FAbs,
  FAdd,
  FADD_NATURAL_STAGES,
  FCmp,
  FCMP_NATURAL_STAGES,
  FDiv,
  FDIV_NATURAL_STAGES,
  FMax,
  FMin,
  FMINMAX_NATURAL_STAGES,
  FMul,
  FMUL_NATURAL_STAGES,
  FNeg,
  FSqrt,
  FSQRT_NATURAL_STAGES,
  FSub,
  FToI,
  FTOI_NATURAL_STAGES,
  IToF,
  ITOF_NATURAL_STAGES,
  type FloatUnitParams,
} from '../../hdl/lib/index.ts';

export type FloatOp = 'add' | 'sub' | 'mul' | 'div' | 'sqrt' | 'cmp' | 'itof' | 'ftoi' | 'min' | 'max' | 'abs' | 'neg';

export interface FloatUnitSpec {
  readonly op: FloatOp;
  readonly def: ModuleDef<FloatUnitParams, PortSpecs>;
  /** Operand ports in order: ['a'] or ['a', 'b']. */
  readonly operands: readonly ('a' | 'b')[];
  /** Checked output ports (besides out_valid), in order. */
  readonly outputs: readonly string[];
  /** Expected values of `outputs` for operands a, b (b is ignored by one-operand units). */
  readonly reference: (a: number, b: number) => readonly number[];
  /** Random operands biased toward edge cases. */
  readonly generate: (rng: Rng) => readonly [number, number];
  /** A representative latency (used by the co-simulation designs). */
  readonly stages: number;
  /** The natural depth: one register after every datapath step. */
  readonly natural: number;
}

// ---------------------------------------------------------------- operand generators

const EXP_CENTRES = [0, 1, 127, 254, 255];

/** A biased exponent: near 0, 1, 127, 254, 255 (±3), else uniform. */
export function randomExp(rng: Rng): number {
  if (rng.int(4) === 0) return rng.int(256);
  const e = EXP_CENTRES[rng.int(EXP_CENTRES.length)]! + rng.int(7) - 3;
  return Math.min(255, Math.max(0, e));
}

/** A fraction field: random, or one of the patterns that exercise rounding and normalization. */
export function randomFrac(rng: Rng): number {
  switch (rng.int(10)) {
    case 0:
      return 0;
    case 1:
      return 0x7fffff;
    case 2:
      return rng.int(8); // tiny: deep subnormals, long normalization shifts
    case 3:
      return (rng.u32() >>> (9 + rng.int(23))) & 0x7fffff; // random length
    case 4:
      return (0x7fffff << rng.int(24)) & 0x7fffff; // ones then zeros
    case 5:
      return (rng.u32() & 0x7fffff & ~((1 << rng.int(23)) - 1)) >>> 0; // trailing zeros
    default:
      return rng.u32() & 0x7fffff;
  }
}

export const makeFloat = (sign: number, exp: number, frac: number): number => ((sign << 31) | (exp << 23) | frac) >>> 0;

/** Uniform bits a quarter of the time, else a biased sign/exponent/fraction. */
export function randomFloat(rng: Rng): number {
  if (rng.int(4) === 0) return rng.u32();
  return makeFloat(rng.int(2), randomExp(rng), randomFrac(rng));
}

const clampExp = (e: number) => Math.min(255, Math.max(0, e));

/** Operands for add/sub: cancellation, nearby exponents, alignment distances around the datapath width. */
function addOperands(rng: Rng): readonly [number, number] {
  const a = randomFloat(rng);
  const ea = (a >>> 23) & 0xff;
  switch (rng.int(8)) {
    case 0:
      return [a, rng.int(2) ? a : (a ^ 0x80000000) >>> 0];
    case 1:
      return [a, makeFloat(rng.int(2), ea, randomFrac(rng))];
    case 2:
      return [a, makeFloat(rng.int(2), clampExp(ea + rng.int(61) - 30), randomFrac(rng))];
    case 3:
      return [a, (a + rng.int(9) - 4) >>> 0];
    case 4:
      return [a, ((a ^ 0x80000000) + rng.int(5) - 2) >>> 0];
    default:
      return [a, randomFloat(rng)];
  }
}

/** Operands for mul/div: exponent sums (differences) near underflow and overflow. */
function productOperands(rng: Rng, divide: boolean): readonly [number, number] {
  const a = randomFloat(rng);
  const ea = (a >>> 23) & 0xff;
  if (rng.int(3) !== 0) return [a, randomFloat(rng)];
  // Target result exponent near the subnormal range (-30..2) or the overflow boundary (250..258).
  const target = rng.int(2) ? rng.int(33) - 30 : 250 + rng.int(9);
  const eb = clampExp(divide ? ea - target + 127 : target - ea + 127);
  return [a, makeFloat(rng.int(2), eb, randomFrac(rng))];
}

/** Operands for sqrt: mostly non-negative, some exact squares (of integers and of random floats). */
function sqrtOperands(rng: Rng): readonly [number, number] {
  switch (rng.int(6)) {
    case 0: {
      const k = 1 + rng.int(4096);
      return [ref.fromNumber(k * k), 0];
    }
    case 1: {
      // 12 significant bits: the square is exact in binary32.
      const x = makeFloat(0, 64 + rng.int(128), rng.u32() & 0x7ff000);
      return [ref.fmul(x, x), 0];
    }
    case 2:
      return [randomFloat(rng), 0];
    default:
      return [(randomFloat(rng) & 0x7fffffff) >>> 0, 0];
  }
}

/** int32 operands: uniform, small, near +-2^31, random lengths, and halfway cases of the 24-bit rounding. */
function itofOperands(rng: Rng): readonly [number, number] {
  const negate = (x: number) => (rng.int(2) ? -x >>> 0 : x >>> 0);
  switch (rng.int(6)) {
    case 0:
      return [rng.u32(), 0];
    case 1:
      return [negate(rng.int(1000)), 0];
    case 2:
      return [rng.int(2) ? (0x7fffffff - rng.int(300)) >>> 0 : (0x80000000 + rng.int(300)) >>> 0, 0];
    case 3:
      return [negate(rng.u32() >>> (1 + rng.int(31))), 0];
    default: {
      // A 24-bit significand, then a round bit of 1 and sticky bits that are all zero (a tie) or not.
      const low = rng.int(7); // 24 + 1 + low <= 31 bits: a positive int32
      const sig = 0x800000 | (rng.u32() & 0x7fffff);
      const tail = rng.int(2) ? 0 : rng.int(1 << low);
      const x = sig * 2 ** (low + 1) + 2 ** low + tail;
      return [negate(x), 0];
    }
  }
}

/** float operands for ftoi: exponents around the integer range (126..159), plus the general mix. */
function ftoiOperands(rng: Rng): readonly [number, number] {
  if (rng.int(3) === 0) return [randomFloat(rng), 0];
  return [makeFloat(rng.int(2), 124 + rng.int(37), randomFrac(rng)), 0];
}

// ---------------------------------------------------------------- the catalogue

export const floatUnits: readonly FloatUnitSpec[] = [
  { op: 'add', def: FAdd as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fadd(a, b)], generate: addOperands, stages: 3, natural: FADD_NATURAL_STAGES },
  { op: 'sub', def: FSub as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fsub(a, b)], generate: addOperands, stages: 3, natural: FADD_NATURAL_STAGES },
  { op: 'mul', def: FMul as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fmul(a, b)], generate: (rng) => productOperands(rng, false), stages: 3, natural: FMUL_NATURAL_STAGES },
  { op: 'div', def: FDiv as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fdiv(a, b)], generate: (rng) => productOperands(rng, true), stages: 14, natural: FDIV_NATURAL_STAGES },
  { op: 'sqrt', def: FSqrt as never, operands: ['a'], outputs: ['result'], reference: (a) => [ref.fsqrt(a)], generate: sqrtOperands, stages: 13, natural: FSQRT_NATURAL_STAGES },
  {
    op: 'cmp',
    def: FCmp as never,
    operands: ['a', 'b'],
    outputs: ['flags', 'lt', 'eq', 'gt', 'unordered'],
    reference: (a, b) => {
      const r = ref.fcmp(a, b);
      return [r.flags, +r.lt, +r.eq, +r.gt, +r.unordered];
    },
    generate: addOperands,
    stages: 1,
    natural: FCMP_NATURAL_STAGES,
  },
  { op: 'itof', def: IToF as never, operands: ['a'], outputs: ['result'], reference: (a) => [ref.itof(a)], generate: itofOperands, stages: 2, natural: ITOF_NATURAL_STAGES },
  { op: 'ftoi', def: FToI as never, operands: ['a'], outputs: ['result'], reference: (a) => [ref.ftoi(a)], generate: ftoiOperands, stages: 2, natural: FTOI_NATURAL_STAGES },
  { op: 'min', def: FMin as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fmin(a, b)], generate: addOperands, stages: 1, natural: FMINMAX_NATURAL_STAGES },
  { op: 'max', def: FMax as never, operands: ['a', 'b'], outputs: ['result'], reference: (a, b) => [ref.fmax(a, b)], generate: addOperands, stages: 1, natural: FMINMAX_NATURAL_STAGES },
  { op: 'abs', def: FAbs as never, operands: ['a'], outputs: ['result'], reference: (a) => [ref.fabs(a)], generate: (rng) => [randomFloat(rng), 0], stages: 0, natural: 1 },
  { op: 'neg', def: FNeg as never, operands: ['a'], outputs: ['result'], reference: (a) => [ref.fneg(a)], generate: (rng) => [randomFloat(rng), 0], stages: 0, natural: 1 },
];

export function floatUnit(op: string): FloatUnitSpec {
  const u = floatUnits.find((x) => x.op === op);
  if (!u) throw new Error(`unknown float op '${op}'; ops: ${floatUnits.map((x) => x.op).join(', ')}`);
  return u;
}

// ---------------------------------------------------------------- running vectors

export interface VectorMismatch {
  readonly index: number;
  readonly a: number;
  readonly b: number;
  readonly port: string;
  readonly expected: number;
  readonly got: number;
}

const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;

export function formatVectorMismatch(op: string, m: VectorMismatch): string {
  const show = (x: number) => `${hex(x)} (${ref.toNumber(x)})`;
  return `${op} #${m.index}: a=${show(m.a)} b=${show(m.b)}: ${m.port} = ${hex(m.got)}, expected ${hex(m.expected)}`;
}

/** A compiled unit ready to run vectors. */
export class UnitRunner {
  readonly design: Design;
  readonly sim: Simulator;
  private readonly inputs: string[];
  private readonly hasReset: boolean;

  constructor(
    readonly spec: FloatUnitSpec,
    readonly stages: number,
  ) {
    this.design = elaborate(spec.def, { stages }).design;
    this.sim = compileSimulator(this.design);
    const top = this.design.modules.find((x) => x.name === this.design.top)!;
    this.hasReset = top.ports.some((p) => top.nets[p]!.name === 'rst_n');
    this.inputs = ['in_valid', ...spec.operands, ...(this.hasReset ? ['rst_n'] : [])];
  }

  /**
   * Runs operands a[i], b[i] with in_valid = valid[i] (default all 1), then `stages` idle cycles.
   * Returns, per operation, out_valid and the outputs sampled `stages` cycles after it went in, and
   * out_valid of the first `stages` cycles (before any operation can arrive).
   */
  simulate(a: Uint32Array, b: Uint32Array, valid?: Uint8Array): { outValid: Uint8Array; outputs: Uint32Array[]; earlyValid: number[] } {
    const n = a.length;
    const lat = this.stages;
    const cycles = n + lat;
    const w = this.inputs.length;
    const stim = new Uint32Array(cycles * w);
    for (let i = 0; i < cycles; i++) {
      const row = i * w;
      let k = 0;
      stim[row + k++] = i < n ? (valid ? valid[i]! : 1) : 0;
      stim[row + k++] = i < n ? a[i]! : 0;
      if (this.spec.operands.length === 2) stim[row + k++] = i < n ? b[i]! : 0;
      if (this.hasReset) stim[row + k++] = 1;
    }
    const ports = ['out_valid', ...this.spec.outputs];
    const pw = ports.length;
    const out = this.sim.runVectors(this.inputs, ports, stim, cycles);
    const outValid = new Uint8Array(n);
    const outputs = this.spec.outputs.map(() => new Uint32Array(n));
    for (let i = 0; i < n; i++) {
      const row = (i + lat) * pw;
      outValid[i] = out[row]!;
      for (let k = 0; k < outputs.length; k++) outputs[k]![i] = out[row + 1 + k]!;
    }
    const earlyValid: number[] = [];
    for (let i = 0; i < lat; i++) earlyValid.push(out[i * pw]!);
    return { outValid, outputs, earlyValid };
  }

  /**
   * Runs operands as `simulate` does and checks out_valid (delayed by `stages`) and every output of
   * each valid operation against the reference. Returns up to `maxMismatches` mismatches.
   */
  run(a: Uint32Array, b: Uint32Array, valid?: Uint8Array, maxMismatches = 20): VectorMismatch[] {
    const { outValid, outputs, earlyValid } = this.simulate(a, b, valid);
    const bad: VectorMismatch[] = [];
    earlyValid.forEach((v, i) => {
      if (v !== 0 && bad.length < maxMismatches) bad.push({ index: i - earlyValid.length, a: 0, b: 0, port: 'out_valid', expected: 0, got: v });
    });
    for (let i = 0; i < a.length && bad.length < maxMismatches; i++) {
      const v = valid ? valid[i]! : 1;
      if (outValid[i] !== v) bad.push({ index: i, a: a[i]!, b: b[i]!, port: 'out_valid', expected: v, got: outValid[i]! });
      if (!v) continue;
      const expected = this.spec.reference(a[i]!, b[i]!);
      for (let k = 0; k < expected.length; k++) {
        if (outputs[k]![i] !== expected[k]! >>> 0) bad.push({ index: i, a: a[i]!, b: b[i]!, port: this.spec.outputs[k]!, expected: expected[k]! >>> 0, got: outputs[k]![i]! });
      }
    }
    return bad;
  }

  /** `count` random operations from `rng` (with about one bubble in eight), in batches. */
  runRandom(rng: Rng, count: number, maxMismatches = 20, batch = 100_000): { mismatches: VectorMismatch[]; checked: number } {
    const mismatches: VectorMismatch[] = [];
    let done = 0;
    while (done < count && mismatches.length < maxMismatches) {
      const n = Math.min(batch, count - done);
      const a = new Uint32Array(n);
      const b = new Uint32Array(n);
      const valid = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const [x, y] = this.spec.generate(rng);
        a[i] = x;
        b[i] = y;
        valid[i] = rng.int(8) === 0 ? 0 : 1;
      }
      for (const m of this.run(a, b, valid, maxMismatches - mismatches.length)) mismatches.push({ ...m, index: m.index + done });
      done += n;
    }
    return { mismatches, checked: done };
  }
}
