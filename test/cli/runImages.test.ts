// `rtgpu run` with raw images: .hex/.bin programs, constants and triangle images give the same results as .s and .obj.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { formatHexWords, wordsToBytes } from '../../src/isa/hexWords.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { bvh8InstancedSceneImage, bvh8SceneImage, bvhSceneImage, parseBvhSceneImage, parseBvh8SceneImage } from '../../src/bvh/index.ts';
import { flattenInstances } from '../../src/scenes/instancedScene.ts';
import { loadInstancedSceneFile } from '../../src/scenes/instancedSceneFile.ts';
import { buildRunJob, formatRunJson, formatRunText, parseRunCommandLine, type RunCommandLine, type RunOutput } from '../../src/cli/commands/run.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { encodeTextureHeader, encodeTextureSampler } from '../../src/golden/texture/index.ts';
import { encodeTxdHandle } from '../../src/isa/textureOperands.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { runCliCases } from './inProcessCli.ts';

/** The command line of a run (not --help). */
const runLine = (argv: string[]) => parseRunCommandLine(argv) as RunCommandLine;

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', 'run', ...args], { reject: false });

/** Write files into a fresh temporary directory; returns their paths by name. */
function files(contents: Record<string, string | Uint8Array>): Record<string, string> {
  const dir = tempDir('run-images');
  return Object.fromEntries(
    Object.entries(contents).map(([name, data]) => {
      const path = join(dir, name);
      writeFileSync(path, data);
      return [name, path];
    }),
  );
}

// Trace from (const[0], 0, 0) along −z (x = const[0] as a float bit pattern) and return RV14 (hit point, shader id).
const kernel = `    s_write_high R10, 0x2000
    s_load_4byte R2, R10, 0
    v_get_from_s RV14, R2, 0
    s_write_high R2, 0xbf80
    v_get_from_s RV15, R2, 2
    trace
    ii_addi R4, R29, 0x7ff0
    ii_addi R4, R4, 0x7ff0
    ii_addi R4, R4, 0x10
    v_store_16byte RV14, R4, 0
    fin
`;
// Two triangles in z = −2 (material a) and z = −3 (material b); the ray from x = 0.25 hits the first.
const obj = 'usemtl a\nv -1 -1 -2\nv 1 -1 -2\nv 0 1 -2\nf 1 2 3\nusemtl b\nv -1 -1 -3\nv 1 -1 -3\nv 0 1 -3\nf 4 5 6\n';
const constants = Uint32Array.from([0x3e800000]); // 0.25

function inputs() {
  const words = assemble(kernel, 'k.s').words;
  const image = sceneToImage(parseObj(obj, 'scene.obj'));
  const bvhImage = bvhSceneImage(parseObj(obj, 'scene.obj')).image;
  return files({
    'k.s': kernel,
    'k.hex': formatHexWords(words),
    'k.bin': wordsToBytes(words),
    'c.hex': formatHexWords(constants),
    'c.bin': wordsToBytes(constants),
    'scene.obj': obj,
    'tri.hex': formatHexWords(image),
    'tri.bin': wordsToBytes(image),
    'bvh.hex': formatHexWords(bvhImage),
    'bvh.bin': wordsToBytes(bvhImage),
    'odd.bin': Uint8Array.from([1, 2, 3, 4, 5, 6]),
    'short.hex': '1\n2\n3\n',
  });
}

