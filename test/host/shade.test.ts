// The `shade` kernel on the ISA simulator: its constants, sky, emissive, lit and shadowed pixels, and every
// pixel of a small frame against a double-precision model of the same formula; the frame's error checks.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Machine } from '../../src/iss/index.ts';
import { fmul, fromNumber, toNumber } from '../../src/golden/float32.ts';
import { defaultScene, defaultMaterials, defaultLights, DEFAULT_SHADERS, NO_SHADOW_MASK } from '../../src/scenes/defaultScene.ts';
import { parseObj, sceneToImage, SceneError, type Scene } from '../../src/golden/scene.ts';
import { CAMERA_LAYOUT, defaultCamera } from '../../src/host/camera.ts';
import { buildFrame, checkSceneFits, DEFAULT_AMBIENT, DEFAULT_SKY, pixelsToImage, shaderColour, SHADE_LAYOUT, type FrameSpec } from '../../src/host/frame.ts';
import { kernelSource } from '../../src/host/kernels/index.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { encodePng } from '../../src/host/png.ts';
import { elaborate } from '../../src/hdl/index.ts';
import { compileSimulator } from '../../src/hdl/sim/index.ts';
import { TriangleMemory, defaultTriangleMemoryParams } from '../../src/gpu/memory/triangleMemory.ts';
import { referenceShade, type ReferenceSetup } from './shadeReference.ts';
import { withClosestHitShadows, withUnboundedShadows } from '../../src/designs/bench/gpuBench.ts';

const W = 16;
const H = 12;
const scene = defaultScene();
const spec: FrameSpec = { kernel: 'shade', camera: defaultCamera, width: W, height: H, scene };

/** Runs a frame on the ISA simulator: the returned words per pixel and the instruction count. */
function render(s: FrameSpec): { ret: number[][]; instructions: number } {
  const job = buildFrame(s);
  const r = new Machine({ program: job.program, constants: job.constants, scene: s.scene }).run(job.pixels);
  expect(r.faults).toEqual([]);
  return { ret: r.pixels.map((p) => p.ret.map((w) => w >>> 0)), instructions: r.instructions };
}

const frame = render(spec);
/** The id kernel's answers for the same primary rays (hit point, shader id). */
const idFrame = render({ ...spec, kernel: 'id' }).ret;
const at = (px: number, py: number) => frame.ret[py * W + px]!;
const rgb = (px: number, py: number) => at(px, py).slice(0, 3).map(toNumber);
const bits = (v: readonly number[]) => v.map((x) => fromNumber(x));
const setup: ReferenceSetup = {
  camera: defaultCamera,
  width: W,
  height: H,
  scene,
  materials: defaultMaterials(),
  lights: defaultLights(),
  sky: DEFAULT_SKY,
  ambient: DEFAULT_AMBIENT,
  shadowOffset: 2 / 1024, // the default scene is 2 units across
};

