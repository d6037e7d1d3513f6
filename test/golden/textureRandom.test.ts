// Seeded random TXDs: results stay within the texels each sample read, and agree with an independent
// double-precision reference of docs/texture.md within the stated tolerance. SEED=<n> reruns a run.
import { describe, expect, test } from 'vitest';
import {
  buildMipChain,
  encodeTextureHeader,
  encodeTextureSampler,
  layoutMipChain,
  mipLevelsFor,
  sampleTxd,
  texelChannels,
  TxdStatus,
  type TextureHeader,
  type TextureImage,
  type TextureSampler,
} from '../../src/golden/texture/index.ts';
import { CANONICAL_NAN, fromNumber as f, NEG_INF, POS_INF, toNumber } from '../../src/golden/float32.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';

const seed = seedFromEnv();
console.log(`textureRandom.test seed=${seed} (rerun with SEED=${seed})`);

const pick = <T>(rng: Rng, items: readonly T[]): T => items[rng.int(items.length)]!;

interface Texture {
  header: TextureHeader;
  memory: Uint32Array;
  /** Level 0 … mipCount − 1. */
  levels: TextureImage[];
}

function randomTexture(rng: Rng): Texture {
  const size = () => (rng() < 0.3 ? 2 ** rng.int(5) : 1 + rng.int(20));
  const width = size();
  const height = size();
  const format = pick(rng, ['rgba8', 'r32f'] as const);
  const texels = Uint32Array.from({ length: width * height }, () => (format === 'rgba8' ? rng.u32() : f((rng() - 0.5) * 200)));
  const levels = buildMipChain({ width, height, format, texels }).slice(0, 1 + rng.int(mipLevelsFor(width, height)));
  const base = rng.int(8);
  const words = layoutMipChain(levels);
  const memory = new Uint32Array(base + words.length + rng.int(3));
  memory.set(words, base);
  const wrap = () => pick(rng, ['repeat', 'clampToEdge', 'mirror'] as const);
  return { header: { base, width, height, format, mipCount: levels.length, wrapS: wrap(), wrapT: wrap() }, memory, levels };
}

function randomSampler(rng: Rng): TextureSampler {
  const a = rng.int(6 * 256);
  const b = rng.int(6 * 256);
  return {
    filter: pick(rng, ['nearest', 'bilinear', 'trilinear'] as const),
    lodBias: rng() < 0.5 ? 0 : (rng.int(0x1000) - 0x800) / 256,
    lodMin: rng() < 0.5 ? 0 : Math.min(a, b) / 256,
    lodMax: rng() < 0.3 ? 15 : Math.max(a, b) / 256,
  };
}

const SPECIAL = [CANONICAL_NAN, POS_INF, NEG_INF, 0, 0x80000000, 1, f(1e30), f(-1e30), f(1e-30)];
/** A coordinate: mostly in [−3, 3], sometimes a special value. */
const coordinate = (rng: Rng, specials: boolean) => (specials && rng() < 0.1 ? pick(rng, SPECIAL) : f((rng() - 0.5) * 6));
/** A derivative: magnitude 2^−12 … 2^3, either sign, sometimes 0 or a special value. */
const derivative = (rng: Rng, specials: boolean) =>
  specials && rng() < 0.1 ? pick(rng, SPECIAL) : rng() < 0.1 ? 0 : f((rng() < 0.5 ? -1 : 1) * 2 ** (rng() * 15 - 12));

interface Operands {
  s: number;
  t: number;
  d: [number, number, number, number];
  offset: number;
  lodClamp: number;
}
function randomOperands(rng: Rng, specials: boolean): Operands {
  return {
    s: coordinate(rng, specials),
    t: coordinate(rng, specials),
    d: [derivative(rng, specials), derivative(rng, specials), derivative(rng, specials), derivative(rng, specials)],
    offset: rng() < 0.5 ? 0 : rng.int(256),
    lodClamp: rng() < 0.7 ? 0 : rng.int(4 * 256),
  };
}

