// rtgpu_top with a texture unit (GpuParams.texture) on the TS simulator against the ISA simulator with the same
// texture memory: random programs that run txd, a second shorter texture load on the same GPU (words past it
// read zero, the caches see the new image), the textured kernel on the textured Cornell box; lint of its RTL and the
// textured scene in lockstep on TS and Icarus (the soak adds Verilator). In the soak only (RTGPU_SOAK=1, `npm run
// soak -- --only texture-gpu`): the txd kernel's four pixels in lockstep as well.
import { describe, expect, test } from 'vitest';
import { assemble } from '../../src/isa/assembler.ts';
import { generateProgram, generateScene } from '../../src/stimulus/randomProgram.ts';
import { generateTextureMemory } from '../../src/stimulus/randomTextureMemory.ts';
import { sceneToImage } from '../../src/golden/scene.ts';
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';
import { RANDOM_TEXTURE_LAYOUT } from '../../src/stimulus/randomProgram.ts';
import { encodeTxdHandle } from '../../src/isa/textureOperands.ts';
import { encodeTextureHeader, encodeTextureSampler } from '../../src/golden/texture/index.ts';
import { GpuSession, runFrame, runGpu, type GpuJob, type GpuRunResult } from '../../src/host/runtime/index.ts';
import { defaultGpuParams, type GpuParams } from '../../src/gpu/top/gpuTop.ts';
import { gpuDesign } from '../../src/gpu/top/gpuDesign.ts';
import { expectLintClean } from './threeSimulators.ts';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { TEXTURED_CAMERA } from '../../src/cli/commands/renderArgs.ts';
import { checkerTexture, texturedMaterials, texturedScene } from '../../src/scenes/texturedScene.ts';
import { SOAK } from '../scale.ts';

const seed = seedFromEnv();
console.log(`gpuTexture.test seed=${seed} (rerun with SEED=${seed})`);

/** Two RT cores (the arbiter joins their links) of two contexts, one IC core: a small textured GPU. */
const gpu: GpuParams = { ...defaultGpuParams, rtCores: 2, icCores: 1, contexts: 2, texture: true };

const pixelsOf = (r: Pick<GpuRunResult, 'pixels'>) => r.pixels.map((p) => [p.pixel, ...p.ret]);

/** A random program with txd over a random scene, with the random texture memory its handles name. */
function textureJob(rng: Rng, pixels: number): GpuJob {
  const p = generateProgram(rng, { size: 120, texture: true });
  const { words, sourceLines } = assemble(p.source, 'random-txd.s');
  return { program: words, sourceLines, sourceFile: 'random-txd.s', constants: p.constants, triangles: sceneToImage(generateScene(rng)), texture: generateTextureMemory(rng), pixels };
}

/** The first random job whose pixels on the ISS depend on its texture memory (many random programs' txd results never reach the checksum). */
async function texturedJob(rng: Rng, pixels: number): Promise<GpuJob> {
  for (let tries = 0; tries < 200; tries++) {
    const job = textureJob(rng, pixels);
    const [textured, untextured] = await Promise.all([job.texture!, new Uint32Array(0)].map((texture) => runGpu({ ...job, texture }, { sim: 'iss' })));
    if (JSON.stringify(pixelsOf(textured!)) !== JSON.stringify(pixelsOf(untextured!))) return job;
  }
  throw new Error(`SEED=${seed}: no random program in 200 depends on its texture memory`);
}

/** Where generateTextureMemory's texels start: past the header and sampler pools. */
const TEXEL_BASE = 32;

const word = (v: number) => `0x${(v >>> 0).toString(16)}`;
const li = (r: number, v: number) => `s_write_high R${r}, #${word(v >>> 16)}\n s_write_low R${r}, #${word(v & 0xffff)}`;
const f32 = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/**
 * Each pixel p fetches at (0.37 p, 0.23 p) through six txd, each (header, sampler, footprint) of
 * RANDOM_TEXTURE_LAYOUT's two textures and three filters, and returns the sum of the six results' lanes as
 * integers: every texel and descriptor word read can change the pixel; nothing reads memory it did not write.
 */
