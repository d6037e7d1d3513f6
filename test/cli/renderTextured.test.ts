// `rtgpu render` with textures: --scene textured through the textured kernel on the ISS (and its errors elsewhere); an OBJ's map_Kd PNG loads, and a bad one is a one-line error at its MTL line.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { tempDir } from '../tempDir.ts';
import { parseRenderArgs } from '../../src/cli/commands/renderArgs.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const small = ['--sim', 'iss', '--width', '12', '--height', '9'];

describe('rtgpu render and textures', () => {
  test('--scene textured: the textured kernel on the ISS (nearest differs from trilinear); --kernel shade draws it flat', async () => {
    const dir = tempDir('render-textured');
    const runs = [
      ['textured', '--scene', 'textured'],
      ['nearest', '--scene', 'textured', '--filter', 'nearest'],
      ['flat', '--scene', 'textured', '--kernel', 'shade'],
    ];
    const results = await Promise.all(runs.map(([name, ...args]) => rtgpu('render', ...args, ...small, '--out', join(dir, `${name}.png`))));
    for (const r of results) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    expect(results[0]!.stdout).toContain('(kernel textured)');
    const pixels = (name: string) => Array.from(PNG.sync.read(readFileSync(join(dir, `${name}.png`))).data);
    expect(pixels('textured')).not.toEqual(pixels('flat'));
    expect(pixels('textured')).not.toEqual(pixels('nearest'));
  }, 120_000);

  test('--scene textured on the TS simulator: the GPU gets a texture unit by itself and draws the ISS picture; bad --filter uses', async () => {
    const dir = tempDir('render-textured-gpu');
    const size = ['--width', '3', '--height', '2', '--jobs', '1'];
    const [ts, iss] = await Promise.all([
      rtgpu('render', '--scene', 'textured', ...size, '--out', join(dir, 'ts.png'), '--dump', join(dir, 'ts.json')),
      rtgpu('render', '--scene', 'textured', ...size, '--sim', 'iss', '--out', join(dir, 'iss.png'), '--dump', join(dir, 'iss.json')),
    ]);
    expect(ts.stderr).toBe('');
    expect(ts.exitCode).toBe(0);
    expect(iss.exitCode).toBe(0);
    const dump = (name: string) => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as { pixels: unknown; instructions: number };
    expect(dump('ts').pixels).toEqual(dump('iss').pixels);
    expect(dump('ts').instructions).toBe(dump('iss').instructions);
    // The texture unit's counters (read over MMIO) print with the other GPU counters; the ISS has none.
    const texel = /^texel cache: (\d+) lookups, (\d+) hits, (\d+) misses \(hit rate ([\d.]+)%\), (\d+) line fills$/m.exec(ts.stdout);
    expect(texel, ts.stdout).not.toBeNull();
    const [lookups, hits, misses, rate] = texel!.slice(1, 5).map(Number) as [number, number, number, number];
    expect(lookups).toBeGreaterThan(0);
    expect(hits + misses).toBe(lookups);
    expect(rate).toBe(Number(((100 * hits) / lookups).toFixed(1)));
    expect(ts.stdout).toMatch(/^txd requests: [1-9]\d*$/m);
    expect(iss.stdout).not.toMatch(/texel cache|txd requests/);
    const parseError = (...args: string[]) => {
      try {
        parseRenderArgs(args);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(parseError('--scene', 'textured', '--filter', 'cubic')).toBe("--filter: unknown texture filter 'cubic' (choose from nearest, bilinear, trilinear)");
    expect(parseError('--scene', 'textured', '--kernel', 'shade', '--filter', 'nearest')).toBe('--filter: the shade kernel samples no textures (the filter is for --kernel textured)');
    expect(parseError('--scene', 'cornell', '--filter', 'bilinear')).toBe('--filter: the shade kernel samples no textures (the filter is for --kernel textured)');
  }, 300_000);

  test('an OBJ with vt and a map_Kd PNG renders; a corrupt PNG is an error at the map_Kd line', async () => {
    const dir = tempDir('render-map-kd');
    const png = new PNG({ width: 2, height: 2 });
    png.data = Buffer.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
    writeFileSync(join(dir, 'tex.png'), PNG.sync.write(png));
    writeFileSync(join(dir, 'bad.png'), Buffer.concat([PNG.sync.write(png).subarray(0, 40)]));
    writeFileSync(join(dir, 'good.mtl'), 'newmtl a\nKd 0.8 0.8 0.8\nmap_Kd tex.png\n');
    writeFileSync(join(dir, 'bad.mtl'), 'newmtl a\nKd 0.8 0.8 0.8\n\nmap_Kd bad.png\n');
    const obj = (mtl: string) => [`mtllib ${mtl}`, 'v -1 -1 0', 'v 1 -1 0', 'v 1 1 0', 'v -1 1 0', 'vt 0 0', 'vt 1 0', 'vt 1 1', 'vt 0 1', 'usemtl a', 'f 1/1 2/2 3/3 4/4'].join('\n');
    writeFileSync(join(dir, 'good.obj'), obj('good.mtl'));
    writeFileSync(join(dir, 'bad.obj'), obj('bad.mtl'));
    const good = await rtgpu('render', join(dir, 'good.obj'), ...small, '--out', join(dir, 'good-out.png'));
    expect(good.stderr).toBe('');
    expect(good.exitCode).toBe(0);
    expect(good.stdout).toContain('(kernel textured)'); // map_Kd picks the textured kernel
    const bad = await rtgpu('render', join(dir, 'bad.obj'), ...small, '--out', join(dir, 'bad-out.png'));
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^rtgpu: .*bad\\.mtl:4: error: map_Kd 'bad\\.png' \\(.*bad\\.png\\): not a decodable PNG image \\(the file ends before the image does: truncated\\?\\)$`));
  }, 120_000);
});
