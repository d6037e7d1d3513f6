// Float operations scheduled by the cycle their result stands: an operand that is ready early is delayed to meet the later one.
import { hideFromSourceLocations, lit, type Bits, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FMax, FMin, FMul, FToI, IToF, delay } from '../../hdl/lib/index.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';

// Units and alignment registers carry the datapath line that asked for them, not this file's.
hideFromSourceLocations(import.meta.url);

/** Pipeline depths of the float units a texture block instantiates (min/max are always one registered cycle). */
export interface TextureFloatLatencies {
  readonly fadd: number;
  readonly fmul: number;
  readonly itof: number;
  readonly ftoi: number;
}

export const defaultTextureFloatLatencies: TextureFloatLatencies = {
  fadd: gpuFloatLatencies.fadd,
  fmul: gpuFloatLatencies.fmul,
  itof: gpuFloatLatencies.itof,
  ftoi: gpuFloatLatencies.ftoi,
};

const MAX_UNIT_LATENCY = 40;

/** Throws a clear error, naming the block, for a latency it cannot be built with. */
export function checkTextureLatencies(block: string, p: TextureFloatLatencies): void {
  for (const unit of ['fadd', 'fmul', 'itof', 'ftoi'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`${block}: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
}

/** A value and the cycle (after the item entered at cycle 0) at which it stands. */
export interface Timed<V extends Bits = UIntValue> {
  readonly v: V;
  readonly at: number;
}

const SIGN = 0x80000000;
/** Cycles of a min/max: the combinational compare and select, then a register. */
export const MIN_MAX_LATENCY = 1;

/** Builds float units and the delay registers that align their operands, inside one module. */
export class TimedFloat {
  private delays = 0;
  constructor(
    private readonly m: ModuleBuilder,
    readonly lat: TextureFloatLatencies,
  ) {}

  /** A module input or constant, standing at cycle 0. */
  static now<V extends Bits>(v: V): Timed<V> {
    return { v, at: 0 };
  }

  /** A 32-bit constant (needs no register to meet anything). */
  konst(bits: number): Timed {
    return { v: lit(bits >>> 0, 32), at: Number.NEGATIVE_INFINITY };
  }

  /** x delayed to stand at `cycle` (≥ x.at). */
  at<V extends Bits>(x: Timed<V>, cycle: number, name: string): V {
    if (x.at === Number.NEGATIVE_INFINITY) return x.v;
    if (cycle < x.at) throw new Error(`TimedFloat: ${name} stands at cycle ${x.at}, wanted at ${cycle}`);
    return delay(this.m, x.v, cycle - x.at, `${name}_al${this.delays++}`) as V;
  }

  /** The cycle at which all of xs stand. */
  static latest(xs: readonly Timed<Bits>[]): number {
    return Math.max(0, ...xs.map((x) => x.at));
  }

  /** f applied to the operands aligned to the latest of them (combinational logic, no register). */
  comb<R extends Bits>(name: string, xs: readonly Timed<Bits>[], f: (...vs: Bits[]) => R): Timed<R> {
    const at = TimedFloat.latest(xs);
    return { v: f(...xs.map((x, k) => this.at(x, at, `${name}${k}`))), at };
  }

  /** x registered once. */
  reg<V extends Bits>(x: Timed<V>, name: string): Timed<V> {
    return { v: this.m.regNext(x.v, { name }) as V, at: x.at + 1 };
  }

  private unit(def: typeof FAdd | typeof FMul | typeof FMin | typeof FMax, stages: number, a: Timed, b: Timed, name: string): Timed {
    const at = TimedFloat.latest([a, b]);
    const u = this.m.instance(def, { stages }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(this.at(a, at, `${name}_a`));
    u.io.b.set(this.at(b, at, `${name}_b`));
    return { v: u.io.result, at: at + stages };
  }

  add = (a: Timed, b: Timed, name: string): Timed => this.unit(FAdd, this.lat.fadd, a, b, name);
  /** a − b as a + (−b): flipping the sign is exact, so the rounding is that of fsub (a NaN b stays NaN). */
  sub = (a: Timed, b: Timed, name: string): Timed => this.unit(FAdd, this.lat.fadd, a, { v: b.v.xor(SIGN), at: b.at }, name);
  mul = (a: Timed, b: Timed, name: string): Timed => this.unit(FMul, this.lat.fmul, a, b, name);
  /** maximumNumber / minimumNumber (a NaN operand yields the other), registered. */
  max = (a: Timed, b: Timed, name: string): Timed => this.reg(this.unit(FMax, 0, a, b, name), `${name}_r`);
  min = (a: Timed, b: Timed, name: string): Timed => this.reg(this.unit(FMin, 0, a, b, name), `${name}_r`);

  private unary(def: typeof IToF | typeof FToI, stages: number, a: Timed, name: string): Timed {
    const u = this.m.instance(def, { stages }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(a.v);
    return { v: u.io.result, at: Math.max(0, a.at) + stages };
  }

  /** int32 → binary32. */
  itof = (a: Timed, name: string): Timed => this.unary(IToF, this.lat.itof, a, name);
  /** binary32 → int32, toward zero, saturating; NaN → 0. */
  ftoi = (a: Timed, name: string): Timed => this.unary(FToI, this.lat.ftoi, a, name);
}
