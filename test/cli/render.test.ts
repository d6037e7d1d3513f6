// `rtgpu render --sim iss`: a PNG and the statistics; --dump is `rtgpu run --json`; every bad flag is a clean error.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { expectRenderErrors } from './renderErrors.ts';
import { buildFrame, pixelsToImage, type FrameSpec } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { bunnyMesh } from '../../src/scenes/sceneLibrary.ts';
import { bvhSceneImage } from '../../src/bvh/index.ts';
import { formatHexWords, wordsToBytes } from '../../src/isa/hexWords.ts';
import { formatRenderStats, renderCommand } from '../../src/cli/commands/render.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { ProgressBar } from '../../src/cli/progress.ts';
import type { GpuRunResult } from '../../src/host/runtime/gpuJob.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { formatRunJson } from '../../src/cli/commands/run.ts';
import { thinRodsInBox } from '../../src/scenes/thinRodsScene.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const W = 8;
const H = 6;
const small = ['--sim', 'iss', '--width', String(W), '--height', String(H)];

/** Width, height and RGB bytes of a PNG as encodePng writes it (one IDAT, filter 0 rows). */
function readPng(png: Buffer): { width: number; height: number; rgb: Uint8Array } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25]]).toEqual([8, 2]);
  const idat = png.readUInt32BE(33);
  expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
  const raw = inflateSync(png.subarray(41, 41 + idat));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) rgb.set(raw.subarray(y * (1 + 3 * width) + 1, (y + 1) * (1 + 3 * width)), y * 3 * width);
  return { width, height, rgb };
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);



