// Materials: MTL parsing, loading an OBJ file with its mtllib files (shader id → material), and errors with file:line.
import { describe, expect, test } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_KD, isEmissive, loadObjFile, parseMtl } from '../../src/scenes/materials.ts';
import { defaultMaterials, defaultLights, DEFAULT_SHADERS } from '../../src/scenes/defaultScene.ts';
import { parseObj } from '../../src/golden/scene.ts';
import { sceneErrorOf } from './sceneErrorOf.ts';

/** A fresh directory with the given files (names may contain a subdirectory). */
function files(contents: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtgpu-mtl-'));
  for (const [name, text] of Object.entries(contents)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}


const tri = ['v 0 0 0', 'v 1 0 0', 'v 0 1 0'];

describe('MTL parser', () => {
  test('newmtl, Kd (three values or one gray), Ke; other directives and comments ignored', () => {
    const m = parseMtl(['# walls', 'newmtl red', 'Ns 10', 'Kd 0.63 0.065 0.05 # red', 'Ka 0 0 0', '', 'newmtl gray', 'Kd 0.5', 'newmtl lamp', 'Kd 0.78 0.78 0.78', 'Ke 17 12 4', 'newmtl dark', 'Ke 0 0 0'].join('\r\n'), 'a.mtl');
    expect([...m.keys()]).toEqual(['red', 'gray', 'lamp', 'dark']);
    expect(m.get('red')).toEqual({ name: 'red', kd: [0.63, 0.065, 0.05] });
    expect(m.get('gray')!.kd).toEqual([0.5, 0.5, 0.5]);
    expect(m.get('lamp')).toEqual({ name: 'lamp', kd: [0.78, 0.78, 0.78], ke: [17, 12, 4] });
    expect([isEmissive(m.get('lamp')!), isEmissive(m.get('dark')!), isEmissive(m.get('red')!)]).toEqual([true, false, false]);
    expect(m.get('dark')!.kd).toEqual(DEFAULT_KD);
  });

  test('a name defined twice keeps its first definition', () => {
    expect(parseMtl('newmtl a\nKd 1 0 0\nnewmtl a\nKd 0 1 0\n', 'a.mtl').get('a')!.kd).toEqual([1, 0, 0]);
  });

  test('errors name the MTL file and line', () => {
    expect(sceneErrorOf(() => parseMtl('newmtl a\nKd 0.5 x 0.5\n', 'room.mtl'))).toBe("room.mtl:2: error: bad Kd value 'x'");
    expect(sceneErrorOf(() => parseMtl('newmtl a\n\nKd 0.5 0.5\n', 'room.mtl'))).toBe('room.mtl:3: error: Kd needs r g b (numbers from 0 to 1), got 2 values');
    expect(sceneErrorOf(() => parseMtl('newmtl a\nKd 0.5 1.5 0\n', 'room.mtl'))).toBe('room.mtl:2: error: Kd value 1.5 is out of range (0 to 1)');
    expect(sceneErrorOf(() => parseMtl('Kd 1 1 1\n', 'room.mtl'))).toBe('room.mtl:1: error: Kd before any newmtl');
    expect(sceneErrorOf(() => parseMtl('newmtl\n', 'room.mtl'))).toBe('room.mtl:1: error: newmtl expects one material name, got 0');
    expect(sceneErrorOf(() => parseMtl('newmtl a\nKe -1 0 0\n', 'room.mtl'))).toBe('room.mtl:2: error: Ke value -1 is out of range (0 or more)');
  });
});

describe('loadObjFile', () => {
  test('usemtl names in order of first use are shader ids 1, 2, …; mtllib files relative to the OBJ file', () => {
    const dir = files({
      'scenes/room.obj': ['mtllib mat/walls.mtl extra.mtl', ...tri, 'usemtl wall', 'f 1 2 3', 'usemtl lamp', 'f 1 2 3', 'usemtl wall', 'f 1 2 3', 'usemtl unknown', 'f 1 2 3'].join('\n'),
      'scenes/mat/walls.mtl': 'newmtl wall\nKd 0.25 0.5 0.75\n',
      'scenes/extra.mtl': 'newmtl lamp\nKd 1 1 1\nKe 1 0.9 0.8\nnewmtl wall\nKd 1 0 0\n',
    });
    const { scene, materials } = loadObjFile(join(dir, 'scenes/room.obj'));
    expect(Array.from(scene.triangles.filter((_, i) => i % 4 === 3))).toEqual([1, 2, 1, 3]);
    expect(materials).toEqual([
      { name: 'wall', kd: [0.25, 0.5, 0.75] }, // the first library that defines it
      { name: 'lamp', kd: [1, 1, 1], ke: [1, 0.9, 0.8] },
      { name: 'unknown', kd: DEFAULT_KD }, // in no library: neutral gray
    ]);
  });

  test('no usemtl: one gray default for shader id 1; faces before the first usemtl share its id', () => {
    const dir = files({ 'plain.obj': [...tri, 'f 1 2 3'].join('\n'), 'early.obj': ['mtllib m.mtl', ...tri, 'f 1 2 3', 'usemtl red', 'f 1 2 3'].join('\n'), 'm.mtl': 'newmtl red\nKd 1 0 0\n' });
    expect(loadObjFile(join(dir, 'plain.obj')).materials).toEqual([{ name: 'default', kd: [0.8, 0.8, 0.8] }]);
    const early = loadObjFile(join(dir, 'early.obj'));
    expect(early.materials).toEqual([{ name: 'red', kd: [1, 0, 0] }]);
    expect(Array.from(early.scene.triangles.filter((_, i) => i % 4 === 3))).toEqual([1, 1]);
  });

  test('errors: a missing library names the OBJ file and its mtllib line; a bad Kd names the MTL file and line', () => {
    const dir = files({
      'missing.obj': ['# room', ...tri, 'mtllib nowhere.mtl', 'f 1 2 3'].join('\n'),
      'bad.obj': ['mtllib bad.mtl', ...tri, 'f 1 2 3'].join('\n'),
      'bad.mtl': 'newmtl a\nKd 0.1 0.2 0.3\nnewmtl b\nKd 0.1 0.2 zero\n',
      'empty.obj': 'mtllib\n',
    });
    const missing = join(dir, 'missing.obj');
    expect(sceneErrorOf(() => loadObjFile(missing))).toBe(`${missing}:5: error: cannot read material library 'nowhere.mtl' (${join(dir, 'nowhere.mtl')}): no such file`);
    expect(sceneErrorOf(() => loadObjFile(join(dir, 'bad.obj')))).toBe(`${join(dir, 'bad.mtl')}:4: error: bad Kd value 'zero'`);
    expect(sceneErrorOf(() => loadObjFile(join(dir, 'empty.obj')))).toBe(`${join(dir, 'empty.obj')}:1: error: mtllib needs at least one file name`);
    expect(sceneErrorOf(() => loadObjFile(join(dir, 'none.obj')))).toBe(`${join(dir, 'none.obj')}: error: cannot read the scene: no such file`);
    // OBJ errors keep their file:line.
    expect(sceneErrorOf(() => loadObjFile(join(files({ 'e.obj': 'v 0 0\n' }), 'e.obj')))).toMatch(/e\.obj:1: error: a vertex needs x y z/);
  });

  test('parseObj still ignores mtllib', () => {
    expect(parseObj(['mtllib nowhere.mtl', ...tri, 'f 1 2 3'].join('\n'), 'a.obj').triangles.length).toBe(4);
  });
});

describe('the built-in scene', () => {
  test('a material for every shader id; the light panel is the only emissive one; lights over the panel, under the ceiling', () => {
    const m = defaultMaterials();
    expect(m.map((x) => x.name)).toEqual(Object.keys(DEFAULT_SHADERS));
    Object.entries(DEFAULT_SHADERS).forEach(([name, id]) => expect(m[id - 1]!.name).toBe(name));
    expect(m.filter(isEmissive).map((x) => x.name)).toEqual(['light']);
    for (const x of m) for (const c of x.kd) expect(c >= 0 && c <= 1).toBe(true);
    const lights = defaultLights();
    expect(lights.length).toBeGreaterThan(0);
    for (const l of lights) {
      expect(l.position[1]).toBeGreaterThan(1.9375);
      expect(l.position[1]).toBeLessThan(2);
      expect(Math.abs(l.position[0])).toBeLessThanOrEqual(0.25);
      expect(Math.abs(l.position[2])).toBeLessThanOrEqual(0.25);
    }
    for (let c = 0; c < 3; c++) expect(lights.reduce((s, l) => s + l.colour[c]!, 0)).toBeGreaterThan(0.7);
  });
});
