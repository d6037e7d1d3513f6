// The texture unit's coordinate stage for one level: the wrapped texel indices and 8-bit weights of a nearest or bilinear sample, bit-exact to the golden axisSample, offsets and wrapTexelIndex.
import { Bool, UInt, defineModule, input, lit, mux, output, type BoolValue, type ModuleBuilder, type UIntValue } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { TimedFloat, checkTextureLatencies, defaultTextureFloatLatencies, type Timed, type TextureFloatLatencies } from './timedFloat.ts';
import { HALF, NEG_TWO_POW_22, POS_INF, TWO_POW_22, TWO_POW_8 } from './floatConstants.ts';
import { floorToInt32 } from './floorToInt32.ts';

export type TexelCoordinatesParams = TextureFloatLatencies;
export const defaultTexelCoordinatesParams: TexelCoordinatesParams = defaultTextureFloatLatencies;


/** Signed texel index width: q >> 8 lies in [−2^22, 2^22], plus an offset −8 … +7 and the bilinear + 1. */
const INDEX_BITS = 25;
/** Bits of the remainder's divisor: the size, or twice the size for mirror (≤ 32768). */
const DIVISOR_BITS = 16;
/** Remainder steps (one dividend bit each) between registers. */
const MOD_STEPS_PER_STAGE = 2;
const MOD_STAGES = Math.ceil(INDEX_BITS / MOD_STEPS_PER_STAGE);
/** Wrap modes as the header encodes them (src/golden/texture/textureHeader.ts). */
const WRAP_CLAMP = 1;
const WRAP_MIRROR = 2;

export const texelCoordinatesPorts = () => ({
  in_valid: input(Bool),
  /** Texture coordinates, binary32 (a NaN reads as +0). */
  s: input(UInt(32)),
  t: input(UInt(32)),
  /** The level's size, 1 … 16384. */
  width: input(UInt(15)),
  height: input(UInt(15)),
  /** Texel offsets, −8 … +7 (two's complement). */
  du: input(UInt(4)),
  dv: input(UInt(4)),
  /** 1: bilinear (four texels, weights); 0: nearest (x0, y0; weights 0). */
  bilinear: input(Bool),
  /** Wrap modes: 0 repeat, 1 clamp-to-edge, 2 mirror. */
  wrap_s: input(UInt(2)),
  wrap_t: input(UInt(2)),
  // The block's latency later:
  out_valid: output(Bool),
  /** Wrapped texel indices: T00 = (x0, y0), T10 = (x1, y0), T01 = (x0, y1), T11 = (x1, y1). */
  x0: output(UInt(14)),
  x1: output(UInt(14)),
  y0: output(UInt(14)),
  y1: output(UInt(14)),
  /** The 8-bit weights of x1 (along s) and y1 (along t): weight / 256; 0 for nearest. */
  weight_a: output(UInt(8)),
  weight_b: output(UInt(8)),
});

/** Cycles from the coordinate to the unwrapped index (q ready, one register for the index and offset). */
const indexCycle = (p: TexelCoordinatesParams): number => p.itof + p.fmul + p.fadd + 2 + p.fmul + p.ftoi + 1;

/** Cycles from an item entering (in_valid) to its indices and weights (out_valid). */
export function texelCoordinatesLatency(p: TexelCoordinatesParams): number {
  checkTextureLatencies('TexelCoordinates', p);
  return indexCycle(p) + MOD_STAGES + 1;
}

/**
 * axisSample: u = coord · size; bilinear: u − 0.5; clamped to ±2^22; q = floor(u · 256); the index
 * q >> 8 plus the offset, and the weight q & 255 (0 for nearest). All items take the bilinear path's time.
 */
function axisIndex(f: TimedFloat, name: string, coord: UIntValue, size: UIntValue, offset: UIntValue, bilinear: BoolValue): { index: Timed; weight: Timed } {
  const c = mux(coord.bits(30, 0).gt(POS_INF), lit(0, 32), coord);
  const u = f.mul(TimedFloat.now(c), f.itof(TimedFloat.now(size.zext(32)), `${name}_size_itof`), `${name}_scaled`);
  const shifted = f.sub(u, f.konst(HALF), `${name}_half`);
  const bil = TimedFloat.now(bilinear);
  const chosen = f.comb(`${name}_filter`, [bil, u, shifted], (b, a, s) => mux(b as BoolValue, s as UIntValue, a as UIntValue));
  const clamped = f.min(f.max(chosen, f.konst(NEG_TWO_POW_22), `${name}_clamp_lo`), f.konst(TWO_POW_22), `${name}_clamp_hi`);
  const v = f.mul(clamped, f.konst(TWO_POW_8), `${name}_fixed`);
  const q = floorToInt32(f, v, `${name}_floor`);
  const index = f.reg(f.comb(`${name}_offset`, [q, TimedFloat.now(offset)], (qv, o) => (qv as UIntValue).bits(31, 8).sext(INDEX_BITS).asUInt().add((o as UIntValue).sext(INDEX_BITS).asUInt())), `${name}_index`);
  const weight = f.comb(`${name}_weight`, [q, bil], (qv, b) => mux(b as BoolValue, (qv as UIntValue).bits(7, 0), lit(0, 8)));
  return { index, weight };
}

