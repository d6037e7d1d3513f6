// The ISA simulator's `trace` through a BVH: the pixels of brute force, the counters, and exactly the BVH it is given.
import { describe, expect, test, vi } from 'vitest';
import { Machine, type MachineOptions } from '../../src/iss/index.ts';
import { bvhSceneImage, EMPTY_CHILD, parseBvhSceneImage, type Bvh4 } from '../../src/bvh/index.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { buildFrame } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';

vi.setConfig({ testTimeout: 120_000 });

const W = 16;
const H = 12;
const scene = defaultScene();
const frame = buildFrame({ kernel: 'id', camera: defaultCamera, width: W, height: H, scene });
const run = (opts: Partial<MachineOptions>) => new Machine({ program: frame.program, constants: frame.constants, scene, ...opts }).run(W * H);
const { image, bvh, ordered } = bvhSceneImage(scene);

describe('trace through a BVH on the ISS (id kernel, the Cornell box, 16x12)', () => {
  const brute = run({});
  const bruteOrdered = run({ scene: ordered });
  const built = run({ traversal: 'bvh' });

  test('the same pixels as brute force; shader ids as brute force over the same triangle order', () => {
    // Hit points agree everywhere. Two pixel centres lie exactly on a room corner, where two triangles tie at
    // equal t and the lower index wins: brute force over the BVH-ordered scene breaks those ties as the BVH does.
    expect(built.pixels.map((p) => p.ret.slice(0, 3))).toEqual(brute.pixels.map((p) => p.ret.slice(0, 3)));
    expect(built.pixels).toEqual(bruteOrdered.pixels);
    expect(built.faults).toEqual([]);
    expect(built.instructions).toBe(brute.instructions);
  });

  test('the counters: one ray per pixel, node tests, far fewer triangle tests than brute force', () => {
    expect(brute.trace).toEqual({ rays: W * H, triangleTests: W * H * 36, nodeTests: 0 });
    expect(built.trace.rays).toBe(W * H);
    expect(built.trace.nodeTests).toBeGreaterThan(0);
    expect(built.trace.triangleTests).toBeGreaterThan(0);
    expect(built.trace.triangleTests).toBeLessThan(brute.trace.triangleTests / 4);
  });

  test('a prebuilt BVH (from a BVH scene image) gives the same pixels and counters as the one the tracer builds', () => {
    const parsed = parseBvhSceneImage(image);
    const given = run({ scene: parsed.ordered, bvh: parsed.bvh });
    expect(given.pixels).toEqual(built.pixels);
    expect(given.trace).toEqual(built.trace);
    // traversal defaults to 'bvh' when a BVH is given, and may be said explicitly.
    expect(run({ scene: parsed.ordered, bvh: parsed.bvh, traversal: 'bvh' }).trace).toEqual(built.trace);
  });

  test('the given BVH is traversed, not rebuilt: a root with no children misses everything', () => {
    const bare: Bvh4 = { ...bvh, nodes: [{ children: [EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD] }], triRanges: [] };
    const r = run({ scene: ordered, bvh: bare });
    expect(r.pixels.every((p) => p.ret.every((w) => w === 0))).toBe(true);
    expect(r.trace).toEqual({ rays: W * H, triangleTests: 0, nodeTests: W * H });
  });

  test('a BVH with brute force, or a BVH of another scene, is refused', () => {
    expect(() => run({ scene: ordered, bvh, traversal: 'brute-force' })).toThrow("a BVH was given for 'brute-force' traversal");
    const few = { vertices: ordered.vertices, triangles: ordered.triangles.subarray(0, 4 * 30) };
    expect(() => run({ scene: few, bvh })).toThrow('the BVH covers 36 triangles, the scene has 30');
  });

  test('a TriRange past the triangles faults the pixels whose ray reaches it: a miss, the thread runs on', () => {
    const stretched = bvh.triRanges.map((r, i) => (i === 3 ? { first: r.first, count: 36 - r.first + 1 } : r));
    const r = run({ scene: ordered, bvh: { ...bvh, triRanges: stretched } });
    expect(r.faults.length).toBeGreaterThan(0);
    expect(r.faults.length).toBeLessThan(W * H);
    // The id kernel writes the shader id it got (0: a miss); every other pixel is as before.
    r.pixels.forEach((p, i) => expect(p.ret, `pixel ${i}`).toEqual(r.faults.includes(p.pixel) ? [0, 0, 0, 0] : built.pixels[i]!.ret));
    expect(r.instructions, 'every thread ran to its fin').toBe(built.instructions);
  });
});
