// The BVH8 triangle engine: the two triangles of a GFX12 pair tested per cycle (watertight), their hits accepted by the ray's query, and the ray's closest hit updated as the golden traversal does (docs/bvh-hardware.md, docs/rays.md).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, FLAG_ZERO } from '../../hdl/lib/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { acceptsHit, queryFields } from '../icCore/queryAccept.ts';
import { WatertightLane, checkWatertightLatencies, watertightLaneLatency, type WatertightLaneParams } from './watertightLane.ts';

/** Latencies of the float units, and the width of the tag that rides along. */
export interface TrianglePairParams extends WatertightLaneParams {
  /** Width of `tag` (identifies the ray for the traversal engine), 1 to 256 bits. */
  readonly tagBits: number;
}

/** The GPU's float latencies (src/gpu/floatLatencies.ts). */
export const defaultTrianglePairParams: TrianglePairParams = { fadd: 3, fmul: 5, fdiv: 14, tagBits: 16 };

const MAX_TAG_BITS = 256;
/** GFX12 primitive indices are at most 31 bits; the ports carry 32. */
const INDEX_BITS = 32;

function checkTrianglePairParams(p: TrianglePairParams): void {
  checkWatertightLatencies('TrianglePair', p);
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > MAX_TAG_BITS) throw new Error(`TrianglePair: tagBits must be an integer from 1 to ${MAX_TAG_BITS}, got ${p.tagBits}`);
}

/** Cycles from a pair entering (in_valid) to its result (out_valid): the lanes' (the test and its output register), then the selection stage. */
export function trianglePairLatency(p: TrianglePairParams): number {
  checkTrianglePairParams(p);
  return watertightLaneLatency(p) + 1;
}

const trianglePairPorts = (tagBits: number) => ({
  in_valid: input(Bool),
  // The ray: origin (x in bits 31:0) and its watertight constants, computed once per ray by the traversal
  // (watertightRay in src/golden/watertight.ts): axes = rayAxes(d), kx, ky, kz 2 bits each, kx lowest;
  // shear = Sx, Sy, Sz = d[kx]/d[kz], d[ky]/d[kz], 1/d[kz], Sx lowest.
  origin: input(UInt(96)),
  axes: input(UInt(6)),
  shear: input(UInt(96)),
  /** Triangle k's v0, v1, v2 at [288k + 96j + 95 : 288k + 96j]. */
  vertices: input(UInt(2 * 288)),
  /** Bit k: triangle k of the pair exists (a pair may hold one triangle). */
  active: input(UInt(2)),
  /** Triangle k's primitive index at [32k + 31 : 32k] (the tie rule: the lower index wins an equal t). */
  prim_index: input(UInt(2 * INDEX_BITS)),
  /** Bit k: triangle k is one-sided (its primitive node's double_sided bit clear): the query's CULL_BACK / CULL_FRONT apply to it. */
  one_sided: input(UInt(2)),
  /**
   * The ray's query as the core's ray_query carries it (docs/rays.md): tmin [31:0], tmax [63:32], the flags [95:64]. A hit is
   * accepted (acceptsHit) only inside [tmin, tmax], with a ray mask that is not 0 (the geometry mask was the box child's), and
   * not culled; ANY_HIT (flags bit 0) asks for `terminate`.
   */
  query: input(UInt(96)),
  // The ray's closest accepted hit so far (best_valid 0: none).
  best_valid: input(Bool),
  best_t: input(UInt(32)),
  best_index: input(UInt(INDEX_BITS)),
  tag: input(UInt(tagBits)),
  // trianglePairLatency(params) cycles later:
  out_valid: output(Bool),
  out_tag: output(UInt(tagBits)),
  /** Bit k: triangle k is active, hit, and its hit accepted by the query. */
  hit: output(UInt(2)),
  /** Triangle k's t at [32k + 31 : 32k], whether or not it is hit. */
  t: output(UInt(64)),
  /** Triangle k's barycentrics V / det and W / det at [32k + 31 : 32k], whether or not it is hit. */
  u: output(UInt(64)),
  v: output(UInt(64)),
  /** Triangle k's cross(e1, e2) at [96k + 95 : 96k]. */
  normal: output(UInt(192)),
  /** The closest of the incoming best and the accepted hits of triangle 0 and triangle 1, in that order, by `closer` (src/bvh/traversal/bvhCaster.ts). */
  best_valid_out: output(Bool),
  best_t_out: output(UInt(32)),
  best_index_out: output(UInt(INDEX_BITS)),
  /** One-hot: bit k when triangle k became the best; 0 when the incoming best stays. */
  best_from: output(UInt(2)),
  /** The query's ANY_HIT and a best exists: the ray is done. */
  terminate: output(Bool),
});

/** A triangle's geometry mask in the pair test: every bit (a primitive node does not mix masks: its box child's cull_mask was checked). */
const ALL_MASK_BITS = 0xff;