describe('rtgpu render --sim iss', () => {
  test.each(['shade', 'id'] as const)('kernel %s: a PNG of the right size, the statistics, and --dump = run --json', async (kernel) => {
    const dir = tempDir('render');
    const out = join(dir, 'frame.png');
    const dump = join(dir, 'pixels.json');
    const r = await rtgpu('render', ...small, '--kernel', kernel, '--out', out, '--dump', dump);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`image: ${W}x${H} pixels -> ${out} (kernel ${kernel})`);
    expect(lines[1]).toMatch(/^sim: iss /);
    expect(r.stdout).toMatch(/^cycles: [1-9]\d*$/m);
    expect(r.stdout).toMatch(/^instructions: [1-9]\d*$/m);
    expect(r.stdout).toMatch(/^wall time: \d+\.\d\d s$/m);
    expect(r.stdout).toMatch(/^speed: \d+ instructions\/s$/m);
    expect(r.stdout).not.toMatch(/^faults/m);

    // The dump: the JSON of `rtgpu run --json`, and the same pixels as `run` of the frame's program and constants.
    const json = JSON.parse(readFileSync(dump, 'utf8'));
    expect(Object.keys(json)).toEqual(['cycles', 'instructions', 'pixels', 'faults']);
    expect(json.pixels).toHaveLength(W * H);
    expect(Object.keys(json.pixels[0])).toEqual(['pixel', 'ret']);
    for (const p of json.pixels) for (const w of p.ret) expect(w).toMatch(/^[0-9a-f]{8}$/);
    const spec: FrameSpec = { kernel, camera: defaultCamera, width: W, height: H, scene: defaultScene() };
    const job = buildFrame(spec);
    writeFileSync(join(dir, 'k.hex'), formatHexWords(job.program));
    writeFileSync(join(dir, 'c.hex'), formatHexWords(job.constants));
    const run = await rtgpu('run', join(dir, 'k.hex'), '--const', join(dir, 'c.hex'), '--pixels', String(W * H), '--json');
    expect(run.stderr).toBe('');
    expect(json).toEqual(JSON.parse(run.stdout));

    // The PNG holds exactly the image of those pixels.
    const png = readPng(readFileSync(out));
    expect([png.width, png.height]).toEqual([W, H]);
    const pixels = json.pixels.map((p: { pixel: number; ret: string[] }) => ({ pixel: p.pixel, ret: p.ret.map((h) => parseInt(h, 16)) }));
    expect([...png.rgb]).toEqual([...pixelsToImage(spec, pixels)]);
  }, 120_000);

  test('an OBJ scene and the same scene as a .hex or .bin triangle image render the same pixels', async () => {
    const dir = tempDir('render');
    const obj = 'v -1 0 -1\nv 1 0 -1\nv 0 2 -1\nf 1 2 3\nv -1 0 -0.5\nv 0 0 -0.5\nv -1 1 -0.5\nf 4 5 6\n';
    const image = sceneToImage(parseObj(obj, 'x.obj'));
    writeFileSync(join(dir, 's.obj'), obj);
    writeFileSync(join(dir, 's.hex'), formatHexWords(image));
    writeFileSync(join(dir, 's.bin'), wordsToBytes(image));
    const dumps = await Promise.all(
      ['s.obj', 's.hex', 's.bin'].map(async (scene) => {
        const r = await rtgpu('render', join(dir, scene), ...small, '--kernel', 'id', '--out', join(dir, `${scene}.png`), '--dump', join(dir, `${scene}.json`));
        expect(r.stderr).toBe('');
        expect(r.exitCode).toBe(0);
        return readFileSync(join(dir, `${scene}.json`), 'utf8');
      }),
    );
    expect(dumps[1]).toBe(dumps[0]);
    expect(dumps[2]).toBe(dumps[0]);
    expect(JSON.parse(dumps[0]!).pixels.some((p: { ret: string[] }) => p.ret[3] !== '00000000')).toBe(true);
    expect(readFileSync(join(dir, 's.obj'), 'utf8')).toBe(obj);
  }, 120_000);

  test('negative vector components need no =; the camera changes the image', async () => {
    const dir = tempDir('render');
    const a = await rtgpu('render', ...small, '--kernel', 'id', '--out', join(dir, 'a.png'), '--dump', join(dir, 'a.json'));
    const b = await rtgpu('render', ...small, '--kernel', 'id', '--eye', '-0.5,1,3.5', '--look', '-0.5,1,-1', '--fov', '60', '--out', join(dir, 'b.png'), '--dump', join(dir, 'b.json'));
    expect(b.stderr).toBe('');
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).not.toBe(readFileSync(join(dir, 'a.json'), 'utf8'));
  }, 120_000);

  test('every bad flag: a message naming it, a non-zero exit, no stack trace, no input overwritten', async () => {
    const dir = tempDir('render');
    const scene = join(dir, 'scene.obj');
    const obj = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n';
    writeFileSync(scene, obj);
    writeFileSync(join(dir, 'bad.bin'), Buffer.from([1, 2, 3, 4, 5]));
    const out = join(dir, 'x.png');
    const cases: [string[], RegExp][] = [
      [['--width', '0'], /^rtgpu: --width must be between 1 and 4096, got 0$/],
      [['--width', 'wide'], /^rtgpu: --width expects a whole number, got 'wide'$/],
      [['--height', '4097'], /^rtgpu: --height must be between 1 and 4096, got 4097$/],
      [['--eye', '1,2'], /^rtgpu: --eye expects three numbers x,y,z, got '1,2'$/],
      [['--look', '1,2,3,4'], /^rtgpu: --look expects three numbers x,y,z, got '1,2,3,4'$/],
      [['--up', '0,one,0'], /^rtgpu: --up expects three numbers x,y,z, got '0,one,0' \('one' is not a number\)$/],
      [['--eye', '0,1,inf'], /^rtgpu: --eye expects three numbers .*'inf' is not a number/],
      [['--eye', '0,1,1e39'], /^rtgpu: --eye: 1e39 is out of binary32 range$/],
      [['--look', '0,1,3.5'], /^rtgpu: --look must differ from --eye \(both 0,1,3.5\)$/],
      [['--up', '0,0,-2'], /^rtgpu: --up 0,0,-2 is parallel to the viewing direction/],
      [['--up', '0,0,0'], /^rtgpu: --up must not be 0,0,0$/],
      [['--fov', '0'], /^rtgpu: --fov must be between 0 and 180 degrees \(exclusive\), got 0$/],
      [['--fov', '180'], /^rtgpu: --fov must be between 0 and 180/],
      [['--fov', '-10'], /^rtgpu: --fov must be between 0 and 180/],
      [['--fov', 'wide'], /^rtgpu: --fov expects a number, got 'wide'$/],
      [['--kernel', 'phong'], /^rtgpu: --kernel: unknown kernel 'phong' \(choose from id, shade, textured\)$/],
      [['--sim', 'modelsim'], /^rtgpu: --sim: unknown simulator 'modelsim' \(choose from ts, verilator, icarus, lockstep, iss, or a comma list of ts, verilator, icarus\)$/],
      [['--sim', 'ts,iss'], /^rtgpu: --sim ts,iss: 'iss' cannot run in lockstep \(choose from ts, verilator, icarus\)$/],
      [['--rt-cores', '0'], /^rtgpu: --rt-cores must be between 1 and 4, got 0$/],
      [['--rt-cores', '5'], /^rtgpu: --rt-cores must be between 1 and 4, got 5$/],
      [['--ic-cores', '33'], /^rtgpu: --ic-cores must be between 1 and 32, got 33$/],
      [['--max-cycles', '0'], /^rtgpu: --max-cycles must be between 1 and/],
      [['--max-cycles', 'lots'], /^rtgpu: --max-cycles expects a whole number, got 'lots'$/],
      [['--vcd', join(dir, 'w.vcd')], /^rtgpu: --vcd needs a simulator of the RTL \(ts, verilator, icarus or lockstep\), not --sim iss$/],
      [[scene, '--out', scene], /^rtgpu: --out .*scene\.obj is the scene file; refusing to overwrite an input$/],
      [['--out', join(dir, 'y.obj')], /^rtgpu: --out .*y\.obj: refusing to write over a scene file/],
      [[scene, '--dump', scene], /^rtgpu: --dump .*scene\.obj is the scene file/],
      [['--dump', out], /^rtgpu: --out and --dump name the same file/],
      [['--out', join(dir, 'no', 'such', 'x.png')], /^rtgpu: --out .*x\.png: directory .*such does not exist$/],
      [['--out', dir], /^rtgpu: --out .* is a directory$/],
      [['--bogus'], /^rtgpu: Unknown option '--bogus'/],
      [[scene, scene], /^rtgpu: expected at most one scene file, got 2/],
      [[join(dir, 'missing.obj')], /^rtgpu: .*missing\.obj: error: cannot read the scene/],
      [[join(dir, 'bad.bin')], /^rtgpu: .*bad\.bin: 5 bytes is not a whole number of 32-bit words$/],
      [[scene, '--max-cycles', '5'], /^rtgpu: .*no fin after 5 instructions/],
      [['--jobs', '0'], /^rtgpu: --jobs must be between 1 and 64, got 0$/],
      [['--jobs', 'two'], /^rtgpu: --jobs expects a whole number, got 'two'$/],
      [['--jobs', '2'], /^rtgpu: --jobs 2: render workers run the TS simulator only \(--sim ts\), not iss$/],
      [['--jobs', '2', '--sim', 'ts', '--vcd', join(dir, 'w.vcd')], /^rtgpu: --jobs 2: --vcd records one GPU instance; use --jobs 1$/],
    ];
    // In-process: each case must end in a CliError (printed as 'rtgpu: message', no stack), status 1 or 2.
    await expectRenderErrors(small, cases, out);
    // And through the command, a few of them: the exit status and stderr as the user sees them.
    const some = [0, 4, 24, 32, 34].map((i) => cases[i]!);
    const spawned = await Promise.all(some.map(([args]) => rtgpu('render', ...small, '--out', out, ...args)));
    spawned.forEach((r, k) => {
      const [args, message] = some[k]!;
      expect(r.exitCode, args.join(' ')).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(message);
      noStack(r.stderr);
    });
    expect(readFileSync(scene, 'utf8')).toBe(obj);
    // Backends that are not there yet fail cleanly too.
    const ts = await rtgpu('render', '--width', '2', '--height', '2', '--out', out, '--sim', 'ts');
    if (ts.exitCode !== 0) {
      expect(ts.stderr).toMatch(/^rtgpu: /);
      noStack(ts.stderr);
    }
  }, 240_000);

  test('--help lists the flags', async () => {
    const r = await rtgpu('render', '--help');
    expect(r.exitCode).toBe(0);
    for (const flag of ['--width', '--height', '--out', '--kernel', '--eye', '--look', '--up', '--fov', '--sim', '--rt-cores', '--ic-cores', '--dump', '--vcd', '--max-cycles', '--scene', '--bvh']) expect(r.stdout).toContain(flag);
    const top = await rtgpu('--help');
    expect(top.stdout).toMatch(/^ {2}render /m);
  }, 60_000);
});

