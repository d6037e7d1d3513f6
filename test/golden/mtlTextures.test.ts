// MTL map_Kd: PNG textures (RGB, RGBA, grey, palette, 16-bit) decoded to RGBA8 texels bottom row first, shared between materials, and errors naming the MTL file and line.
import { describe, expect, test } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { PNG, type ColorType } from 'pngjs';
import { loadObjFile, parseMtl } from '../../src/scenes/materials.ts';
import { decodePngTexture, PngTextureError } from '../../src/scenes/pngTexture.ts';
import { tempDir } from '../tempDir.ts';
import { sceneErrorOf } from './sceneErrorOf.ts';

/** A PNG written by pngjs from `data` in the given colour type (0 grey, 2 RGB, 4 grey + alpha, 6 RGBA), 8-bit, top row first. */
function pngjsFile(width: number, height: number, colorType: ColorType, data: readonly number[]): Buffer {
  const png = new PNG({ width, height });
  png.data = Buffer.from(data);
  return PNG.sync.write(png, { colorType, inputColorType: colorType, inputHasAlpha: colorType === 4 || colorType === 6 });
}

/** A PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG built by hand (pngjs writes neither palettes nor, from plain arrays, 16-bit): `rows` the unfiltered bytes of each row, top first. */
function rawPngFile(width: number, height: number, depth: number, colorType: number, rows: readonly (readonly number[])[], extra: readonly Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([depth, colorType, 0, 0, 0], 8); // deflate, no filter method, no interlace
  const data = Buffer.from(rows.flatMap((r) => [0, ...r])); // filter type 0 on every row
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), ...extra, chunk('IDAT', deflateSync(data)), chunk('IEND', new Uint8Array(0))]);
}

/** An 8-bit palette PNG: `palette` RGB triples, `alpha` the tRNS entries, `indices` top row first. */
function paletteFile(width: number, height: number, palette: readonly (readonly number[])[], alpha: readonly number[], indices: readonly number[]): Buffer {
  const rows = Array.from({ length: height }, (_, y) => indices.slice(y * width, (y + 1) * width));
  return rawPngFile(width, height, 8, 3, rows, [chunk('PLTE', Buffer.from(palette.flat())), chunk('tRNS', Buffer.from(alpha))]);
}

const word = (r: number, g: number, b: number, a: number): number => (r | (g << 8) | (b << 16) | (a << 24)) >>> 0;

