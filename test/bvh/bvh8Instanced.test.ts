// Instance nodes and the two-level BVH8: the node's fields and round trips, the ray transform's operation order, and
// the golden traversal through instances against the flattened scene (same hits, t within rounding), faults, memory.
import { describe, expect, test } from 'vitest';
import {
  BVH8_INSTANCE_TYPE,
  GFX12_NODE_WORDS,
  Gfx12Error,
  buildBvh8,
  buildBvh8Instanced,
  decodeGfx12InstanceNode,
  encodeBvh8Image,
  encodeGfx12InstanceNode,
  gfx12ChildContains,
  decodeBvh8Image,
  decodeBvh8InstancedImage,
  type Gfx12InstanceNodeInput,
} from '../../src/bvh/index.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../../src/bvh/traversal/bvh8Caster.ts';
import { fadd, fmul, fromNumber, toNumber } from '../../src/golden/float32.ts';
import { affineFrom, flattenInstances, invertAffine, worldToObjectBits, IDENTITY, type InstancedScene } from '../../src/scenes/instancedScene.ts';
import type { Box } from '../../src/golden/rayBox.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import { normalToWorld, transformRay } from '../../src/golden/rayTransform.ts';
import { triangleCount, type Scene } from '../../src/golden/scene.ts';
import { bunnyMesh, icosphere } from '../../src/scenes/sceneLibrary.ts';
import { defaultScene } from '../../src/scenes/defaultScene.ts';
import { announceSeed, bits3, createRng, randomRays, randomScene, type Rng, type TestRay } from './helpers.ts';

const seed = announceSeed('bvh8Instanced.test');

const uniform = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();
const randomBox = (rng: Rng, scale: number): Box => {
  const a = [0, 1, 2].map(() => uniform(rng, -scale, scale));
  const b = a.map((x) => x + uniform(rng, 0, scale));
  return { min: bits3(a as [number, number, number]), max: bits3(b as [number, number, number]) };
};

function randomInstanceNode(rng: Rng): Gfx12InstanceNodeInput {
  const scale = 10 ** uniform(rng, -20, 20);
  return {
    worldToObject: Array.from({ length: 12 }, () => rng.u32()),
    bvhAddr: rng.int(2 ** 20) * 2 ** 21 + rng.int(2 ** 21),
    aabbs: rng.int(2) === 1,
    shaderId: rng.u32(),
    userData: rng.int(2 ** 24),
    cullMask: rng.int(256),
    children: Array.from({ length: 1 + rng.int(4) }, () => ({ box: randomBox(rng, scale), nodeType: rng.int(16), nodeSize: rng.int(16), cullFlags: rng.int(16), cullMask: rng.int(256) })),
  };
}

const bit = (w: Uint32Array, i: number): number => (w[i >>> 5]! >>> (i & 31)) & 1;
const field = (w: Uint32Array, at: number, width: number): number => {
  let v = 0;
  for (let i = 0; i < width; i++) v += bit(w, at + i) * 2 ** i;
  return v;
};

