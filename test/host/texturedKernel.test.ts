// The textured kernel: its texture rows and constants, untextured scenes unchanged, the traversal orders, and its pictures against an independent float64 renderer.
import { describe, expect, test } from 'vitest';
import { texturedMaterials, texturedScene, TEXTURED_SHADERS } from '../../src/scenes/texturedScene.ts';
import { defaultLights, defaultScene } from '../../src/scenes/defaultScene.ts';
import { SceneError, TEXCOORD_WORDS, triangleCount, type Scene } from '../../src/golden/scene.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import { buildBvh, reorderScene } from '../../src/bvh/index.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { MEMORY_MAP } from '../../src/isa/index.ts';
import { buildFrame, DEFAULT_AMBIENT, DEFAULT_SKY, SHADE_LAYOUT, type FrameSpec } from '../../src/host/frame.ts';
import { kernelSource } from '../../src/host/kernels/index.ts';
import { textureMemoryImage } from '../../src/host/textureMemory.ts';
import { TEXTURED_LAYOUT, texturedConstants, textureRows } from '../../src/host/texturedConstants.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { runGpu } from '../../src/host/runtime/index.ts';
import { TEXTURED_CAMERA } from '../../src/cli/commands/renderArgs.ts';
import { TexturedReference } from './texturedReference.ts';

const scene = texturedScene();
const materials = texturedMaterials();
const floorHandle = textureMemoryImage(materials).slots[0]!.handle;

/** The frame's float RGB on the ISA simulator (no faults allowed). */
async function renderIss(spec: FrameSpec): Promise<Float64Array> {
  const r = await runGpu(buildFrame(spec), { sim: 'iss' });
  expect(r.faults).toEqual([]);
  const rgb = new Float64Array(spec.width * spec.height * 3);
  for (const p of r.pixels) for (let c = 0; c < 3; c++) rgb[3 * p.pixel + c] = toNumber(p.ret[c]!);
  return rgb;
}

