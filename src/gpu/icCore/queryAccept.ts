// Whether a triangle test's hit is accepted by the ray's query (docs/rays.md): the interval, the masks and the culled faces, as the golden `accepts`; and the box clamps' float min/max.
import { lit, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO, FMax, FMin } from '../../hdl/lib/index.ts';
import type { FloatUnits } from './watertightIntersection.ts';

/** The ray_query word's fields: tmin [31:0], tmax [63:32] (binary32), the flags word [95:64]. */
export function queryFields(query: UIntValue) {
  const flags = query.bits(95, 64);
  return {
    tmin: query.bits(31, 0),
    tmax: query.bits(63, 32),
    anyHit: flags.bit(0),
    cullBack: flags.bit(1),
    cullFront: flags.bit(2),
    mask: flags.bits(15, 8),
  };
}

/** The test's result at its decision stage: whether it hit, its t and its det (whose sign is the face). */
export interface TestDecision {
  readonly hit: BoolValue;
  readonly t: UIntValue;
  readonly det: UIntValue;
}

/**
 * hit ∧ tmin ≤ t ≤ tmax (by fcmp: a NaN bound accepts nothing) ∧ the geometry mask shares a bit with the ray's ∧
 * not culled (a one-sided triangle whose face, P det front and N det back, the query culls). Combinational.
 */
export function acceptsHit(f: FloatUnits, query: UIntValue, test: TestDecision, mask: UIntValue, oneSided: BoolValue): BoolValue {
  const q = queryFields(query);
  const above = f.compare(test.t, q.tmin);
  const below = f.compare(test.t, q.tmax);
  const inInterval = above.eq(FLAG_POSITIVE).or(above.eq(FLAG_ZERO)).and(below.eq(FLAG_NEGATIVE).or(below.eq(FLAG_ZERO)));
  const face = f.compare(test.det, lit(0, 32));
  const culled = oneSided.and(face.eq(FLAG_NEGATIVE).and(q.cullBack).or(face.eq(FLAG_POSITIVE).and(q.cullFront)));
  return test.hit.and(inInterval).and(mask.and(q.mask).ne(0)).and(culled.not());
}

/** IEEE maximumNumber / minimumNumber (a NaN operand drops out), combinational, as the golden fmax / fmin: the box tests' interval clamps. */
const floatMinMax =
  (def: typeof FMin | typeof FMax) =>
  (m: ModuleBuilder, a: UIntValue, b: UIntValue, name: string): UIntValue => {
    const u = m.instance(def, { stages: 0 }, { name });
    u.io.in_valid.set(true);
    u.io.a.set(a);
    u.io.b.set(b);
    return u.io.result;
  };
export const floatMax = floatMinMax(FMax);
export const floatMin = floatMinMax(FMin);
