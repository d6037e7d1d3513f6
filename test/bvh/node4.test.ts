// The BVHNode4 / TriRange memory image: the word layout, round trips, and every validation error of the decoder.
import { describe, expect, test, vi } from 'vitest';
import { buildBvh, decodeBvh4, encodeBvh4, NODE_WORDS, TRI_RANGE_WORDS, type Bvh4Image } from '../../src/bvh/index.ts';
import { bunnyInBox } from '../../src/scenes/sceneLibrary.ts';
import { triangleCount } from '../../src/golden/scene.ts';
import { announceSeed, bits3, createRng, randomScene, sceneOf } from './helpers.ts';

// Random and large-scene tests take seconds; under load on the shared machine more than vitest's default 5 s.
vi.setConfig({ testTimeout: 120_000 });

const seed = announceSeed('node4.test');

// Three triangles far apart: root with three leaves (slots 0..2), slot 3 empty.
const far = sceneOf([0, 1, 2].map((i) => [[10 * i, 0, 0], [10 * i + 1, 0, 0], [10 * i, 1, 2], 1] as const));
const farBvh = buildBvh(far);

/** A copy of an image with one word changed. */
function patched(img: Bvh4Image, part: 'nodes' | 'triRanges', word: number, value: number): Bvh4Image {
  const copy = { nodes: img.nodes.slice(), triRanges: img.triRanges.slice() };
  copy[part][word] = value;
  return copy;
}