interface Dump {
  readonly pixels: { pixel: number; ret: string[] }[];
}

describe('rtgpu render --bvh', () => {
  test('--scene bunny on the ISS: the bunny is in the picture (id kernel: the pixels that differ from the empty box hit it)', async () => {
    const dir = tempDir('render-bvh');
    const [bunny, box] = await Promise.all(
      ['bunny', 'cornell'].map((name) => rtgpu('render', '--scene', name, '--bvh', ...small, '--kernel', 'id', '--out', join(dir, `${name}.png`), '--dump', join(dir, `${name}.json`))),
    );
    for (const r of [bunny!, box!]) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')[0]).toMatch(/\(kernel id, BVH traversal\)$/);
      expect(r.stdout).toMatch(/^node tests: [1-9]\d*$/m);
    }
    expect([readPng(readFileSync(join(dir, 'bunny.png'))).width, readPng(readFileSync(join(dir, 'bunny.png'))).height]).toEqual([W, H]);
    // Every pixel that changed hits the bunny's material inside the bunny's bounding box.
    const mesh = bunnyMesh();
    const coords = (a: number) => Array.from(mesh.vertices.filter((_, i) => i % 3 === a), (b) => new Float32Array(new Uint32Array([b]).buffer)[0]!);
    const lo = [0, 1, 2].map((a) => Math.min(...coords(a)));
    const hi = [0, 1, 2].map((a) => Math.max(...coords(a)));
    const [withBunny, without] = ['bunny', 'cornell'].map((name) => (JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as Dump).pixels);
    const changed = withBunny!.filter((p, i) => p.ret.join() !== without![i]!.ret.join());
    expect(changed.length).toBeGreaterThan(0);
    for (const p of changed) {
      const [x, y, z] = p.ret.slice(0, 3).map((h) => new Float32Array(new Uint32Array([parseInt(h, 16)]).buffer)[0]!);
      expect(parseInt(p.ret[3]!, 16)).toBe(5);
      [x!, y!, z!].forEach((v, a) => expect(v >= lo[a]! - 1e-6 && v <= hi[a]! + 1e-6, `pixel ${p.pixel} axis ${a}: ${v}`).toBe(true));
    }
  }, 120_000);

  test('the shade kernel at 64x48, as the README shows it', async () => {
    const dir = tempDir('render-bvh');
    const r = await rtgpu('render', '--scene', 'bunny', '--bvh', '--sim', 'iss', '--width', '64', '--height', '48', '--out', join(dir, 'bunny.png'));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^rays: [1-9]\d*$/m);
    expect(readPng(readFileSync(join(dir, 'bunny.png'))).width).toBe(64);
  }, 120_000);

  test('an OBJ with --bvh and its BVH scene image (.hex, .bin) render the pixels of brute force', async () => {
    const dir = tempDir('render-bvh');
    const obj = 'v -1 0 -1\nv 1 0 -1\nv 0 2 -1\nf 1 2 3\nv -1 0 -0.5\nv 0 0 -0.5\nv -1 1 -0.5\nf 4 5 6\n';
    const image = bvhSceneImage(parseObj(obj, 's.obj')).image;
    writeFileSync(join(dir, 's.obj'), obj);
    writeFileSync(join(dir, 'b.hex'), formatHexWords(image));
    writeFileSync(join(dir, 'b.bin'), wordsToBytes(image));
    const runs: [string, string[]][] = [['brute', ['s.obj']], ['obj', ['s.obj', '--bvh']], ['hex', ['b.hex', '--bvh']], ['bin', ['b.bin', '--bvh']]];
    const dumps = await Promise.all(
      runs.map(async ([name, [file, ...rest]]) => {
        const r = await rtgpu('render', join(dir, file!), ...rest, ...small, '--kernel', 'id', '--out', join(dir, `${name}.png`), '--dump', join(dir, `${name}.json`));
        expect(r.stderr, name).toBe('');
        expect(r.exitCode, name).toBe(0);
        return readFileSync(join(dir, `${name}.json`), 'utf8');
      }),
    );
    for (const d of dumps.slice(1)) expect(d).toBe(dumps[0]);
    expect(JSON.parse(dumps[0]!).pixels.some((p: { ret: string[] }) => p.ret[3] !== '00000000')).toBe(true);
  }, 120_000);

  test('--jobs 2 on the TS simulator: the picture of the ISA simulator, the counters of both GPU instances', async () => {
    const dir = tempDir('render-jobs');
    const args = ['--width', '16', '--height', '8'];
    const [two, iss] = await Promise.all([
      rtgpu('render', ...args, '--sim', 'ts', '--jobs', '2', '--out', join(dir, 'two.png')),
      rtgpu('render', ...args, '--sim', 'iss', '--out', join(dir, 'iss.png')),
    ]);
    expect(two.stderr).toBe('');
    expect(two.exitCode).toBe(0);
    expect(two.stdout).toMatch(/^sim: ts, 4 RT cores, 2 IC cores in each of 2 GPU instances \(render workers\)$/m);
    expect(two.stdout).toMatch(/^cycles: \d+ \(summed over 2 GPU instances\)$/m);
    expect(readFileSync(join(dir, 'two.png'))).toEqual(readFileSync(join(dir, 'iss.png')));
  }, 240_000);

  test('the traversal follows the scene: the Cornell box (36 triangles) brute force, the bunny (3,710) through a BVH', async () => {
    const dir = tempDir('render-auto');
    const [box, bunny, forced] = await Promise.all([
      rtgpu('render', ...small, '--out', join(dir, 'box.png')),
      rtgpu('render', ...small, '--scene', 'bunny', '--out', join(dir, 'bunny.png')),
      rtgpu('render', ...small, '--scene', 'cornell', '--bvh', '--out', join(dir, 'bvh.png')),
    ]);
    for (const r of [box, bunny, forced]) expect(r.exitCode, r.stderr).toBe(0);
    expect(box.stdout).toMatch(/^image: .*\(kernel shade\)$/m);
    expect(box.stdout).not.toMatch(/node tests/);
    expect(bunny.stdout).toMatch(/^image: .*\(kernel shade, BVH traversal\)$/m);
    expect(bunny.stdout).toMatch(/^node tests: [1-9]\d*$/m);
    // The same picture whichever way the hits are found.
    expect(readFileSync(join(dir, 'bvh.png'))).toEqual(readFileSync(join(dir, 'box.png')));
  }, 120_000);

  test('bad combinations: clean errors naming the problem', async () => {
    const dir = tempDir('render-bvh');
    const scene = join(dir, 'scene.obj');
    writeFileSync(scene, 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const plain = sceneToImage(defaultScene());
    const bvhImage = bvhSceneImage(defaultScene()).image;
    writeFileSync(join(dir, 'plain.hex'), formatHexWords(plain));
    writeFileSync(join(dir, 'bvh.hex'), formatHexWords(bvhImage));
    const bad = bvhImage.slice();
    bad[bvhImage[0]! + 2 + 29] = 1; // node 0's padding
    writeFileSync(join(dir, 'bad.bin'), wordsToBytes(bad));
    const out = join(dir, 'x.png');
    const cases: [string[], RegExp][] = [
      [['--scene', 'bunny', '--brute-force'], /^rtgpu: --scene bunny: error: the scene has 3710 triangles; the triangle memory holds 512 \(without --brute-force, through a BVH: 65536 triangles and 65536 vertices\)$/],
      [['--bvh', '--brute-force'], /^rtgpu: give --bvh or --brute-force, not both$/],
      [['--scene', 'teapot', '--bvh'], /^rtgpu: --scene: unknown built-in scene 'teapot' \(choose from cornell, bunny, textured, bunnies, rods; a scene file is the SCENE argument\)$/],
      [[scene, '--scene', 'bunny'], /^rtgpu: give a scene file or --scene bunny, not both$/],
      [[join(dir, 'plain.hex'), '--bvh'], /^rtgpu: .*plain\.hex: error: .*\(it reads as a triangle-memory image: drop --bvh, or give the OBJ file to build its BVH\)$/],
      [[join(dir, 'bvh.hex')], /^rtgpu: .*bvh\.hex: error: .*\(it is a BVH scene image: add --bvh\)$/],
      [[join(dir, 'bad.bin'), '--bvh'], /^rtgpu: .*bad\.bin: error: node 0: padding word 29 is not 0 \(node 0 is words \d+ \.\. \d+\)$/],
      [['--scene', 'rods', '--obb'], /^rtgpu: --obb builds the BVH8 with oriented boxes: add --bvh8$/],
      [['--obb', '--bvh'], /^rtgpu: --obb builds the BVH8 with oriented boxes: add --bvh8 instead of --bvh \(its BVH4 has no oriented boxes\)$/],
    ];
    await expectRenderErrors(small, cases, out);
    const spawned = await Promise.all([0, 6].map((i) => rtgpu('render', ...small, '--out', out, ...cases[i]![0])));
    spawned.forEach((r, k) => {
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(cases[[0, 6][k]!]![1]);
      noStack(r.stderr);
    });
  }, 120_000);
});