describe('the instance node (seed 000, node_type 6)', () => {
  test('field positions: world_to_object, bvh_addr (62), aabbs, the shader-id word, user_data (24), cull_mask, origin, exponents, count, children from bit 640', () => {
    const box: Box = { min: bits3([0, 0, 0]), max: bits3([1, 2, 4]) };
    const w = encodeGfx12InstanceNode({
      worldToObject: Array.from({ length: 12 }, (_, k) => 0x1000 + k),
      bvhAddr: 3 * 2 ** 32 + 0x80,
      aabbs: true,
      shaderId: 0xdeadbeef,
      userData: 0xabcdef,
      cullMask: 0x5a,
      children: [{ box, nodeType: 5, nodeSize: 1 }, { box, nodeType: 5, nodeSize: 1 }],
    });
    expect(w.length).toBe(GFX12_NODE_WORDS);
    for (let k = 0; k < 12; k++) expect(w[k]).toBe(0x1000 + k);
    expect(field(w, 384, 32)).toBe(0x80);
    expect(field(w, 416, 30)).toBe(3);
    expect(bit(w, 446)).toBe(1);
    expect(bit(w, 447)).toBe(0);
    expect(w[14]).toBe(0xdeadbeef);
    expect(field(w, 480, 24)).toBe(0xabcdef);
    expect(field(w, 504, 8)).toBe(0x5a);
    expect([w[16], w[17], w[18]]).toEqual(box.min);
    expect(field(w, 636, 4)).toBe(1);
    // Child 0's node_type and node_size end its 96 bits; children 2 and 3 are absent (zero).
    expect(field(w, 640 + 88, 4)).toBe(5);
    expect(field(w, 640 + 92, 4)).toBe(1);
    expect(field(w, 640 + 96 + 88, 4)).toBe(5);
    for (let k = 26; k < 32; k++) expect(w[k]).toBe(0);
  });

  test(`random nodes round-trip exactly and every decoded child box contains its box (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x1);
    for (let n = 0; n < 300; n++) {
      const input = randomInstanceNode(rng);
      const node = decodeGfx12InstanceNode(encodeGfx12InstanceNode(input));
      expect(node).toMatchObject({ worldToObject: input.worldToObject, bvhAddr: input.bvhAddr, aabbs: input.aabbs, shaderId: input.shaderId, userData: input.userData, cullMask: input.cullMask });
      expect(node.children.map((c) => [c.nodeType, c.nodeSize, c.cullFlags, c.cullMask])).toEqual(input.children.map((c) => [c.nodeType, c.nodeSize, c.cullFlags, c.cullMask]));
      input.children.forEach((c, i) => expect(gfx12ChildContains(node, i, c.box), `node ${n} child ${i} (SEED=${seed})`).toBe(true));
      // Re-encoding the decoded fields gives the same words.
      const again = encodeGfx12InstanceNode(input);
      expect(again).toEqual(encodeGfx12InstanceNode(input));
    }
  });

  test('bad input and bad words are refused with a clear error', () => {
    const rng = createRng(seed ^ 0x2);
    const ok = randomInstanceNode(rng);
    expect(() => encodeGfx12InstanceNode({ ...ok, children: [] })).toThrow('an instance node has 1 to 4 children, got 0');
    expect(() => encodeGfx12InstanceNode({ ...ok, children: [...ok.children, ...ok.children, ...ok.children, ...ok.children, ...ok.children].slice(0, 5) })).toThrow(Gfx12Error);
    expect(() => encodeGfx12InstanceNode({ ...ok, worldToObject: [1, 2, 3] })).toThrow('world_to_object is 12 binary32 words (3×4, row major), got 3');
    expect(() => encodeGfx12InstanceNode({ ...ok, userData: 2 ** 24 })).toThrow('userData must be a 24-bit unsigned integer, got 16777216');
    expect(() => encodeGfx12InstanceNode({ ...ok, bvhAddr: -4 })).toThrow('bvhAddr must be an integer');
    const w = encodeGfx12InstanceNode(ok);
    w[19] = (w[19]! & 0x0fffffff) | (7 << 28);
    expect(() => decodeGfx12InstanceNode(w)).toThrow('child_count_minus_one is 7; an instance node has at most 4 children');
    expect(() => decodeGfx12InstanceNode(new Uint32Array(31))).toThrow('an instance node is 32 words, got 31');
  });
});

describe('the ray transform', () => {
  test(`origin (m0·o0 + m1·o1) + (m2·o2 + m3), direction (m0·d0 + m1·d1) + m2·d2, rounded at each step (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x3);
    for (let n = 0; n < 500; n++) {
      const m = Array.from({ length: 12 }, () => fromNumber(uniform(rng, -3, 3) * 10 ** rng.int(3)));
      const o = bits3([uniform(rng, -9, 9), uniform(rng, -9, 9), uniform(rng, -9, 9)]);
      const d = bits3([uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)]);
      const r = transformRay(m, o, d);
      for (let row = 0; row < 3; row++) {
        const at = (c: number) => m[4 * row + c]!;
        expect(r.origin[row]).toBe(fadd(fadd(fmul(at(0), o[0]), fmul(at(1), o[1])), fadd(fmul(at(2), o[2]), at(3))));
        expect(r.dir[row]).toBe(fadd(fadd(fmul(at(0), d[0]), fmul(at(1), d[1])), fmul(at(2), d[2])));
        expect(toNumber(r.invDir[row]!)).toBe(Math.fround(1 / toNumber(r.dir[row]!)));
      }
    }
  });

  test('the identity leaves the ray as it is; a translation moves only the origin; a zero component gives an infinite inverse', () => {
    const o = bits3([1.5, -2, 3]);
    const d = bits3([0, 0.25, -1]);
    const id = IDENTITY.map(fromNumber);
    expect(transformRay(id, o, d)).toEqual({ origin: o, dir: d, invDir: [0x7f800000, fromNumber(4), fromNumber(-1)] });
    const moved = transformRay(worldToObjectBits(affineFrom({ translate: [10, 20, 30] })), o, d);
    expect(moved.origin).toEqual(bits3([-8.5, -22, -27]));
    expect(moved.dir).toEqual(d);
  });

  test('normalToWorld is Mᵀ·n: a normal of an object scaled by 2 in x keeps its direction in world space', () => {
    const m = worldToObjectBits(affineFrom({ scale: [2, 1, 1], rotateDegrees: [0, 90, 0] }));
    // World normal of the plane x_obj = 1 after scale and rotation: the object's +x maps to world −z.
    const n = normalToWorld(m, bits3([1, 0, 0]));
    expect(n.map(toNumber)).toEqual([0, 0, -0.5]);
  });

  test('affineFrom and invertAffine: quarter turns exact, an inverse undoes its matrix, a singular matrix is refused', () => {
    expect(affineFrom({ rotateDegrees: [0, 0, 90] })).toEqual([0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]);
    const m = affineFrom({ scale: [2, 3, 0.5], rotateDegrees: [30, -45, 10], translate: [1, 2, 3] });
    const inv = invertAffine(m);
    const p = [0.3, -0.7, 1.1];
    const q = [0, 1, 2].map((r) => m[4 * r]! * p[0]! + m[4 * r + 1]! * p[1]! + m[4 * r + 2]! * p[2]! + m[4 * r + 3]!);
    const back = [0, 1, 2].map((r) => inv[4 * r]! * q[0]! + inv[4 * r + 1]! * q[1]! + inv[4 * r + 2]! * q[2]! + inv[4 * r + 3]!);
    back.forEach((x, i) => expect(x).toBeCloseTo(p[i]!, 12));
    expect(() => invertAffine(affineFrom({ scale: [1, 0, 1] }))).toThrow('the matrix has no inverse');
  });
});