describe('textureRows and texturedConstants', () => {
  const f32 = Math.fround;
  const words = (t: number[]) => t.map(toNumber);
  /** (s, t) as the kernel computes them from (u, v), in binary32: s0 + (u·(s1 − s0) + v·(s2 − s0)). */
  const interpolate = (w: number[], u: number, v: number) => {
    const x = words(w);
    const at = (c0: number, d1: number, d2: number) => f32(c0 + f32(f32(f32(u) * d1) + f32(f32(v) * d2)));
    return [at(x[3]!, x[8]!, x[9]!), at(x[7]!, x[10]!, x[11]!)];
  };
  const corner = (s: Scene, t: number, k: number) => [0, 1, 2].map((i) => toNumber(s.vertices[3 * s.triangles[4 * t + k]! + i]!));
  const texcoord = (s: Scene, t: number, k: number) => [0, 1].map((c) => toNumber(s.texcoords![TEXCOORD_WORDS * t + 2 * k + c]!));
  const barycentric = [
    [0, 0],
    [1, 0],
    [0, 1],
  ] as const;

  test('the floor: (s, t) exact at the corners from u, v = (0, 0), (1, 0), (0, 1); gradients in the plane', () => {
    for (let t = 0; t < 2; t++) {
      const w = textureRows(scene, t);
      expect(w.length).toBe(TEXTURED_LAYOUT.rowWords);
      barycentric.forEach(([u, v], k) => expect(interpolate(w, u, v)).toEqual(texcoord(scene, t, k)));
      // Each gradient reproduces the corners' differences along the edges.
      for (let c = 0; c < 2; c++) {
        const g = words(w).slice(4 * c, 4 * c + 3);
        for (const k of [1, 2]) {
          const e = corner(scene, t, k).map((x, i) => x - corner(scene, t, 0)[i]!);
          expect(g[0]! * e[0]! + g[1]! * e[1]! + g[2]! * e[2]!).toBeCloseTo(texcoord(scene, t, k)[c]! - texcoord(scene, t, 0)[c]!, 6);
        }
      }
    }
    // s = 2 (x + 1), t = 2 (1 − z) on the floor (repeats 4 over 2 units): gradients (2, 0, 0) and (0, 0, −2).
    expect(words(textureRows(scene, 0)).slice(0, 3)).toEqual([2, 0, 0]);
    expect(words(textureRows(scene, 0)).slice(4, 7)).toEqual([0, 0, -2]);
  });

  test('a tilted triangle: exact at its corners, differences rounded once, its gradients; zeros for no texture coordinates', () => {
    const f = (x: number) => fromNumber(x);
    const st = [0.1, 0.2, 0.9, 0.3, 0.4, 1.7];
    const tilted: Scene = { vertices: Uint32Array.from([0, 0, 0, 1, 0.5, 0, 0.25, 1, 2].map(f)), triangles: Uint32Array.from([0, 1, 2, 1]), texcoords: Uint32Array.from(st.map(f)) };
    const w = textureRows(tilted, 0);
    barycentric.forEach(([u, v], k) => expect(interpolate(w, u, v)).toEqual([f32(st[2 * k]!), f32(st[2 * k + 1]!)]));
    const c = st.map(f32);
    expect(words(w).slice(8)).toEqual([f32(c[2]! - c[0]!), f32(c[4]! - c[0]!), f32(c[3]! - c[1]!), f32(c[5]! - c[1]!)]);
    expect([words(w)[3], words(w)[7]]).toEqual([c[0], c[1]]);
    // The gradients map each edge to its difference, in the plane (their normal component is zero).
    const [p0, p1, p2] = [0, 1, 2].map((k) => corner(tilted, 0, k));
    const [e1, e2] = [p1!, p2!].map((p) => p.map((x, i) => x - p0![i]!));
    const dot3 = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
    const n = [e1![1]! * e2![2]! - e1![2]! * e2![1]!, e1![2]! * e2![0]! - e1![0]! * e2![2]!, e1![0]! * e2![1]! - e1![1]! * e2![0]!];
    for (const k of [0, 1]) {
      const g = words(w).slice(4 * k, 4 * k + 3);
      expect(dot3(g, e1!)).toBeCloseTo(c[2 + k]! - c[k]!, 5);
      expect(dot3(g, e2!)).toBeCloseTo(c[4 + k]! - c[k]!, 5);
      expect(dot3(g, n)).toBeCloseTo(0, 5);
    }
    // Zero area: no gradients (it is never hit), the interpolation kept.
    const flat = textureRows({ ...tilted, vertices: Uint32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2].map(f)) }, 0);
    expect(flat.slice(0, 3).concat(flat.slice(4, 7))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(flat.slice(8)).toEqual(w.slice(8));
    expect(textureRows({ vertices: tilted.vertices, triangles: tilted.triangles }, 0)).toEqual(new Array(12).fill(0));
    // A difference out of binary32 range: zeros.
    expect(textureRows({ ...tilted, texcoords: Uint32Array.from([3e38, 0, -3e38, 0, 0, 0].map(f)) }, 0)).toEqual(new Array(12).fill(0));
  });

  test('layout: shade\'s words, the handles after the materials, rows up to the last textured triangle; too many is a SceneError', () => {
    const job = buildFrame({ kernel: 'textured', camera: defaultCamera, width: 8, height: 6, scene, materials });
    const m = materials.length;
    const shade = buildFrame({ kernel: 'shade', camera: defaultCamera, width: 8, height: 6, scene, materials }).constants;
    expect(Array.from(job.constants.subarray(0, shade.length))).toEqual(Array.from(shade));
    expect(job.constants[SHADE_LAYOUT.materialCount]).toBe(m);
    expect(Array.from(job.constants.subarray(TEXTURED_LAYOUT.handles(m), TEXTURED_LAYOUT.rows(m)))).toEqual([0, 0, 0, 0, 0, 0, floorHandle]);
    expect(job.constants.length).toBe(TEXTURED_LAYOUT.rows(m) + 2 * TEXTURED_LAYOUT.rowWords); // the floor is triangles 0 and 1
    expect(Array.from(job.constants.subarray(TEXTURED_LAYOUT.rows(m)))).toEqual([...textureRows(scene, 0), ...textureRows(scene, 1)]);
    expect(job.texture!.length).toBe(textureMemoryImage(materials).words.length);
    expect(buildFrame({ kernel: 'textured', camera: defaultCamera, width: 8, height: 6, scene: defaultScene() }).texture).toBeUndefined();
    // 700 textured triangles need 64 + 35 + 8400 words.
    const textured = (n: number): Scene => ({ vertices: scene.vertices, triangles: Uint32Array.from({ length: 4 * n }, (_, i) => (i % 4 === 3 ? TEXTURED_SHADERS.floor : scene.triangles[i % 4]!)) });
    const many = textured(700);
    // 674 fit exactly: 99 + 12 · 674 = 8187 ≤ 8192 < 99 + 12 · 675.
    expect(texturedConstants(shade, textured(674), materials, [0, 0, 0, 0, 0, 0, floorHandle], 'fits.obj').length).toBe(8187);
    expect(() => texturedConstants(shade, textured(675), materials, [0, 0, 0, 0, 0, 0, floorHandle], 'big.obj')).toThrow('needs 8199 words');
    expect(() => texturedConstants(shade, many, materials, [0, 0, 0, 0, 0, 0, floorHandle], 'big.obj')).toThrow(SceneError);
    expect(() => texturedConstants(shade, many, materials, [0, 0, 0, 0, 0, 0, floorHandle], 'big.obj')).toThrow(
      'big.obj: error: the textured kernel needs 8499 words of constant memory (99 for the camera, lights, 7 materials and their textures, 12 per triangle (texture coordinates and their gradients) up to the last textured one, triangle 699); it holds 8192 (the shade kernel draws the scene with flat colours)',
    );
  });
});