const run = (tex: Texture, sampler: TextureSampler, o: Operands, onFetch?: (a: number) => void) =>
  sampleTxd(tex.memory, encodeTextureHeader(tex.header), encodeTextureSampler(sampler), o.s, o.t, o.d[0], o.d[1], o.d[2], o.d[3], o.offset, 0xf, {
    lodClamp: o.lodClamp,
    ...(onFetch ? { onFetch } : {}),
  });

describe(`random TXDs (SEED=${seed} reruns)`, () => {
  test('each channel lies within the texels the sample read (nearest: is one of them)', () => {
    const rng = createRng(seed);
    for (let k = 0; k < 20000; k++) {
      const tex = randomTexture(rng);
      const sampler = randomSampler(rng);
      const o = randomOperands(rng, true);
      const read: number[] = [];
      const r = run(tex, sampler, o, (a) => read.push(a));
      const where = `case ${k} (SEED=${seed}): ${JSON.stringify({ header: tex.header, sampler, o })}`;
      expect(r.status, where).toBe(TxdStatus.ok);
      expect(read.length, where).toBe(sampler.filter === 'nearest' ? 1 : sampler.filter === 'bilinear' ? 4 : (r.lod!.lod & 255) === 0 ? 4 : 8);
      const texels = read.map((a) => texelChannels(tex.memory[a]!, tex.header.format).map(toNumber));
      for (let c = 0; c < 4; c++) {
        const got = toNumber(r.rgba[c]!);
        const values = texels.map((t) => t[c]!);
        expect(Number.isNaN(got), where).toBe(false);
        if (sampler.filter === 'nearest') expect(values, where).toContain(got);
        else {
          expect(got, `${where} channel ${c}`).toBeGreaterThanOrEqual(Math.min(...values));
          expect(got, `${where} channel ${c}`).toBeLessThanOrEqual(Math.max(...values));
        }
      }
    }
  });

  test('agrees with a double-precision reference within the stated tolerance', () => {
    const rng = createRng(seed ^ 0x7e57);
    let compared = 0;
    let skipped = 0;
    for (let k = 0; k < 20000; k++) {
      const tex = randomTexture(rng);
      const sampler = randomSampler(rng);
      const o = randomOperands(rng, false);
      const ref = referenceTxd(tex, sampler, o);
      if (ref === undefined) {
        skipped++;
        continue;
      }
      compared++;
      const got = run(tex, sampler, o).rgba.map(toNumber);
      const where = `case ${k} (SEED=${seed}): ${JSON.stringify({ header: tex.header, sampler, o })} reference ${ref.rgba}`;
      for (let c = 0; c < 4; c++) {
        if (sampler.filter === 'nearest') expect(got[c], where).toBe(Math.fround(ref.rgba[c]!));
        else expect(Math.abs(got[c]! - ref.rgba[c]!), `${where} channel ${c}`).toBeLessThanOrEqual(ref.tolerance[c]!);
      }
    }
    console.log(`textureRandom.test: ${compared} compared with the reference, ${skipped} skipped near a discrete decision`);
    expect(skipped).toBeLessThan(compared / 4);
  });
});

// ---- the reference: docs/texture.md's rules in double precision, written apart from src/golden/texture ----

/** Near a boundary where a discrete choice (level, nearest texel) flips, float and double may choose differently. */
const MARGIN_LOD = 3 / 256;
const MARGIN_TEXEL = 1 / 1024;

function channels(word: number, format: 'rgba8' | 'r32f'): number[] {
  if (format === 'r32f') return [toNumber(word), 0, 0, 1];
  return [0, 8, 16, 24].map((sh) => ((word >>> sh) & 0xff) / 255);
}

function wrapRef(i: number, n: number, mode: string): number {
  if (mode === 'clampToEdge') return Math.min(n - 1, Math.max(0, i));
  const period = mode === 'mirror' ? 2 * n : n;
  const k = i - Math.floor(i / period) * period;
  return k < n ? k : 2 * n - 1 - k;
}

