// The texture unit's LOD stage: λ and the u4.8 LOD from explicit derivatives, bit-exact to the golden computeLod (docs/texture.md).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { LOG2_CORRECTION } from '../../golden/texture/index.ts';
import { HALF, NEG_INF, ONE, POS_INF, TWO_POW_23, TWO_POW_8, TWO_POW_MINUS_8 } from './floatConstants.ts';
import { TimedFloat, checkTextureLatencies, defaultTextureFloatLatencies, type Timed, type TextureFloatLatencies } from './timedFloat.ts';

export type TextureLodParams = TextureFloatLatencies;
export const defaultTextureLodParams: TextureLodParams = defaultTextureFloatLatencies;

export const textureLodPorts = () => ({
  in_valid: input(Bool),
  /** Level-0 size, 1 … 16384, and the mip count 1 … 15 (a decoded header). */
  width: input(UInt(15)),
  height: input(UInt(15)),
  mip_count: input(UInt(4)),
  /** Sampler fields as raw fixed point (× 256): bias s5.8 (two's complement), min and max u4.8. */
  lod_bias: input(UInt(13)),
  lod_min: input(UInt(12)),
  lod_max: input(UInt(12)),
  /** seed 003's .LC clamp, u4.8: λ ≥ lod_clamp / 256. */
  lod_clamp: input(UInt(12)),
  /** The derivatives, binary32. */
  dsdx: input(UInt(32)),
  dsdy: input(UInt(32)),
  dtdx: input(UInt(32)),
  dtdy: input(UInt(32)),
  // The block's latency later:
  out_valid: output(Bool),
  /** 0.5 · log2Approx(max footprint²), binary32, before bias and clamps. */
  lambda: output(UInt(32)),
  /** The LOD, u4.8: level = lod >> 8, blend = (lod & 255) / 256. */
  lod: output(UInt(12)),
});

/** An unsigned or two's-complement field as an int32. */
const int32 = (x: UIntValue, signed: boolean): UIntValue => (signed ? x.sext(32).asUInt() : x.zext(32));

/** The arithmetic part of log2Approx for a normal m: itof(e) + (f + 11/32 · f · (1 − f)). */
function log2Body(f: TimedFloat, m: Timed): Timed {
  const bits = m.v;
  const e = f.itof({ v: bits.bits(30, 23).zext(32).sub(127), at: m.at }, 'log2_exponent');
  const frac = f.sub({ v: cat(lit(0x7f, 9), bits.bits(22, 0)), at: m.at }, f.konst(ONE), 'log2_fraction');
  const oneMinus = f.sub(f.konst(ONE), frac, 'log2_one_minus');
  const product = f.mul(f.mul(frac, oneMinus, 'log2_product'), f.konst(LOG2_CORRECTION), 'log2_correction');
  return f.add(e, f.add(frac, product, 'log2_mantissa'), 'log2_sum');
}

/** log2Approx(m) (src/golden/texture/lod.ts): NaN stays; +inf stays; negative, zero and subnormal give −inf; else the approximation. */
function log2Approx(f: TimedFloat, m: Timed): Timed {
  return f.comb('log2_special', [m, log2Body(f, m)], (mv, av) => {
    const x = mv as UIntValue;
    const isNaN = x.bits(30, 0).gt(POS_INF);
    const isPosInf = x.eq(POS_INF);
    const isLow = x.bit(31).or(x.bits(30, 23).eq(0));
    return mux(isNaN, x, mux(isPosInf, lit(POS_INF, 32), mux(isLow, lit(NEG_INF, 32), av as UIntValue)));
  });
}

/** Cycles from an item entering (in_valid) to its LOD (out_valid). */
export function textureLodLatency(p: TextureLodParams): number {
  checkTextureLatencies('TextureLod', p);
  return lodSchedule(p).lodAt + 1;
}

/** The cycles at which λ and the LOD stand, from the same schedule the module builds. */
function lodSchedule(p: TextureLodParams): { lambdaAt: number; lodAt: number } {
  const { fadd, fmul, itof, ftoi } = p;
  const footprint = itof + fmul + fmul + fadd + 1;
  const log2 = Math.max(footprint + itof, footprint + fadd + fadd + fmul + fmul + fadd) + fadd;
  const lambdaAt = log2 + fmul;
  const clamped = Math.max(lambdaAt, itof + fmul) + fadd + 4;
  return { lambdaAt, lodAt: clamped + fmul + fadd + fadd + ftoi };
}

export const TextureLod = defineModule(
  'TextureLod',
  (p: TextureLodParams) => {
    checkTextureLatencies('TextureLod', p);
    return textureLodPorts();
  },
  (m, io, p) => {
    const f = new TimedFloat(m, p);
    const now = TimedFloat.now;
    /** A raw LOD field as binary32 (lodToFloat), converted late so that the narrow field waits in the registers, not the float. */
    const raw = (x: UIntValue, signed: boolean, name: string, at: number): Timed => {
      const start = Math.max(0, at - p.itof - p.fmul);
      const field = { v: int32(delay(m, x, start, `${name}_field`), signed), at: start };
      return f.mul(f.itof(field, `${name}_itof`), f.konst(TWO_POW_MINUS_8), `${name}_scale`);
    };
    const lastLevel = (at: number): Timed => {
      const start = Math.max(0, at - p.itof);
      return f.itof({ v: delay(m, io.mip_count, start, 'mip_count_field').zext(32).sub(1), at: start }, 'last_level_itof');
    };
    const w = f.itof(now(io.width.zext(32)), 'width_itof');
    const h = f.itof(now(io.height.zext(32)), 'height_itof');
    const ux = f.mul(now(io.dsdx), w, 'ux');
    const vx = f.mul(now(io.dtdx), h, 'vx');
    const uy = f.mul(now(io.dsdy), w, 'uy');
    const vy = f.mul(now(io.dtdy), h, 'vy');
    const ax = f.add(f.mul(ux, ux, 'ux2'), f.mul(vx, vx, 'vx2'), 'ax');
    const ay = f.add(f.mul(uy, uy, 'uy2'), f.mul(vy, vy, 'vy2'), 'ay');
    const footprint2 = f.max(ax, ay, 'footprint2');
    const lambda = f.mul(log2Approx(f, footprint2), f.konst(HALF), 'lambda');
    let clamped = f.add(lambda, raw(io.lod_bias, true, 'bias', lambda.at), 'biased');
    clamped = f.max(clamped, raw(io.lod_min, false, 'lod_min', clamped.at), 'max_lod_min');
    clamped = f.max(clamped, raw(io.lod_clamp, false, 'lod_clamp', clamped.at), 'max_lod_clamp');
    clamped = f.min(clamped, raw(io.lod_max, false, 'lod_max', clamped.at), 'min_lod_max');
    clamped = f.min(clamped, lastLevel(clamped.at), 'min_last_level');
    const rounded = f.sub(f.add(f.mul(clamped, f.konst(TWO_POW_8), 'lod_scale'), f.konst(TWO_POW_23), 'lod_round_up'), f.konst(TWO_POW_23), 'lod_round_down');
    const lod = f.ftoi(rounded, 'lod_ftoi');
    const latency = lod.at + 1;
    if (latency !== textureLodLatency(p)) throw new Error(`TextureLod: schedule mismatch (${latency} vs ${textureLodLatency(p)})`);
    io.lod.set(m.regNext(lod.v.trunc(12), { name: 'lod_out' }));
    io.lambda.set(m.regNext(f.at(lambda, lod.at, 'lambda_out'), { name: 'lambda_out' }));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);