describe('shade kernel', () => {
  test('its primary ray is the id kernel\'s, instruction for instruction', () => {
    const assembled = (name: 'id' | 'shade') => assemble(kernelSource(name).source, kernelSource(name).path).words;
    const [id, shade] = [assembled('id'), assembled('shade')];
    const traceAt = id.indexOf(0xe8000000);
    expect(traceAt).toBeGreaterThan(40);
    expect(Array.from(shade.subarray(0, traceAt))).toEqual(Array.from(id.subarray(0, traceAt)));
  });

  test('constants: camera words unchanged, then SHADE_LAYOUT', () => {
    const c = buildFrame(spec).constants;
    expect(SHADE_LAYOUT.sky).toBe(CAMERA_LAYOUT.words);
    expect(c.length).toBe(SHADE_LAYOUT.materials + 4 * 6);
    expect(Array.from(c.subarray(SHADE_LAYOUT.sky, SHADE_LAYOUT.sky + 3))).toEqual(bits(DEFAULT_SKY));
    expect([c[SHADE_LAYOUT.lightCount], c[SHADE_LAYOUT.materialCount], toNumber(c[SHADE_LAYOUT.shadowOffset]!)]).toEqual([2, 6, 2 / 1024]);
    const light = SHADE_LAYOUT.materials + 4 * (DEFAULT_SHADERS.light - 1);
    expect(Array.from(c.subarray(light, light + 4))).toEqual([...bits(defaultMaterials()[3]!.ke!), 1]);
    expect(c[SHADE_LAYOUT.materials + 3]).toBe(0); // white is not emissive
  });

  test('a miss returns the sky colour exactly, alpha 1', () => {
    expect(referenceShade(setup, 0, H / 2).shader).toBe(0); // the box is narrower than a 4:3 view
    expect(at(0, H / 2)).toEqual([...bits(DEFAULT_SKY), 0x3f800000]);
  });

  test('the light panel is emissive: its colour, unlit', () => {
    const panel = [...Array(W * H).keys()].filter((p) => referenceShade(setup, p % W, Math.floor(p / W)).shader === DEFAULT_SHADERS.light);
    expect(panel.length).toBeGreaterThan(0);
    for (const p of panel) expect(frame.ret[p]).toEqual([...bits(defaultMaterials()[3]!.ke!), 0x3f800000]);
  });

  test('the red wall is red; shadows: a floor pixel behind the tetrahedron, the tall box on the red wall', () => {
    expect(referenceShade(setup, 1, 5).shader).toBe(DEFAULT_SHADERS.red);
    const [r, g, b] = rgb(1, 5);
    expect(r).toBeGreaterThan(g!);
    expect(r).toBeGreaterThan(b!);
    // (12, 11) sees the floor right of the tetrahedron, which hides the left light; (7, 11) is lit by both.
    const shadowed = referenceShade(setup, 12, 11);
    const lit = referenceShade(setup, 7, 11);
    expect([shadowed.shader, shadowed.point[1], shadowed.shadow]).toEqual([DEFAULT_SHADERS.white, 0, [DEFAULT_SHADERS.tetrahedron, 0]]);
    expect([lit.shader, lit.point[1], lit.shadow]).toEqual([DEFAULT_SHADERS.white, 0, [0, 0]]);
    rgb(12, 11).forEach((c, i) => expect(c).toBeLessThan(rgb(7, 11)[i]! - 0.2));
    // The red wall behind the tall box gets neither light: only Kd · ambient is left, exactly as binary32 multiplies it.
    expect(referenceShade(setup, 3, 7).shadow).toEqual([DEFAULT_SHADERS.box, DEFAULT_SHADERS.box]);
    expect(at(3, 7).slice(0, 3)).toEqual(bits(defaultMaterials()[1]!.kd).map((k, i) => fmul(k, fromNumber(DEFAULT_AMBIENT[i]!))));
  });

  test('every pixel matches a double-precision model of the formula (within 2/255)', () => {
    const clamp = (x: number) => Math.min(1, Math.max(0, x));
    const edges: number[] = [];
    const off: string[] = [];
    for (let p = 0; p < W * H; p++) {
      const want = referenceShade(setup, p % W, Math.floor(p / W));
      const got = frame.ret[p]!.slice(0, 3).map(toNumber);
      expect(frame.ret[p]![3]).toBe(0x3f800000);
      // Pixel centres exactly on an edge between two surfaces (the corners of the room, at this size)
      // may hit either in binary32: the id kernel, with the same rays, tells which the kernel hit.
      if (idFrame[p]![3] !== want.shader) edges.push(p);
      else if (got.some((x, i) => !(Math.abs(clamp(x) - clamp(want.rgb[i]!)) <= 2 / 255))) off.push(`pixel ${p}: ${got.map((x) => x.toFixed(3))} vs ${want.rgb.map((x) => x.toFixed(3))}`);
    }
    expect(edges.length).toBeLessThanOrEqual(6);
    // Only shadow rays that graze an edge may decide differently in binary32.
    expect(off.length, off.join('\n')).toBeLessThanOrEqual(3);
  });

  test('the light panel casts no shadow: without its one-sided half or its masked half, the floor under it darkens (docs/rays.md)', () => {
    // The sum of the floor pixels' colour: the id kernel names the floor (white at y = 0).
    const floor = (s: Scene) => {
      const r = render({ ...spec, scene: s }).ret;
      let sum = 0;
      for (let p = 0; p < W * H; p++) if (idFrame[p]![3] === DEFAULT_SHADERS.white && toNumber(idFrame[p]![1]!) === 0) sum += r[p]!.slice(0, 3).map(toNumber).reduce((a, b) => a + b);
      return sum;
    };
    const panel = [10, 11];
    expect(panel.map((t) => scene.triangles[4 * t + 3])).toEqual([DEFAULT_SHADERS.light, DEFAULT_SHADERS.light]);
    expect([scene.oneSided![10], scene.masks![11]]).toEqual([1, NO_SHADOW_MASK]);
    const built = floor(scene);
    const doubleSided = floor({ ...scene, oneSided: undefined });
    const unmasked = floor({ ...scene, masks: undefined });
    // Each rule alone keeps its half's shadow off the floor (a light hangs over each half); without both, less still.
    expect(doubleSided).toBeLessThan(built - 5);
    expect(unmasked).toBeLessThan(built - 5);
    expect(floor({ ...scene, oneSided: undefined, masks: undefined })).toBeLessThan(Math.min(doubleSided, unmasked) - 5);
  });

  test("the bench's shadow-ray variants: ANY_HIT cleared draws the same frame; closest hit to +inf (the old rays) darkens pixels the ceiling now leaves lit", () => {
    const job = buildFrame(spec);
    const run = (j: typeof job) => new Machine({ program: j.program, constants: j.constants, scene }).run(j.pixels).pixels.map((p) => p.ret.map((w) => w >>> 0));
    const closest = withClosestHitShadows(job);
    expect(Array.from(closest.program).filter((w, i) => w !== job.program[i]).length).toBe(1);
    expect(run(closest)).toEqual(frame.ret);
    const unbounded = run(withUnboundedShadows(job));
    const darker = unbounded.filter((ret, p) => ret[0]! !== frame.ret[p]![0]! && toNumber(ret[0]!) < toNumber(frame.ret[p]![0]!)).length;
    expect(darker).toBeGreaterThan(10);
  });

  test('no lights: every surface is Kd · ambient', () => {
    const dark = render({ ...spec, lights: [] });
    const m = defaultMaterials();
    for (let p = 0; p < W * H; p++) {
      const shader = idFrame[p]![3]!;
      if (shader === 0 || shader === DEFAULT_SHADERS.light) continue;
      const want = bits(m[shader - 1]!.kd).map((k, i) => fmul(k, fromNumber(DEFAULT_AMBIENT[i]!)));
      expect(dark.ret[p]!.slice(0, 3), `pixel ${p}`).toEqual(want);
    }
  });

  test('under 250 instructions per pixel; a 64x48 PNG', () => {
    expect(frame.instructions / (W * H)).toBeLessThan(250);
    const big = { ...spec, width: 64, height: 48 };
    const r = render(big);
    const png = encodePng(64, 48, pixelsToImage(big, r.ret.map((ret, pixel) => ({ pixel, ret: ret as [number, number, number, number] }))));
    writeFileSync(join(tmpdir(), 'shade.png'), png);
    console.log(`shade 64x48: ${(r.instructions / (64 * 48)).toFixed(1)} instructions per pixel; ${join(tmpdir(), 'shade.png')}`);
  });
});

