// The camera constants and the `id` kernel: the kernel's rays follow the camera formula, and the same
// render on the ISA simulator and the RT core gives identical pixels.
import { describe, expect, test } from 'vitest';
import * as zlib from 'node:zlib';
import { CAMERA_LAYOUT, cameraConstants, defaultCamera, referenceDirection } from '../../src/host/camera.ts';
import { encodePng } from '../../src/host/png.ts';
import { kernelSource } from '../../src/host/kernels/index.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { runIss } from '../../src/iss/index.ts';
import { runOnCore } from '../../src/gpu/rtCore/verification/rtCoreTestbench.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';

const W = 8;
const H = 6;
const float = (b: number) => new Float32Array(new Uint32Array([b]).buffer)[0]!;

describe('camera', () => {
  test('constants: the layout, and clear errors for impossible cameras', () => {
    const c = cameraConstants(defaultCamera, W, H);
    expect(c.length).toBe(CAMERA_LAYOUT.words);
    expect([c[16], c[17]]).toEqual([W, H]);
    expect(float(c[18]!)).toBeCloseTo(1 / W, 7);
    expect(() => cameraConstants({ ...defaultCamera, look: defaultCamera.eye }, W, H)).toThrow('the camera looks at its own eye (eye = look)');
    expect(() => cameraConstants({ ...defaultCamera, up: [0, 0, 1] }, W, H)).toThrow('the up vector is parallel to the viewing direction');
    expect(() => cameraConstants({ ...defaultCamera, fov: 180 }, W, H)).toThrow('--fov must be between 0 and 180 degrees, got 180');
  });

  test('the id kernel forms each pixel ray as the formula says (to binary32 rounding)', () => {
    // The same kernel, returning its direction (RV15) instead of tracing.
    const id = kernelSource('id');
    const source = id.source.replace('    trace\n', '').replace('v_store_16byte RV14, R20, #0', 'v_store_16byte RV15, R20, #0');
    // Assembled under id.s's own path: its .include of primaryRay.s resolves beside it.
    const r = runIss({ program: assemble(source, id.path).words, constants: cameraConstants(defaultCamera, W, H), scene: defaultScene() }, W * H);
    for (const p of r.pixels) {
      const want = referenceDirection(defaultCamera, W, H, p.pixel % W, Math.floor(p.pixel / W));
      p.ret.slice(0, 3).forEach((b, i) => expect(float(b), `pixel ${p.pixel} lane ${i}`).toBeCloseTo(want[i]!, 5));
    }
  });

  test('the id kernel on the ISA simulator and on the RT core: identical pixels, and the box is hit', () => {
    const { source, path } = kernelSource('id');
    const job = { program: assemble(source, path).words, constants: cameraConstants(defaultCamera, W, H), scene: defaultScene() };
    const iss = runIss(job, W * H);
    const core = runOnCore({ ...job, pixels: W * H });
    expect(core.pixels.map((p) => p.ret)).toEqual(iss.pixels.map((p) => p.ret.map((w) => w >>> 0)));
    expect(iss.faults).toEqual([]);
    // The centre of the image looks into the box: some surface is hit there.
    expect(iss.pixels[(H / 2) * W + W / 2]!.ret[3]).toBeGreaterThan(0);
  });
});

describe('PNG', () => {
  test('a 2x2 image: signature, header, and the pixels back through inflate', () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const png = encodePng(2, 2, rgb);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([2, 2, 8, 2]);
    const idatLength = png.readUInt32BE(33);
    expect(png.subarray(37, 41).toString('latin1')).toBe('IDAT');
    const raw = zlib.inflateSync(png.subarray(41, 41 + idatLength));
    expect([...raw]).toEqual([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 10, 20, 30]);
    // Every chunk's CRC covers its type and data.
    expect(png.readUInt32BE(41 + idatLength)).toBe(zlib.crc32(png.subarray(37, 41 + idatLength)) >>> 0);
    expect(() => encodePng(2, 2, rgb.subarray(0, 9))).toThrow('encodePng: 9 bytes for 2x2 RGB pixels (need 12)');
  });
});