describe('the textured kernel on the ISA simulator', () => {
  test('assembles, fits the instruction memory and samples with txd', () => {
    const { path, source } = kernelSource('textured');
    const { words } = assemble(source, path);
    expect(words.length).toBeLessThanOrEqual(MEMORY_MAP.instructionWords);
    expect(source).toMatch(/^\s+txd RV12, RV10, RV11$/m);
    // The primary ray is a query (for RV13's u, v); the shadow rays are lighting.s's (included, not in the source).
    expect(source.match(/^\s+trace\b.*$/gm)!.map((l) => l.trim())).toEqual(['trace RV13']);
  });

  // Shade's primary ray is plain `trace`, textured's `trace RV13` with plain trace's query: the same hits, so the same pixels.
  test('untextured scenes: the same pixels as the shade kernel (brute force, BVH and BVH8)', async () => {
    for (const traversal of ['brute-force', 'bvh', 'bvh8'] as const) {
      const base = { camera: defaultCamera, width: 16, height: 12, scene: defaultScene(), traversal };
      const [shade, textured] = [await renderIss({ ...base, kernel: 'shade' }), await renderIss({ ...base, kernel: 'textured' })];
      expect(Array.from(textured)).toEqual(Array.from(shade));
    }
  });

  test('rows follow the traversal\'s triangle order: BVH (reordered) and BVH8 draw the floor as brute force does', async () => {
    const order = reorderScene(scene, buildBvh(scene));
    const floorAt = Array.from({ length: triangleCount(order) }, (_, t) => t).filter((t) => order.triangles[4 * t + 3] === TEXTURED_SHADERS.floor);
    expect(floorAt).not.toEqual([0, 1]); // so a table in scene order would be read wrongly
    const base = { kernel: 'textured', camera: TEXTURED_CAMERA, width: 24, height: 18, scene, materials } as const;
    const brute = await renderIss(base);
    expect(Array.from(await renderIss({ ...base, traversal: 'bvh' }))).toEqual(Array.from(brute));
    // The BVH8 cores' watertight test may answer a hit's point and (u, v) an ulp apart: equal within 1/255 but for edge pixels (measured: all equal).
    const bvh8 = await renderIss({ ...base, traversal: 'bvh8' });
    const off = brute.filter((x, i) => Math.abs(x - bvh8[i]!) > 1 / 255).length;
    expect(off).toBeLessThanOrEqual(6);
  });

  // Measured: mean |ISS − reference| 0.00034, 0.00027, 0.00022 (r, g, b), largest 0.0036 on the 3064 pixels away from edges.
  test('64×48 trilinear: within mean 1/1024 and max 3/255 per channel of the float64 reference; nearest aliases more than trilinear', async () => {
    const [width, height] = [64, 48];
    const ref = new TexturedReference({ scene, materials, lights: defaultLights(), sky: DEFAULT_SKY, ambient: DEFAULT_AMBIENT, camera: TEXTURED_CAMERA, width, height });
    const expected = ref.render('trilinear');
    const base = { kernel: 'textured', camera: TEXTURED_CAMERA, width, height, scene, materials } as const;
    const trilinear = await renderIss(base);
    const robust = expected.robust.filter((r) => r === 1).length;
    expect(robust).toBeGreaterThan(0.98 * width * height);
    for (let c = 0; c < 3; c++) {
      let [sum, max] = [0, 0];
      for (let i = 0; i < width * height; i++) {
        const e = Math.abs(trilinear[3 * i + c]! - expected.rgb[3 * i + c]!);
        sum += e;
        if (expected.robust[i]) max = Math.max(max, e);
      }
      expect(sum / (width * height)).toBeLessThan(1 / 1024);
      expect(max).toBeLessThan(3 / 255);
    }
    // The floor (pixels whose centre and neighbours hit it) against a 6 × 6 supersampled box filter of the level-0 checker.
    const floor = Array.from({ length: width * height }, (_, i) => i).filter((i) => expected.robust[i] && ref.shade((i % width) + 0.5, Math.floor(i / width) + 0.5, 'point').key.startsWith(`s${TEXTURED_SHADERS.floor}`));
    expect(floor.length).toBeGreaterThan(800);
    const n = 6;
    const rms = (rgb: Float64Array) => {
      let e2 = 0;
      for (const i of floor) {
        const [px, py] = [i % width, Math.floor(i / width)];
        const box = [0, 0, 0];
        for (let sy = 0; sy < n; sy++) for (let sx = 0; sx < n; sx++) ref.shade(px + (sx + 0.5) / n, py + (sy + 0.5) / n, 'point').rgb.forEach((x, c) => (box[c]! += x / (n * n)));
        for (let c = 0; c < 3; c++) e2 += (rgb[3 * i + c]! - box[c]!) ** 2;
      }
      return Math.sqrt(e2 / (3 * floor.length));
    };
    const nearest = await renderIss({ ...base, textureFilter: 'nearest' });
    const [rmsTrilinear, rmsNearest] = [rms(trilinear), rms(nearest)];
    // Measured on the 1243 floor pixels: RMS 0.056 (trilinear) and 0.130 (nearest).
    expect(rmsNearest).toBeGreaterThan(1.5 * rmsTrilinear);
    expect(rmsTrilinear).toBeLessThan(0.08);
  }, 60_000);

  test('a GPU simulator without a texture unit refuses a textured frame with a clear error', async () => {
    const job = buildFrame({ kernel: 'textured', camera: TEXTURED_CAMERA, width: 4, height: 3, scene, materials });
    await expect(runGpu(job, { sim: 'ts' })).rejects.toThrow('this frame samples textures (txd), which needs a GPU with a texture unit; the simulated GPU (--sim ts) has none: add --texture-unit, or use --sim iss');
  });
});
