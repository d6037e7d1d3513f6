// The Möller–Trumbore ray–triangle datapath shared by the brute-force and the BVH intersection cores (docs/intersection.md).
import { cat, lit, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO, delay } from '../../hdl/lib/index.ts';
import type { FloatOps, TestLatencies } from './floatOps.ts';
import { join3, type Vec3 } from './vec3.ts';

const ONE = 0x3f800000;

/** Cycles from a triangle entering the Möller–Trumbore pipeline to t, u, v and the normal at S10. */
export const mollerTrumboreDepth = (p: TestLatencies): number => 5 * p.fadd + 3 * p.fmul + p.fdiv;

/** The ray as the pipeline sees it `cycles` after the triangle entered (the caller keeps it or looks it up). */
export type RayAt = (cycles: number) => { readonly o: Vec3; readonly d: Vec3 };

/** What the datapath gives S10: u + v, det, u, v and t aligned there, and the unnormalized normal cross(e1, e2). */
export interface MollerTrumboreResult {
  readonly kind: 'moller-trumbore';
  readonly uv: UIntValue;
  readonly det: UIntValue;
  readonly u: UIntValue;
  readonly v: UIntValue;
  readonly t: UIntValue;
  readonly normal: UIntValue;
}

/**
 * S1–S9 of Möller–Trumbore for the triangle (v0, v1, v2) entering now: the ray is read at S1 (origin),
 * S2 (direction, for p) and S4 (direction, for the dot with q), so callers that look rays up by a tag
 * need no delay lines for them.
 */
export function mollerTrumbore(m: ModuleBuilder, f: FloatOps, p: TestLatencies, vertices: readonly [Vec3, Vec3, Vec3], rayAt: RayAt): MollerTrumboreResult {
  const [v0, v1, v2] = vertices;
  const depth = mollerTrumboreDepth(p);
  const atS1 = rayAt(0);
  const atS2 = rayAt(p.fadd);
  const atS4 = rayAt(2 * p.fadd + p.fmul);
  // S1 (add): edges and the origin relative to v0.
  const e1 = f.sub3(v1, v0);
  const e2 = f.sub3(v2, v0);
  const s = f.sub3(atS1.o, v0);
  // S2 (mul), S3 (add): p = cross(d, e2), q = cross(s, e1), and the normal cross(e1, e2).
  const p3 = f.crossDifferences(f.crossProducts(atS2.d, e2));
  const q3 = f.crossDifferences(f.crossProducts(s, e1));
  const normal3 = f.crossDifferences(f.crossProducts(e1, e2));
  // S4 (mul), S5 and S6 (add): dot products, summed (x + y) + z.
  const lag = p.fmul + p.fadd;
  const late = (v: Vec3, name: string): Vec3 => [0, 1, 2].map((i) => delay(m, v[i]!, lag, `${name}${'xyz'[i]}`)) as unknown as Vec3;
  const e1L = late(e1, 'e1');
  const e2L = late(e2, 'e2');
  const sL = late(s, 's');
  const dot = (a: Vec3, b: Vec3, name: string) => {
    const x = f.products3(a, b);
    return f.add(f.add(x[0], x[1]), delay(m, x[2], p.fadd, `${name}_z`));
  };
  const det = dot(e1L, p3, 'det');
  const uNum = dot(sL, p3, 'u');
  const vNum = dot(atS4.d, q3, 'v');
  const tNum = dot(e2L, q3, 't');
  // S7 (div), S8 (mul), S9 (add): u, v, t and u + v.
  const inv = f.div(lit(ONE, 32), det);
  const u = f.mul(delay(m, uNum, p.fdiv, 'u_num'), inv);
  const v = f.mul(delay(m, vNum, p.fdiv, 'v_num'), inv);
  const t = f.mul(delay(m, tNum, p.fdiv, 't_num'), inv);
  const uv = f.add(u, v);
  const detL = delay(m, det, p.fdiv + p.fmul + p.fadd, 'det');
  return { kind: 'moller-trumbore', uv, det: detL, u: delay(m, u, p.fadd, 'u'), v: delay(m, v, p.fadd, 'v'), t: delay(m, t, p.fadd, 't'), normal: delay(m, join3(normal3), depth - (2 * p.fadd + p.fmul), 'normal') };
}

/** The S10 decision of Möller–Trumbore (det ≠ 0, u ≥ 0, v ≥ 0, u + v ≤ 1, t > 0), combinational. */
export function mollerTrumboreHit(f: FloatOps, r: MollerTrumboreResult): UIntValue {
  const zero = lit(0, 32);
  const geZero = (x: UIntValue) => f.compare(x, zero).eq(FLAG_POSITIVE).or(f.compare(x, zero).eq(FLAG_ZERO));
  const uvFlag = f.compare(r.uv, lit(ONE, 32));
  const hit = f.compare(r.det, zero).ne(FLAG_ZERO)
    .and(geZero(r.u))
    .and(geZero(r.v))
    .and(uvFlag.eq(FLAG_NEGATIVE).or(uvFlag.eq(FLAG_ZERO)))
    .and(f.compare(r.t, zero).eq(FLAG_POSITIVE));
  return hit;
}