function txdKernel(): Uint32Array {
  const { headers, samplers } = RANDOM_TEXTURE_LAYOUT;
  const fetches = [[headers[0], samplers[0], 1 / 64], [headers[0], samplers[2], 0.2], [headers[1], samplers[1], 1 / 16], [headers[1], samplers[2], 0.5], [headers[0], samplers[1], 1 / 8], [headers[1], samplers[0], 1 / 32]] as const;
  const source = [
    's_itof R3, R1',
    li(4, f32(0.37)), 'ff_mul R5, R3, R4', 'v_get_from_s RV1, R5, #0',
    li(4, f32(0.23)), 'ff_mul R5, R3, R4', 'v_get_from_s RV1, R5, #1',
    ...fetches.flatMap(([h, s, d], k) => [li(2, encodeTxdHandle(h, s)), 'v_get_from_s RV1, R2, #2', li(2, f32(d)), 'v_get_from_s RV2, R2, #0', 'v_get_from_s RV2, R2, #3', `txd RV${4 + k}, RV1, RV2`]),
    'vv_add RV10, RV4, RV5', 'vv_add RV10, RV10, RV6', 'vv_add RV10, RV10, RV7', 'vv_add RV10, RV10, RV8', 'vv_add RV10, RV10, RV9',
    's_mov R7, R29', 's_write_low R7, #0xfff0', 'v_store_16byte RV10, R7, 0',
    'fin',
  ].join('\n');
  return assemble(source, 'txd-kernel.s').words;
}

/**
 * The texture unit's counters by hand: every pixel runs one nearest txd of texel (0, 0) of a 4×4 RGBA8
 * texture (header 1, sampler 4: two descriptor lines) and stores it. So requests = lookups = pixels; the
 * first lookup misses and fills the one texel line, every later one finds it allocated (a hit); two
 * descriptor lines are read, once.
 */
function sameTexelJob(pixels: number): GpuJob {
  const texture = new Uint32Array(32);
  texture.set(encodeTextureHeader({ base: 16, width: 4, height: 4, format: 'rgba8', mipCount: 1, wrapS: 'repeat', wrapT: 'repeat' }), 4);
  texture.set(encodeTextureSampler({ filter: 'nearest', lodBias: 0, lodMin: 0, lodMax: 0 }), 8);
  for (let i = 0; i < 16; i++) texture[16 + i] = (0x01020304 * (i + 1)) >>> 0;
  const source = [
    li(3, 0), li(2, encodeTxdHandle(1, 4)),
    'v_get_from_s RV1, R3, #0', 'v_get_from_s RV1, R3, #1', 'v_get_from_s RV1, R2, #2', 'v_get_from_s RV1, R3, #3',
    ...[0, 1, 2, 3].map((k) => `v_get_from_s RV2, R3, #${k}`),
    'txd RV4, RV1, RV2',
    's_mov R7, R29', 's_write_low R7, #0xfff0', 'v_store_16byte RV4, R7, 0',
    'fin',
  ].join('\n');
  return { program: assemble(source, 'same-texel.s').words, constants: new Uint32Array(0), triangles: sceneToImage({ vertices: new Uint32Array(0), triangles: new Uint32Array(0) }), texture, pixels };
}

