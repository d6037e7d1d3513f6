// `rtgpu render` of a user's scene file: files that are no scene are errors; an OBJ at any scale or place is framed and lit from its bounds.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { execa } from 'execa';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { expectRenderErrors } from './renderErrors.ts';
import { renderCommand } from '../../src/cli/commands/render.ts';
import { CliError } from '../../src/cli/cliError.ts';
import { buildFrame, DEFAULT_SKY, pixelsToImage, type FrameSpec } from '../../src/host/frame.ts';
import { encodePng } from '../../src/host/png.ts';
import { lightsAt } from '../../src/host/autoFrame.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { parseObj, sceneToImage } from '../../src/golden/scene.ts';
import { defaultMaterial } from '../../src/scenes/materials.ts';
import { formatHexWords } from '../../src/isa/hexWords.ts';
import type { Camera, Vec3 } from '../../src/host/camera.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const W = 16;
const H = 12;
const small = ['--sim', 'iss', '--width', String(W), '--height', String(H)];
const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

/** A cube of side `size` with its low corner at `at` (6 quads, 12 triangles). */
function cubeObj(size: number, at: Vec3): string {
  const v = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `v ${at[0] + (i & 4 ? size : 0)} ${at[1] + (i & 2 ? size : 0)} ${at[2] + (i & 1 ? size : 0)}`);
  const faces = ['1 2 4 3', '5 7 8 6', '1 5 6 2', '3 4 8 7', '1 3 7 5', '2 6 8 4'].map((f) => `f ${f}`);
  return [...v, ...faces].join('\n') + '\n';
}

/** RGB bytes of a PNG as encodePng writes it (one IDAT, filter 0 rows). */
function pngPixels(png: Buffer): Uint8Array {
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const raw = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) rgb.set(raw.subarray(y * (1 + 3 * width) + 1, (y + 1) * (1 + 3 * width)), y * 3 * width);
  return rgb;
}

const sky = DEFAULT_SKY.map((c) => Math.round(Math.fround(c) * 255));
/** The share of pixels that are not the sky colour. */
function coverage(png: Buffer): number {
  const rgb = pngPixels(png);
  let hit = 0;
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i] !== sky[0] || rgb[i + 1] !== sky[1] || rgb[i + 2] !== sky[2]) hit++;
  return hit / (rgb.length / 3);
}

