// The watertight ray–triangle test (Woop, Benthin, Wald, JCGT 2013) on binary32 bits, double-sided: the exact op sequence of docs/intersection.md.
import { fabs, fadd, fcmp, fdiv, fmul, fsub, FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO } from './float32.ts';
import type { TriangleTest, Vec3 } from './rayCaster.ts';

const ONE = 0x3f800000;
const ZERO = 0;

/** What the test needs of the ray besides its origin, computed once per ray. */
export interface WatertightRay {
  /** The axis of the largest |d| component (the lowest axis on ties), and the other two, in winding order. */
  readonly kx: number;
  readonly ky: number;
  readonly kz: number;
  /** The shear: Sx = d[kx] / d[kz], Sy = d[ky] / d[kz], Sz = 1 / d[kz]. */
  readonly sx: number;
  readonly sy: number;
  readonly sz: number;
}

/** kz, kx = (kz + 1) % 3, ky = (kx + 1) % 3, kx and ky swapped when d[kz] < 0, and the shear. */
export function watertightRay(d: Vec3): WatertightRay {
  let kz = 0;
  // Strictly larger replaces: on equal magnitudes the lower axis stays.
  for (const k of [1, 2]) if (fcmp(fabs(d[k]), fabs(d[kz])).flags === FLAG_POSITIVE) kz = k;
  let kx = (kz + 1) % 3;
  let ky = (kx + 1) % 3;
  // Keeps the winding of the sheared triangle that of the original seen along d.
  if (fcmp(d[kz], ZERO).flags === FLAG_NEGATIVE) [kx, ky] = [ky, kx];
  return { kx, ky, kz, sx: fdiv(d[kx], d[kz]), sy: fdiv(d[ky], d[kz]), sz: fdiv(ONE, d[kz]) };
}

/** A vertex in the ray's frame: (x, y) sheared onto the plane across the ray, z scaled; the same bits in every triangle. */
export function shearVertex(o: Vec3, ray: WatertightRay, v: Vec3): Vec3 {
  const rx = fsub(v[ray.kx], o[ray.kx]);
  const ry = fsub(v[ray.ky], o[ray.ky]);
  const rz = fsub(v[ray.kz], o[ray.kz]);
  return [fsub(rx, fmul(ray.sx, rz)), fsub(ry, fmul(ray.sy, rz)), fmul(ray.sz, rz)];
}

/**
 * The edge function of the directed edge p → q: q.x·p.y − q.y·p.x, each product rounded. Multiplication
 * commutes and round-to-nearest subtraction is odd (b − a = −(a − b), +0 for a = b), so the reversed
 * edge gives exactly the negation: edge(q, p) = −edge(p, q), bit for bit (up to the sign of a zero).
 */
export const edgeFunction = (p: Vec3, q: Vec3): number => fsub(fmul(q[0], p[1]), fmul(q[1], p[0]));

const geZero = (x: number): boolean => {
  const f = fcmp(x, ZERO).flags;
  return f === FLAG_POSITIVE || f === FLAG_ZERO;
};
const leZero = (x: number): boolean => {
  const f = fcmp(x, ZERO).flags;
  return f === FLAG_NEGATIVE || f === FLAG_ZERO;
};

/** U, V, W of the sheared vertices a, b, c: the edges b → c, c → a and a → b. */
export function edgeFunctions(a: Vec3, b: Vec3, c: Vec3): Vec3 {
  return [edgeFunction(b, c), edgeFunction(c, a), edgeFunction(a, b)];
}

// castRay tests one ray against every triangle: its constants are computed once per direction.
let cached: { d: Vec3; ray: WatertightRay } | undefined;
function rayOf(d: Vec3): WatertightRay {
  if (!cached || cached.d[0] !== d[0] || cached.d[1] !== d[1] || cached.d[2] !== d[2]) cached = { d: [d[0], d[1], d[2]], ray: watertightRay(d) };
  return cached.ray;
}

/**
 * The watertight test of one ray against one triangle, same signature and result as testTriangle
 * (ray validity is checked by the caller). `ray` defaults to watertightRay(d). u and v are V / det and
 * W / det, the weights of v1 and v2 as in Möller–Trumbore (U / det is v0's); neither the caster nor
 * the core uses them.
 */
export function testTriangleWatertight(o: Vec3, d: Vec3, v0: Vec3, v1: Vec3, v2: Vec3, ray: WatertightRay = rayOf(d)): TriangleTest {
  // The normal's edges, as in Möller–Trumbore.
  const e1: Vec3 = [fsub(v1[0], v0[0]), fsub(v1[1], v0[1]), fsub(v1[2], v0[2])];
  const e2: Vec3 = [fsub(v2[0], v0[0]), fsub(v2[1], v0[1]), fsub(v2[2], v0[2])];
  const a = shearVertex(o, ray, v0);
  const b = shearVertex(o, ray, v1);
  const c = shearVertex(o, ray, v2);
  const [U, V, W] = edgeFunctions(a, b, c);
  const det = fadd(fadd(U, V), W);
  const T = fadd(fadd(fmul(U, a[2]), fmul(V, b[2])), fmul(W, c[2]));
  const t = fdiv(T, det);
  // Double-sided: inside when no edge function has the sign opposite to another's; 0 is inside for both signs.
  const agree = (geZero(U) && geZero(V) && geZero(W)) || (leZero(U) && leZero(V) && leZero(W));
  const hit = agree && fcmp(det, ZERO).flags !== FLAG_ZERO && fcmp(t, ZERO).flags === FLAG_POSITIVE;
  return { e1, e2, det, u: fdiv(V, det), v: fdiv(W, det), t, hit };
}
