// The BVH8 box engine: the slab tests of one 8-wide node's child boxes per cycle, the hit children sorted nearest first by a pipelined sorting network (docs/bvh-hardware.md).
import { UInt, Vec, cat, defineModule, input, lit, mux, unpackBits, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { ChildBox } from '../bvh/bvhWords.ts';
import { corners } from '../bvh/rayBox4.ts';
import { checkRayBoxParams, rayBoxPorts, slabHitCycle, slabHits, type RayBoxParams } from '../bvh/slabPipeline.ts';
import { oddEvenMergeSortLayers, sortPipelined } from './sortingNetwork.ts';

/** Children of a BVH8 box node. */
export const BVH8_CHILDREN = 8;
const SLOT_BITS = 3;
const SLOTS = Array.from({ length: BVH8_CHILDREN }, (_, c) => c);

/** The eight child boxes: child c's min x, y, z, max x, y, z at bits [192c + 32k + 31 : 192c + 32k]. */
export const Bvh8NodeBoxes = Vec(BVH8_CHILDREN, ChildBox);

/** Latencies of the float units the engine is built from, and the width of the tag that rides along. */
export type RayBox8Params = RayBoxParams;

export const defaultRayBox8Params: RayBox8Params = { fadd: 3, fmul: 3, tagBits: 16 };

/** The sorting network's layers (Batcher, 8 keys: 19 comparators in 6 layers). */
export const RAY_BOX8_SORT_LAYERS = oddEvenMergeSortLayers(BVH8_CHILDREN);

/**
 * Cycles from a node entering (in_valid) to its result (out_valid): subtract, multiply, three min/max
 * levels, the tfar multiply, the key stage (hit test, sort keys), one cycle per sorting-network layer.
 */
export function rayBox8Latency(p: RayBox8Params): number {
  checkRayBoxParams('RayBox8', p);
  return slabHitCycle(p) + 1 + RAY_BOX8_SORT_LAYERS.length;
}

/** popcount of some Bool values, as `width` bits. */
const popcount = (bits: readonly BoolValue[], width: number): UIntValue => bits.reduce<UIntValue>((acc, b) => acc.add(b.zext(width)), lit(0, width));

export const RayBox8 = defineModule(
  'RayBox8',
  (p: RayBox8Params) => {
    checkRayBoxParams('RayBox8', p);
    return {
      ...rayBoxPorts(p.tagBits, BVH8_CHILDREN),
      /** binary32: tnear is clamped below at it (the ray query's fmax(+0, tmin), rayAccept.ts boxClamp; +0 for a plain trace). */
      lower: input(UInt(32)),
    };
  },
  (m, io, p) => {
    const latency = rayBox8Latency(p);
    const sortStages = RAY_BOX8_SORT_LAYERS.length;
    const boxes = unpackBits(Bvh8NodeBoxes, io.boxes);
    const { tnear, hit } = slabHits(m, p, { origin: io.origin, invDir: io.inv_dir, limit: io.limit, lower: io.lower, boxes: SLOTS.map((c) => corners(boxes.at(c))), childValid: io.child_valid });

    // ------------------------------------------------------------------ the key stage
    // Key = {miss, tnear (0 for a miss), slot}: hits before misses, hits by (tnear, slot) as childOrder
    // (tnear ≥ +0 is never NaN, so its bits order as unsigned integers), misses by slot. Keys are distinct.
    const keys = SLOTS.map((c) => m.regNext(cat(hit[c]!.not(), mux(hit[c]!, tnear[c]!, lit(0, 32)), lit(c, SLOT_BITS)), { name: `key${c}` }));
    const hitMask = m.regNext(cat(...[...hit].reverse()), { name: 'hit_mask' });

    // ------------------------------------------------------------------ the sorting network, one layer per cycle
    const sorted = sortPipelined(m, RAY_BOX8_SORT_LAYERS, keys, 'sort');
    io.order.set(cat(...sorted.map((k) => k.trunc(SLOT_BITS)).reverse()));
    io.hit_count.set(delay(m, popcount(SLOTS.map((c) => hitMask.bit(c)), 4), sortStages, 'hit_count_out'));
    io.hit.set(delay(m, hitMask, sortStages, 'hit_out'));
    io.tnear.set(delay(m, cat(...[...tnear].reverse()), 1 + sortStages, 'tnear_out'));
    io.out_tag.set(delay(m, io.tag, latency, 'tag'));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