describe('render statistics and progress', () => {
  const result = (over: Partial<GpuRunResult['stats']>, faults: number[] = []): GpuRunResult => ({
    pixels: [],
    faults,
    stats: { cycles: 1000, instructions: 1500, rays: 48, triangleTests: 1728, nodeTests: 0, rtBusyCycles: [950, 900, 850, 0], rtIssueCycles: [900, 850, 800, 0], icBusyCycles: [500, 250], wallSeconds: 0.5, setupSeconds: 0, ...over },
  });

  test('cycle-level figures: utilization per core, simulated cycles per second, faults', () => {
    const text = formatRenderStats({ width: 8, height: 6, out: 'r.png', kernel: 'shade', sim: 'ts' }, result({}, [3, 1, 4, 5, 9, 2, 6, 7, 8, 10]));
    expect(text.split('\n')).toEqual([
      'image: 8x6 pixels -> r.png (kernel shade)',
      'sim: ts, 4 RT cores, 2 IC cores',
      'cycles: 1000',
      'instructions: 1500',
      'rays: 48',
      'triangle tests: 1728',
      'RT core utilization (cycles issuing): 90.0% 85.0% 80.0% 0.0%',
      'IC core utilization: 50.0% 25.0%',
      'faults: 10 pixels (3 1 4 5 9 2 6 7 …)',
      'wall time: 0.50 s',
      'speed: 2000 simulated cycles/s',
      '',
    ]);
  });

  test('the time spent building the simulator is named and left out of the speed', () => {
    const text = formatRenderStats({ width: 8, height: 6, out: 'r.png', kernel: 'shade', sim: 'verilator' }, result({ wallSeconds: 2.5, setupSeconds: 2 }));
    expect(text).toMatch(/^wall time: 2\.50 s \(2\.00 s of it elaborating the GPU and compiling or loading the simulator\)\nspeed: 2000 simulated cycles\/s$/m);
  });

  test('BVH traversal: node tests', () => {
    const text = formatRenderStats({ width: 8, height: 6, out: 'r.png', kernel: 'id', sim: 'iss', traversal: 'bvh' }, result({ rays: 48, triangleTests: 100, nodeTests: 200, rtBusyCycles: [], icBusyCycles: [] }));
    expect(text.split('\n').slice(0, 1)).toEqual(['image: 8x6 pixels -> r.png (kernel id, BVH traversal)']);
    expect(text).toMatch(/^rays: 48\ntriangle tests: 100\nnode tests: 200$/m);
  });

  test('the ISS: what applies', () => {
    const text = formatRenderStats({ width: 8, height: 6, out: 'r.png', kernel: 'id', sim: 'iss', dump: 'd.json' }, result({ cycles: 1500, rays: 0, triangleTests: 0, rtBusyCycles: [], rtIssueCycles: [], icBusyCycles: [] }));
    expect(text).not.toMatch(/utilization|rays|triangle tests/);
    expect(text).toMatch(/^speed: 3000 instructions\/s$/m);
    expect(text).toMatch(/^dump: d\.json$/m);
  });

  test('the bar: only on a terminal, at most every 100 ms, cleared at the end', () => {
    const writes: string[] = [];
    let now = 0;
    const quiet = new ProgressBar('render', { isTTY: false, write: (s) => writes.push(s) }, () => now);
    quiet.update(1, 10, 100);
    quiet.clear();
    expect(writes).toEqual([]);
    const bar = new ProgressBar('render', { isTTY: true, write: (s) => writes.push(s) }, () => now);
    bar.update(0, 48, 0);
    now = 50;
    bar.update(10, 48, 5000);
    now = 120;
    bar.update(24, 48, 1_234_567);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatch(/^\rrender \[#{12}\.{12}\] {2}50% 24\/48 pixels, 1\.23M cycles/);
    bar.clear();
    expect(writes[2]).toMatch(/^\r +\r$/);
    expect(writes[2]!.length).toBeGreaterThanOrEqual(writes[1]!.length);
  });
});

describe('rtgpu render --bvh8', () => {
  test('the bunny through the GFX12 BVH8 on the ISA simulator: node tests reported, the PNG written; --bvh8 with --bvh is refused', async () => {
    const dir = tempDir('render-bvh8');
    const r = await rtgpu('render', '--scene', 'bunny', '--bvh8', '--sim', 'iss', '--width', '16', '--height', '12', '--out', join(dir, 'bunny.png'));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\(kernel shade, BVH8 traversal\)/);
    expect(r.stdout).toMatch(/^node tests: [1-9]\d*$/m);
    expect(readPng(readFileSync(join(dir, 'bunny.png'))).width).toBe(16);
    const both = await rtgpu('render', '--bvh8', '--bvh', '--sim', 'iss');
    expect(both.exitCode).not.toBe(0);
    expect(both.stderr.trim()).toBe('rtgpu: give --bvh or --bvh8, not both');
  }, 120_000);
  test('--scene rods --bvh8 --obb: the BVH8 built with oriented boxes gives the pixels of the axis-aligned one, in fewer node tests', async () => {
    const dir = tempDir('render-obb');
    const r = await rtgpu('render', '--scene', 'rods', '--bvh8', '--obb', ...small, '--out', join(dir, 'obb.png'), '--dump', join(dir, 'obb.json'));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\(kernel shade, BVH8 traversal with oriented boxes\)/);
    // The same frame without oriented boxes, in process: render's built-in camera and lights for --scene rods.
    const aabb = await runGpu(buildFrame({ kernel: 'shade', camera: defaultCamera, width: W, height: H, scene: thinRodsInBox(), traversal: 'bvh8' }), { sim: 'iss' });
    expect(JSON.parse(readFileSync(join(dir, 'obb.json'), 'utf8')).pixels).toEqual(JSON.parse(formatRunJson({ ...aabb.stats, pixels: aabb.pixels, faults: aabb.faults })).pixels);
    expect(Number(/^node tests: (\d+)$/m.exec(r.stdout)![1])).toBeLessThan(aabb.stats.nodeTests);
  }, 120_000);
});