/**
 * The query `cycles` cycles late: only the fields acceptsHit and ANY_HIT read (tmin, tmax, the ray mask, flags bits 2:0)
 * ride the delay line; the rest of the word is 0.
 */
function delayedQuery(m: ModuleBuilder, query: UIntValue, cycles: number): UIntValue {
  const late = delay(m, cat(query.bits(79, 72), query.bits(66, 64), query.bits(63, 0)), cycles, 'query');
  return cat(lit(0, 16), late.bits(74, 67), lit(0, 5), late.bits(66, 64), late.bits(63, 0));
}

export const TrianglePair = defineModule(
  'TrianglePair',
  (p: TrianglePairParams) => {
    checkTrianglePairParams(p);
    return trianglePairPorts(p.tagBits);
  },
  (m, io, p) => {
    const latency = trianglePairLatency(p);
    const laneLatency = watertightLaneLatency(p);
    const lp: WatertightLaneParams = { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv };

    // ------------------------------------------------------------------ two lanes, one ray
    const lanes = [0, 1].map((k) => {
      const lane = m.instance(WatertightLane, lp, { name: `lane${k}` });
      lane.io.origin.set(io.origin);
      lane.io.axes.set(io.axes);
      lane.io.shear.set(io.shear);
      lane.io.vertices.set(io.vertices.bits(288 * k + 287, 288 * k));
      return lane.io;
    });

    // ------------------------------------------------------------------ the selection stage: the golden's closest-hit update, both triangles at once
    const active = delay(m, io.active, laneLatency, 'active');
    const index = [0, 1].map((k) => delay(m, io.prim_index.bits(32 * k + 31, 32 * k), laneLatency, `index${k}`));
    const bestValid = delay(m, io.best_valid, laneLatency, 'best_valid');
    const bestT = delay(m, io.best_t, laneLatency, 'best_t');
    const bestIndex = delay(m, io.best_index, laneLatency, 'best_index');
    const oneSided = delay(m, io.one_sided, laneLatency, 'one_sided');
    const query = delayedQuery(m, io.query, laneLatency);
    const f = new FloatOps(m, lp);
    // The query's compares stand beside the closer compares below: the stage gets no deeper than an AND.
    const hit = lanes.map((lane, k) => active.bit(k).and(acceptsHit(f, query, { hit: lane.hit, t: lane.t, det: lane.det }, lit(ALL_MASK_BITS, 8), oneSided.bit(k))));
    const t = lanes.map((lane) => lane.t);
    /** closer(ta, ia, tb, ib): ta < tb, or ta = tb and ia < ib (fcmp flags, as the golden). */
    const closer = (ta: UIntValue, ia: UIntValue, tb: UIntValue, ib: UIntValue): BoolValue => {
      const flag = f.compare(ta, tb);
      return flag.eq(FLAG_NEGATIVE).or(flag.eq(FLAG_ZERO).and(ia.lt(ib)));
    };
    // Triangle 0 replaces the incoming best; triangle 1 then replaces whichever stands (three compares side by side).
    const take0 = hit[0]!.and(bestValid.not().or(closer(t[0]!, index[0]!, bestT, bestIndex)));
    const beatsIncoming1 = bestValid.not().or(closer(t[1]!, index[1]!, bestT, bestIndex));
    const take1 = hit[1]!.and(mux(take0, closer(t[1]!, index[1]!, t[0]!, index[0]!), beatsIncoming1));
    const newValid = bestValid.or(hit[0]!).or(hit[1]!);
    const anyHit = queryFields(query).anyHit;
    io.best_valid_out.set(m.regNext(newValid, { name: 'best_valid_q' }));
    io.best_t_out.set(m.regNext(mux(take1, t[1]!, mux(take0, t[0]!, bestT)), { name: 'best_t_q' }));
    io.best_index_out.set(m.regNext(mux(take1, index[1]!, mux(take0, index[0]!, bestIndex)), { name: 'best_index_q' }));
    io.best_from.set(m.regNext(cat(take1, take0.and(take1.not())), { name: 'best_from_q' }));
    io.terminate.set(m.regNext(anyHit.and(newValid), { name: 'terminate_q' }));
    io.hit.set(m.regNext(cat(hit[1]!, hit[0]!), { name: 'hit_q' }));
    io.t.set(m.regNext(cat(t[1]!, t[0]!), { name: 't_q' }));
    io.u.set(m.regNext(cat(lanes[1]!.u, lanes[0]!.u), { name: 'u_q' }));
    io.v.set(m.regNext(cat(lanes[1]!.v, lanes[0]!.v), { name: 'v_q' }));
    io.normal.set(m.regNext(cat(lanes[1]!.normal, lanes[0]!.normal), { name: 'normal_q' }));
    io.out_tag.set(delay(m, io.tag, latency, 'tag'));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
