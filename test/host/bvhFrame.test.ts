// BVH frames: buildFrame's BVH scene image, the BVH capacity check, and the runtime running exactly that BVH on the ISS.
import { describe, expect, test, vi } from 'vitest';
import { buildFrame, checkSceneFits, defaultBvhCapacity, type FrameSpec } from '../../src/host/frame.ts';
import { defaultCamera } from '../../src/host/camera.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { SceneError, sceneToImage, type Scene } from '../../src/golden/scene.ts';
import { Machine } from '../../src/iss/index.ts';
import { Bvh4FormatError, bvh8SceneImage, bvhSceneImage, encodeBvhSceneImage, parseBvhSceneImage } from '../../src/bvh/index.ts';
import { thinRods } from '../../src/scenes/thinRodsScene.ts';
import { runGpu } from '../../src/host/runtime/index.ts';

vi.setConfig({ testTimeout: 120_000 });

const spec: FrameSpec = { kernel: 'id', camera: defaultCamera, width: 16, height: 12, scene: defaultScene() };

describe('buildFrame with BVH traversal', () => {
  test('the job holds the BVH scene image of the scene and says traversal bvh', () => {
    const job = buildFrame({ ...spec, traversal: 'bvh' });
    expect(job.traversal).toBe('bvh');
    expect(job.triangles).toEqual(bvhSceneImage(spec.scene).image);
    const brute = buildFrame(spec);
    expect(brute.traversal).toBe('brute-force');
    expect(brute.triangles).toEqual(sceneToImage(spec.scene));
    expect(job.program).toEqual(brute.program);
    expect(job.constants).toEqual(brute.constants);
  });

  test('a prebuilt BVH is encoded as given (its scene in BVH order), traversal bvh by default', () => {
    const { bvh, ordered } = bvhSceneImage(spec.scene, { maxLeafTriangles: 1 });
    const job = buildFrame({ ...spec, scene: ordered, bvh });
    expect(job.traversal).toBe('bvh');
    expect(job.triangles).toEqual(encodeBvhSceneImage(ordered, bvh));
    expect(() => buildFrame({ ...spec, scene: ordered, bvh, traversal: 'brute-force' })).toThrow("a BVH was given for a 'brute-force' frame");
  });

  test('the bunny in the box (3,710 triangles) fits only as a BVH frame', () => {
    const scene = bunnyInBox();
    expect(parseBvhSceneImage(buildFrame({ ...spec, scene, sceneFile: 'bunny', traversal: 'bvh' }).triangles).ordered.triangles.length).toBe(4 * 3710);
    expect(() => buildFrame({ ...spec, scene, sceneFile: 'bunny' })).toThrow('bunny: error: the scene has 3710 triangles; the triangle memory holds 512');
  });
});

