// The BVH scene image: its layout, round trips, and a clear error (never another kind) for every malformed image.
import { describe, expect, test, vi } from 'vitest';
import {
  Bvh4FormatError,
  bvhDepth,
  bvhSceneImage,
  bvhSceneImageLayout,
  EMPTY_CHILD,
  encodeBvh4,
  encodeBvhSceneImage,
  NODE_WORDS,
  parseBvhSceneImage,
  TRI_RANGE_WORDS,
} from '../../src/bvh/index.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { SceneError, sceneToImage, triangleCount, type Scene } from '../../src/golden/scene.ts';
import { announceSeed, bits3, createRng, randomScene, sceneOf } from './helpers.ts';

vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('sceneImage.test');

// Three triangles far apart: 56 triangle-section words (3 triangles, 9 vertices), one node, three TriRanges.
const far = sceneOf([0, 1, 2].map((i) => [[10 * i, 0, 0], [10 * i + 1, 0, 0], [10 * i, 1, 2], 1] as const));
const farImage = bvhSceneImage(far).image;
const T = 4 * 3 + 4 + 4 * 9 + 4;
const NODES_AT = T + 2;
const RANGES_AT = NODES_AT + NODE_WORDS + 1;

/** The image with some words replaced (word offset → value), or with words appended. */
const patched = (changes: Record<number, number>, append: number[] = []): Uint32Array => {
  const w = Uint32Array.from([...farImage, ...append]);
  for (const [at, v] of Object.entries(changes)) w[Number(at)] = v;
  return w;
};

/** The error parseBvhSceneImage throws for an image: its class and message. */
function failure(words: Uint32Array): { kind: string; message: string } | undefined {
  try {
    parseBvhSceneImage(words, 'x.bin');
  } catch (e) {
    if (!(e instanceof SceneError) && !(e instanceof Bvh4FormatError)) throw e;
    return { kind: e.name, message: e.message };
  }
  return undefined;
}

describe('layout', () => {
  test('T, the triangle section (sceneToImage of the ordered scene), N, the nodes, L, the TriRanges, nothing after', () => {
    const { image, bvh, ordered } = bvhSceneImage(far);
    const nodes = encodeBvh4(bvh).nodes;
    const ranges = encodeBvh4(bvh).triRanges;
    expect(image[0]).toBe(T);
    expect([...image.subarray(1, 1 + T)]).toEqual([...sceneToImage(ordered)]);
    expect(image[T + 1]).toBe(1);
    expect([...image.subarray(NODES_AT, NODES_AT + NODE_WORDS)]).toEqual([...nodes]);
    expect(image[RANGES_AT - 1]).toBe(3);
    expect([...image.subarray(RANGES_AT)]).toEqual([...ranges]);
    expect(image.length).toBe(RANGES_AT + 3 * TRI_RANGE_WORDS);
    expect(bvhSceneImageLayout(image)).toEqual({ triangleWords: T, nodes: 1, nodesAt: NODES_AT, triRanges: 3, triRangesAt: RANGES_AT });
  });

  test('the triangles are in BVH order: triangle i is the original triangle perm[i]', () => {
    const scene = randomScene(createRng(seed), 60);
    const { bvh, ordered } = bvhSceneImage(scene);
    for (let i = 0; i < triangleCount(scene); i++) expect([...ordered.triangles.subarray(4 * i, 4 * i + 4)]).toEqual([...scene.triangles.subarray(4 * bvh.perm[i]!, 4 * bvh.perm[i]! + 4)]);
  });

  test('build options reach the builder', () => {
    const scene = randomScene(createRng(seed + 1), 200);
    expect(bvhSceneImage(scene, { maxLeafTriangles: 1 }).bvh.triRanges).toHaveLength(200);
    expect(() => bvhSceneImage(scene, { bins: 1 })).toThrow(/bins/);
  });
});

describe('round trip', () => {
  const rng = createRng(seed + 2);
  const scenes: { name: string; scene: Scene }[] = [
    { name: 'empty', scene: { vertices: new Uint32Array(0), triangles: new Uint32Array(0) } },
    { name: 'three far apart', scene: far },
    { name: 'the Cornell box', scene: defaultScene() },
    ...[1, 9, 300].map((n) => ({ name: `${n} random triangles`, scene: randomScene(rng, n, 0.2) })),
    { name: 'the bunny in the box', scene: bunnyInBox() },
  ];
  test.each(scenes)('$name: parse gives back the BVH and the ordered scene, and encoding them gives back the image', ({ scene }) => {
    const built = bvhSceneImage(scene);
    const back = parseBvhSceneImage(built.image, 'x.bin');
    expect(back.bvh.nodes).toEqual(built.bvh.nodes);
    expect(back.bvh.triRanges).toEqual(built.bvh.triRanges);
    expect([...back.bvh.perm]).toEqual(Array.from({ length: triangleCount(scene) }, (_, i) => i));
    expect(back.ordered).toEqual(built.ordered);
    expect(encodeBvhSceneImage(back.ordered, back.bvh)).toEqual(built.image);
  });

  test('a chain of 20,000 nodes (far deeper than the JavaScript call stack) parses', () => {
    const box = { min: bits3([0, 0, 0]), max: bits3([1, 1, 2]) };
    const n = 20_000;
    const nodes = Array.from({ length: n }, (_, i) => ({ children: [i + 1 < n ? { kind: 'node' as const, box, index: i + 1 } : { kind: 'leaf' as const, box, index: 0 }, EMPTY_CHILD, EMPTY_CHILD, EMPTY_CHILD] }));
    const one = sceneOf([[[0, 0, 0], [1, 0, 0], [0, 1, 2], 1]]);
    const back = parseBvhSceneImage(encodeBvhSceneImage(one, { nodes, triRanges: [{ first: 0, count: 1 }] }));
    expect(bvhDepth(back.bvh)).toBe(n);
  });
});

