// The ray–box unit of BVH traversal: the slab test of one BVH4 node's four child boxes per cycle, the hit children ordered nearest first (docs/bvh-hardware.md).
import { UInt, cat, defineModule, input, lit, mux, unpackBits, type BoolValue, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { lanes3 } from '../icCore/vec3.ts';
import { CHILDREN, NodeBoxes, type ChildBox } from './bvhWords.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { checkRayBoxParams, rayBoxPorts, slabHitCycle, slabHits, type RayBoxParams } from './slabPipeline.ts';

/** Latencies of the float units the unit is built from, and the width of the tag that rides along. */
export type RayBox4Params = RayBoxParams;

export const defaultRayBox4Params: RayBox4Params = { fadd: 3, fmul: 3, tagBits: 16 };

export { CHILDREN };

/** Throws a clear error for a latency or tag width the unit cannot be built with. */
export const checkRayBox4Params = (p: RayBox4Params): void => checkRayBoxParams('RayBox4', p);

/**
 * Cycles from a node entering (in_valid) to its result (out_valid): subtract, multiply, three min/max
 * levels, the tfar multiply, the compare stage (hit test and the pairwise tnear order), the order step.
 */
export function rayBox4Latency(p: RayBox4Params): number {
  checkRayBox4Params(p);
  return slabHitCycle(p) + 2;
}

/** A child's box corners as lanes. */
export const corners = (box: ValueOf<typeof ChildBox>) => ({ min: lanes3(box.min), max: lanes3(box.max) });

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

export const RayBox4 = defineModule(
  'RayBox4',
  (p: RayBox4Params) => {
    checkRayBox4Params(p);
    return {
      ...rayBoxPorts(p.tagBits, CHILDREN),
      /** binary32: tnear is clamped below at it (the ray query's fmax(+0, tmin); +0 for a plain trace). */
      lower: input(UInt(32)),
    };
  },
  (m, io, p) => {
    const latency = rayBox4Latency(p);
    const boxes = unpackBits(NodeBoxes, io.boxes);
    const { tnear: tnearWait, hit: hitNow } = slabHits(m, p, { origin: io.origin, invDir: io.inv_dir, limit: io.limit, lower: io.lower, boxes: [0, 1, 2, 3].map((c) => corners(boxes.at(c))), childValid: io.child_valid });

    // ------------------------------------------------------------------ the hit test and the pairwise order
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
