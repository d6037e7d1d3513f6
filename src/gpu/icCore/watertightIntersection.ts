// The IC core's watertight triangle test option: the ray intake that computes each ray's constants, and the pipelined test (docs/intersection.md).
import { UInt, Vec, cat, fsm, lit, mux, unpackBits, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { FDiv, FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO } from '../../hdl/lib/index.ts';
import { delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { join3, map3, split3, type Vec3 } from './vec3.ts';

export type TriangleTestKind = 'moller-trumbore' | 'watertight';

/** The optional parameter of the IC core and what wraps it. Absent means Möller–Trumbore, so the default's module names and RTL stay. */
export interface TriangleTestOption {
  /** The ray–triangle test: 'moller-trumbore' (the default) or 'watertight'. */
  readonly triangleTest?: TriangleTestKind;
}

interface Latencies {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
}

export function isWatertight(p: TriangleTestOption): boolean {
  const kind: unknown = p.triangleTest;
  if (kind === undefined || kind === 'moller-trumbore') return false;
  if (kind === 'watertight') return true;
  throw new Error(`triangleTest must be 'moller-trumbore' or 'watertight', got '${String(kind)}'`);
}

/** The option as a submodule's parameters carry it: only when watertight, so Möller–Trumbore keeps the default's module names. */
export const triangleTestParam = (p: TriangleTestOption): TriangleTestOption => (isWatertight(p) ? { triangleTest: 'watertight' } : {});

/** Cycles from a triangle entering the pipeline to its t and hit decision at S10 (the same as Möller–Trumbore's). */
export const watertightDepth = (p: Latencies): number => 5 * p.fadd + 3 * p.fmul + p.fdiv;

/** Cycles from a ray entering the intake to the first cycle the core proper can take it: capture, three divisions on one divider, their capture. */
export const watertightIntakeCycles = (p: Latencies): number => p.fdiv + 4;

const ONE = 0x3f800000;


/** The float units the test takes from the core: each call is its own unit instance. */
export interface FloatUnits {
  add(a: UIntValue, b: UIntValue): UIntValue;
  /** a − b as a + (−b). */
  sub(a: UIntValue, b: UIntValue): UIntValue;
  mul(a: UIntValue, b: UIntValue): UIntValue;
  div(a: UIntValue, b: UIntValue): UIntValue;
  /** The flag of a − b (Z 00, unordered 01, P 10, N 11), combinational. */
  compare(a: UIntValue, b: UIntValue): UIntValue;
}

/** A one-bit pulse and its copies 1, 2, …, `cycles` cycles later (index k: k cycles late). */
function pulseTaps(m: ModuleBuilder, pulse: BoolValue, cycles: number, name: string): BoolValue[] {
  const taps = [pulse];
  for (let i = 1; i <= cycles; i++) taps.push(m.regNext(taps[i - 1]!, { name: `${name}_d${i}`, reset: 0 }));
  return taps;
}

// ---------------------------------------------------------------------------- per-ray constants

/** A ray's constants: axes = kz, ky, kx (2 bits each, kx lowest) and shear = Sz, Sy, Sx (Sx lowest). */
export interface RayConstants {
  readonly axes: UIntValue;
  readonly shear: UIntValue;
}

/** The axes word: kx, ky, kz, 2 bits each, kx lowest. */
const RayAxes = Vec(3, UInt(2));
const axesCode = (kx: number, ky: number, kz: number) => lit((kz << 4) | (ky << 2) | kx, RayAxes.width);

/**
 * kz = the axis of the largest |d| (binary32 magnitudes order as integers; the lowest axis on ties),
 * kx = kz + 1, ky = kz + 2 (mod 3), kx and ky swapped when d[kz] is negative. Combinational.
 */
export function rayAxes(direction: UIntValue): UIntValue {
  const d = split3(direction);
  const mag = d.map((x) => x.trunc(31)); // without the sign
  const yWins = mag[1]!.gt(mag[0]!);
  const zWins = mag[2]!.gt(mux(yWins, mag[1]!, mag[0]!));
  const neg = d.map((x) => x.bit(31));
  const axesZ = mux(neg[2]!, axesCode(1, 0, 2), axesCode(0, 1, 2));
  const axesY = mux(neg[1]!, axesCode(0, 2, 1), axesCode(2, 0, 1));
  const axesX = mux(neg[0]!, axesCode(2, 1, 0), axesCode(1, 2, 0));
  return mux(zWins, axesZ, mux(yWins, axesY, axesX));
}

/** Component `axis` (0, 1, 2) of v. */
const pick = (v: Vec3, axis: UIntValue): UIntValue => mux(axis.eq(0), v[0], mux(axis.eq(1), v[1], v[2]));

/** v in the ray's axes: (v[kx], v[ky], v[kz]). */
const inFrame = (v: Vec3, axes: UIntValue): Vec3 => {
  const [kx, ky, kz] = unpackBits(RayAxes, axes);
  return [pick(v, kx!), pick(v, ky!), pick(v, kz!)];
};

// ---------------------------------------------------------------------------- the intake

/** The ray ports of the core, as its body sees them. */
export interface RayInputs {
  readonly dispatch: { readonly ray_start: BoolValue };
  readonly ray_origin: UIntValue;
  readonly ray_direction: UIntValue;
  readonly ray_thread: UIntValue;
  readonly ray_query: UIntValue;
}

/** A ray as the core proper takes it (when `start` and the core is ready). */
export interface RayIntake {
  readonly start: BoolValue;
  readonly origin: UIntValue;
  readonly direction: UIntValue;
  readonly thread: UIntValue;
  /** The ray's query (docs/rays.md). */
  readonly query: UIntValue;
  /** The ray's constants (watertight only). */
  readonly constants?: RayConstants;
  /** The `ready` the ports see, given the core proper's; builds the logic that frees the intake when the core takes its ray. */
  portReady(coreReady: BoolValue): BoolValue;
}

/** Möller–Trumbore: the ports themselves. Watertight: a one-ray intake that computes the ray's constants first. */
export function rayIntake(m: ModuleBuilder, io: RayInputs, p: Latencies & TriangleTestOption): RayIntake {
  if (!isWatertight(p)) return { start: io.dispatch.ray_start, origin: io.ray_origin, direction: io.ray_direction, thread: io.ray_thread, query: io.ray_query, portReady: (coreReady) => coreReady };
  return watertightIntake(m, io, p);
}

/**
 * Takes a ray when empty (cycle a), divides on the next three cycles with one divider (Sx, Sy, Sz),
 * captures the quotients and offers the ray to the core from cycle a + fdiv + 4 until the core takes
 * it (states empty, dividing, ready). It is the ray's first stop: the next ray can enter while the previous one sweeps.
 */
function watertightIntake(m: ModuleBuilder, io: RayInputs, p: Latencies): RayIntake {
  const intake = fsm(m, 'intake', ['empty', 'dividing', 'ready'], 'empty');
  const origin = m.reg(UInt(96), { name: 'intake_origin' });
  const direction = m.reg(UInt(96), { name: 'intake_direction' });
  const thread = m.reg(UInt(5), { name: 'intake_thread' });
  const query = m.reg(UInt(96), { name: 'intake_query' });
  const axes = m.reg(UInt(6), { name: 'intake_axes' });
  const shear = [0, 1, 2].map((i) => m.reg(UInt(32), { name: `intake_s${'xyz'[i]}` }));
  const take = io.dispatch.ray_start.and(intake.is('empty'));
  m.when(take, () => {
    intake.goto('dividing');
    origin.set(io.ray_origin);
    direction.set(io.ray_direction);
    thread.set(io.ray_thread);
    query.set(io.ray_query);
    axes.set(rayAxes(io.ray_direction));
  });
  // Sx = d[kx] / d[kz], Sy = d[ky] / d[kz], Sz = 1 / d[kz], issued one per cycle from the captured ray.
  const taps = pulseTaps(m, take, p.fdiv + 3, 'intake_step');
  const d = inFrame(split3(direction), axes);
  const div = m.instance(FDiv, { stages: p.fdiv }, { name: 'intake_fdiv' });
  div.io.in_valid.set(true);
  div.io.a.set(mux(taps[1]!, d[0], mux(taps[2]!, d[1], lit(ONE, 32))));
  div.io.b.set(d[2]);
  shear.forEach((s, i) => m.when(taps[p.fdiv + 1 + i]!, () => s.set(div.io.result)));
  m.when(taps[p.fdiv + 3]!, () => intake.goto('ready'));
  return {
    start: intake.is('ready'),
    origin,
    direction,
    thread,
    query,
    constants: { axes, shear: join3([shear[0]!, shear[1]!, shear[2]!]) },
    portReady(coreReady) {
      m.when(intake.is('ready').and(coreReady), () => intake.goto('empty'));
      return intake.is('empty');
    },
  };
}

// ---------------------------------------------------------------------------- the test pipeline

export interface WatertightContext {
  readonly m: ModuleBuilder;
  readonly units: FloatUnits;
  readonly p: Latencies;
  /** The triangle entering the pipeline. */
  readonly vertices: readonly [Vec3, Vec3, Vec3];
  /** The origin of the ray of the test that entered `cycles` cycles ago (0: the one entering). */
  readonly originAt: (cycles: number) => Vec3;
  /** That ray's constants (computed when the ray was taken: `rayAxes`, and the shear from three divisions). */
  readonly constantsAt: (cycles: number) => RayConstants;
}

/** What the test hands to S10 (the closest-hit stage), all of the test that entered `depth` cycles ago. */
export interface WatertightResult {
  readonly kind: 'watertight';
  /** The triangle is hit (not yet and-ed with the test's valid bit). */
  readonly hit: BoolValue;
  readonly t: UIntValue;
  /** The barycentrics V / det and W / det (the weights of v1 and v2, as Möller–Trumbore's u and v). */
  readonly u: UIntValue;
  readonly v: UIntValue;
  /** det = U + V + W: its sign is the face the ray meets (docs/rays.md). */
  readonly det: UIntValue;
  /** cross(e1, e2), z y x. */
  readonly normal: UIntValue;
}

/** The brute-force core's `slots` slots' ray constants, written from the intake when the core takes a ray into `slot`; read back by slot. */
export function slotConstants(m: ModuleBuilder, intake: RayIntake, accept: BoolValue, slot: UIntValue, slots: number): (slot: UIntValue) => RayConstants {
  const constants = intake.constants;
  if (!constants) throw new Error('watertightTest: the ray intake computes no constants (it must be the watertight intake, rayIntake with triangleTest watertight)');
  const regs = Array.from({ length: slots }, (_, k) => ({ axes: m.reg(UInt(6), { name: `slot${k}_axes` }), shear: m.reg(UInt(96), { name: `slot${k}_shear` }) }));
  regs.forEach((r, k) =>
    m.when(accept.and(slot.eq(k)), () => {
      r.axes.set(constants.axes);
      r.shear.set(constants.shear);
    }),
  );
  return (s) => ({ axes: selectByIndex(s, regs.map((r) => r.axes)), shear: selectByIndex(s, regs.map((r) => r.shear)) });
}

/** The shear divisions of a ray in its axes: (d[kx], d[ky], 1) over d[kz] (numerators, then the shared denominator). */
export function shearOperands(direction: UIntValue, axes: UIntValue): { numerators: Vec3; denominator: UIntValue } {
  const d = inFrame(split3(direction), axes);
  return { numerators: [d[0], d[1], lit(ONE, 32)], denominator: d[2] };
}

/**
 * The watertight test, one triangle per cycle (stages as in docs/intersection.md, A/M/D the add,
 * multiply and divide latencies):
 * S1 (A) vertices − origin in the ray's axes, e1, e2; S2 (M), S3 (A) the shear and the normal;
 * S4 (M), S5 (A) U, V, W; S6 (M) U·Az, V·Bz, W·Cz and (A) U + V; S7 (A) det = (U + V) + W and
 * U·Az + V·Bz; S8 (A) T = … + W·Cz; S9 (D) t = T / det; S10 the decision from the flags taken at
 * S5 (edge signs) and S7 (det) and t > 0.
 */
export function watertightTest(c: WatertightContext): WatertightResult {
  const { m, units: f, p } = c;
  const A = p.fadd;
  const M = p.fmul;
  const zero = lit(0, 32);
  const sub3 = (a: Vec3, b: Vec3): Vec3 => map3((i) => f.sub(a[i], b[i]));
  const late3 = (v: Vec3, cycles: number, name: string): Vec3 => map3((i) => delay(m, v[i], cycles, `${name}${'xyz'[i]}`));
  const [v0, v1, v2] = c.vertices;

  // S1 (add): the vertices relative to the origin, in the ray's axes; the normal's edges.
  const axes = c.constantsAt(0).axes;
  const origin = inFrame(c.originAt(0), axes);
  const rel = c.vertices.map((v) => sub3(inFrame(v, axes), origin));
  const e1 = sub3(v1, v0);
  const e2 = sub3(v2, v0);
  // S2 (mul), S3 (add): x − Sx·z, y − Sy·z, Sz·z per vertex; the normal cross(e1, e2).
  const [sx, sy, sz] = split3(c.constantsAt(A).shear);
  const sheared = rel.map((r, k): Vec3 => {
    const [px, py, pz] = [f.mul(sx, r[2]), f.mul(sy, r[2]), f.mul(sz, r[2])];
    return [f.sub(delay(m, r[0], M, `rel${k}x`), px), f.sub(delay(m, r[1], M, `rel${k}y`), py), delay(m, pz, A, `sheared${k}z`)];
  });
  const np = [f.mul(e1[1], e2[2]), f.mul(e1[2], e2[1]), f.mul(e1[2], e2[0]), f.mul(e1[0], e2[2]), f.mul(e1[0], e2[1]), f.mul(e1[1], e2[0])];
  const normal: Vec3 = [f.sub(np[0]!, np[1]!), f.sub(np[2]!, np[3]!), f.sub(np[4]!, np[5]!)];
  // S4 (mul), S5 (add): the edge functions of b → c, c → a, a → b; a reversed edge gives exactly −E.
  const [a, b, cc] = [sheared[0]!, sheared[1]!, sheared[2]!];
  const edge = (from: Vec3, to: Vec3) => f.sub(f.mul(to[0], from[1]), f.mul(to[1], from[0]));
  const [U, V, W] = [edge(b, cc), edge(cc, a), edge(a, b)];
  // Double-sided: inside when all are ≥ 0 or all ≤ 0 (a zero counts for both); taken now, one bit travels on.
  const flags = [U, V, W].map((x) => f.compare(x, zero));
  const all = (ok: (flag: UIntValue) => BoolValue) => flags.map(ok).reduce((x, y) => x.and(y));
  const inside = all((g) => g.eq(FLAG_POSITIVE).or(g.eq(FLAG_ZERO))).or(all((g) => g.eq(FLAG_NEGATIVE).or(g.eq(FLAG_ZERO))));
  // S6 (mul ∥ add), S7, S8 (add): T = (U·Az + V·Bz) + W·Cz and det = (U + V) + W.
  const z = late3([a[2], b[2], cc[2]], M + A, 'z');
  const [uz, vz, wz] = [f.mul(U, z[0]), f.mul(V, z[1]), f.mul(W, z[2])];
  const det = f.add(f.add(U, V), delay(m, W, A, 'w'));
  const T = f.add(f.add(uz, vz), delay(m, wz, A, 'wz'));
  const detNonZero = f.compare(det, zero).ne(FLAG_ZERO);
  // S9 (div): t = T / det, one rounding; u = V / det and v = W / det beside it (the answer's barycentrics).
  const detL = delay(m, det, M, 'det');
  const t = f.div(T, detL);
  const u = f.div(delay(m, V, 2 * A + M, 'v_edge'), detL);
  const v = f.div(delay(m, W, 2 * A + M, 'w_edge'), detL);
  // S10: the decision.
  const insideL = delayValid(m, inside, M + 2 * A + p.fdiv, 'inside');
  const detNonZeroL = delayValid(m, detNonZero, M + p.fdiv, 'det_nonzero');
  const hit = insideL.and(detNonZeroL).and(f.compare(t, zero).eq(FLAG_POSITIVE));
  return { kind: 'watertight', hit, t, u, v, det: delay(m, detL, p.fdiv, 'det_s10'), normal: delay(m, join3(normal), watertightDepth(p) - (2 * A + M), 'normal') };
}
