// `rtgpu render` of instanced scenes: a .scene file and --scene bunnies render (flattened on the host, or with --bvh8 as a
// two-level BVH8 image); a bad line is a clean error naming file and line.
import { describe, expect, test } from 'vitest';
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../tempDir.ts';
import { expectRenderErrors } from './renderErrors.ts';

const rtgpu = (...args: string[]) => execa(process.execPath, ['bin/rtgpu.mjs', ...args], { reject: false });
const small = ['--sim', 'iss', '--width', '16', '--height', '12'];

describe('rtgpu render with instances', () => {
  test('a .scene file renders: the instances are flattened, framed and lit from their bounds', async () => {
    const dir = tempDir('inst');
    writeFileSync(join(dir, 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    writeFileSync(join(dir, 'two.scene'), 'instance @bunny scale 0.5 color 0.9 0.2 0.2\ninstance tri.obj rotate 0 45 0 translate 1 0 0\n');
    const out = join(dir, 'a.png');
    const r = await rtgpu('render', join(dir, 'two.scene'), ...small, '--out', out);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^instances: 2 of 2 meshes, flattened to 3675 triangles for the GPU$/m);
    expect(r.stdout).toMatch(/^camera: .*auto-framed/m);
    expect(existsSync(out)).toBe(true);
  }, 120_000);

  test('--scene bunnies renders', async () => {
    const dir = tempDir('inst');
    const r = await rtgpu('render', '--scene', 'bunnies', ...small, '--out', join(dir, 'b.png'));
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^node tests: [1-9]/m);
  }, 120_000);

  test('--bvh8: a .scene file and --scene bunnies go to the GPU as two-level BVH8 images (instance nodes over one BLAS per mesh)', async () => {
    const dir = tempDir('inst');
    writeFileSync(join(dir, 'tri.obj'), 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    writeFileSync(join(dir, 'two.scene'), 'instance @bunny scale 0.5 color 0.9 0.2 0.2\ninstance tri.obj rotate 0 45 0 translate 1 0 0\n');
    const [file, bunnies] = await Promise.all([
      rtgpu('render', join(dir, 'two.scene'), '--bvh8', ...small, '--out', join(dir, 'a.png')),
      rtgpu('render', '--scene', 'bunnies', '--bvh8', ...small, '--out', join(dir, 'b.png')),
    ]);
    for (const r of [file, bunnies]) {
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^node tests: [1-9]/m);
    }
    expect(file.stdout).toMatch(/^instances: 2 of 2 meshes, as a two-level BVH8 image \(instance nodes over one BLAS per mesh\) for the GPU$/m);
  }, 120_000);

  test('a bad scene file is a clean error naming the file and line', async () => {
    const dir = tempDir('inst');
    const file = join(dir, 'bad.scene');
    writeFileSync(file, 'instance @bunny\ninstance @bunny translate 1 2\n');
    const empty = join(dir, 'empty.scene');
    writeFileSync(join(dir, 'none.obj'), '# no faces\n');
    writeFileSync(empty, 'instance none.obj\n');
    await expectRenderErrors(
      small,
      [
        [[file], new RegExp(`^rtgpu: ${file.replace(/[.]/g, '\\.')}:2: error: 'translate' takes 3 numbers, got 2$`)],
        [[empty], /its meshes have no triangles — nothing to render$/],
      ],
      join(dir, 'x.png'),
    );
  }, 120_000);
});