describe('layout', () => {
  test('128-byte nodes: boxes at words 6c, child_idx at 24, child_flags at 28, zero padding; 16-byte TriRanges with base 0', () => {
    const img = encodeBvh4(farBvh);
    expect(img.nodes.length).toBe(NODE_WORDS);
    expect(img.triRanges.length).toBe(3 * TRI_RANGE_WORDS);
    const w = Array.from(img.nodes);
    const slots = farBvh.nodes[0]!.children;
    slots.slice(0, 3).forEach((c, slot) => {
      expect(c.kind).toBe('leaf');
      const x = 10 * [0, 1, 2].find((i) => farBvh.perm[farBvh.triRanges[c.index]!.first] === i)!;
      expect(w.slice(6 * slot, 6 * slot + 6)).toEqual([...bits3([x, 0, 0]), ...bits3([x + 1, 1, 2])]);
      expect(w[24 + slot]).toBe(c.index);
    });
    expect(w.slice(18, 24)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(w[27]).toBe(0);
    expect(w[28]).toBe(0b00_10_10_10);
    expect(w.slice(29)).toEqual([0, 0, 0]);
    expect(Array.from(img.triRanges)).toEqual(farBvh.triRanges.flatMap((r) => [r.first, r.count, 0, 0]));
  });

  test('an inner child has flags 01 and the node index', () => {
    const s = randomScene(createRng(3), 100, 0.1);
    const bvh = buildBvh(s);
    const img = encodeBvh4(bvh);
    const slot = bvh.nodes[0]!.children.findIndex((c) => c.kind === 'node');
    expect((img.nodes[28]! >>> (2 * slot)) & 3).toBe(0b01);
    expect(img.nodes[24 + slot]).toBe(bvh.nodes[0]!.children[slot]!.index);
  });
});

describe('round trip', () => {
  const rng = createRng(seed);
  const scenes = [
    { name: 'empty', scene: { vertices: new Uint32Array(0), triangles: new Uint32Array(0) } },
    { name: 'three far apart', scene: far },
    ...[1, 7, 40, 500].map((n) => ({ name: `${n} random triangles`, scene: randomScene(rng, n, 0.2) })),
    { name: 'bunny in the box', scene: bunnyInBox() },
  ];
  test.each(scenes)('$name: decode(encode(bvh)) has the same nodes and TriRanges', ({ scene }) => {
    const bvh = buildBvh(scene);
    const back = decodeBvh4(encodeBvh4(bvh), triangleCount(scene));
    expect(back.nodes).toEqual(bvh.nodes);
    expect(back.triRanges).toEqual(bvh.triRanges);
    expect(Array.from(back.perm)).toEqual(Array.from({ length: triangleCount(scene) }, (_, i) => i));
    expect(encodeBvh4(back)).toEqual(encodeBvh4(bvh));
  });
});

describe('validation', () => {
  const img = encodeBvh4(farBvh);
  const decode = (i: Bvh4Image, triangles = 3) => () => decodeBvh4(i, triangles);

  test('child flags 11 are reserved; bits above 7 must be 0', () => {
    expect(decode(patched(img, 'nodes', 28, 0b11_10_10_10))).toThrow('node 0: child 3 has flags 11, which is reserved');
    expect(decode(patched(img, 'nodes', 28, 0x100 | 0b10_10_10))).toThrow('node 0: child_flags bits 31..8 are not 0 (0x12a)');
  });

  test('child indices out of range', () => {
    expect(decode(patched(img, 'nodes', 24, 3))).toThrow('node 0: child 0: TriRange index 3 is out of range (3 TriRanges)');
    const asNode = patched(img, 'nodes', 28, 0b10_10_01);
    expect(decode(patched(asNode, 'nodes', 24, 1))).toThrow('node 0: child 0: node index 1 is out of range (1 nodes, node 0 is the root)');
  });

  test('TriRanges out of range, empty, or with a base', () => {
    expect(decode(img, 2)).toThrow(/TriRange \d: triangles 2 \.\. 2 are out of range \(the buffer has 2\)/);
    expect(decode(patched(img, 'triRanges', 1, 0))).toThrow('TriRange 0: count is 0 (a leaf holds at least one triangle)');
    expect(decode(patched(img, 'triRanges', 2, 64))).toThrow('TriRange 0: base is not 0 (there is one triangle buffer)');
  });

  test('non-zero padding, and an empty slot with a box or index', () => {
    expect(decode(patched(img, 'nodes', 30, 1))).toThrow('node 0: padding word 30 is not 0');
    expect(decode(patched(img, 'nodes', 27, 1))).toThrow('node 0: child 3 is empty but its box or index is not 0');
    expect(decode(patched(img, 'nodes', 18, 1))).toThrow('node 0: child 3 is empty but its box or index is not 0');
  });

  test('boxes with NaN or min > max', () => {
    expect(decode(patched(img, 'nodes', 0, 0x7fc00000))).toThrow('node 0: child 0: box axis 0 is NaN or has min > max');
    expect(decode(patched(img, 'nodes', 1, bits3([0, 5, 0])[1]))).toThrow('node 0: child 0: box axis 1 is NaN or has min > max');
  });

  test('image sizes', () => {
    expect(decode({ nodes: new Uint32Array(0), triRanges: new Uint32Array(0) })).toThrow('the node image has 0 words, not a positive multiple of 32');
    expect(decode({ nodes: img.nodes, triRanges: img.triRanges.subarray(1) })).toThrow('the TriRange image has 11 words, not a multiple of 4');
  });

  test('the tree: one parent per node, none for the root, every node reachable, every TriRange used once', () => {
    const s = randomScene(createRng(5), 60, 0.1);
    const bvh = buildBvh(s);
    const good = encodeBvh4(bvh);
    const inner = bvh.nodes[0]!.children.findIndex((c) => c.kind === 'node');
    const other = bvh.nodes[0]!.children.findIndex((c, i) => c.kind === 'node' && i !== inner);
    expect(other).toBeGreaterThanOrEqual(0);
    // The root's second inner child also points at the first: that node has two parents, the other is lost.
    const twice = patched(good, 'nodes', 24 + other, bvh.nodes[0]!.children[inner]!.index);
    expect(decode(twice, 60)).toThrow(`node ${bvh.nodes[0]!.children[inner]!.index} has more than one parent`);
    expect(decode(patched(good, 'nodes', 24 + inner, 0), 60)).toThrow(`node 0: child ${inner}: node index 0 is out of range (${bvh.nodes.length} nodes, node 0 is the root)`);
    const orphan = { nodes: Uint32Array.from([...good.nodes, ...new Uint32Array(NODE_WORDS)]), triRanges: good.triRanges };
    expect(decode(orphan, 60)).toThrow(`node ${bvh.nodes.length} is not reachable from the root`);
    const extraRange = { nodes: good.nodes, triRanges: Uint32Array.from([...good.triRanges, 0, 1, 0, 0]) };
    expect(decode(extraRange, 60)).toThrow(`TriRange ${bvh.triRanges.length} is used by no leaf`);
    expect(decode(patched(img, 'nodes', 25, img.nodes[24]!))).toThrow(`TriRange ${img.nodes[24]} is used by more than one leaf`);
  });
});
