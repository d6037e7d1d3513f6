// The ray transform block (seed 002): a world-space ray into an instance's object space by a 3×4 matrix, one ray per cycle, bit-exact to src/golden/rayTransform.ts (docs/bvh-hardware.md "RayTransform").
import { Bool, UInt, defineModule, input, lit, output, unpackBits, Vec } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { join3, split3 } from '../icCore/vec3.ts';

/** Latencies of the float units, and the width of the tag that rides along (identifies the ray). */
export interface RayTransformParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  readonly tagBits: number;
}

/** The GPU's float latencies (src/gpu/floatLatencies.ts) and a 16-bit tag. */
export const defaultRayTransformParams: RayTransformParams = { fadd: 3, fmul: 5, fdiv: 14, tagBits: 16 };

const MAX_UNIT_LATENCY = 40;
const MAX_TAG_BITS = 256;
const ONE = 0x3f800000;

/** The 384-bit matrix: word 4r + c (row r, column c; column 3 the translation) at bits [32k + 31 : 32k], as the instance node stores it. */
export const Mat3x4Word = Vec(12, UInt(32));

export function checkRayTransformParams(p: RayTransformParams): void {
  for (const unit of ['fadd', 'fmul', 'fdiv'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`RayTransform: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > MAX_TAG_BITS) throw new Error(`RayTransform: tagBits must be an integer from 1 to ${MAX_TAG_BITS}, got ${p.tagBits}`);
}

/** Cycles from a ray entering (in_valid) to its transformed ray (out_valid): the products, two adder levels, the divider. */
export function rayTransformLatency(p: RayTransformParams): number {
  checkRayTransformParams(p);
  return p.fmul + 2 * p.fadd + p.fdiv;
}

export const RayTransform = defineModule(
  'RayTransform',
  (p: RayTransformParams) => {
    checkRayTransformParams(p);
    return {
      in_valid: input(Bool),
      /** world_to_object, 12 binary32 words row major (Mat3x4Word). */
      matrix: input(UInt(384)),
      // The world ray: three binary32 words each, x in bits 31:0.
      origin: input(UInt(96)),
      dir: input(UInt(96)),
      tag: input(UInt(p.tagBits)),
      // rayTransformLatency cycles later:
      out_valid: output(Bool),
      out_tag: output(UInt(p.tagBits)),
      /** M·o + translation. */
      obj_origin: output(UInt(96)),
      /** M·d, not normalized. */
      obj_dir: output(UInt(96)),
      /** 1/(M·d) per component (±inf for a zero component). */
      obj_inv_dir: output(UInt(96)),
    };
  },
  (m, io, p) => {
    const f = new FloatOps(m, p);
    const w = unpackBits(Mat3x4Word, io.matrix);
    const at = (r: number, c: number) => w.at(4 * r + c);
    const o = split3(io.origin);
    const d = split3(io.dir);
    const rows = [0, 1, 2] as const;

    // Level 1 (fmul): the nine products of each of M·o and M·d; the translation waits beside them.
    const po = rows.map((r) => [0, 1, 2].map((c) => f.mul(at(r, c), o[c]!)));
    const pd = rows.map((r) => [0, 1, 2].map((c) => f.mul(at(r, c), d[c]!)));
    const translation = rows.map((r) => delay(m, at(r, 3), p.fmul, `translation${r}`));
    // Level 2 (fadd): origin (m0·o0 + m1·o1) and (m2·o2 + m3); direction (m0·d0 + m1·d1), m2·d2 waiting.
    const so = rows.map((r) => [f.add(po[r]![0]!, po[r]![1]!), f.add(po[r]![2]!, translation[r]!)]);
    const sd = rows.map((r) => f.add(pd[r]![0]!, pd[r]![1]!));
    const pd2 = rows.map((r) => delay(m, pd[r]![2]!, p.fadd, `dir_product${r}`));
    // Level 3 (fadd): the sums, as src/golden/rayTransform.ts orders them.
    const objOrigin = rows.map((r) => f.add(so[r]![0]!, so[r]![1]!));
    const objDir = rows.map((r) => f.add(sd[r]!, pd2[r]!));
    // Level 4 (fdiv): 1/direction; origin and direction wait for it.
    const inv = rows.map((r) => f.div(lit(ONE, 32), objDir[r]!));

    io.obj_origin.set(delay(m, join3([objOrigin[0]!, objOrigin[1]!, objOrigin[2]!]), p.fdiv, 'obj_origin'));
    io.obj_dir.set(delay(m, join3([objDir[0]!, objDir[1]!, objDir[2]!]), p.fdiv, 'obj_dir'));
    io.obj_inv_dir.set(join3([inv[0]!, inv[1]!, inv[2]!]));
    const latency = rayTransformLatency(p);
    io.out_tag.set(delay(m, io.tag, latency, 'tag'));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
