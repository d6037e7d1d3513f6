// The texture unit's filter stages against the golden, bit for bit: BilinearBlend (texelChannels with the UNORM8 table, the bilinear
// lerp32s) and LevelBlend (the trilinear lerp32, a zero fraction passing the fine level); directed texels, seeded random items at two sets
// of float latencies, one item per cycle, lockstep on Verilator and Icarus.
import { describe, expect, test } from 'vitest';
import { elaborate } from '../../src/hdl/index.ts';
import { findDesign } from '../../src/designs/catalogue/index.ts';
import { createRng, seedFromEnv } from '../../src/util/seededRandom.ts';
import { CANONICAL_NAN, NEG_INF, POS_INF, fromNumber } from '../../src/golden/float32.ts';
import { UNORM8_TO_FLOAT, type Rgba } from '../../src/golden/texture/index.ts';
import { BilinearBlend, bilinearBlendLatency, defaultBilinearBlendParams, type BilinearBlendParams } from '../../src/gpu/texture/bilinearBlend.ts';
import { LevelBlend, defaultLevelBlendParams, levelBlendLatency, type LevelBlendParams } from '../../src/gpu/texture/levelBlend.ts';
import {
  bilinearBlendCosimDesign,
  bilinearBlendGolden,
  bilinearBlendStimulus,
  blendFromInputs,
  blendInputs,
  expectedBlend,
  randomBlendItem,
  rgbaFromOutputs,
  type BlendItem,
} from '../../src/gpu/texture/verification/bilinearBlendCosim.ts';
import {
  expectedLevelBlend,
  levelBlendCosimDesign,
  levelBlendFromInputs,
  levelBlendGolden,
  levelBlendInputs,
  levelBlendStimulus,
  randomLevelBlendItem,
  type LevelBlendItem,
} from '../../src/gpu/texture/verification/levelBlendCosim.ts';
import { expectLintClean, expectLockstepOnThree } from './threeSimulators.ts';
import { expectOnePerCycle, runAgainstGolden } from './textureBench.ts';

const seed = seedFromEnv();
console.log(`textureBlend.test seed=${seed} (rerun with SEED=${seed})`);

const f = fromNumber;
const zeroLatencies = { fadd: 0, fmul: 0, itof: 0, ftoi: 0 };
const bilinear = (p: BilinearBlendParams = defaultBilinearBlendParams) => elaborate(BilinearBlend, p).design;
const level = (p: LevelBlendParams = defaultLevelBlendParams) => elaborate(LevelBlend, p).design;

function blendHardware(items: readonly BlendItem[], p: BilinearBlendParams = defaultBilinearBlendParams): Rgba[] {
  const got: Rgba[] = [];
  const read = (outs: Record<string, bigint>) => (got.push(rgbaFromOutputs(outs)), got[got.length - 1]!);
  expectOnePerCycle(bilinear(p), bilinearBlendLatency(p), items.map(blendInputs), (row) => expectedBlend(blendFromInputs(row)), read, seed);
  return got;
}

function levelHardware(items: readonly LevelBlendItem[], p: LevelBlendParams = defaultLevelBlendParams): Rgba[] {
  const got: Rgba[] = [];
  const read = (outs: Record<string, bigint>) => (got.push(rgbaFromOutputs(outs)), got[got.length - 1]!);
  expectOnePerCycle(level(p), levelBlendLatency(p), items.map(levelBlendInputs), (row) => expectedLevelBlend(levelBlendFromInputs(row)), read, seed);
  return got;
}

describe('parameters', () => {
  test('latencies: channel register, two lerp levels (subtract, multiply, add), output register; the level blend one lerp', () => {
    expect(bilinearBlendLatency(defaultBilinearBlendParams)).toBe(1 + 3 + 5 + 3 + 3 + 5 + 3 + 1);
    expect(bilinearBlendLatency(zeroLatencies)).toBe(2);
    expect(levelBlendLatency(defaultLevelBlendParams)).toBe(3 + 5 + 3 + 1);
    expect(levelBlendLatency(zeroLatencies)).toBe(1);
  });
  test('bad latencies are refused with a clear error', () => {
    expect(() => elaborate(BilinearBlend, { ...defaultBilinearBlendParams, fadd: -2 })).toThrow('BilinearBlend: fadd latency must be an integer from 0 to 40, got -2');
    expect(() => levelBlendLatency({ ...defaultLevelBlendParams, fmul: 99 })).toThrow('LevelBlend: fmul latency must be an integer from 0 to 40, got 99');
  });
});