describe('rtgpu_top with a texture unit', () => {
  test("the texture unit's counters over MMIO: the hand-counted requests, lookups, hits and fills of one texel fetched by every pixel", async () => {
    const job = sameTexelJob(40);
    const r = await runGpu(job, { sim: 'ts', gpu, textureUnit: true });
    expect(pixelsOf(r)).toEqual(pixelsOf(await runGpu(job, { sim: 'iss' })));
    expect(r.pixels.map((p) => p.ret[0])).toEqual(Array(40).fill(f32(4 / 255))); // texel (0, 0)'s R byte is 4
    const t = r.stats.texture!;
    expect({ requests: t.requests, texelLookups: t.texelLookups, texelHits: t.texelHits, texelFills: t.texelFills, descriptorFills: t.descriptorFills }).toEqual({ requests: 40, texelLookups: 40, texelHits: 39, texelFills: 1, descriptorFills: 2 });
    expect(t.stallCycles).toBeGreaterThan(0); // the first request waits for its line
  }, 300_000);

  test('random programs with txd: the pixels and faults of the ISA simulator with the same texture memory', async () => {
    const job = await texturedJob(createRng(seed), 12);
    const r = await runGpu(job, { sim: 'ts', gpu, textureUnit: true });
    const iss = await runGpu(job, { sim: 'iss' });
    expect(pixelsOf(r), `SEED=${seed}`).toEqual(pixelsOf(iss));
    expect(r.faults).toEqual(iss.faults);
    expect(r.stats.instructions).toBe(iss.stats.instructions);
  }, 300_000);

  test('a second, shorter texture load on the same GPU: words past it read zero, the caches see the new image', async () => {
    // A directed kernel: random programs read main memory they did not write, which a second frame on the same GPU keeps.
    const job: GpuJob = { ...textureJob(createRng(seed + 1), 32), program: txdKernel(), constants: new Uint32Array(0) };
    const first = job.texture!;
    // The new image: the same headers and samplers, every texel changed (the lines the first frame cached are
    // stale), and cut short in the texels (headers, still there, name words past the end): by half of them,
    // or more where the kernel reads none of the words cut (the ISS tells), so the old words would show.
    const changed = first.map((w, i) => (i >= TEXEL_BASE ? (w ^ 0x5a5a5a5a) >>> 0 : w));
    const issOf = async (texture: Uint32Array) => pixelsOf(await runGpu({ ...job, texture }, { sim: 'iss' }));
    let second: Uint32Array | undefined;
    for (const fraction of [1 / 2, 3 / 4, 1]) {
      const cut = Math.max(1, Math.floor((first.length - TEXEL_BASE) * fraction));
      const shorter = changed.subarray(0, first.length - cut);
      const withOldWords = Uint32Array.from([...shorter, ...first.subarray(first.length - cut)]);
      if (JSON.stringify(await issOf(shorter)) !== JSON.stringify(await issOf(withOldWords))) {
        second = shorter;
        break;
      }
    }
    expect(second, `SEED=${seed}: the kernel reads none of the words past any shorter load`).toBeDefined();
    const session = await GpuSession.open(job, { sim: 'ts', gpu, textureUnit: true });
    try {
      const before = session.run(0, job.pixels);
      expect(pixelsOf(before), `SEED=${seed}`).toEqual(pixelsOf(await runGpu(job, { sim: 'iss' })));
      session.loadTexture(second!);
      const after = session.run(0, job.pixels);
      const iss = await runGpu({ ...job, texture: second! }, { sim: 'iss' });
      expect(pixelsOf(after), `SEED=${seed}`).toEqual(pixelsOf(iss));
      expect(after.faults).toEqual(iss.faults);
      // The new image changes the pixels, so stale lines or old words would show.
      expect(pixelsOf(iss)).not.toEqual(pixelsOf(before));
    } finally {
      session.close();
    }
  }, 300_000);

  test('the textured kernel on the textured Cornell box (6x4): the ISA simulator\'s pixels, bit for bit', async () => {
    const job = buildFrame({ kernel: 'textured', camera: defaultCamera, width: 6, height: 4, scene: texturedScene(), materials: texturedMaterials() });
    expect(job.texture).toBeDefined();
    const r = await runGpu(job, { sim: 'ts', gpu, textureUnit: true });
    const iss = await runGpu(job, { sim: 'iss' });
    expect(pixelsOf(r)).toEqual(pixelsOf(iss));
    expect(r.faults).toEqual([]);
  }, 300_000);

  test('the host refuses a texture image longer than texture memory before running', async () => {
    const job = { ...textureJob(createRng(seed + 2), 1), texture: new Uint32Array(262145) };
    await expect(runGpu(job, { sim: 'ts', gpu, textureUnit: true })).rejects.toThrow(/the texture image has 262145 words; texture memory holds 262144/);
  });
});