// ---------------------------------------------------------------------------------------- the two-level traversal

interface Compared {
  readonly rays: number;
  /** Rays the flattened scene hits. */
  readonly hits: number;
  /** Rays answered differently: hit against miss, or another triangle (edges and near-coplanar triangles, where the two roundings differ). */
  readonly differ: number;
}

/**
 * Every ray through the instanced image and through the flattened scene's BVH8. Where both hit the same triangle
 * of the same instance, t agrees within 2^−12 relative (the ray transform and the host's vertex transform round
 * differently), the shader id is equal and the normals point the same way; other answers are counted in `differ`.
 */
function compareWithFlattened(scene: InstancedScene, rays: readonly TestRay[]): Compared {
  const inst = buildBvh8Instanced(scene);
  const flat = flattenInstances(scene);
  const flatImage = encodeBvh8Image(buildBvh8(flat)).words;
  const owner = (tri: number): [number, number] => {
    let i = flat.firstTriangle.length - 1;
    while (flat.firstTriangle[i]! > tri) i--;
    return [i, tri - flat.firstTriangle[i]!];
  };
  let [hits, differ] = [0, 0];
  rays.forEach((r, k) => {
    const a = castRayBvh8(inst.words, r.o, r.d);
    const b = castRayBvh8(flatImage, r.o, r.d);
    const where = `ray ${k} (SEED=${seed})`;
    expect(a.fault, where).toBeUndefined();
    if (b.triangle >= 0) hits++;
    if (a.triangle < 0 && b.triangle < 0) return;
    const [i, prim] = b.triangle < 0 ? [-1, -1] : owner(b.triangle);
    if (a.instance !== i || a.triangle !== prim) {
      differ++;
      return;
    }
    // The hit point is the world ray's o + t·d; the shader id the flattened triangle's.
    expect(a.hit[3], where).toBe(b.hit[3]);
    // The normal points the same way as the flattened triangle's.
    const [na, nb] = [a.normal.slice(0, 3).map(toNumber), b.normal.slice(0, 3).map(toNumber)];
    const cos = (na[0]! * nb[0]! + na[1]! * nb[1]! + na[2]! * nb[2]!) / (Math.hypot(...na) * Math.hypot(...nb));
    expect(cos, where).toBeGreaterThan(0.9999);
    // t within rounding: 2^−12 relative, plus a position error of 2^−18 of the coordinates' size moved along the
    // normal, which a ray at a grazing angle turns into a larger change of t.
    const [ta, tb] = [toNumber(a.t), toNumber(b.t)];
    const [o, d, p] = [r.o.map(toNumber), r.d.map(toNumber), b.hit.slice(0, 3).map(toNumber)];
    const grazing = Math.abs(nb[0]! * d[0]! + nb[1]! * d[1]! + nb[2]! * d[2]!) / (Math.hypot(...nb) * Math.hypot(...d));
    const tolerance = 2 ** -12 * tb + (2 ** -18 * (Math.hypot(...o) + Math.hypot(...p))) / (Math.hypot(...d) * Math.max(grazing, 1e-6));
    expect(Math.abs(ta - tb), `${where}: t ${ta} vs ${tb}`).toBeLessThanOrEqual(tolerance);
  });
  console.log(`instanced vs flattened: ${rays.length} rays, ${hits} hits, ${differ} answered differently`);
  return { rays: rays.length, hits, differ };
}

