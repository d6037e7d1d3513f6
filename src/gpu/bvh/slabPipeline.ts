// The pipelined slab test of a node's child boxes, shared by the BVH4 and BVH8 ray–box units: per child tnear and the hit bit (docs/bvh-hardware.md).
import { Bool, UInt, input, lit, mux, output, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { FAdd, FCmp, FLAG_NEGATIVE, FLAG_ZERO, FMax, FMin, FMul, INF_BITS } from '../../hdl/lib/index.ts';
import { totalOrderLess } from '../../hdl/lib/index.ts';
import { split3, type Vec3 } from '../icCore/vec3.ts';
import { delay } from '../../hdl/lib/index.ts';

/** Latencies of the float units a ray–box unit is built from, and the width of the tag that rides along. */
export interface RayBoxParams {
  readonly fadd: number;
  readonly fmul: number;
  /** Width of `tag` (identifies the ray for the traversal engine), 1 to 256 bits. */
  readonly tagBits: number;
}

/** Registered levels of the min/max tree: per-axis lo/hi, pairs, then tnear and the unscaled tfar. */
const MIN_MAX_LEVELS = 3;
const MAX_UNIT_LATENCY = 40;
const MAX_TAG_BITS = 256;

/** tfar is scaled by 1 + 2^-22 (src/golden/rayBox.ts, TFAR_SCALE). */
const TFAR_SCALE = 0x3f800002;
const SIGN = 0x80000000;
const POS_INF = INF_BITS;
const NEG_INF = (SIGN | INF_BITS) >>> 0;

/** Throws a clear error, naming the unit, for a latency or tag width it cannot be built with. */
export function checkRayBoxParams(unitName: string, p: RayBoxParams): void {
  for (const unit of ['fadd', 'fmul'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`${unitName}: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > MAX_TAG_BITS) throw new Error(`${unitName}: tagBits must be an integer from 1 to ${MAX_TAG_BITS}, got ${p.tagBits}`);
}

/** Cycle (after the node enters at cycle 0) at which tnear and the unscaled tfar leave the min/max tree. */
const minMaxDone = (p: RayBoxParams): number => p.fadd + p.fmul + MIN_MAX_LEVELS;

/**
 * Cycle at which slabHits' tnear and hit values stand (combinational, the caller registers them):
 * subtract, multiply, three min/max levels, the tfar multiply.
 */
export const slabHitCycle = (p: RayBoxParams): number => minMaxDone(p) + p.fmul;

const AXES = ['x', 'y', 'z'] as const;

/** Float operations as unit instances, each its own hardware (every one is busy every cycle). */
class FloatUnits {
  constructor(
    private readonly m: ModuleBuilder,
    private readonly p: RayBoxParams,
  ) {}

  private binary(def: typeof FAdd | typeof FMul | typeof FMin | typeof FMax, stages: number, a: UIntValue, b: UIntValue, name: string): UIntValue {
    const u = this.m.instance(def, { stages }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.result;
  }
  /** a − b as a + (−b): flipping the sign is exact, so the rounding is that of a subtraction. */
  sub = (a: UIntValue, b: UIntValue, name: string) => this.binary(FAdd, this.p.fadd, a, b.xor(SIGN), name);
  mul = (a: UIntValue, b: UIntValue, name: string) => this.binary(FMul, this.p.fmul, a, b, name);
  /** Combinational min/max (the caller registers the result: one min/max level per stage); a NaN operand yields the other. */
  min = (a: UIntValue, b: UIntValue, name: string) => this.binary(FMin, 0, a, b, name);
  max = (a: UIntValue, b: UIntValue, name: string) => this.binary(FMax, 0, a, b, name);
  /** a ≤ b (flag of a − b is N or Z), combinational; false when either is NaN. */
  lessOrEqual = (a: UIntValue, b: UIntValue, name: string): BoolValue => {
    const u = this.m.instance(FCmp, { stages: 0 }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.flags.eq(FLAG_NEGATIVE).or(u.io.flags.eq(FLAG_ZERO));
  };
}

const isNaNBits = (x: UIntValue): BoolValue => x.trunc(31).gt(POS_INF); // the magnitude past infinity

/**
 * One axis's interval [min(t0, t1), max(t0, t1)], or (−inf, +inf) when a product is NaN (0 · inf: the
 * ray runs in a face plane, inside the closed slab for every t). Without NaNs, minimumNumber and
 * maximumNumber are one total-order compare (−0 < +0) and two selects.
 */
function axisInterval(t0: UIntValue, t1: UIntValue): { lo: UIntValue; hi: UIntValue } {
  const inSlab = isNaNBits(t0).or(isNaNBits(t1));
  const t0First = totalOrderLess(t0, t1);
  return {
    lo: mux(inSlab, lit(NEG_INF, 32), mux(t0First, t0, t1)),
    hi: mux(inSlab, lit(POS_INF, 32), mux(t0First, t1, t0)),
  };
}

/** tnear and the unscaled tfar of one child: the slab products, then three registered min/max levels (as slabTest). */
function slabInterval(m: ModuleBuilder, f: FloatUnits, c: number, box: { min: Vec3; max: Vec3 }, origin: Vec3, inv: Vec3, clamp: { lower: UIntValue; limit: UIntValue }): { tnear: UIntValue; tfarRaw: UIntValue } {
  const lo: UIntValue[] = [];
  const hi: UIntValue[] = [];
  AXES.forEach((axis, a) => {
    const name = `c${c}_${axis}`;
    const t0 = f.mul(f.sub(box.min[a], origin[a], `${name}_fsub_min`), inv[a], `${name}_fmul_min`);
    const t1 = f.mul(f.sub(box.max[a], origin[a], `${name}_fsub_max`), inv[a], `${name}_fmul_max`);
    const interval = axisInterval(t0, t1);
    lo.push(m.regNext(interval.lo, { name: `${name}_lo` }));
    hi.push(m.regNext(interval.hi, { name: `${name}_hi` }));
  });
  const near01 = m.regNext(f.max(lo[0]!, lo[1]!, `c${c}_fmax_near_xy`), { name: `c${c}_near_xy` });
  const near2 = m.regNext(f.max(lo[2]!, clamp.lower, `c${c}_fmax_near_z`), { name: `c${c}_near_z` });
  const far01 = m.regNext(f.min(hi[0]!, hi[1]!, `c${c}_fmin_far_xy`), { name: `c${c}_far_xy` });
  const far2 = m.regNext(f.min(hi[2]!, clamp.limit, `c${c}_fmin_far_z`), { name: `c${c}_far_z` });
  const tnear = m.regNext(f.max(near01, near2, `c${c}_fmax_near`), { name: `c${c}_tnear` });
  const tfarRaw = m.regNext(f.min(far01, far2, `c${c}_fmin_far`), { name: `c${c}_tfar_raw` });
  return { tnear, tfarRaw };
}

/** The ray and the node's children as a ray–box unit's ports carry them (the node entering at cycle 0). */
export interface SlabInputs {
  /** Three binary32 words, x in bits 31:0. */
  readonly origin: UIntValue;
  /** 1/d per component, as origin. */
  readonly invDir: UIntValue;
  /** binary32: tfar is clamped to it. */
  readonly limit: UIntValue;
  /** binary32: tnear is clamped below at it (a ray query's fmax(+0, tmin), rayAccept.ts boxClamp); +0 when absent. */
  readonly lower?: UIntValue;
  readonly boxes: readonly { min: Vec3; max: Vec3 }[];
  /** Bit c: child c is not empty. */
  readonly childValid: UIntValue;
}

/**
 * The slab test of every child (as slabTest, with `lower` and `limit`), one node per cycle: at cycle slabHitCycle(p)
 * child c's tnear (binary32, ≥ `lower`, never NaN) and hit = child_valid[c] and tnear ≤ tfar, combinational.
 */
export function slabHits(m: ModuleBuilder, p: RayBoxParams, ins: SlabInputs): { tnear: UIntValue[]; hit: BoolValue[] } {
  const f = new FloatUnits(m, p);
  const treeDone = minMaxDone(p);

  // ------------------------------------------------------------------ slab arithmetic, per child
  const origin = split3(ins.origin);
  const inv = split3(delay(m, ins.invDir, p.fadd, 'inv_dir'));
  // The clamps meet the per-axis intervals at the second min/max level.
  const limit = delay(m, ins.limit, p.fadd + p.fmul + 1, 'limit');
  const lower = ins.lower === undefined ? lit(0, 32) : delay(m, ins.lower, p.fadd + p.fmul + 1, 'lower');
  const intervals = ins.boxes.map((box, c) => slabInterval(m, f, c, box, origin, inv, { lower, limit }));

  // ------------------------------------------------------------------ tfar scaled; then the hit test
  const childValid = delay(m, ins.childValid, treeDone + p.fmul, 'child_valid');
  const tnearWait = intervals.map(({ tnear }, c) => delay(m, tnear, p.fmul, `c${c}_tnear_wait`));
  const hitNow = intervals.map(({ tfarRaw }, c) => {
    const tfar = f.mul(tfarRaw, lit(TFAR_SCALE, 32), `c${c}_fmul_tfar`);
    return childValid.bit(c).and(f.lessOrEqual(tnearWait[c]!, tfar, `c${c}_fcmp`));
  });
  return { tnear: tnearWait, hit: hitNow };
}

/** A ray–box unit's ports for nodes of `children` children; `tag` comes back as `out_tag` with the result. */
export const rayBoxPorts = (tagBits: number, children: number) => ({
  in_valid: input(Bool),
  // The ray: three binary32 words each, x in bits 31:0; inv_dir = 1/d per component (±inf for a zero d).
  origin: input(UInt(96)),
  inv_dir: input(UInt(96)),
  /** binary32: tfar is clamped to it (+inf while the ray has no hit). */
  limit: input(UInt(32)),
  /** Child c's min x, y, z, max x, y, z at bits [192c + 32k + 31 : 192c + 32k]. */
  boxes: input(UInt(192 * children)),
  child_valid: input(UInt(children)),
  tag: input(UInt(tagBits)),
  // The unit's latency later:
  out_valid: output(Bool),
  out_tag: output(UInt(tagBits)),
  /** Child c hit = child_valid[c] and tnear ≤ tfar. */
  hit: output(UInt(children)),
  /** Child c's tnear (binary32, ≥ +0) at [32c + 31 : 32c], whether or not it hit. */
  tnear: output(UInt(32 * children)),
  /** Slot k (clog2(children) bits each, slot 0 lowest): the hit children nearest first (ties by slot), then the other slots ascending. */
  order: output(UInt(clog2(children) * children)),
  hit_count: output(UInt(clog2(children + 1))),
});