describe('BVH capacity', () => {
  const error = (f: () => void): string | undefined => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(SceneError);
      return (e as Error).message;
    }
    return undefined;
  };
  const scene = defaultScene();
  const { bvh } = bvhSceneImage(scene);
  const room = { ...defaultBvhCapacity, triangles: 36, vertices: scene.vertices.length / 3, nodes: bvh.nodes.length, triRanges: bvh.triRanges.length };

  test('defaults: 65,536 triangles and vertices, 32,768 nodes, 65,536 TriRanges', () => {
    expect(defaultBvhCapacity).toEqual({ triangles: 65_536, vertices: 65_536, nodes: 32_768, triRanges: 65_536 });
  });

  test('exactly full fits; one more triangle, vertex, node or TriRange is an error naming the scene', () => {
    expect(error(() => checkSceneFits(scene, 'box.obj', room, bvh))).toBeUndefined();
    expect(error(() => checkSceneFits(scene, 'box.obj', { ...room, triangles: 35 }, bvh))).toBe('box.obj: error: the scene has 36 triangles; the triangle memory holds 35');
    expect(error(() => checkSceneFits(scene, 'box.obj', { ...room, vertices: room.vertices - 1 }, bvh))).toBe(`box.obj: error: the scene has ${room.vertices} vertices; the triangle memory holds ${room.vertices - 1}`);
    expect(error(() => checkSceneFits(scene, 'box.obj', { ...room, nodes: room.nodes - 1 }, bvh))).toBe(`box.obj: error: the scene has ${room.nodes} BVH nodes; the BVH memory holds ${room.nodes - 1}`);
    expect(error(() => checkSceneFits(scene, 'box.obj', { ...room, triRanges: room.triRanges - 1 }, bvh))).toBe(`box.obj: error: the scene has ${room.triRanges} TriRanges; the BVH memory holds ${room.triRanges - 1}`);
    // Without a BVH only triangles and vertices count; a BVH needs a capacity that has nodes and TriRanges.
    expect(error(() => checkSceneFits(scene, 'box.obj', { ...room, nodes: 0 }))).toBeUndefined();
    expect(() => checkSceneFits(scene, 'box.obj', { triangles: 512, vertices: 2048 }, bvh)).toThrow(/needs a BvhCapacity/);
  });

  test('buildFrame checks BVH frames against defaultBvhCapacity', () => {
    const many = 65_537;
    const big: Scene = { vertices: new Uint32Array(9), triangles: Uint32Array.from({ length: 4 * many }, (_, i) => (i % 4 === 3 ? 1 : i % 4)) };
    expect(error(() => buildFrame({ ...spec, scene: big, sceneFile: 'big.obj', traversal: 'bvh' }))).toBe(`big.obj: error: the scene has ${many} triangles; the triangle memory holds 65536`);
  });
});

describe('runGpu with a BVH job', () => {
  const job = buildFrame({ ...spec, traversal: 'bvh' });

  test('iss: the exact BVH of the image, its pixels and counters', async () => {
    const r = await runGpu(job, { sim: 'iss' });
    const { bvh, ordered } = parseBvhSceneImage(job.triangles);
    const m = new Machine({ program: job.program, constants: job.constants, scene: ordered, bvh }).run(job.pixels);
    expect(r.pixels).toEqual(m.pixels);
    expect(r.stats).toMatchObject({ rays: m.trace.rays, triangleTests: m.trace.triangleTests, nodeTests: m.trace.nodeTests });
    expect(r.stats.nodeTests).toBeGreaterThan(0);
    const brute = await runGpu(buildFrame(spec), { sim: 'iss' });
    expect(brute.stats.nodeTests).toBe(0);
    expect(brute.stats.rays).toBe(r.stats.rays);
  });

  test('iss: a job that says bvh but holds a triangle-memory image fails with a format error', async () => {
    await expect(runGpu({ ...job, triangles: sceneToImage(spec.scene) }, { sim: 'iss' })).rejects.toThrow(/^<BVH scene image>: error: /);
    await expect(runGpu({ ...job, triangles: sceneToImage(spec.scene) }, { sim: 'iss' })).rejects.toSatisfy((e) => e instanceof SceneError || e instanceof Bvh4FormatError);
  });

});

describe('buildFrame with oriented boxes (obb)', () => {
  test("'bvh8' with obb loads the BVH8 built with oriented boxes; obb on any other traversal is refused", () => {
    const scene = thinRods(1);
    const oriented = buildFrame({ ...spec, scene, traversal: 'bvh8', obb: true }).triangles;
    expect([...oriented]).toEqual([...bvh8SceneImage(scene, { obb: true }).image]);
    // The rods' boxes are rotated: the image differs from the axis-aligned build.
    expect([...oriented]).not.toEqual([...buildFrame({ ...spec, scene, traversal: 'bvh8' }).triangles]);
    for (const traversal of ['bvh', 'brute-force'] as const) expect(() => buildFrame({ ...spec, traversal, obb: true })).toThrow(`oriented boxes (obb) need 'bvh8' traversal, not '${traversal}'`);
  });
});
