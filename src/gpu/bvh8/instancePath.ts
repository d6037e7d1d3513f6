// The BVH8 core's instance path as logic: the instance node's checks, its boxes as a box node for the box decoder, the
// world ray into object space with its watertight constants, and a hit's normal back to world space (castRayBvh8's
// enterInstance and instanceHitResult; docs/bvh-hardware.md "BVH8 traversal core", "Instances").
import { cat, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FDiv, delay, delayValid } from '../../hdl/lib/index.ts';
import type { FloatOps } from '../icCore/floatOps.ts';
import { isTraceableRay } from '../icCore/traceableRay.ts';
import { join3, split3, type Vec3 } from '../icCore/vec3.ts';
import { rayAxes, shearOperands } from '../icCore/watertightIntersection.ts';
import { RayTransform, rayTransformLatency } from './rayTransform.ts';

const ONE = 0x3f800000;
/** bvh_addr counts 4-byte units: a 128-byte node is 32 (BVH_ADDR_UNITS_PER_NODE). */
const ADDR_UNIT_BITS = 5;
/** The 9 words of world_to_object's linear part, row major (what normalToWorld needs), as a slot keeps them. */
export const LINEAR_BITS = 9 * 32;

/** The instance node's fields the core reads (seed 000's layout: src/bvh/gfx12Instance.ts). */
export interface InstanceFields {
  /** world_to_object, 12 words row major, as RayTransform takes it. */
  readonly matrix: UIntValue;
  /** Its linear part (words 0–2, 4–6, 8–10). */
  readonly linear: UIntValue;
  readonly shaderId: UIntValue;
  readonly userData: UIntValue;
  /** The instance's mask: a ray whose mask shares no bit with it does not enter the instance. */
  readonly cullMask: UIntValue;
  /** The BLAS root's node index (valid unless `fault`). */
  readonly root: UIntValue;
  /** What decodeGfx12InstanceNode and enterInstance refuse before the transform: more than 4 children, a bvh_addr not a whole node or past node_count. */
  readonly fault: BoolValue;
}

export function instanceFields(node: UIntValue, nodeCount: UIntValue, indexBits: number): InstanceFields {
  const word = (k: number) => node.bits(32 * k + 31, 32 * k);
  const addr = node.bits(445, 384);
  const rootBits = addr.bits(61, ADDR_UNIT_BITS);
  const root = rootBits.trunc(indexBits);
  const rootInside = (indexBits < rootBits.width ? rootBits.bits(rootBits.width - 1, indexBits).eq(0) : lit(1, 1).asBool()).and(root.lt(nodeCount));
  const tooManyChildren = node.bits(639, 636).gt(3);
  return {
    matrix: node.bits(383, 0),
    linear: cat(word(10), word(9), word(8), word(6), word(5), word(4), word(2), word(1), word(0)),
    shaderId: word(14),
    userData: node.bits(503, 480),
    cullMask: node.bits(511, 504),
    root,
    fault: tooManyChildren.or(addr.bits(ADDR_UNIT_BITS - 1, 0).ne(0)).or(rootInside.not()),
  };
}

/**
 * The instance node's quantized boxes where Gfx12BoxDecoder reads a box node's: origin, exponents and child count
 * (instance bits 512–639 → 96–223), OBB off (0x7F), the 1–4 children (640–1023 → 256–639), no further children.
 */
export const instanceAsBoxNode = (node: UIntValue): UIntValue => cat(lit(0, 384), node.bits(1023, 640), lit(0x7f, 32), node.bits(639, 512), lit(0, 96));

/** The object-space ray of an instance, `instanceRayLatency` cycles after the world ray went in. */
export interface InstanceRay {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  /** Finite origin and direction, the direction not zero: else enterInstance answers a miss. */
  readonly traceable: BoolValue;
  readonly origin: UIntValue;
  readonly dir: UIntValue;
  readonly inv: UIntValue;
  readonly axes: UIntValue;
  readonly shear: UIntValue;
}

export const instanceRayLatency = (p: { fadd: number; fmul: number; fdiv: number }): number => rayTransformLatency({ ...p, tagBits: 1 }) + p.fdiv;

/**
 * RayTransform (transformRay: M·o + t, M·d, 1/(M·d)), then the watertight constants of the object-space direction as the
 * ray intake computes them at a ray's start (rayAxes, (d[kx], d[ky], 1) / d[kz] in three dividers), so that TrianglePair
 * tests the BLAS's triangles exactly as testTriangleWatertight(o′, d′) does.
 */
export function instanceRay(m: ModuleBuilder, p: { fadd: number; fmul: number; fdiv: number }, input: { valid: BoolValue; slot: UIntValue; matrix: UIntValue; origin: UIntValue; dir: UIntValue }): InstanceRay {
  const transform = m.instance(RayTransform, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, tagBits: input.slot.width }, { name: 'ray_transform' });
  transform.io.in_valid.set(input.valid);
  transform.io.matrix.set(mux(input.valid, input.matrix, lit(0, 384)));
  transform.io.origin.set(mux(input.valid, input.origin, lit(0, 96)));
  transform.io.dir.set(mux(input.valid, input.dir, lit(0, 96)));
  transform.io.tag.set(input.slot);
  const back = transform.io.out_valid;
  const dir = transform.io.obj_dir;
  const axes = rayAxes(dir);
  const { numerators, denominator } = shearOperands(dir, axes);
  const shear = numerators.map((a, i) => {
    const u = m.instance(FDiv, { stages: p.fdiv }, { name: `instance_shear_${'xyz'[i]}` });
    u.io.in_valid.set(back);
    u.io.a.set(mux(back, a, lit(ONE, 32)));
    u.io.b.set(mux(back, denominator, lit(ONE, 32)));
    return u.io.result;
  }) as unknown as Vec3;
  const later = (v: UIntValue, name: string): UIntValue => delay(m, v, p.fdiv, name);
  return {
    valid: delayValid(m, back, p.fdiv, 'instance_ray_valid'),
    slot: later(transform.io.out_tag, 'instance_ray_slot'),
    traceable: delay(m, isTraceableRay(transform.io.obj_origin, dir), p.fdiv, 'instance_ray_traceable'),
    origin: later(transform.io.obj_origin, 'instance_ray_origin'),
    dir: later(dir, 'instance_ray_dir'),
    inv: later(transform.io.obj_inv_dir, 'instance_ray_inv'),
    axes: later(axes, 'instance_ray_axes'),
    shear: join3(shear),
  };
}

/**
 * normalToWorld: column c of Mᵀ·n, (m[0][c]·n0 + m[1][c]·n1) + m[2][c]·n2 (M the linear part, 9 words row major),
 * fmul + 2·fadd cycles; the slot rides beside it.
 */
export function normalToWorld(m: ModuleBuilder, f: FloatOps, p: { fadd: number; fmul: number }, input: { valid: BoolValue; slot: UIntValue; linear: UIntValue; normal: UIntValue }) {
  const w = (r: number, c: number) => input.linear.bits(32 * (3 * r + c) + 31, 32 * (3 * r + c));
  const n = split3(input.normal);
  const column = (c: number) => {
    const first = f.add(f.mul(w(0, c), n[0]), f.mul(w(1, c), n[1]));
    return f.add(first, delay(m, f.mul(w(2, c), n[2]), p.fadd, `normal_product${c}`));
  };
  const latency = p.fmul + 2 * p.fadd;
  return {
    valid: delayValid(m, input.valid, latency, 'normal_valid'),
    slot: delay(m, input.slot, latency, 'normal_slot'),
    normal: join3([column(0), column(1), column(2)]),
  };
}

