// The level of detail from explicit derivatives, in defined binary32 steps, quantized to 8 fraction bits.
import { fadd, fmax, fmin, fmul, fsub, ftoi, itof, isNaN32, NEG_INF, POS_INF } from '../float32.ts';

const HALF = 0x3f000000;
const ONE = 0x3f800000;
/** 11/32: log2(1 + f) ≈ f + LOG2_CORRECTION · f · (1 − f) on [0, 1), error below 0.0081. */
export const LOG2_CORRECTION = 0x3eb00000;
const TWO_POW_8 = 0x43800000;
const TWO_POW_MINUS_8 = 0x3b800000;
const TWO_POW_23 = 0x4b000000;

/**
 * log2 of a binary32 m, approximated: for a normal m = 2^e · (1 + f),
 * itof(e) + (f + 11/32 · f · (1 − f)), each operation a binary32 one in this order:
 * g = fsub(1, f); p = fmul(f, g); c = fmul(p, 11/32); l = fadd(f, c); result = fadd(itof(e), l).
 * f itself is exact (the 23 fraction bits), and so is 1 − f. Exact at powers of two; error < 0.0081.
 * NaN → NaN; +inf → +inf; zero, subnormals and negative values → −inf (λ far below any level).
 */
export function log2Approx(m: number): number {
  m >>>= 0;
  if (isNaN32(m)) return m;
  if (m === POS_INF) return POS_INF;
  if (m >>> 31 || m >>> 23 === 0) return NEG_INF;
  const e = (m >>> 23) - 127;
  const f = fsub((m & 0x7fffff) | 0x3f800000, ONE);
  const l = fadd(f, fmul(fmul(f, fsub(ONE, f)), LOG2_CORRECTION));
  return fadd(itof(e), l);
}

/** A raw fixed-point LOD (value × 256) as binary32: itof(raw) × 2^−8, exact. */
export const lodToFloat = (raw: number): number => fmul(itof(raw), TWO_POW_MINUS_8);

export interface LodInputs {
  /** Level-0 size. */
  readonly width: number;
  readonly height: number;
  readonly mipCount: number;
  /** Sampler fields, raw fixed point (× 256). */
  readonly lodBiasRaw: number;
  readonly lodMinRaw: number;
  readonly lodMaxRaw: number;
  /** seed 003's .LC LOD clamp, raw u4.8: the finest level allowed (λ ≥ lodClamp). */
  readonly lodClampRaw: number;
}

/** The steps of computeLod, for tests and the hardware's checkers. */
export interface LodSteps {
  /** max(|x footprint|², |y footprint|²) in level-0 texels². */
  readonly footprint2: number;
  /** 0.5 · log2Approx(footprint2) before bias and clamps. */
  readonly lambda: number;
  /** After bias and clamps, in [0, mipCount − 1]. */
  readonly clamped: number;
  /** clamped × 256 rounded to nearest even: the LOD as u4.8 (level = lod >> 8, blend = (lod & 255) / 256). */
  readonly lod: number;
}

/**
 * λ from the derivatives (all binary32 bit patterns), the anisotropy-free rule of OpenGL/Vulkan/D3D:
 * ρ = max(|(dsdx·W, dtdx·H)|, |(dsdy·W, dtdy·H)|), λ = log2 ρ, written without the square roots as
 * λ = 0.5 · log2(max(ux² + vx², uy² + vy²)). Steps, in this order:
 *   ux = dsdx·W, vx = dtdx·H, uy = dsdy·W, vy = dtdy·H                      (fmul; W, H = itof of the size)
 *   ax = ux·ux + vx·vx, ay = uy·uy + vy·vy                                   (fmul, fmul, fadd)
 *   m = fmax(ax, ay)   (maximumNumber: a NaN axis drops out; both NaN → NaN)
 *   λ = fmul(log2Approx(m), 0.5);  λ = fadd(λ, bias)
 *   λ = fmax(λ, lodMin); λ = fmax(λ, lodClamp); λ = fmin(λ, lodMax); λ = fmin(λ, itof(mipCount − 1))
 *     (a NaN λ becomes lodMin at the first fmax)
 *   lod = ftoi(fsub(fadd(fmul(λ, 256), 2^23), 2^23))   (× 256 is exact; ± 2^23 rounds to nearest even)
 */
export function computeLod(inputs: LodInputs, dsdx: number, dsdy: number, dtdx: number, dtdy: number): LodSteps {
  const w = itof(inputs.width);
  const h = itof(inputs.height);
  const ux = fmul(dsdx, w);
  const vx = fmul(dtdx, h);
  const uy = fmul(dsdy, w);
  const vy = fmul(dtdy, h);
  const ax = fadd(fmul(ux, ux), fmul(vx, vx));
  const ay = fadd(fmul(uy, uy), fmul(vy, vy));
  const footprint2 = fmax(ax, ay);
  const lambda = fmul(log2Approx(footprint2), HALF);
  let clamped = fadd(lambda, lodToFloat(inputs.lodBiasRaw));
  clamped = fmax(clamped, lodToFloat(inputs.lodMinRaw));
  clamped = fmax(clamped, lodToFloat(inputs.lodClampRaw));
  clamped = fmin(clamped, lodToFloat(inputs.lodMaxRaw));
  clamped = fmin(clamped, itof(inputs.mipCount - 1));
  const lod = ftoi(fsub(fadd(fmul(clamped, TWO_POW_8), TWO_POW_23), TWO_POW_23));
  return { footprint2, lambda, clamped, lod };
}