const randomPlacement = (rng: Rng, scale: boolean) =>
  affineFrom({
    scale: scale ? ([uniform(rng, 0.5, 2), uniform(rng, 0.5, 2), uniform(rng, 0.5, 2)] as const) : undefined,
    rotateDegrees: [uniform(rng, -180, 180), uniform(rng, -180, 180), uniform(rng, -180, 180)],
    translate: [uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3)],
  });

describe('the two-level BVH8 against the flattened scene', () => {
  test(`random meshes, rigid placements: the same hits (instance and triangle), t within rounding (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x10);
    for (let s = 0; s < 4; s++) {
      const meshes = [randomScene(rng, 20 + rng.int(200), 0.3), randomScene(rng, 1 + rng.int(30), 0.5)];
      const scene: InstancedScene = { meshes, instances: Array.from({ length: 2 + rng.int(12) }, () => ({ mesh: rng.int(2), objectToWorld: randomPlacement(rng, false) })) };
      const r = compareWithFlattened(scene, randomRays(rng, flattenInstances(scene), 400));
      expect(r.hits).toBeGreaterThan(r.rays / 3);
      expect(r.differ, `scene ${s}: ${r.differ} of ${r.hits} hits differ`).toBeLessThanOrEqual(r.hits * 0.01);
    }
  });

  test(`scaled instances (non-uniform, 0.5 to 2): t along the unnormalized object-space direction is the world t (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x11);
    const meshes = [icosphere(2, { centre: [0, 0, 0], radius: 0.6 })];
    const scene: InstancedScene = { meshes, instances: Array.from({ length: 10 }, () => ({ mesh: 0, objectToWorld: randomPlacement(rng, true) })) };
    const r = compareWithFlattened(scene, randomRays(rng, flattenInstances(scene), 400));
    expect(r.hits).toBeGreaterThan(r.rays / 3);
    expect(r.differ, `${r.differ} of ${r.hits} hits differ`).toBeLessThanOrEqual(r.hits * 0.01);
    // One instance scaled by 4 along the ray: the object-space t would be 4 times smaller if the direction were normalized.
    const big: InstancedScene = { meshes, instances: [{ mesh: 0, objectToWorld: affineFrom({ scale: [4, 4, 4], translate: [0, 0, 10] }) }] };
    const hit = castRayBvh8(buildBvh8Instanced(big).words, bits3([0, 0, 0]), bits3([0, 0, 1]));
    expect(toNumber(hit.t)).toBeCloseTo(10 - 4 * 0.6, 2);
  });

  test('8 bunnies and the Cornell box: same hits as the flattened scene on random rays; the BLAS is stored once', () => {
    const rng = createRng(seed ^ 0x12);
    const bunny = bunnyMesh({ x: 0, z: 0, height: 0.3 });
    const placements = Array.from({ length: 8 }, (_, i) => affineFrom({ rotateDegrees: [0, 45 * i, 0], translate: [-0.6 + 0.4 * (i % 4), 0, -0.3 + 0.6 * Math.floor(i / 4)] }));
    const scene: InstancedScene = { meshes: [defaultScene(), bunny], instances: [{ mesh: 0, objectToWorld: IDENTITY }, ...placements.map((m, i) => ({ mesh: 1, objectToWorld: m, shaderId: 1 + (i % 3) }))] };
    const r = compareWithFlattened(scene, randomRays(rng, flattenInstances(scene), 300));
    expect(r.hits).toBeGreaterThan(r.rays / 3);
    expect(r.differ, `${r.differ} of ${r.hits} hits differ`).toBeLessThanOrEqual(r.hits * 0.02);
    const inst = buildBvh8Instanced(scene);
    expect(inst.blas.map((b) => b.mesh)).toEqual([0, 1]);
    expect(inst.instanceNodes).toBe(9);
    const flatBytes = encodeBvh8Image(buildBvh8(flattenInstances(scene))).words.length * 4;
    const instBytes = inst.words.length * 4;
    console.log(`8 bunnies + box: instanced ${instBytes} bytes (${inst.tlasBoxNodes} TLAS box nodes, ${inst.instanceNodes} instance nodes, BLAS ${inst.blas.map((b) => b.nodes).join(' + ')} nodes) vs flattened ${flatBytes} bytes: ${(instBytes / flatBytes).toFixed(3)}`);
    expect(instBytes).toBeLessThan(flatBytes / 5);
  });

  test('equal t in coincident instances: the lower instance id wins, as the lower triangle index does in the flattened scene', () => {
    const mesh = randomScene(createRng(seed ^ 0x13), 40, 0.3);
    const m = affineFrom({ rotateDegrees: [10, 20, 30], translate: [0.5, 0, 0] });
    const scene: InstancedScene = { meshes: [mesh], instances: [0, 1, 2].map(() => ({ mesh: 0, objectToWorld: m })) };
    const rays = randomRays(createRng(seed ^ 0x14), flattenInstances(scene), 100);
    const words = buildBvh8Instanced(scene).words;
    let hits = 0;
    for (const r of rays) {
      const a = castRayBvh8(words, r.o, r.d);
      if (a.triangle >= 0) {
        hits++;
        expect(a.instance).toBe(0);
      }
    }
    expect(hits).toBeGreaterThan(20);
  });

  test('user_data, shader ids and counters: a hit names its instance; each instance node read is counted; any-hit works through instances', () => {
    const mesh = icosphere(1, { centre: [0, 0, 0], radius: 1 });
    const scene: InstancedScene = {
      meshes: [mesh],
      instances: [
        { mesh: 0, objectToWorld: affineFrom({ translate: [0, 0, 10] }), shaderId: 7 },
        { mesh: 0, objectToWorld: affineFrom({ translate: [0, 0, 5] }) },
      ],
    };
    const words = buildBvh8Instanced(scene).words;
    const r = castRayBvh8(words, bits3([0, 0, 0]), bits3([0, 0, 1]));
    expect(r.instance).toBe(1);
    expect(toNumber(r.t)).toBeCloseTo(4, 5);
    expect(r.hit[3]).toBe(mesh.triangles[4 * r.triangle + 3]);
    expect(r.counters.instanceNodes).toBeGreaterThanOrEqual(1);
    // The hardware core walks instances (BVH8_CORE_FEATURES); a traversal without them faults at the box node above them.
    expect(castRayBvh8(words, bits3([0, 0, 0]), bits3([0, 0, 1]), BVH8_CORE_FEATURES)).toEqual(r);
    expect(castRayBvh8(words, bits3([0, 0, 0]), bits3([0, 0, 1]), { instances: false })).toMatchObject({ fault: true, triangle: -1, counters: { instanceNodes: 0 } });
    const back = castRayBvh8(words, bits3([0, 0, 20]), bits3([0, 0, -1]));
    expect([back.instance, back.hit[3], toNumber(back.t)]).toEqual([0, 7, expect.closeTo(9, 5)]);
    const any = castRayBvh8(words, bits3([0, 0, 0]), bits3([0, 0, 1]), { anyHit: true });
    expect(any.triangle).toBeGreaterThanOrEqual(0);
    expect(any.instance).toBeDefined();
  });

  test('the stack: TLAS entries stay below the BLAS’s; the ray is back in world space for the next instance', () => {
    // Two instances along the ray, the far one rotated: if the second used the first's object-space ray it would miss.
    const mesh = icosphere(1, { centre: [0, 0, 0], radius: 1 });
    const scene: InstancedScene = {
      meshes: [mesh],
      instances: [
        { mesh: 0, objectToWorld: affineFrom({ scale: [0.5, 0.5, 0.5], translate: [0, 1.2, 5] }) },
        { mesh: 0, objectToWorld: affineFrom({ rotateDegrees: [0, 0, 90], translate: [0, 0, 12] }) },
      ],
    };
    const built = buildBvh8Instanced(scene);
    const r = castRayBvh8(built.words, bits3([0, 0, 0]), bits3([0, 0, 1]));
    expect(r.instance).toBe(1);
    expect(toNumber(r.t)).toBeCloseTo(11, 1);
    expect(r.counters.maxStack).toBeLessThanOrEqual(built.worstCaseStack);
  });
});

