// The oriented-box ray rotation: a box node's OBB matrix index looked up in the 104-matrix ROM, the ray's origin and direction rotated and its new inverse direction divided out, one ray per cycle (docs/bvh-hardware.md).
import { Bool, UInt, defineModule, input, lit, output, mux, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FAdd, FDiv, FMul, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { OBB_DISABLED, OBB_INDEX_BITS, OBB_MATRIX_COUNT, OBB_MATRIX_INDICES, OBB_VALUES } from '../../bvh/index.ts';
import { join3, split3, type Vec3 } from '../icCore/vec3.ts';

/** Latencies of the float units, and the width of the tag that rides along. */
export interface ObbRayRotateParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** 1 to 256 bits. */
  readonly tagBits: number;
}

/** The GPU's float latencies (src/gpu/floatLatencies.ts) and a 16-bit tag, as RayBox8's. */
export const defaultObbRayRotateParams: ObbRayRotateParams = { fadd: 3, fmul: 5, fdiv: 14, tagBits: 16 };

const MAX_UNIT_LATENCY = 40;
const MAX_TAG_BITS = 256;
/** The two ROM stages: matrix index → nine value indices, value indices → nine binary32 entries. */
const ROM_STAGES = 2;
const ONE = 0x3f800000;

function checkParams(p: ObbRayRotateParams): void {
  for (const unit of ['fadd', 'fmul', 'fdiv'] as const) {
    const v = p[unit];
    if (!Number.isInteger(v) || v < 0 || v > MAX_UNIT_LATENCY) throw new Error(`ObbRayRotate: ${unit} latency must be an integer from 0 to ${MAX_UNIT_LATENCY}, got ${v}`);
  }
  if (!Number.isInteger(p.tagBits) || p.tagBits < 1 || p.tagBits > MAX_TAG_BITS) throw new Error(`ObbRayRotate: tagBits must be an integer from 1 to ${MAX_TAG_BITS}, got ${p.tagBits}`);
}

/** Cycles from a ray entering (in_valid) to its rotated ray (out_valid): two ROM stages, the products, two sums, the divide. */
export function obbRayRotateLatency(p: ObbRayRotateParams): number {
  checkParams(p);
  return ROM_STAGES + p.fmul + 2 * p.fadd + p.fdiv;
}

export const ObbRayRotate = defineModule(
  'ObbRayRotate',
  (p: ObbRayRotateParams) => {
    checkParams(p);
    return {
      in_valid: input(Bool),
      /** The box node's obb_matrix_index: 0–103 a ROM matrix, 0x7F off, anything else invalid. */
      obb_index: input(UInt(32)),
      /** The ray: three binary32 words each, x in bits 31:0. */
      origin: input(UInt(96)),
      dir: input(UInt(96)),
      tag: input(UInt(p.tagBits)),
      // The block's latency later:
      out_valid: output(Bool),
      out_tag: output(UInt(p.tagBits)),
      /** The ray in the node's frame (the ray itself when off or invalid); out_inv_dir = 1/out_dir per component. */
      out_origin: output(UInt(96)),
      out_dir: output(UInt(96)),
      out_inv_dir: output(UInt(96)),
      /** The index was neither 0–103 nor 0x7F: the traversal faults (castRayBvh8); the ray passes unrotated. */
      out_fault: output(Bool),
    };
  },
  (m, io, p) => {
    const latency = obbRayRotateLatency(p);
    const rotated = ROM_STAGES + p.fmul + 2 * p.fadd;

    // ------------------------------------------------------------------ the ROM, in two registered stages
    // Seed 002's shape: per matrix nine 6-bit indices, then a table of 26 values.
    const index = io.obb_index;
    const inRom = index.lt(lit(OBB_MATRIX_COUNT, 32));
    const off = index.eq(lit(OBB_DISABLED, 32));
    const romIndex = index.trunc(7);
    const entryIndices = Array.from({ length: 9 }, (_, e) =>
      m.regNext(
        selectByIndex(
          romIndex,
          OBB_MATRIX_INDICES.map((row) => lit(row[e]!, OBB_INDEX_BITS)),
        ),
        { name: `entry${e}_index` },
      ),
    );
    const entries = entryIndices.map((i, e) =>
      m.regNext(
        selectByIndex(
          i,
          OBB_VALUES.map((v) => lit(v, 32)),
        ),
        { name: `entry${e}` },
      ),
    );
    const o = split3(delay(m, io.origin, ROM_STAGES, 'origin_rom'));
    const d = split3(delay(m, io.dir, ROM_STAGES, 'dir_rom'));

    // ------------------------------------------------------------------ rotation: fadd(fadd(m_i0·x, m_i1·y), m_i2·z)
    const rotate = (v: Vec3, name: string): Vec3 =>
      [0, 1, 2].map((i) => {
        const prod = [0, 1, 2].map((j) => floatOp(m, FMul, p.fmul, entries[3 * i + j]!, v[j]!, `${name}${i}_fmul${j}`));
        const first = floatOp(m, FAdd, p.fadd, prod[0]!, prod[1]!, `${name}${i}_fadd01`);
        return floatOp(m, FAdd, p.fadd, first, delay(m, prod[2]!, p.fadd, `${name}${i}_prod2`), `${name}${i}_fadd2`);
      }) as unknown as Vec3;
    const oRot = join3(rotate(o, 'origin'));
    const dRot = join3(rotate(d, 'dir'));

    // ------------------------------------------------------------------ bypass when off or invalid, then 1/d
    const use = delay(m, inRom, rotated, 'in_rom');
    const fault = delay(m, inRom.not().and(off.not()), rotated, 'fault');
    const origin = mux(use, oRot, delay(m, io.origin, rotated, 'origin_raw'));
    const dir = mux(use, dRot, delay(m, io.dir, rotated, 'dir_raw'));
    const inv = split3(dir).map((x, a) => floatOp(m, FDiv, p.fdiv, lit(ONE, 32), x, `inv${a}_fdiv`)) as unknown as Vec3;

    io.out_origin.set(delay(m, origin, p.fdiv, 'origin_out'));
    io.out_dir.set(delay(m, dir, p.fdiv, 'dir_out'));
    io.out_inv_dir.set(join3(inv));
    io.out_fault.set(delay(m, fault, p.fdiv, 'fault_out'));
    io.out_tag.set(delay(m, io.tag, latency, 'tag'));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);

/** One float operation as its own unit instance (each is busy every cycle). */
function floatOp(m: ModuleBuilder, def: typeof FAdd | typeof FMul | typeof FDiv, stages: number, a: UIntValue, b: UIntValue, name: string): UIntValue {
  const u = m.instance(def, { stages }, { name });
  u.io.in_valid.set(true);
  u.io.a.set(a);
  u.io.b.set(b);
  return u.io.result;
}