/**
 * The reference's R, G, B, A and per-channel tolerance, or undefined when a discrete decision is within
 * its margin. Tolerance: linear filters 2/256 of the channel's range per lerp level (8-bit weights flip
 * by one step), trilinear 3/256 more for λ's fraction (log2 approximated within 0.0041 in λ), plus
 * 1e-5 · (1 + largest |texel|) for binary32 rounding.
 */
function referenceTxd(tex: Texture, sampler: TextureSampler, o: Operands): { rgba: number[]; tolerance: number[] } | undefined {
  const { width: W, height: H, format } = tex.header;
  const [dsdx, dsdy, dtdx, dtdy] = o.d.map(toNumber) as [number, number, number, number];
  const rho = Math.max(Math.hypot(dsdx * W, dtdx * H), Math.hypot(dsdy * W, dtdy * H));
  const q = tex.levels.length - 1;
  let lambda = Math.log2(rho) + sampler.lodBias;
  lambda = Math.min(Math.max(lambda, sampler.lodMin, o.lodClamp / 256), sampler.lodMax, q);
  const trilinear = sampler.filter === 'trilinear';
  if (!trilinear) {
    const x = lambda - 0.5;
    if (Math.abs(x - Math.round(x)) < MARGIN_LOD && lambda > 0.25 && lambda < q - 0.25) return undefined;
  }
  const lod = Math.round(lambda * 256);
  const du = ((o.offset & 0xf) ^ 8) - 8;
  const dv = (((o.offset >>> 4) & 0xf) ^ 8) - 8;
  const s = toNumber(o.s);
  const t = toNumber(o.t);
  const bilinear = sampler.filter !== 'nearest';

  const levelSample = (l: number): number[] | undefined => {
    const img = tex.levels[l]!;
    const at = (i: number, j: number) => channels(img.texels[wrapRef(j, img.height, tex.header.wrapT) * img.width + wrapRef(i, img.width, tex.header.wrapS)]!, format);
    const u = s * img.width - (bilinear ? 0.5 : 0);
    const v = t * img.height - (bilinear ? 0.5 : 0);
    if (!bilinear) {
      const near = (x: number) => Math.abs(x - Math.round(x)) < MARGIN_TEXEL;
      if (near(u) || near(v)) return undefined;
      return at(Math.floor(u) + du, Math.floor(v) + dv);
    }
    const i = Math.floor(u);
    const j = Math.floor(v);
    const a = Math.floor((u - i) * 256) / 256;
    const b = Math.floor((v - j) * 256) / 256;
    const lerp = (x: number, y: number, w: number) => x * (1 - w) + y * w;
    const [t00, t10, t01, t11] = [at(i + du, j + dv), at(i + 1 + du, j + dv), at(i + du, j + 1 + dv), at(i + 1 + du, j + 1 + dv)];
    return t00!.map((_, c) => lerp(lerp(t00![c]!, t10![c]!, a), lerp(t01![c]!, t11![c]!, a), b));
  };

  let rgba: number[] | undefined;
  if (trilinear) {
    const d = Math.floor(lod / 256);
    const w = (lod % 256) / 256;
    const fine = levelSample(d)!;
    rgba = w === 0 ? fine : fine.map((x, c) => x * (1 - w) + levelSample(d + 1)![c]! * w);
  } else rgba = levelSample(lod % 256 > 128 ? Math.floor(lod / 256) + 1 : Math.floor(lod / 256));
  if (rgba === undefined) return undefined;

  const all = tex.levels.flatMap((l) => [...l.texels].map((w) => channels(w, format)));
  const tolerance = [0, 1, 2, 3].map((c) => {
    const values = all.map((x) => x[c]!);
    const range = Math.max(...values) - Math.min(...values);
    const biggest = Math.max(...values.map(Math.abs));
    return (range * (bilinear ? 2 : 0) + range * (trilinear ? 5 : 0)) / 256 + 1e-5 * (1 + biggest);
  });
  return { rgba, tolerance };
}