describe('frame', () => {
  const error = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('no error');
  };

  test('pixelsToImage: shade clamps and rounds (NaN is black); id gives each shader id its own colour', () => {
    const ret = (r: number, g: number, b: number): [number, number, number, number] => [fromNumber(r), fromNumber(g), fromNumber(b), 0x3f800000];
    const pixels = [ret(0.5, 2, -1), ret(NaN, 1 / 255, 0.999)].map((r, pixel) => ({ pixel, ret: r }));
    expect(Array.from(pixelsToImage({ kernel: 'shade', width: 2, height: 1 }, pixels))).toEqual([128, 255, 0, 0, 1, 255]);
    const ids = [0, 1, 2, 3].map((s, pixel) => ({ pixel, ret: [0, 0, 0, s] as [number, number, number, number] }));
    const img = pixelsToImage({ kernel: 'id', width: 4, height: 1 }, ids);
    expect(Array.from(img.subarray(0, 3))).toEqual([0, 0, 0]);
    const colours = new Set([...Array(40).keys()].map((s) => shaderColour(s + 1).join()));
    expect(colours.size).toBe(40);
    expect(Array.from(img.subarray(3, 6))).toEqual(shaderColour(1));
  });

  test('constant-memory errors: too many lights, a shader id without a material, too many materials', () => {
    const lights = Array(5).fill(defaultLights()[0]);
    expect(error(() => buildFrame({ ...spec, lights }))).toBe('the shade kernel takes at most 4 point lights, got 5');
    expect(error(() => buildFrame({ ...spec, sceneFile: 'room.obj', materials: defaultMaterials().slice(0, 5) }))).toBe('room.obj: error: shader id 6 has no material (5 given)');
    const many = Array(SHADE_LAYOUT.maxMaterials + 1).fill(defaultMaterials()[0]);
    expect(SHADE_LAYOUT.maxMaterials).toBe(2032);
    expect(error(() => buildFrame({ ...spec, sceneFile: 'room.obj', materials: many }))).toBe('room.obj: error: the scene has 2033 materials; constant memory holds 2032');
    expect(buildFrame({ ...spec, materials: many.slice(1) }).constants.length).toBe(8192);
    // The id kernel needs no materials.
    expect(buildFrame({ ...spec, kernel: 'id', materials: [] }).constants.length).toBe(CAMERA_LAYOUT.words);
  });
});