/** The wrapped indices of i and i + 1 along an axis of `size` texels, MOD_STAGES + 1 cycles after i. */
function wrapPair(m: ModuleBuilder, name: string, i: UIntValue, size: UIntValue, mode: UIntValue): { first: UIntValue; second: UIntValue } {
  const mirror = mode.eq(WRAP_MIRROR);
  const divisor = mux(mirror, size.zext(DIVISOR_BITS).shl(1), size.zext(DIVISOR_BITS));
  const negative = i.bit(INDEX_BITS - 1);
  const magnitude = mux(negative, lit(0, INDEX_BITS).sub(i), i);
  // Restoring remainder, most significant dividend bit first: r < divisor ≤ 2^15 at every step.
  let r = lit(0, DIVISOR_BITS + 1);
  let st = { i, size, mode, divisor, negative, magnitude };
  for (let k = INDEX_BITS - 1; k >= 0; k--) {
    const shifted = r.shl(1).or(st.magnitude.bit(k).zext(DIVISOR_BITS + 1));
    r = mux(shifted.ge(st.divisor.zext(DIVISOR_BITS + 1)), shifted.sub(st.divisor.zext(DIVISOR_BITS + 1)), shifted);
    if (k % MOD_STEPS_PER_STAGE === 0) {
      const stage = Math.floor(k / MOD_STEPS_PER_STAGE);
      const reg = <V extends UIntValue | BoolValue>(x: V, what: string): V => m.regNext(x, { name: `${name}_mod${stage}_${what}` }) as V;
      r = reg(r, 'r');
      st = { i: reg(st.i, 'i'), size: reg(st.size, 'size'), mode: reg(st.mode, 'mode'), divisor: reg(st.divisor, 'divisor'), negative: reg(st.negative, 'negative'), magnitude: reg(st.magnitude, 'magnitude') };
    }
  }
  const d = st.divisor.zext(DIVISOR_BITS + 1);
  const rem = mux(st.negative.and(r.ne(0)), d.sub(r), r);
  const next = rem.add(1);
  const rem1 = mux(next.eq(d), lit(0, DIVISOR_BITS + 1), next);
  const sz = st.size.zext(DIVISOR_BITS + 1);
  const fold = (k: UIntValue) => mux(st.mode.eq(WRAP_MIRROR).and(k.ge(sz)), sz.shl(1).sub(1).sub(k), k);
  const last = st.size.zext(INDEX_BITS).sub(1);
  const clampToEdge = (x: UIntValue) => mux(x.bit(INDEX_BITS - 1), lit(0, INDEX_BITS), mux(x.asSInt().gt(last.asSInt()), last, x));
  const clamp = st.mode.eq(WRAP_CLAMP);
  const first = mux(clamp, clampToEdge(st.i), fold(rem).zext(INDEX_BITS));
  const second = mux(clamp, clampToEdge(st.i.add(1)), fold(rem1).zext(INDEX_BITS));
  return { first: m.regNext(first.trunc(14), { name: `${name}_first` }), second: m.regNext(second.trunc(14), { name: `${name}_second` }) };
}

export const TexelCoordinates = defineModule(
  'TexelCoordinates',
  (p: TexelCoordinatesParams) => {
    checkTextureLatencies('TexelCoordinates', p);
    return texelCoordinatesPorts();
  },
  (m, io, p) => {
    const latency = texelCoordinatesLatency(p);
    const f = new TimedFloat(m, p);
    const axes = [
      { name: 's', coord: io.s, size: io.width, offset: io.du, mode: io.wrap_s, first: io.x0, second: io.x1, weight: io.weight_a },
      { name: 't', coord: io.t, size: io.height, offset: io.dv, mode: io.wrap_t, first: io.y0, second: io.y1, weight: io.weight_b },
    ];
    for (const a of axes) {
      const { index, weight } = axisIndex(f, a.name, a.coord, a.size, a.offset, io.bilinear);
      if (index.at !== indexCycle(p)) throw new Error(`TexelCoordinates: schedule mismatch (${index.at} vs ${indexCycle(p)})`);
      const wrapped = wrapPair(m, `${a.name}_wrap`, index.v, delay(m, a.size, index.at, `${a.name}_size`), delay(m, a.mode, index.at, `${a.name}_mode`));
      a.first.set(wrapped.first);
      a.second.set(wrapped.second);
      a.weight.set(f.at(weight, latency, `${a.name}_weight_out`));
    }
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
