// The texture unit's trilinear stage: two levels' colours blended by the LOD's 8 fraction bits (lerp32 per channel; a zero fraction passes the fine level), bit-exact to sampleTxd.
import { Bool, UInt, cat, defineModule, input, mux, output, type UIntValue } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { TimedFloat, checkTextureLatencies, defaultTextureFloatLatencies, type TextureFloatLatencies } from './timedFloat.ts';
import { lerpTimed, weightToFloat } from './lerp.ts';

export type LevelBlendParams = TextureFloatLatencies;
export const defaultLevelBlendParams: LevelBlendParams = defaultTextureFloatLatencies;

const CHANNELS = [0, 1, 2, 3];

export const levelBlendPorts = () => ({
  in_valid: input(Bool),
  /** R, G, B, A of level d and of level d + 1, binary32, R in bits 31:0. */
  fine: input(UInt(128)),
  coarse: input(UInt(128)),
  /** The LOD's fraction bits (lod & 255): the coarse level's weight is fraction / 256. */
  fraction: input(UInt(8)),
  // The block's latency later:
  out_valid: output(Bool),
  rgba: output(UInt(128)),
});

/** Cycles from an item entering (in_valid) to its colour (out_valid). */
export function levelBlendLatency(p: LevelBlendParams): number {
  checkTextureLatencies('LevelBlend', p);
  return Math.max(p.itof, p.fadd) + p.fmul + p.fadd + 1;
}

export const LevelBlend = defineModule(
  'LevelBlend',
  (p: LevelBlendParams) => {
    checkTextureLatencies('LevelBlend', p);
    return levelBlendPorts();
  },
  (m, io, p) => {
    const latency = levelBlendLatency(p);
    const f = new TimedFloat(m, p);
    const channel = (x: UIntValue, k: number) => TimedFloat.now(x.bits(32 * k + 31, 32 * k));
    const w = weightToFloat(f, TimedFloat.now(io.fraction), 'weight');
    const lerps = CHANNELS.map((k) => lerpTimed(f, channel(io.fine, k), channel(io.coarse, k), w, `c${k}`));
    if (TimedFloat.latest(lerps) + 1 !== latency) throw new Error(`LevelBlend: schedule mismatch (${TimedFloat.latest(lerps) + 1} vs ${latency})`);
    const out = lerps.map((c) => c.v);
    // A zero fraction reads level d alone (lerp32 with weight 0 is not the identity for ±inf, NaN and −0).
    const zero = delay(m, io.fraction.eq(0), latency - 1, 'fraction_zero');
    const fine = delay(m, io.fine, latency - 1, 'fine');
    io.rgba.set(m.regNext(mux(zero, fine, cat(...[...out].reverse())), { name: 'rgba_out' }));
    io.out_valid.set(delayValid(m, io.in_valid, latency, 'valid'));
  },
);
