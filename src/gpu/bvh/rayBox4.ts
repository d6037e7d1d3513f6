// The ray–box unit of BVH traversal: the slab test of one BVH4 node's four child boxes per cycle, the hit children ordered nearest first (docs/bvh-hardware.md).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, unpackBits, type BoolValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { FAdd, FCmp, FLAG_NEGATIVE, FLAG_ZERO, FMax, FMin, FMul, INF_BITS } from '../../hdl/lib/index.ts';
import { totalOrderLess } from '../../hdl/lib/index.ts';
import { lanes3, split3, type Vec3 } from '../icCore/vec3.ts';
import { CHILDREN, NodeBoxes, type ChildBox } from './bvhWords.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';

/** Latencies of the float units the unit is built from, and the width of the tag that rides along. */
export interface RayBox4Params {
  readonly fadd: number;
  readonly fmul: number;
  /** Width of `tag` (identifies the ray for the traversal engine), 1 to 256 bits. */
  readonly tagBits: number;
}

export const defaultRayBox4Params: RayBox4Params = { fadd: 3, fmul: 3, tagBits: 16 };

export { CHILDREN };
/** Registered levels of the min/max tree: per-axis lo/hi, pairs, then tnear and the unscaled tfar. */
const MIN_MAX_LEVELS = 3;
const MAX_UNIT_LATENCY = 40;
const MAX_TAG_BITS = 256;

/** tfar is scaled by 1 + 2^-22 (src/golden/rayBox.ts, TFAR_SCALE). */
const TFAR_SCALE = 0x3f800002;
const SIGN = 0x80000000;
const POS_INF = INF_BITS;
const NEG_INF = (SIGN | INF_BITS) >>> 0;

