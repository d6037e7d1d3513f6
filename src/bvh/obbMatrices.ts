// The oriented-box rotation ROM: 104 matrices, each nine 6-bit indices into a table of 26 binary32 values, as seed 002 shapes it (docs/bvh.md, "Oriented boxes").
import { fromNumber, toNumber } from '../golden/float32.ts';
import { OBB_DISABLED } from './gfx12.ts';

export { OBB_DISABLED };
/** Matrices in the ROM (seed 002); a box node's obb_matrix_index below this selects one, OBB_DISABLED (0x7F) none. */
export const OBB_MATRIX_COUNT = 104;
/** Distinct binary32 values the matrices are built from (seed 002). */
export const OBB_VALUE_COUNT = 26;
/** Bits of one entry's index into the value table (seed 002: 9 packed 6-bit indices per matrix). */
export const OBB_INDEX_BITS = 6;
/** The rotations that differ from the identity; the rest of the ROM repeats the identity (docs/spec-deviations.md). */
export const OBB_DISTINCT_ROTATIONS = 93;

const DEG = Math.PI / 180;
/** The angle step of the family: 15°, whose sines and cosines and the needed products give 11 magnitudes. */
const ANGLES = [0, 15, 30, 45, 60, 75];
const s = (deg: number): number => Math.sin(deg * DEG);

/**
 * The 11 magnitudes besides 0 and 1: sin 15°, 30°, 45°, 60°, 75° and six of their products. Each matrix entry is 0,
 * ±1 or ± one of these; with the 0 and ±1 that is 25 values, and the table's 26th is sin² 15°, which no matrix uses.
 */
const MAGNITUDES = [s(15), s(30), s(45), s(60), s(75), s(15) * s(30), s(15) * s(45), s(15) * s(60), s(30) * s(75), s(45) * s(75), s(60) * s(75)];
const SPARE = s(15) * s(15);

/** The 26 values as binary32 bits: 0, 1, −1, then ± each magnitude, then the spare. */
export const OBB_VALUES: readonly number[] = [0, 1, -1, ...MAGNITUDES.flatMap((m) => [m, -m]), SPARE].map(fromNumber);

type M3 = number[][];
const mul = (a: M3, b: M3): M3 => a.map((row) => [0, 1, 2].map((j) => row[0]! * b[0]![j]! + row[1]! * b[1]![j]! + row[2]! * b[2]![j]!));
const rotZ = (deg: number): M3 => [
  [Math.cos(deg * DEG), -s(deg), 0],
  [s(deg), Math.cos(deg * DEG), 0],
  [0, 0, 1],
];
const rotY = (deg: number): M3 => [
  [Math.cos(deg * DEG), 0, s(deg)],
  [0, 1, 0],
  [-s(deg), 0, Math.cos(deg * DEG)],
];
const det = (m: M3): number =>
  m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) - m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) + m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);

/** The 24 rotations of the cube (signed permutation matrices of determinant +1), in a fixed order. */
const CUBE_ROTATIONS: M3[] = (() => {
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const out: M3[] = [];
  for (const p of perms)
    for (let signs = 0; signs < 8; signs++) {
      const m = [0, 1, 2].map((i) => [0, 1, 2].map((j) => (j === p[i] ? ((signs >> i) & 1 ? -1 : 1) : 0)));
      if (det(m) > 0) out.push(m);
    }
  return out;
})();

/** The value-table index of an entry (within 1e-6 of a value; the values lie 0.01 or more apart), or -1; never the spare. */
const valueIndex = (x: number): number => OBB_VALUES.findIndex((v, i) => i < OBB_VALUE_COUNT - 1 && Math.abs(x - toNumber(v)) < 1e-6);
const keyOf = (m: M3): string => m.flat().map((x) => Math.round(x * 1e6) + 0).join(',');

/**
 * The ROM, built by a fixed recipe: for β, then α, over 0°, 15°, …, 75°, then each cube rotation P (CUBE_ROTATIONS'
 * order), the matrix R_y(β)·R_z(α)·P. A box's axis-aligned bounds in frame Q·M are those in frame M permuted and
 * mirrored for any cube rotation Q, so matrices equal up to such a Q are one orientation: each new orientation
 * whose entries all lie in the value table is kept (as first met). That gives the identity and 93 rotations; the
 * ROM holds the 93 at indices 0–92 and the identity at 93–103.
 */
function buildRom(): number[][] {
  const seen = new Set<string>();
  const rotations: number[][] = [];
  for (const beta of ANGLES)
    for (const alpha of ANGLES)
      for (const p of CUBE_ROTATIONS) {
        const m = mul(mul(rotY(beta), rotZ(alpha)), p);
        const indices = m.flat().map(valueIndex);
        if (indices.some((i) => i < 0)) continue;
        const orientation = CUBE_ROTATIONS.map((q) => keyOf(mul(q, m))).sort()[0]!;
        if (seen.has(orientation)) continue;
        seen.add(orientation);
        rotations.push(indices);
      }
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const distinct = rotations.filter((r) => r.join() !== identity.join());
  if (distinct.length !== OBB_DISTINCT_ROTATIONS) throw new Error(`OBB ROM: the recipe gives ${distinct.length} rotations, expected ${OBB_DISTINCT_ROTATIONS}`);
  return [...distinct, ...new Array<number[]>(OBB_MATRIX_COUNT - distinct.length).fill(identity)];
}

/** Per matrix, its nine value-table indices, row-major (m00, m01, m02, m10, …). */
export const OBB_MATRIX_INDICES: readonly (readonly number[])[] = buildRom();

/** Matrix k's nine entries as binary32 bits, row-major. Throws for k outside 0–103. */
export function obbMatrix(k: number): readonly number[] {
  const row = OBB_MATRIX_INDICES[k];
  if (!Number.isInteger(k) || row === undefined) throw new RangeError(`OBB matrix index ${k} is outside 0–${OBB_MATRIX_COUNT - 1} (${OBB_DISABLED} = off)`);
  return row.map((i) => OBB_VALUES[i]!);
}

/** Whether a box node's obb_matrix_index names a matrix (0–103) or is off (0x7F); anything else is invalid. */
export const obbIndexIsValid = (k: number): boolean => k === OBB_DISABLED || (Number.isInteger(k) && k >= 0 && k < OBB_MATRIX_COUNT);