describe('rtgpu_top with a texture unit on Verilator and Icarus', () => {
  test('its SystemVerilog draws no warning from verilator --lint-only -Wall and iverilog -Wall', async () => {
    await expectLintClean([gpuDesign(gpu)]);
  }, 600_000);

  // In CI a 16x16 checker (341 words with its mips, where the built-in 64x64 has 5,469: its DMA load took 5,100 of
  // the frame's 8,947 cycles); the soak (RTGPU_SOAK=1) renders the built-in scene as it is.
  const checker = SOAK ? { size: '64x64', image: checkerTexture() } : { size: '16x16', image: checkerTexture(16, 4) };
  // CI leaves Verilator to the soak here: building this one model took a minute of both cores, and Verilator runs
  // the texture unit in lockstep in textureUnit.test.ts and the rest of this GPU in gpuCosim.test.ts; Icarus, the
  // slower engine, and the one that would show an X, stays.
  const sims = SOAK ? (['ts', 'verilator', 'icarus'] as const) : (['ts', 'icarus'] as const);
  test(`the textured scene (3x2, the floor under TEXTURED_CAMERA, a ${checker.size} checker) in lockstep on ${SOAK ? 'TS, Verilator and Icarus' : 'TS and Icarus'}: the ISA simulator's pixels`, async () => {
    const frame = { camera: TEXTURED_CAMERA, width: 3, height: 2, scene: texturedScene(), materials: texturedMaterials(checker.image) };
    const job = buildFrame({ ...frame, kernel: 'textured' });
    const iss = await runGpu(job, { sim: 'iss' });
    // txd decides some of these pixels: the flat-shaded frame differs from them.
    expect(pixelsOf(iss)).not.toEqual(pixelsOf(await runGpu(buildFrame({ ...frame, kernel: 'shade' }), { sim: 'iss' })));
    const run = await runFrame(job, { sim: 'lockstep', lockstep: [...sims], gpu, textureUnit: true, log: (l) => console.log(l) });
    console.log(`textured scene, 6 pixels in lockstep: ${run.stats.cycles} cycles, ${(run.stats.wallSeconds - run.stats.setupSeconds).toFixed(1)} s after ${run.stats.setupSeconds.toFixed(1)} s of setup`);
    expect(pixelsOf(run)).toEqual(pixelsOf(iss));
    expect(run.faults).toEqual([]);
  }, 1_800_000);
});

// Registered only in the soak, as rtlHandoff.test.ts's whole-GPU Yosys run: CI reports no skipped test.
if (SOAK)
  describe('rtgpu_top with a texture unit on Verilator and Icarus (soak)', () => {

  test('four pixels of the txd kernel in lockstep on TS, Verilator and Icarus: the ISA simulator\'s pixels', async () => {
    const job: GpuJob = { ...textureJob(createRng(seed + 3), 4), program: txdKernel(), constants: new Uint32Array(0) };
    const run = await runFrame(job, { sim: 'lockstep', lockstep: ['ts', 'verilator', 'icarus'], gpu, textureUnit: true, log: (l) => console.log(l) });
    console.log(`txd kernel, 4 pixels in lockstep: ${run.stats.cycles} cycles, ${(run.stats.wallSeconds - run.stats.setupSeconds).toFixed(1)} s after ${run.stats.setupSeconds.toFixed(1)} s of setup`);
    expect(pixelsOf(run), `SEED=${seed}`).toEqual(pixelsOf(await runGpu(job, { sim: 'iss' })));
  }, 3_600_000);
});