describe('two-level image faults and errors', () => {
  const scene: InstancedScene = { meshes: [icosphere(1, { centre: [0, 0, 0] })], instances: [{ mesh: 0, objectToWorld: affineFrom({ translate: [0, 0, 5] }) }] };
  const o = bits3([0, 0, 0]);
  const d = bits3([0, 0, 1]);

  test('a bvh_addr that is not a whole node or lies past the image, and an instance inside a BLAS, are faults', () => {
    const built = buildBvh8Instanced(scene);
    const at = built.tlasBoxNodes * GFX12_NODE_WORDS;
    expect(castRayBvh8(built.words, o, d).triangle).toBeGreaterThanOrEqual(0);
    const odd = built.words.slice();
    odd[at + 12] = odd[at + 12]! + 4;
    expect(castRayBvh8(odd, o, d).fault).toBe(true);
    const past = built.words.slice();
    past[at + 12] = built.words.length;
    expect(castRayBvh8(past, o, d).fault).toBe(true);
    // Make every child of the BLAS root an instance child, the first pointing back at the instance node: nested instancing.
    const nested = built.words.slice();
    const root = built.blas[0]!.root * GFX12_NODE_WORDS;
    nested[root + 1] = built.tlasBoxNodes * 16;
    const children = 1 + (nested[root + 6]! >>> 28);
    for (let c = 0; c < children; c++) nested[root + 10 + 3 * c] = (nested[root + 10 + 3 * c]! & 0x00ffffff) | (BVH8_INSTANCE_TYPE << 24) | (1 << 28);
    const r = castRayBvh8(nested, o, d);
    expect(r.fault).toBe(true);
  });

  test(`the two-level image checker: built images decode (instances, each BLAS once, the worst-case stack) (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x21);
    for (let s = 0; s < 5; s++) {
      const meshes = [randomScene(rng, 10 + rng.int(300), 0.3), icosphere(1, { centre: [0, 0, 0] })];
      const instanced: InstancedScene = { meshes, instances: Array.from({ length: 1 + rng.int(40) }, () => ({ mesh: rng.int(2), objectToWorld: randomPlacement(rng, true) })) };
      const built = buildBvh8Instanced(instanced);
      const decoded = decodeBvh8InstancedImage(built.words);
      expect(decoded.tlasBoxNodes.size).toBe(built.tlasBoxNodes);
      expect(decoded.instances.size).toBe(built.instanceNodes);
      expect([...decoded.instances.values()].map((i) => i.userData).sort((a, b) => a - b)).toEqual(instanced.instances.map((_, i) => i));
      expect(decoded.blas.map((b) => [b.root, b.nodes])).toEqual([...built.blas].sort((a, b) => a.root - b.root).map((b) => [b.root, b.nodes]));
      expect(decoded.worstCaseStack).toBe(built.worstCaseStack);
    }
    expect(decodeBvh8InstancedImage(new Uint32Array(0)).instances.size).toBe(0);
  });

  test('the two-level image checker names the node of each problem', () => {
    const two: InstancedScene = { meshes: scene.meshes, instances: [0, 1].map((i) => ({ mesh: 0, objectToWorld: affineFrom({ translate: [i, 0, 5] }) })) };
    const built = buildBvh8Instanced(two);
    const inst = built.tlasBoxNodes * GFX12_NODE_WORDS;
    const root = built.blas[0]!.root;
    const edit = (f: (w: Uint32Array) => void) => {
      const w = built.words.slice();
      f(w);
      return w;
    };
    const cases: [Uint32Array, string | RegExp][] = [
      [edit((w) => (w[inst + 12] = w[inst + 12]! + 4)), `instance node ${built.tlasBoxNodes}: bvh_addr ${root * 32 + 4} is not a whole node`],
      [edit((w) => (w[inst + 12] = built.words.length)), `instance node ${built.tlasBoxNodes}: bvh_addr points at node ${built.words.length / 32}, past the image`],
      [edit((w) => (w[inst + 12] = 0)), "an instance's bvh_addr points at node 0, a node of the TLAS"],
      // The TLAS root's first child made a triangle child.
      [edit((w) => (w[10] = (w[10]! & 0xf0ffffff) | (0 << 24))), 'TLAS box node 0 child 0: a triangle child in the TLAS'],
      // The BLAS root's children made instance children.
      [edit((w) => {
        for (let c = 0; c < 1 + (w[root * 32 + 6]! >>> 28); c++) w[root * 32 + 10 + 3 * c] = (w[root * 32 + 10 + 3 * c]! & 0xf0ffffff) | (BVH8_INSTANCE_TYPE << 24);
      }), `the BLAS at node ${root}: box node ${root} child 0: an instance node inside a BLAS`],
      [new Uint32Array([...built.words, ...new Uint32Array(32)]), "1 of the image's"],
      [edit((w) => (w[root * 32 + 7] = 200)), new RegExp(`^the BLAS at node ${root} \\(its node numbers from its root\\): box node 0: obb_matrix_index is 200`)],
    ];
    for (const [w, message] of cases) expect(() => decodeBvh8InstancedImage(w)).toThrow(message);
  });

  test('the one-level image checker refuses instance children with a clear error', () => {
    expect(() => decodeBvh8Image(buildBvh8Instanced(scene).words)).toThrow('box node 0 child 0: an instance node (node_type 6) in a one-level image');
  });

  test('a mesh with nothing to hit is skipped; a missing mesh and a singular matrix are refused', () => {
    const empty: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
    const built = buildBvh8Instanced({ meshes: [empty, ...scene.meshes], instances: [{ mesh: 0, objectToWorld: IDENTITY }, { mesh: 1, objectToWorld: IDENTITY }] });
    expect(built.skipped).toEqual([0]);
    expect(built.instanceNodes).toBe(1);
    expect(() => buildBvh8Instanced({ meshes: scene.meshes, instances: [{ mesh: 3, objectToWorld: IDENTITY }] })).toThrow('instance 0 names mesh 3, but the scene has 1 meshes');
    expect(() => buildBvh8Instanced({ meshes: scene.meshes, instances: [{ mesh: 0, objectToWorld: affineFrom({ scale: [0, 1, 1] }) }] })).toThrow('the matrix has no inverse');
    expect(triangleCount(flattenInstances(scene))).toBe(triangleCount(scene.meshes[0]!));
  });

  test(`random corruption of a two-level image: a fault or an answer, never a crash or a hang (SEED=${seed})`, () => {
    const rng = createRng(seed ^ 0x20);
    const base = buildBvh8Instanced({ meshes: scene.meshes, instances: [0, 1, 2, 3].map(() => ({ mesh: 0, objectToWorld: randomPlacement(rng, true) })) }).words;
    for (let n = 0; n < 200; n++) {
      const w = base.slice();
      for (let k = 0; k < 1 + rng.int(4); k++) w[rng.int(w.length)] = rng.u32();
      const r = castRayBvh8(w, bits3([uniform(rng, -5, 5), uniform(rng, -5, 5), -10]), bits3([uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3), 1]));
      expect(r.fault === true || r.triangle >= -1).toBe(true);
    }
  });
});