describe('triangle memory capacity', () => {
  /** A scene of `nt` triangles over `nv` vertices (every triangle names vertices 0, 1, 2). */
  const sized = (nt: number, nv: number): Scene => ({
    vertices: new Uint32Array(3 * nv).map((_, i) => fromNumber(i)),
    triangles: Uint32Array.from({ length: 4 * nt }, (_, i) => (i % 4 === 3 ? 1 : i % 4)),
  });
  const error = (s: Scene, capacity?: { triangles: number; vertices: number }): string | undefined => {
    try {
      checkSceneFits(s, 'big.obj', capacity);
    } catch (e) {
      expect(e).toBeInstanceOf(SceneError);
      expect((e as SceneError).line).toBeUndefined();
      return (e as Error).message;
    }
    return undefined;
  };

  test('512 triangles and 2048 vertices fit exactly; one more of either is an error', () => {
    expect(error(sized(512, 2048))).toBeUndefined();
    expect(error(sized(513, 2048))).toBe('big.obj: error: the scene has 513 triangles; the triangle memory holds 512');
    expect(error(sized(512, 2049))).toBe('big.obj: error: the scene has 2049 vertices; the triangle memory holds 2048');
    expect(error(sized(3, 5), { triangles: 2, vertices: 8 })).toBe('big.obj: error: the scene has 3 triangles; the triangle memory holds 2');
  });

  test('the check agrees with the triangle memory itself (a small one: 4 triangles, 8 vertices)', () => {
    const capacity = { triangles: 4, vertices: 8 };
    const sim = compileSimulator(elaborate(TriangleMemory, capacity).design);
    sim.reset(2);
    const loadError = (s: Scene): boolean => {
      sceneToImage(s).forEach((w, i) => {
        sim.poke('load_start', i === 0 ? 1 : 0);
        sim.poke('load_valid', 1);
        sim.poke('load_data', w);
        sim.step();
      });
      sim.poke('load_valid', 0);
      sim.poke('load_start', 0);
      sim.step();
      return sim.peek('load_error') === 1n;
    };
    for (const [nt, nv] of [[4, 8], [5, 8], [4, 9], [0, 8], [1, 3]] as const) {
      expect(loadError(sized(nt, nv)), `${nt} triangles, ${nv} vertices`).toBe(error(sized(nt, nv), capacity) !== undefined);
    }
    expect(defaultTriangleMemoryParams).toEqual({ triangles: 512, vertices: 2048 });
  });

  test('buildFrame checks the scene against the GPU, naming the scene file', () => {
    const text = ['v 0 0 0', 'v 1 0 0', 'v 0 1 0', ...Array(513).fill('f 1 2 3')].join('\n');
    expect(error(parseObj(text, 'x.obj'))).toBe('big.obj: error: the scene has 513 triangles; the triangle memory holds 512');
    const e = (() => {
      try {
        buildFrame({ ...spec, kernel: 'id', scene: parseObj(text, 'x.obj'), sceneFile: 'x.obj' });
      } catch (err) {
        return (err as Error).message;
      }
    })();
    expect(e).toBe('x.obj: error: the scene has 513 triangles; the triangle memory holds 512');
  });
});