describe('decodePngTexture', () => {
  test('RGBA: one word per texel (R in bits 7:0 … A in 31:24), bottom row first', () => {
    // 3×2, top row then bottom row.
    const top = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const bottom = [200, 201, 202, 203, 255, 0, 128, 0, 0, 0, 0, 255];
    const t = decodePngTexture(pngjsFile(3, 2, 6, [...top, ...bottom]));
    expect([t.width, t.height, t.format]).toEqual([3, 2, 'rgba8']);
    expect(Array.from(t.texels)).toEqual([word(200, 201, 202, 203), word(255, 0, 128, 0), word(0, 0, 0, 255), word(1, 2, 3, 4), word(5, 6, 7, 8), word(9, 10, 11, 12)]);
  });

  test('RGB: opaque', () => {
    const t = decodePngTexture(pngjsFile(2, 1, 2, [10, 20, 30, 250, 0, 5]));
    expect(Array.from(t.texels)).toEqual([word(10, 20, 30, 255), word(250, 0, 5, 255)]);
  });

  test('grey and grey + alpha: the grey in R, G and B', () => {
    expect(Array.from(decodePngTexture(pngjsFile(1, 2, 0, [0, 77])).texels)).toEqual([word(77, 77, 77, 255), word(0, 0, 0, 255)]);
    expect(Array.from(decodePngTexture(pngjsFile(2, 1, 4, [9, 100, 255, 0])).texels)).toEqual([word(9, 9, 9, 100), word(255, 255, 255, 0)]);
  });

  test('palette with tRNS transparency', () => {
    const t = decodePngTexture(paletteFile(2, 2, [[255, 0, 0], [0, 255, 0], [0, 0, 255]], [128], [0, 1, 2, 0]));
    expect(Array.from(t.texels)).toEqual([word(0, 0, 255, 255), word(255, 0, 0, 128), word(255, 0, 0, 128), word(0, 255, 0, 255)]);
  });

  test('16-bit samples round to the nearest 8-bit value', () => {
    // 0x8080 · 255 / 65535 = 128 exactly; 0x0080 → 0.498 → 0; 0xffff → 255; 0x7f7f → 127 exactly.
    const t = decodePngTexture(rawPngFile(1, 1, 16, 6, [[0x80, 0x80, 0x00, 0x80, 0xff, 0xff, 0x7f, 0x7f]]));
    expect(Array.from(t.texels)).toEqual([word(128, 0, 255, 127)]);
  });

  test('not a PNG, a truncated PNG, a texture too wide: PngTextureError, no file name', () => {
    const fail = (bytes: Uint8Array): string => {
      try {
        decodePngTexture(bytes);
      } catch (e) {
        expect(e).toBeInstanceOf(PngTextureError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(fail(Buffer.from('GIF89a not a png'))).toBe('not a PNG image (no PNG signature)');
    expect(fail(new Uint8Array(0))).toBe('not a PNG image (no PNG signature)');
    const good = pngjsFile(4, 4, 6, Array.from({ length: 64 }, (_, i) => i));
    expect(fail(good.subarray(0, 40))).toBe('not a decodable PNG image (the file ends before the image does: truncated?)');
    expect(fail(good.subarray(0, good.length - 20))).toMatch(/^not a decodable PNG image \(.+\)$/);
    const badCrc = Buffer.from(good);
    badCrc[29] ^= 0xff; // the IHDR chunk's CRC
    expect(fail(badCrc)).toMatch(/^not a decodable PNG image \(.+\)$/);
    expect(fail(pngjsFile(16385, 1, 0, new Array(16385).fill(0)))).toBe('the image is 16385×1; a texture is at most 16384×16384');
  });
});

describe('MTL map_Kd', () => {
  test('the texture file relative to the MTL file, decoded; Kd kept; materials without map_Kd have no texture', () => {
    const dir = tempDir('map-kd');
    mkdirSync(join(dir, 'mat/tex'), { recursive: true });
    writeFileSync(join(dir, 'mat/tex/wood grain.png'), pngjsFile(2, 1, 2, [1, 2, 3, 4, 5, 6]));
    const mtl = join(dir, 'mat/room.mtl');
    const m = parseMtl('newmtl wood\nKd 0.5 0.5 0.5\nmap_Kd tex/wood grain.png\nnewmtl plain\nKd 1 0 0\n', mtl);
    expect(m.get('wood')!.kd).toEqual([0.5, 0.5, 0.5]);
    expect(m.get('wood')!.texture!.file).toBe(join(dir, 'mat/tex/wood grain.png'));
    expect(Array.from(m.get('wood')!.texture!.image.texels)).toEqual([word(1, 2, 3, 255), word(4, 5, 6, 255)]);
    expect(m.get('plain')!.texture).toBeUndefined();
  });

  test('loadObjFile: materials naming the same image share one decoded image', () => {
    const dir = tempDir('map-kd-obj');
    writeFileSync(join(dir, 'c.png'), pngjsFile(1, 1, 0, [42]));
    writeFileSync(join(dir, 'a.mtl'), 'newmtl a\nmap_Kd c.png\nnewmtl b\nmap_Kd ./c.png\n');
    writeFileSync(join(dir, 'b.mtl'), 'newmtl c\nmap_Kd c.png\n');
    writeFileSync(join(dir, 's.obj'), ['mtllib a.mtl b.mtl', 'v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'vt 0 0', 'usemtl a', 'f 1/1 2/1 3/1', 'usemtl b', 'f 1 2 3', 'usemtl c', 'f 1 2 3'].join('\n'));
    const { materials, scene } = loadObjFile(join(dir, 's.obj'));
    expect(materials.map((m) => m.texture?.image.texels[0])).toEqual([word(42, 42, 42, 255), word(42, 42, 42, 255), word(42, 42, 42, 255)]);
    expect(materials[2]!.texture!.image).toBe(materials[0]!.texture!.image);
    expect(scene.texcoords!.length).toBe(18);
  });


  test('errors name the MTL file and the map_Kd line: missing, a directory, corrupt, options, no name, no newmtl', () => {
    const dir = tempDir('map-kd-errors');
    const mtl = join(dir, 'room.mtl');
    writeFileSync(join(dir, 'bad.png'), 'this is not a png\n');
    mkdirSync(join(dir, 'folder.png'));
    expect(sceneErrorOf(() => parseMtl('newmtl a\nmap_Kd nope.png\n', mtl))).toBe(`${mtl}:2: error: map_Kd 'nope.png' (${join(dir, 'nope.png')}): cannot read it: no such file`);
    expect(sceneErrorOf(() => parseMtl('newmtl a\nmap_Kd folder.png\n', mtl))).toBe(`${mtl}:2: error: map_Kd 'folder.png' (${join(dir, 'folder.png')}): cannot read it: it is a directory`);
    expect(sceneErrorOf(() => parseMtl('newmtl a\nKd 1 1 1\n\nmap_Kd bad.png\n', mtl))).toBe(`${mtl}:4: error: map_Kd 'bad.png' (${join(dir, 'bad.png')}): not a PNG image (no PNG signature)`);
    expect(sceneErrorOf(() => parseMtl('newmtl a\nmap_Kd -s 2 2 1 bad.png\n', mtl))).toBe(`${mtl}:2: error: map_Kd option '-s' is not supported (no map_Kd options are: scale or offset the vt coordinates instead)`);
    expect(sceneErrorOf(() => parseMtl('newmtl a\nmap_Kd -o 0.5 0.5 0 bad.png\n', mtl))).toMatch(/:2: error: map_Kd option '-o' is not supported/);
    expect(sceneErrorOf(() => parseMtl('newmtl a\nmap_Kd\n', mtl))).toBe(`${mtl}:2: error: map_Kd needs an image file name`);
    expect(sceneErrorOf(() => parseMtl('map_Kd bad.png\n', mtl))).toBe(`${mtl}:1: error: map_Kd before any newmtl`);
  });

  test('through loadObjFile the error still names the MTL file and line', () => {
    const dir = tempDir('map-kd-load');
    writeFileSync(join(dir, 'm.mtl'), 'newmtl a\nKd 1 1 1\nmap_Kd gone.png\n');
    writeFileSync(join(dir, 's.obj'), 'mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n');
    expect(sceneErrorOf(() => loadObjFile(join(dir, 's.obj')))).toBe(`${join(dir, 'm.mtl')}:3: error: map_Kd 'gone.png' (${join(dir, 'gone.png')}): cannot read it: no such file`);
  });

  test('a custom loader replaces the PNG reader (its path resolved against the MTL folder)', () => {
    const seen: string[] = [];
    const m = parseMtl('newmtl a\nmap_Kd t.png\n', join('scenes', 'x.mtl'), (path) => {
      seen.push(path);
      return { width: 1, height: 1, format: 'rgba8', texels: Uint32Array.of(7) };
    });
    expect(seen).toEqual([join('scenes', 't.png')]);
    expect(m.get('a')!.texture!.image.texels[0]).toBe(7);
  });
});
