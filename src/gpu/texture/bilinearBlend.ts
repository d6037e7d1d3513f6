// The texture unit's filter stage for one level: four texel words to four binary32 channels (UNORM8 table or R32F), blended bilinearly, bit-exact to texelChannels and sampleLevel's lerps.
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { UNORM8_TO_FLOAT } from '../../golden/texture/index.ts';
import { TimedFloat, checkTextureLatencies, defaultTextureFloatLatencies, type Timed, type TextureFloatLatencies } from './timedFloat.ts';
import { CANONICAL_NAN, ONE, POS_INF } from './floatConstants.ts';
import { lerpTimed, weightToFloat } from './lerp.ts';

export type BilinearBlendParams = TextureFloatLatencies;
export const defaultBilinearBlendParams: BilinearBlendParams = defaultTextureFloatLatencies;

const CHANNELS = [0, 1, 2, 3];

export const bilinearBlendPorts = () => ({
  in_valid: input(Bool),
  /** Texel words: T00 = (x0, y0), T10 = (x1, y0), T01 = (x0, y1), T11 = (x1, y1). */
  t00: input(UInt(32)),
  t10: input(UInt(32)),
  t01: input(UInt(32)),
  t11: input(UInt(32)),
  /** 0: RGBA8 (R in bits 7:0), 1: R32F (the header's format code). */
  format: input(UInt(1)),
  /** 8-bit weights (weight / 256) of T10/T11 along s and of T01/T11 along t. */
  weight_a: input(UInt(8)),
  weight_b: input(UInt(8)),
  // The block's latency later:
  out_valid: output(Bool),
  /** R, G, B, A as binary32, R in bits 31:0. */
  rgba: output(UInt(128)),
});

/**
 * Cycles from an item entering (in_valid) to its colour (out_valid): the channel register, the row lerps
 * (their multiply waits for the weight's itof if that is slower than the subtract), the column lerp, the output register.
 */
export function bilinearBlendLatency(p: BilinearBlendParams): number {
  checkTextureLatencies('BilinearBlend', p);
  const rows = Math.max(1 + p.fadd, p.itof) + p.fmul + p.fadd;
  return rows + p.fadd + p.fmul + p.fadd + 1;
}

/** texelChannels: the UNORM8 table per byte, or R32F as (r, 0, 0, 1) with a NaN made canonical. */
export function texelChannelsHw(word: UIntValue, r32f: UIntValue): UIntValue[] {
  const table = UNORM8_TO_FLOAT.map((bits) => lit(bits, 32));
  const isNaN = word.bits(30, 0).gt(POS_INF);
  const r32 = [mux(isNaN, lit(CANONICAL_NAN, 32), word), lit(0, 32), lit(0, 32), lit(ONE, 32)];
  return CHANNELS.map((k) => mux(r32f.eq(1), r32[k]!, selectByIndex(word.bits(8 * k + 7, 8 * k), table)));
}

export const BilinearBlend = defineModule(
  'BilinearBlend',
  (p: BilinearBlendParams) => {
    checkTextureLatencies('BilinearBlend', p);
    return bilinearBlendPorts();
  },
  (m, io, p) => {
    const latency = bilinearBlendLatency(p);
    const f = new TimedFloat(m, p);
    const texels = ([io.t00, io.t10, io.t01, io.t11] as const).map((t, n) => texelChannelsHw(t, io.format).map((c, k) => f.reg(TimedFloat.now(c), `t${n}_c${k}`)));
    const a = weightToFloat(f, TimedFloat.now(io.weight_a), 'weight_a');
    const b = weightToFloat(f, TimedFloat.now(io.weight_b), 'weight_b');
    const out: Timed[] = CHANNELS.map((k) => {
      const top = lerpTimed(f, texels[0]![k]!, texels[1]![k]!, a, `c${k}_top`);
      const bottom = lerpTimed(f, texels[2]![k]!, texels[3]![k]!, a, `c${k}_bottom`);
      return lerpTimed(f, top, bottom, b, `c${k}_blend`);
    });
    const done = TimedFloat.latest(out);
    if (done + 1 !== latency) throw new Error(`BilinearBlend: schedule mismatch (${done + 1} vs ${latency})`);
    io.rgba.set(m.regNext(cat(...out.map((c, k) => f.at(c, done, `c${k}_out`)).reverse()), { name: 'rgba_out' }));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
