// `rtgpu render` with textures: --scene textured draws as the Cornell box until a kernel samples textures; an OBJ's map_Kd PNG loads, and a bad one is a one-line error at its MTL line.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { tempDir } from '../tempDir.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const small = ['--sim', 'iss', '--width', '12', '--height', '9'];

describe('rtgpu render and textures', () => {
  test('--scene textured: exit 0, the same picture as --scene cornell (flat colours)', async () => {
    const dir = tempDir('render-textured');
    const [textured, cornell] = await Promise.all(['textured', 'cornell'].map((name) => rtgpu('render', '--scene', name, ...small, '--out', join(dir, `${name}.png`))));
    for (const r of [textured!, cornell!]) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    const pixels = (name: string) => Array.from(PNG.sync.read(readFileSync(join(dir, `${name}.png`))).data);
    expect(pixels('textured')).toEqual(pixels('cornell'));
  }, 120_000);

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
    const bad = await rtgpu('render', join(dir, 'bad.obj'), ...small, '--out', join(dir, 'bad-out.png'));
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^rtgpu: .*bad\\.mtl:4: error: map_Kd 'bad\\.png' \\(.*bad\\.png\\): not a decodable PNG image \\(the file ends before the image does: truncated\\?\\)$`));
  }, 120_000);
});