describe('errors: the file, the word or node, and only SceneError or Bvh4FormatError', () => {
  const cases: [string, Uint32Array, string, string][] = [
    ['an empty image', new Uint32Array(0), 'SceneError', 'x.bin: error: the BVH scene image is empty (word 0 must give the length of the triangle section)'],
    ['T past the end', patched({ 0: 1000 }), 'SceneError', `x.bin: error: word 0 gives a triangle section of 1000 words, but the image has ${farImage.length} words (it needs at least 1002 before the node count)`],
    ['a bad triangle section', patched({ 1: 99 }), 'SceneError', `x.bin: error: the triangle section (words 1 .. ${T}): triangle 0 names vertex 99 of 9`],
    ['a triangle section without its terminators', patched({ [T - 3]: 1, [T - 2]: 1, [T - 1]: 1, [T]: 1 }), 'SceneError', `x.bin: error: the triangle section (words 1 .. ${T}): the image does not end with four zero words`],
    ['T not a multiple of 4', patched({ 0: T - 1 }), 'SceneError', `x.bin: error: word 0 gives a triangle section of ${T - 1} words, not a multiple of 4 (a triangle-memory image is 4-word records)`],
    ['no nodes', patched({ [T + 1]: 0 }), 'Bvh4FormatError', `x.bin: error: word ${T + 1}: the node count is 0 (node 0 is the root, so there is at least one node)`],
    ['too many nodes', patched({ [T + 1]: 2 }), 'Bvh4FormatError', `x.bin: error: word ${T + 1} gives 2 nodes (64 words from word ${NODES_AT}), but the image ends at word ${farImage.length - 1}, before the TriRange count`],
    ['a node count near 2^32', patched({ [T + 1]: 0xffffffff }), 'Bvh4FormatError', `x.bin: error: word ${T + 1} gives 4294967295 nodes (137438953440 words from word ${NODES_AT}), but the image ends at word ${farImage.length - 1}, before the TriRange count`],
    ['too many TriRanges', patched({ [RANGES_AT - 1]: 4 }), 'Bvh4FormatError', `x.bin: error: word ${RANGES_AT - 1} gives 4 TriRanges (16 words from word ${RANGES_AT}), but the image ends at word ${farImage.length - 1}`],
    ['words after the TriRanges', patched({}, [0]), 'Bvh4FormatError', `x.bin: error: the image has 1 word after the last TriRange (from word ${farImage.length}; nothing follows the TriRanges)`],
    ['a node with padding', patched({ [NODES_AT + 29]: 1 }), 'Bvh4FormatError', `x.bin: error: node 0: padding word 29 is not 0 (node 0 is words ${NODES_AT} .. ${NODES_AT + 31})`],
    ['a TriRange with a base', patched({ [RANGES_AT + 4 + 2]: 1 }), 'Bvh4FormatError', `x.bin: error: TriRange 1: base is not 0 (there is one triangle buffer) (TriRange 1 is words ${RANGES_AT + 4} .. ${RANGES_AT + 7})`],
    ['a TriRange past the triangles', patched({ [RANGES_AT]: 3 }), 'Bvh4FormatError', `x.bin: error: TriRange 0: triangles 3 .. 3 are out of range (the buffer has 3) (TriRange 0 is words ${RANGES_AT} .. ${RANGES_AT + 3})`],
    ['a box that misses its triangle', patched({ [NODES_AT + 3]: farImage[NODES_AT]! }), 'Bvh4FormatError', 'x.bin: error: the BVH does not fit the triangles: node 0 slot 0: box does not contain triangle 0'],
    ['a triangle in two leaves', patched({ [RANGES_AT + 4]: 0 }), 'Bvh4FormatError', 'x.bin: error: the BVH does not fit the triangles: triangle 0 is in two leaves (and 2 more problems)'],
  ];
  test.each(cases)('%s', (_, words, kind, message) => {
    expect(failure(words)).toEqual({ kind, message });
  });

  test('the default file name', () => {
    expect(() => parseBvhSceneImage(new Uint32Array(0))).toThrow(/^<image>: error: /);
  });

  test('random corruption: every image parses or fails with a SceneError or Bvh4FormatError naming the file', () => {
    const rng = createRng(seed + 3);
    const { image } = bvhSceneImage(randomScene(rng, 30));
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 400; i++) {
      const w = image.slice();
      for (let k = 1 + rng.int(3); k > 0; k--) {
        const at = rng.int(w.length);
        w[at] = [rng.u32(), rng.int(8), 0, w[at]! + 1, w[at]! - 1, 0x7fc00000][rng.int(6)]! >>> 0;
      }
      // Sometimes cut the image short or lengthen it.
      const words = rng.int(8) === 0 ? w.subarray(0, rng.int(w.length)) : rng.int(8) === 0 ? Uint32Array.from([...w, rng.u32()]) : w;
      const f = failure(words);
      if (f) expect(f.message.startsWith('x.bin: error: '), f.message).toBe(true);
      const key = f === undefined ? 'parsed' : f.kind;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    console.log(`sceneImage.test seed=${seed}: corrupted images:`, Object.fromEntries(outcomes));
    expect(outcomes.get('Bvh4FormatError')).toBeGreaterThan(0);
    expect(outcomes.get('SceneError')).toBeGreaterThan(0);
  });
});