describe('BilinearBlend, directed', () => {
  test('every UNORM8 table entry reaches the output unchanged with zero weights (bytes in every channel)', () => {
    const items: BlendItem[] = [];
    for (let x = 0; x < 256; x += 4) {
      const word = (x | ((x + 1) << 8) | ((x + 2) << 16) | ((x + 3) << 24)) >>> 0;
      items.push({ texels: [word, 0xffffffff, 0x12345678, 0], r32f: false, weightA: 0, weightB: 0 });
    }
    const got = blendHardware(items);
    got.forEach((c, k) => expect(c).toEqual([0, 1, 2, 3].map((j) => UNORM8_TO_FLOAT[4 * k + j]!)));
  });

  test('R32F: (r, 0, 0, 1), a NaN texel canonical; halfway weights average; ±inf and NaN propagate as lerp32 says', () => {
    const [nanTexel, average, infs] = blendHardware([
      { texels: [0xffc00001, 0, 0, 0], r32f: true, weightA: 0, weightB: 0 },
      { texels: [f(1), f(3), f(5), f(7)], r32f: true, weightA: 128, weightB: 128 },
      { texels: [POS_INF, NEG_INF, f(1), 0x80000000], r32f: true, weightA: 1, weightB: 255 },
    ]);
    expect(nanTexel).toEqual([CANONICAL_NAN, 0, 0, f(1)]);
    expect(average).toEqual([f(4), 0, 0, f(1)]);
    expect(infs![0]).toBe(CANONICAL_NAN);
  });
});

describe('LevelBlend, directed', () => {
  test('a zero fraction passes the fine level unchanged (−0, ±inf, NaN included); other fractions are lerp32', () => {
    const fine: Rgba = [0x80000000, POS_INF, 0xffc00001, f(0.25)];
    const coarse: Rgba = [0, NEG_INF, f(1), f(0.75)];
    const [zero, half, last] = levelHardware([
      { fine, coarse, fraction: 0 },
      { fine, coarse, fraction: 128 },
      { fine: [f(0), f(1), f(2), f(3)], coarse: [f(1), f(2), f(3), f(4)], fraction: 255 },
    ]);
    expect(zero).toEqual(fine);
    expect(half![3]).toBe(f(0.5));
    expect(last).toEqual([f(255 / 256), f(1 + 255 / 256), f(2 + 255 / 256), f(3 + 255 / 256)]);
  });
});

describe('random items on the TS simulator against the golden', () => {
  for (const [p, cycles] of [[defaultBilinearBlendParams, 10_000], [zeroLatencies, 3_000]] as const) {
    test(`BilinearBlend ${JSON.stringify(p)}: ${cycles} cycles with bubbles and resets, every result on time and exact`, () => {
      expect(runAgainstGolden(bilinear(p), bilinearBlendGolden(p), bilinearBlendStimulus, seed, 0xb1 ^ p.fadd, cycles)).toBeGreaterThan(cycles * 0.8);
    }, 120_000);
    test(`LevelBlend ${JSON.stringify(p)}: ${cycles} cycles with bubbles and resets, every result on time and exact`, () => {
      expect(runAgainstGolden(level(p), levelBlendGolden(p), levelBlendStimulus, seed, 0x1e ^ p.fadd, cycles)).toBeGreaterThan(cycles * 0.8);
    }, 120_000);
  }
});

describe('throughput', () => {
  test('one item per cycle with in_valid held high, on both blocks: results in order, exactly `latency` cycles later', () => {
    const rng = createRng(seed ^ 0xb2);
    blendHardware(Array.from({ length: 300 }, () => randomBlendItem(rng)));
    levelHardware(Array.from({ length: 300 }, () => randomLevelBlendItem(rng)));
  });
});

describe('bilinear_blend and level_blend on three simulators', () => {
  test('the designs are registered', async () => {
    expect(await findDesign('bilinear_blend')).toBe(bilinearBlendCosimDesign);
    expect(await findDesign('level_blend')).toBe(levelBlendCosimDesign);
  });

  test('lockstep on the TS simulator, Verilator and Icarus, with the golden texelChannels and lerp32', async () => {
    await expectLockstepOnThree(bilinearBlendCosimDesign, seed, 1000);
    await expectLockstepOnThree(levelBlendCosimDesign, seed, 1000);
  }, 600_000);

  test('verilator --lint-only -Wall and iverilog -Wall are clean', async () => {
    await expectLintClean([bilinear(), bilinear(zeroLatencies), level(), level(zeroLatencies)]);
  }, 300_000);

  test('the golden model notices a wrong channel', () => {
    const L = bilinearBlendLatency(defaultBilinearBlendParams);
    const item: BlendItem = { texels: [f(1), f(3), f(5), f(7)], r32f: true, weightA: 128, weightB: 128 };
    const run = (r: number) => {
      const model = bilinearBlendGolden(defaultBilinearBlendParams);
      model.check(0, { rst_n: 1n, in_valid: 1n, ...blendInputs(item) }, { out_valid: 0n });
      for (let c = 1; c < L; c++) model.check(c, { rst_n: 1n, in_valid: 0n }, { out_valid: 0n });
      return model.check(L, { rst_n: 1n, in_valid: 0n }, { out_valid: 1n, rgba: BigInt(r) | (BigInt(f(1)) << 96n) });
    };
    expect(run(f(4))).toBeNull();
    expect(run(f(4) + 1)).toMatch(/got 0x40800001 0x00000000 0x00000000 0x3f800000, expected 0x40800000/);
  });
});