/** The render's `camera:` line as flags, and its `lights:` line as --light flags. */
function printedFlags(stdout: string): { camera: string[]; lights: string[] } {
  const c = /^camera: eye (\S+) look (\S+) up (\S+) fov (\S+) \(/m.exec(stdout);
  const l = /^lights: (.+) \(auto-placed/m.exec(stdout);
  return {
    camera: c === null ? [] : ['--eye', c[1]!, '--look', c[2]!, '--up', c[3]!, '--fov', c[4]!],
    lights: l === null ? [] : l[1]!.split(' and ').flatMap((p) => ['--light', p]),
  };
}


afterEach(() => {
  vi.restoreAllMocks();
});

describe('rtgpu render: a file that is no scene is an error', () => {
  test('no triangles, binary data, or a name that is not .obj/.hex/.bin: a message naming the file, exit 1, no PNG', async () => {
    const dir = tempDir('render-files');
    const at = (name: string) => join(dir, name);
    writeFileSync(at('empty.obj'), '');
    writeFileSync(at('points.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\n# no faces\n');
    writeFileSync(at('ply.obj'), 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nend_header\n0\n1\n2\n');
    writeFileSync(at('empty.hex'), formatHexWords(sceneToImage({ vertices: new Uint32Array(), triangles: new Uint32Array() })));
    const random = Buffer.alloc(2000);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    random[700] = 0;
    writeFileSync(at('random.obj'), random);
    const png = encodePng(2, 2, new Uint8Array(12));
    writeFileSync(at('image.obj'), png);
    writeFileSync(at('latin1.obj'), Buffer.concat([Buffer.from('v 0 0 0\nv 1 0 0\nv 0 1 '), Buffer.from([0xe9]), Buffer.from('\nf 1 2 3\n')]));
    writeFileSync(at('picture.png'), png);
    writeFileSync(at('mesh.ply'), readFileSync(at('ply.obj')));
    writeFileSync(at('kernel.s'), 'fin\n');
    writeFileSync(at('scene'), cubeObj(1, [0, 0, 0]));
    const out = at('x.png');
    const notScene = (name: string) => new RegExp(`^rtgpu: .*${name.replace('.', '\\.')}: not a scene file: give a Wavefront OBJ file \\(\\.obj\\), an instanced scene file \\(\\.scene\\) or a triangle-memory image \\(\\.hex words or \\.bin little-endian words\\)$`);
    const cases: [string[], RegExp][] = [
      [[at('empty.obj')], /^rtgpu: .*empty\.obj: no triangles \(no 'f' faces\) — nothing to render$/],
      [[at('points.obj')], /^rtgpu: .*points\.obj: no triangles \(no 'f' faces\) — nothing to render$/],
      [[at('ply.obj')], /^rtgpu: .*ply\.obj: no triangles \(no 'f' faces\) — nothing to render$/],
      [[at('empty.hex')], /^rtgpu: .*empty\.hex: no triangles — nothing to render$/],
      [[at('random.obj')], /^rtgpu: .*random\.obj: error: not a text OBJ file \(a NUL byte at byte \d+; binary data\?\)$/],
      [[at('image.obj')], /^rtgpu: .*image\.obj: error: not a text OBJ file \(a NUL byte at byte \d+/],
      [[at('latin1.obj')], /^rtgpu: .*latin1\.obj: error: not a text OBJ file \(invalid UTF-8 on line 3; binary data\?\)$/],
      [[at('image.obj'), '--bvh'], /^rtgpu: .*image\.obj: error: not a text OBJ file/],
      [[at('picture.png')], notScene('picture.png')],
      [[at('mesh.ply')], notScene('mesh.ply')],
      [[at('kernel.s')], notScene('kernel.s')],
      [[at('scene')], notScene('scene')],
    ];
    await expectRenderErrors(small, cases, out);
    // As the user sees them: exit 1, one line, no stack trace, no picture.
    const spawned = await Promise.all([0, 4, 8].map((i) => rtgpu('render', ...small, '--out', out, ...cases[i]![0])));
    spawned.forEach((r, k) => {
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(cases[[0, 4, 8][k]!]![1]);
      noStack(r.stderr);
    });
    expect(existsSync(out)).toBe(false);
    // `rtgpu run` loads its triangles the same way.
    const run = await rtgpu('run', at('kernel.s'), '--scene', at('picture.png'));
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(notScene('picture.png'));
  }, 120_000);

  test('a Latin-1 comment is not binary data; the .hex/.bin images and upper-case .OBJ still render', async () => {
    const dir = tempDir('render-files');
    const obj = cubeObj(1, [0, 0, 0]);
    writeFileSync(join(dir, 'a.OBJ'), Buffer.concat([Buffer.from('# caf'), Buffer.from([0xe9]), Buffer.from(' (Latin-1)\n' + obj)]));
    writeFileSync(join(dir, 'a.hex'), formatHexWords(sceneToImage(parseObj(obj, 'a.obj'))));
    const runs = await Promise.all(['a.OBJ', 'a.hex'].map((f) => rtgpu('render', join(dir, f), ...small, '--kernel', 'id', '--out', join(dir, `${f}.png`))));
    for (const r of runs) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    // The same triangles, the same bounds: the same picture (id kernel: an OBJ without mtllib is grey, an image takes the built-in materials).
    expect(readFileSync(join(dir, 'a.hex.png'))).toEqual(readFileSync(join(dir, 'a.OBJ.png')));
  }, 120_000);
});

describe('rtgpu render: a scene file is framed and lit from its bounds', () => {
  // A cube 0.01 across, far from the built-in camera: today's fixed camera sees only sky.
  const farCube = cubeObj(0.01, [100, 50, -20]);

  test('a tiny model far away fills the picture; the printed camera and lights reproduce it exactly', async () => {
    const dir = tempDir('render-auto');
    writeFileSync(join(dir, 'cube.obj'), farCube);
    const r = await rtgpu('render', join(dir, 'cube.obj'), ...small, '--out', join(dir, 'auto.png'));
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^camera: eye 100\.005,50\.005,-19\.9\d+ look 100\.005,50\.005,-19\.995 up 0,1,0 fov 40 \(auto-framed from the scene bounds; --eye, --look, --up, --fov set each part\)$/m);
    expect(r.stdout).toMatch(/^lights: \S+ and \S+ \(auto-placed from the scene bounds; --light X,Y,Z per light sets them\)$/m);
    const auto = readFileSync(join(dir, 'auto.png'));
    expect(coverage(auto)).toBeGreaterThan(0.2);
    // Lit, not a grey silhouette: the faces the lights reach differ from the faces they do not.
    const rgb = pngPixels(auto);
    const colours = new Set<string>();
    for (let i = 0; i < rgb.length; i += 3) colours.add(`${rgb[i]},${rgb[i + 1]},${rgb[i + 2]}`);
    expect(colours.size).toBeGreaterThan(3);

    const { camera, lights } = printedFlags(r.stdout);
    expect(lights).toHaveLength(4);
    const again = await rtgpu('render', join(dir, 'cube.obj'), ...small, ...camera, ...lights, '--out', join(dir, 'flags.png'));
    expect(again.exitCode, again.stderr).toBe(0);
    // Everything given: nothing placed automatically, nothing printed about it.
    expect(again.stdout).not.toMatch(/^(camera|lights):/m);
    expect(readFileSync(join(dir, 'flags.png'))).toEqual(auto);
  }, 120_000);

  test('explicit --eye and --look: exactly that camera (the picture of buildFrame with it); one flag replaces only its part', async () => {
    const dir = tempDir('render-auto');
    const scene = join(dir, 'cube.obj');
    writeFileSync(scene, farCube);
    const eye: Vec3 = [100.02, 50.03, -19.96];
    const look: Vec3 = [100.004, 50.006, -19.995];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await renderCommand.run([scene, ...small, '--kernel', 'id', '--eye', eye.join(','), '--look', look.join(','), '--out', join(dir, 'given.png')]);
    const printed = write.mock.calls.map((c) => String(c[0])).join('');
    write.mockRestore();
    expect(printed).toMatch(/^camera: eye 100\.02,50\.03,-19\.96 look 100\.004,50\.006,-19\.995 up 0,1,0 fov 40 \(up, fov auto-framed from the scene bounds, the rest given;/m);
    expect(printed).not.toMatch(/^lights:/m); // the id kernel draws no lighting

    const camera: Camera = { eye, look, up: [0, 1, 0], fov: 40 };
    const spec: FrameSpec = { kernel: 'id', camera, width: W, height: H, scene: parseObj(farCube, 'cube.obj'), traversal: 'brute-force' };
    const expected = encodePng(W, H, pixelsToImage(spec, (await runGpu(buildFrame(spec), { sim: 'iss' })).pixels));
    expect(readFileSync(join(dir, 'given.png'))).toEqual(expected);
    expect(coverage(expected)).toBeGreaterThan(0);

    // Only --look (or only --fov): the other parts as auto-framing chose them.
    const [full, lookOnly, fovOnly] = await Promise.all([[], ['--look', '100,50,-20'], ['--fov', '20']].map((extra) => rtgpu('render', scene, ...small, ...extra, '--out', join(dir, `${extra.length}.png`))));
    const parts = (stdout: string) => /^camera: eye (\S+) look (\S+) up (\S+) fov (\S+)/m.exec(stdout)!.slice(1);
    const [eyeA, lookA, upA] = parts(full!.stdout);
    expect(parts(lookOnly!.stdout)).toEqual([eyeA, '100,50,-20', upA, '40']);
    expect(lookOnly!.stdout).toMatch(/\(eye, up, fov auto-framed from the scene bounds, the rest given;/);
    const [eyeF, lookF] = parts(fovOnly!.stdout);
    expect(lookF).toBe(lookA);
    expect(Number(eyeF!.split(',')[2])).toBeGreaterThan(Number(eyeA!.split(',')[2])); // a narrower view stands back
  }, 120_000);

  test('--light: the given lights are used (repeatable, negative numbers need no =); the built-in scene keeps its camera and lights', async () => {
    const dir = tempDir('render-auto');
    const scene = join(dir, 'cube.obj');
    writeFileSync(scene, farCube);
    const lights: Vec3[] = [[99, 50.005, -19.995]];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    await renderCommand.run([scene, ...small, '--light', lights[0]!.join(','), '--out', join(dir, 'left.png')]);
    await renderCommand.run([scene, ...small, '--out', join(dir, 'auto.png')]);
    await renderCommand.run([...small, '--out', join(dir, 'box.png')]);
    await renderCommand.run([...small, '--light', '-0.125,1.96875,0', '--light', '0.125,1.96875,0', '--out', join(dir, 'box-lights.png')]);
    await renderCommand.run([...small, '--light', '-0.5,1.5,1', '--out', join(dir, 'box-one.png')]);
    const printed = write.mock.calls.map((c) => String(c[0])).join('');
    write.mockRestore();
    expect(readFileSync(join(dir, 'left.png'))).not.toEqual(readFileSync(join(dir, 'auto.png')));
    // The picture of buildFrame with the auto camera and that one light.
    const cam = /^camera: eye (\S+) look (\S+) up (\S+) fov (\S+)/m.exec(printed)!.slice(1);
    const v = (s: string) => s.split(',').map(Number) as unknown as Vec3;
    const spec: FrameSpec = { kernel: 'shade', camera: { eye: v(cam[0]!), look: v(cam[1]!), up: v(cam[2]!), fov: Number(cam[3]) }, width: W, height: H, scene: parseObj(farCube, 'cube.obj'), materials: [defaultMaterial()], lights: lightsAt(lights) };
    expect(readFileSync(join(dir, 'left.png'))).toEqual(encodePng(W, H, pixelsToImage(spec, (await runGpu(buildFrame(spec), { sim: 'iss' })).pixels)));
    // The built-in scene: no auto lines; its own lights given as flags change nothing, another light does.
    expect(printed.match(/^camera:/gm)).toHaveLength(2);
    expect(readFileSync(join(dir, 'box-lights.png'))).toEqual(readFileSync(join(dir, 'box.png')));
    expect(readFileSync(join(dir, 'box-one.png'))).not.toEqual(readFileSync(join(dir, 'box.png')));
  }, 120_000);

  test('bad --light values: clean errors naming the flag', async () => {
    const dir = tempDir('render-auto');
    const scene = join(dir, 'cube.obj');
    writeFileSync(scene, farCube);
    const five = ['0,1,0', '1,1,0', '2,1,0', '3,1,0', '4,1,0'].flatMap((l) => ['--light', l]);
    const cases: [string[], RegExp][] = [
      [[scene, '--light', '1,2'], /^rtgpu: --light expects three numbers x,y,z \(one light per --light\), got '1,2'$/],
      [[scene, '--light', '1,2,3,4,5,6'], /^rtgpu: --light expects three numbers x,y,z \(one light per --light\), got '1,2,3,4,5,6'$/],
      [[scene, '--light', '1,two,3'], /^rtgpu: --light expects three numbers x,y,z, got '1,two,3' \('two' is not a number\)$/],
      [[scene, '--light', '1,2,nan'], /^rtgpu: --light expects three numbers .*'nan' is not a number/],
      [[scene, '--light', '1,2,1e39'], /^rtgpu: --light: 1e39 is out of binary32 range$/],
      [[scene, ...five], /^rtgpu: --light: the shade kernel takes at most 4 lights, got 5$/],
      [[scene, '--light', '0,1,0', '--kernel', 'id'], /^rtgpu: --light: the id kernel draws no lighting \(lights are for --kernel shade or textured\)$/],
      [[scene, '--look', '100.005,50.005,-19.96715'], /^rtgpu: --look must differ from --eye \(both 100\.005,50\.005,-19\.96715\)$/],
    ];
    await expectRenderErrors(small, cases, join(dir, 'x.png'));
    const r = await rtgpu('render', ...small, '--out', join(dir, 'x.png'), ...cases[0]![0]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(cases[0]![1]);
    noStack(r.stderr);
  }, 120_000);
});
