// The float operations of the triangle tests as unit instances (FAdd, FMul, FDiv, FCmp), each named after its use.
import { hideFromSourceLocations, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FCmp, FDiv, FMul } from '../../hdl/lib/index.ts';
import type { Vec3 } from './vec3.ts';
import type { FloatUnits } from './watertightIntersection.ts';

// Each instance carries the datapath's line that asked for it, not this file's.
hideFromSourceLocations(import.meta.url);

const SIGN = 0x80000000;

/** Float unit latencies of the test pipeline. */
export interface TestLatencies {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
}

/** Float operations as unit instances (each its own hardware: the pipeline needs them all every cycle). */
export class FloatOps implements FloatUnits {
  private n = 0;
  constructor(
    private readonly m: ModuleBuilder,
    private readonly p: TestLatencies,
  ) {}

  private binary(def: typeof FAdd | typeof FMul | typeof FDiv, stages: number, a: UIntValue, b: UIntValue, name: string): UIntValue {
    const u = this.m.instance(def, { stages }, { name: `${name}${this.n++}` });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.result;
  }
  add = (a: UIntValue, b: UIntValue) => this.binary(FAdd, this.p.fadd, a, b, 'fadd');
  /** a − b as a + (−b): flipping the sign is exact, so the rounding is that of a subtraction. */
  sub = (a: UIntValue, b: UIntValue) => this.binary(FAdd, this.p.fadd, a, b.xor(SIGN), 'fsub');
  mul = (a: UIntValue, b: UIntValue) => this.binary(FMul, this.p.fmul, a, b, 'fmul');
  div = (a: UIntValue, b: UIntValue) => this.binary(FDiv, this.p.fdiv, a, b, 'fdiv');
  sub3 = (a: Vec3, b: Vec3): Vec3 => [this.sub(a[0], b[0]), this.sub(a[1], b[1]), this.sub(a[2], b[2])];
  /** The products of cross(a, b) (one multiplier stage), then their differences (one adder stage). */
  crossProducts = (a: Vec3, b: Vec3) => [this.mul(a[1], b[2]), this.mul(a[2], b[1]), this.mul(a[2], b[0]), this.mul(a[0], b[2]), this.mul(a[0], b[1]), this.mul(a[1], b[0])] as const;
  crossDifferences = (x: readonly UIntValue[]): Vec3 => [this.sub(x[0]!, x[1]!), this.sub(x[2]!, x[3]!), this.sub(x[4]!, x[5]!)];
  products3 = (a: Vec3, b: Vec3): Vec3 => [this.mul(a[0], b[0]), this.mul(a[1], b[1]), this.mul(a[2], b[2])];
  /** The flag of a − b (Z 00, unordered 01, P 10, N 11), combinational. */
  compare = (a: UIntValue, b: UIntValue): UIntValue => {
    const u = this.m.instance(FCmp, { stages: 0 }, { name: `fcmp${this.n++}` });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.flags;
  };
}