/** Throws a clear error for a latency or tag width the unit cannot be built with. */
export function checkRayBox4Params(p: RayBox4Params): void {
  for (const unit of ['fadd', 'fmul'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`RayBox4: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > MAX_TAG_BITS) throw new Error(`RayBox4: tagBits must be an integer from 1 to ${MAX_TAG_BITS}, got ${p.tagBits}`);
}

/** Cycle (after the node enters at cycle 0) at which tnear and the unscaled tfar leave the min/max tree. */
const minMaxDone = (p: RayBox4Params): number => p.fadd + p.fmul + MIN_MAX_LEVELS;

/**
 * Cycles from a node entering (in_valid) to its result (out_valid): subtract, multiply, three min/max
 * levels, the tfar multiply, the compare stage (hit test and the pairwise tnear order), the order step.
 */
export function rayBox4Latency(p: RayBox4Params): number {
  checkRayBox4Params(p);
  return minMaxDone(p) + p.fmul + 2;
}

const AXES = ['x', 'y', 'z'] as const;

/** A child's box corners as lanes. */
const corners = (box: ValueOf<typeof ChildBox>): { min: Vec3; max: Vec3 } => ({ min: lanes3(box.min), max: lanes3(box.max) });

/** Float operations as unit instances, each its own hardware (every one is busy every cycle). */
class FloatUnits {
  constructor(
    private readonly m: ModuleBuilder,
    private readonly p: RayBox4Params,
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
function slabInterval(m: ModuleBuilder, f: FloatUnits, c: number, box: { min: Vec3; max: Vec3 }, origin: Vec3, inv: Vec3, limit: UIntValue): { tnear: UIntValue; tfarRaw: UIntValue } {
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
  const near2 = m.regNext(f.max(lo[2]!, lit(0, 32), `c${c}_fmax_near_z`), { name: `c${c}_near_z` });
  const far01 = m.regNext(f.min(hi[0]!, hi[1]!, `c${c}_fmin_far_xy`), { name: `c${c}_far_xy` });
  const far2 = m.regNext(f.min(hi[2]!, limit, `c${c}_fmin_far_z`), { name: `c${c}_far_z` });
  const tnear = m.regNext(f.max(near01, near2, `c${c}_fmax_near`), { name: `c${c}_tnear` });
  const tfarRaw = m.regNext(f.min(far01, far2, `c${c}_fmin_far`), { name: `c${c}_tfar_raw` });
  return { tnear, tfarRaw };
}

/** The six child pairs (c, d), c < d. */
const PAIRS = [0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3].filter((d) => d > c).map((d) => [c, d] as const));

/**
 * Bit k: child c of PAIRS[k] = (c, d) visits before child d, by (tnear, slot): tnear ≥ +0 is never
 * NaN, so its bits order as unsigned integers, and the lower slot c wins a tie.
 */
const pairOrder = (tnear: readonly UIntValue[]): UIntValue => cat(...PAIRS.map(([c, d]) => tnear[c]!.le(tnear[d]!)).reverse());

/** popcount of some Bool values, as 3 bits (at most four). */
const count3 = (bits: readonly BoolValue[]): UIntValue => bits.reduce<UIntValue>((acc, b) => acc.add(b.zext(3)), lit(0, 3));

/**
 * The traversal order from the pairwise order bits and the hit mask: a hit child's position is the
 * number of hit children before it; a missed child's is the hit count plus the missed slots below it
 * (so the misses follow in ascending slot order). Positions are distinct, so each output slot is the
 * OR of the children placed there.
 */
function traversalOrder(pairOrderBits: UIntValue, hit: UIntValue): { order: UIntValue; hitCount: UIntValue } {
  const hitBy = [0, 1, 2, 3].map((c) => hit.bit(c));
  const before = (c: number, d: number): BoolValue => {
    const k = PAIRS.findIndex(([x, y]) => (x === c && y === d) || (x === d && y === c));
    return c < d ? pairOrderBits.bit(k) : pairOrderBits.bit(k).not();
  };
  const hitCount = count3(hitBy);
  const position = [0, 1, 2, 3].map((c) => {
    const others = [0, 1, 2, 3].filter((d) => d !== c);
    const hitsBefore = count3(others.map((d) => hitBy[d]!.and(before(d, c))));
    const missesBelow = count3(hitBy.slice(0, c).map((h) => h.not()));
    return mux(hitBy[c]!, hitsBefore, hitCount.add(missesBelow));
  });
  const at = (k: number): UIntValue => position.map((pos, c) => mux(pos.eq(k), lit(c, 2), lit(0, 2))).reduce((a, b) => a.or(b));
  return { order: cat(at(3), at(2), at(1), at(0)), hitCount };
}

/** The unit's ports; `tag` comes back as `out_tag` with the result. */
const rayBox4Ports = (tagBits: number) => ({
  in_valid: input(Bool),
  // The ray: three binary32 words each, x in bits 31:0; inv_dir = 1/d per component (±inf for a zero d).
  origin: input(UInt(96)),
  inv_dir: input(UInt(96)),
  /** binary32: tfar is clamped to it (+inf while the ray has no hit). */
  limit: input(UInt(32)),
  /** Child c's min x, y, z, max x, y, z at bits [192c + 32k + 31 : 192c + 32k]. */
  boxes: input(UInt(NodeBoxes.width)),
  child_valid: input(UInt(CHILDREN)),
  tag: input(UInt(tagBits)),
  // rayBox4Latency(params) cycles later:
  out_valid: output(Bool),
  out_tag: output(UInt(tagBits)),
  /** Child c hit = child_valid[c] and tnear ≤ tfar. */
  hit: output(UInt(CHILDREN)),
  /** Child c's tnear (binary32, ≥ +0) at [32c + 31 : 32c], whether or not it hit. */
  tnear: output(UInt(32 * CHILDREN)),
  /** Slot k at [2k + 1 : 2k]: the hit children nearest first (ties by slot), then the other slots ascending. */
  order: output(UInt(2 * CHILDREN)),
  hit_count: output(UInt(3)),
});

export const RayBox4 = defineModule(
  'RayBox4',
  (p: RayBox4Params) => {
    checkRayBox4Params(p);
    return rayBox4Ports(p.tagBits);
  },
  (m, io, p) => {
    const f = new FloatUnits(m, p);
    const latency = rayBox4Latency(p);
    const treeDone = minMaxDone(p);

    // ------------------------------------------------------------------ slab arithmetic, per child
    const origin = split3(io.origin);
    const inv = split3(delay(m, io.inv_dir, p.fadd, 'inv_dir'));
    const limit = delay(m, io.limit, p.fadd + p.fmul + 1, 'limit');
    const boxes = unpackBits(NodeBoxes, io.boxes);
    const intervals = [0, 1, 2, 3].map((c) => slabInterval(m, f, c, corners(boxes.at(c)), origin, inv, limit));

    // ------------------------------------------------------------------ tfar scaled; then the hit test and the pairwise order
    const childValid = delay(m, io.child_valid, treeDone + p.fmul, 'child_valid');
    const tnearWait = intervals.map(({ tnear }, c) => delay(m, tnear, p.fmul, `c${c}_tnear_wait`));
    const hitNow = intervals.map(({ tfarRaw }, c) => {
      const tfar = f.mul(tfarRaw, lit(TFAR_SCALE, 32), `c${c}_fmul_tfar`);
      return childValid.bit(c).and(f.lessOrEqual(tnearWait[c]!, tfar, `c${c}_fcmp`));
    });
    const hit = m.regNext(cat(hitNow[3]!, hitNow[2]!, hitNow[1]!, hitNow[0]!), { name: 'hit_mask' });
    // Sorting four keys: six comparisons side by side (the keys never move; six bits go on).
    const pairs = m.regNext(pairOrder(tnearWait), { name: 'pair_order' });

    // ------------------------------------------------------------------ the order step, registered at the output
    const { order, hitCount } = traversalOrder(pairs, hit);
    io.order.set(m.regNext(order, { name: 'order_out' }));
    io.hit_count.set(m.regNext(hitCount, { name: 'hit_count_out' }));
    io.hit.set(m.regNext(hit, { name: 'hit_out' }));
    io.tnear.set(delay(m, cat(...[...tnearWait].reverse()), 2, 'tnear_out'));
    io.out_tag.set(delay(m, io.tag, latency, 'tag'));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
