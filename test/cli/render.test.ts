// `rtgpu render --sim iss`: a PNG and the statistics; --dump is `rtgpu run --json`; every bad flag is a clean error.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { buildFrame, pixelsToImage, type FrameSpec } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/golden/defaultScene.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { formatHexWords, wordsToBytes } from '../../src/isa/hexWords.ts';
import { formatRenderStats, renderCommand } from '../../src/cli/commands/render.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { ProgressBar } from '../../src/cli/progress.ts';
import type { GpuRunResult } from '../../src/host/runtime/gpuJob.ts';

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
      [['--kernel', 'phong'], /^rtgpu: --kernel: unknown kernel 'phong' \(choose from id, shade\)$/],
      [['--sim', 'modelsim'], /^rtgpu: --sim: unknown simulator 'modelsim' \(choose from ts, verilator, icarus, iss\)$/],
      [['--rt-cores', '0'], /^rtgpu: --rt-cores must be between 1 and 4, got 0$/],
      [['--rt-cores', '5'], /^rtgpu: --rt-cores must be between 1 and 4, got 5$/],
      [['--ic-cores', '33'], /^rtgpu: --ic-cores must be between 1 and 32, got 33$/],
      [['--max-cycles', '0'], /^rtgpu: --max-cycles must be between 1 and/],
      [['--max-cycles', 'lots'], /^rtgpu: --max-cycles expects a whole number, got 'lots'$/],
      [['--vcd', join(dir, 'w.vcd')], /^rtgpu: --vcd needs --sim ts .* got --sim iss$/],
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
    ];
    // In-process: each case must end in a CliError (printed as 'rtgpu: message', no stack), status 1 or 2.
    for (const [args, message] of cases) {
      const e = await renderCommand.run([...small, '--out', out, ...args]).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e, args.join(' ')).toBeInstanceOf(CliError);
      expect(`rtgpu: ${(e as CliError).message}`, args.join(' ')).toMatch(message);
    }
    // And through the command, a few of them: the exit status and stderr as the user sees them.
    const some = [0, 4, 23, 31, 33].map((i) => cases[i]!);
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
    for (const flag of ['--width', '--height', '--out', '--kernel', '--eye', '--look', '--up', '--fov', '--sim', '--rt-cores', '--ic-cores', '--dump', '--vcd', '--max-cycles']) expect(r.stdout).toContain(flag);
    const top = await rtgpu('--help');
    expect(top.stdout).toMatch(/^ {2}render /m);
  }, 60_000);
});

describe('render statistics and progress', () => {
  const result = (over: Partial<GpuRunResult['stats']>, faults: number[] = []): GpuRunResult => ({
    pixels: [],
    faults,
    stats: { cycles: 1000, instructions: 1500, rays: 48, triangleTests: 1728, rtBusyCycles: [900, 850, 800, 0], icBusyCycles: [500, 250], wallSeconds: 0.5, ...over },
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
      'RT core utilization: 90.0% 85.0% 80.0% 0.0%',
      'IC core utilization: 50.0% 25.0%',
      'faults: 10 pixels (3 1 4 5 9 2 6 7 …)',
      'wall time: 0.50 s',
      'speed: 2000 simulated cycles/s',
      '',
    ]);
  });

  test('the ISS: what applies', () => {
    const text = formatRenderStats({ width: 8, height: 6, out: 'r.png', kernel: 'id', sim: 'iss', dump: 'd.json' }, result({ cycles: 1500, rays: 0, triangleTests: 0, rtBusyCycles: [], icBusyCycles: [] }));
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