describe('rtgpu run: raw images', () => {
  test('.s, .hex and .bin programs, .hex and .bin constants, .obj and image triangles: identical results', async () => {
    const f = inputs();
    const variants = [
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['scene.obj']!],
      ['--program', f['k.hex']!, '--const', f['c.hex']!, '--triangles', f['scene.obj']!],
      ['--program', f['k.bin']!, '--const', f['c.bin']!, '--triangles', f['tri.hex']!],
      [f['k.bin']!, '--const', f['c.bin']!, '--triangles', f['tri.bin']!],
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['tri.bin']!],
    ];
    const runs = await Promise.all(variants.map((v) => rtgpu(...v, '--pixels', '2')));
    for (const r of runs) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    // hit (0.25, 0, −2) on shader 1 (material a)
    expect(runs[0]!.stdout.split('\n')[0]).toBe('pixel 0: 3e800000 00000000 c0000000 00000001');
    for (const r of runs.slice(1)) expect(r.stdout).toBe(runs[0]!.stdout);
  }, 120_000);

  test('bad images are errors that name the file; conflicting flags are usage errors', async () => {
    const f = inputs();
    const cases: [string[], number, string][] = [
      [['--program', f['odd.bin']!], 1, `rtgpu: ${f['odd.bin']}: 6 bytes is not a whole number of 32-bit words`],
      [[f['k.s']!, '--const', f['odd.bin']!], 1, `rtgpu: ${f['odd.bin']}: 6 bytes is not a whole number of 32-bit words`],
      [[f['k.s']!, '--triangles', f['odd.bin']!], 1, `rtgpu: ${f['odd.bin']}: 6 bytes is not a whole number of 32-bit words`],
      [[f['k.s']!, '--triangles', f['short.hex']!], 1, `rtgpu: ${f['short.hex']}: error: image length 3 is not a multiple of 4 words`],
      [[f['k.s']!, '--program', f['k.s']!], 2, 'rtgpu: give the program as an argument or with --program, not both'],
      [[f['k.s']!, '--scene', f['scene.obj']!, '--triangles', f['tri.hex']!], 2, 'rtgpu: give --scene or --triangles, not both'],
      [[f['k.s']!, '--rt-cores', '5'], 2, 'rtgpu: --rt-cores must be between 1 and 4, got 5'],
      [[f['k.s']!, '--ic-cores', '0'], 2, 'rtgpu: --ic-cores must be between 1 and 32, got 0'],
      [[f['k.s']!, '--max-cycles', 'x'], 2, "rtgpu: --max-cycles expects a whole number, got 'x'"],
    ];
    // Two through bin/rtgpu.mjs (a failure, a usage error), the rest in-process (test/cli/inProcessCli.ts).
    const runs = await runCliCases(cases.map(([args]) => args), { spawn: rtgpu, spawnAt: [0, 4], prefix: ['run'] });
    runs.forEach((r, i) => {
      const [args, code, message] = cases[i]!;
      expect(r.stderr, args.join(' ')).toBe(message);
      expect(r.exitCode, args.join(' ')).toBe(code);
    });
  }, 120_000);

  test('buildRunJob: the job of the whole-GPU runtime, and the GPU flags for it', () => {
    const f = inputs();
    const cmd = runLine(['--program', f['k.bin']!, '--const', f['c.hex']!, '--triangles', f['tri.bin']!, '--pixels', '7', '--rt-cores', '2', '--ic-cores', '3', '--max-cycles', '1000'])!;
    expect(cmd.gpu).toEqual({ rtCores: 2, icCores: 3, textureUnit: false, maxCycles: 1000 });
    const job = buildRunJob(cmd.inputs);
    expect([...job.program]).toEqual([...assemble(kernel, 'k.s').words]);
    expect([...job.constants]).toEqual([...constants]);
    expect([...job.triangles]).toEqual([...sceneToImage(parseObj(obj, 'scene.obj'))]);
    expect(job.pixels).toBe(7);
    const defaults = buildRunJob({ program: f['k.s']!, pixels: 1 });
    expect(defaults.sourceLines?.[0]).toBe(1);
    expect([...defaults.triangles]).toEqual([...sceneToImage(defaultScene())]);
    expect(runLine([f['k.s']!])!.gpu).toEqual({ rtCores: undefined, icCores: undefined, textureUnit: false, maxCycles: 50_000_000 });
    expect(() => buildRunJob({ program: f['odd.bin']!, pixels: 1 })).toThrow(CliError);
  });

  test('--bvh, --bvh8 (--obb): an OBJ (its BVH or BVH8 built), the Cornell box, and BVH scene images give the results of brute force', async () => {
    const f = inputs();
    const variants = [
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['scene.obj']!],
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['scene.obj']!, '--bvh'],
      ['--program', f['k.hex']!, '--const', f['c.bin']!, '--triangles', f['bvh.hex']!, '--bvh'],
      [f['k.bin']!, '--const', f['c.hex']!, '--triangles', f['bvh.bin']!, '--bvh'],
      [f['k.s']!, '--const', f['c.hex']!, '--json'],
      [f['k.s']!, '--const', f['c.hex']!, '--bvh', '--json'],
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['scene.obj']!, '--bvh8'],
      [f['k.s']!, '--const', f['c.hex']!, '--bvh8', '--json'],
      [f['k.s']!, '--const', f['c.hex']!, '--scene', f['scene.obj']!, '--bvh8', '--obb'],
    ];
    const runs = await Promise.all(variants.map((v) => rtgpu(...v, '--pixels', '2')));
    runs.forEach((r, i) => {
      expect(r.stderr, variants[i]!.join(' ')).toBe('');
      expect(r.exitCode).toBe(0);
    });
    expect(runs[0]!.stdout.split('\n')[0]).toBe('pixel 0: 3e800000 00000000 c0000000 00000001');
    for (const r of [...runs.slice(1, 4), runs[6]!, runs[8]!]) expect(r.stdout).toBe(runs[0]!.stdout);
    expect(runs[5]!.stdout).toBe(runs[4]!.stdout);
    expect(runs[7]!.stdout).toBe(runs[4]!.stdout);
  }, 120_000);

  test('--bvh: bad combinations are errors that say what to do', async () => {
    const f = inputs();
    const cases: [string[], number, RegExp][] = [
      [[f['k.s']!, '--triangles', f['tri.hex']!, '--bvh'], 1, /^rtgpu: .*tri\.hex: error: .* \(it reads as a triangle-memory image: drop --bvh, or give the OBJ file to build its BVH\)$/],
      [[f['k.s']!, '--triangles', f['bvh.bin']!], 1, /^rtgpu: .*bvh\.bin: error: .* \(it is a BVH scene image: add --bvh\)$/],
      [[f['k.s']!, '--bvh', '--bvh8'], 2, /^rtgpu: give --bvh or --bvh8, not both$/],
      [[f['k.s']!, '--obb'], 2, /^rtgpu: --obb builds the BVH8 with oriented boxes: add --bvh8$/],
      [[f['k.s']!, '--bvh', '--obb'], 2, /^rtgpu: --obb builds the BVH8 with oriented boxes: add --bvh8 instead of --bvh \(its BVH4 has no oriented boxes\)$/],
      [[f['k.s']!, '--triangles', f['short.hex']!, '--bvh'], 1, /^rtgpu: .*short\.hex: error: word 0 gives a triangle section of 1 word, not a multiple of 4/],
    ];
    const runs = await runCliCases(cases.map(([args]) => args), { spawn: rtgpu, spawnAt: [0, 2], prefix: ['run'] });
    runs.forEach((r, i) => {
      const [args, code, message] = cases[i]!;
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.exitCode, args.join(' ')).toBe(code);
    });
  }, 120_000);

  test('buildRunJob with an instanced scene file: --bvh8 its two-level BVH8 image, brute force its flattened triangles', () => {
    const f = inputs();
    const dir = tempDir('run-instances');
    const file = join(dir, 'two.scene');
    writeFileSync(file, `instance ${f['scene.obj']!}\ninstance ${f['scene.obj']!} scale 0.5 rotate 0 45 0 translate 1 0 0\n`);
    const instanced = loadInstancedSceneFile(file).scene;
    const eight = buildRunJob({ program: f['k.s']!, triangles: file, traversal: 'bvh8', pixels: 1 });
    expect([...eight.triangles]).toEqual([...bvh8InstancedSceneImage(instanced).image]);
    // The TLAS, two instance nodes and one BLAS: the mesh's triangles stored once.
    expect(parseBvh8SceneImage(eight.triangles).triangles).toBe(parseObj(obj, 'scene.obj').triangles.length / 4);
    const flat = buildRunJob({ program: f['k.s']!, triangles: file, pixels: 1 });
    expect([...flat.triangles]).toEqual([...sceneToImage(flattenInstances(instanced))]);
  });

  test('buildRunJob with BVH traversal: the job holds the BVH scene image; the scene is in BVH order', () => {
    const f = inputs();
    const cmd = runLine([f['k.s']!, '--triangles', f['bvh.bin']!, '--bvh'])!;
    expect(cmd.inputs.traversal).toBe('bvh');
    const job = buildRunJob(cmd.inputs);
    expect(job.traversal).toBe('bvh');
    expect([...job.triangles]).toEqual([...bvhSceneImage(parseObj(obj, 'scene.obj')).image]);
    expect(job.scene).toEqual(parseBvhSceneImage(job.triangles).ordered);
    const built = buildRunJob({ program: f['k.s']!, triangles: f['scene.obj']!, traversal: 'bvh', pixels: 1 });
    expect([...built.triangles]).toEqual([...job.triangles]);
    expect(buildRunJob({ program: f['k.s']!, pixels: 1 }).traversal).toBe('brute-force');
    const eight = buildRunJob(runLine([f['k.s']!, '--scene', f['scene.obj']!, '--bvh8'])!.inputs);
    expect(eight.traversal).toBe('bvh8');
    expect([...eight.triangles]).toEqual([...bvh8SceneImage(parseObj(obj, 'scene.obj')).image]);
    const oriented = runLine([f['k.s']!, '--bvh8', '--obb'])!.inputs;
    expect(oriented.obb).toBe(true);
    expect([...buildRunJob(oriented).triangles]).toEqual([...bvh8SceneImage(defaultScene(), { obb: true }).image]);
    expect(() => buildRunJob({ program: f['k.s']!, traversal: 'bvh', obb: true, pixels: 1 })).toThrow(/--obb builds the BVH8 with oriented boxes: add --bvh8 instead of --bvh/);
  });

  test('--texture FILE: texture memory for txd (the ISS gets it; the GPU would get a texture unit); too long is an error', async () => {
    // Sampler 0 (nearest), header 1: a 1x1 RGBA8 texture at word 8 whose texel is (0x11, 0x22, 0x33, 0xff).
    const texture = Uint32Array.from([...encodeTextureSampler({ filter: 'nearest', lodBias: 0, lodMin: 0, lodMax: 0 }), 0, 0, ...encodeTextureHeader({ base: 8, width: 1, height: 1, format: 'rgba8', mipCount: 1, wrapS: 'repeat', wrapT: 'repeat' }), 0xff332211]);
    const handle = encodeTxdHandle(1, 0);
    const txd = `    s_write_high R2, #0x${(handle >>> 16).toString(16)}
    s_write_low R2, #0x${(handle & 0xffff).toString(16)}
    v_get_from_s RV1, R2, #2
    txd RV3, RV1, RV2
    ii_addi R4, R29, 0x7ff0
    ii_addi R4, R4, 0x7ff0
    ii_addi R4, R4, 0x10
    v_store_16byte RV3, R4, 0
    fin
`;
    const f = files({ 'txd.s': txd, 'tex.hex': formatHexWords(texture), 'tex.bin': wordsToBytes(texture), 'big.bin': new Uint8Array(4 * 262145) });
    const unorm = (b: number) => (new Uint32Array(new Float32Array([b / 255]).buffer)[0]! >>> 0).toString(16).padStart(8, '0');
    const r = await rtgpu(f['txd.s']!, '--texture', f['tex.hex']!, '--json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).pixels[0].ret).toEqual([unorm(0x11), unorm(0x22), unorm(0x33), unorm(0xff)]);
    for (const file of [f['tex.hex']!, f['tex.bin']!]) expect(buildRunJob(runLine([f['txd.s']!, '--texture', file]).inputs).texture).toEqual(texture);
    expect(runLine([f['txd.s']!, '--texture-unit']).gpu.textureUnit).toBe(true);
    // Without texture memory txd is illegal: the pixel faults.
    expect((await runGpu(buildRunJob(runLine([f['txd.s']!]).inputs), { sim: 'iss' })).faults).toEqual([0]);
    expect(() => buildRunJob(runLine([f['txd.s']!, '--texture', f['big.bin']!]).inputs)).toThrow(new CliError(`${f['big.bin']}: 262145 words; texture memory holds 262144`, 1));
  }, 120_000);

  test("the texture unit's counters print after the cycles (text) and as `texture` (--json), with the hit rate; a run without them prints none", () => {
    const texture = { requests: 40, texelLookups: 160, texelHits: 150, texelFills: 4, descriptorFills: 2, stallCycles: 30, descriptorStallCycles: 12 };
    const r: RunOutput = { cycles: 1000, instructions: 400, pixels: [{ pixel: 0, ret: [1, 2, 3, 4] }], faults: [] };
    expect(formatRunText({ ...r, texture }).split('\n').slice(1)).toEqual([
      'instructions: 400',
      'cycles: 1000',
      'txd requests: 40',
      'texel cache: 160 lookups, 150 hits, 10 misses (hit rate 93.8%), 4 line fills',
      'descriptor cache: 2 line fills',
      'texture stall cycles: 30 texel stage, 12 descriptor stage',
      '',
    ]);
    expect(JSON.parse(formatRunJson({ ...r, texture })).texture).toEqual(texture);
    expect(formatRunText(r)).not.toMatch(/txd|texel/);
    expect(JSON.parse(formatRunJson(r))).not.toHaveProperty('texture');
  });
});
