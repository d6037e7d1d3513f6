// The ISA simulator's `trace` answers the hit triangle's index in RV15.w, as each traversal numbers it; 0 on a miss.
import { describe, expect, test } from 'vitest';
import { Machine, type MachineOptions } from '../../src/iss/index.ts';
import { buildBvh, reorderScene } from '../../src/bvh/index.ts';
import { castRay } from '../../src/golden/rayCaster.ts';
import type { Scene } from '../../src/golden/scene.ts';
import { assemble } from '../../src/isa/assembler.ts';
import { f32 } from './encode.ts';

// Ray i (pixel i) from constant words 8i (origin x, y, z) and 8i + 4 (direction); RV15 after the trace is the pixel.
const kernel = `
    s_write_high R24, #0x2000      // constant memory base 0x20000000
    ii_addi R2, R0, #32
    ii_mul R3, R1, R2
    ii_add R4, R24, R3             // this pixel's ray
    s_load_4byte R5, R4, #0
    v_get_from_s RV14, R5, #0
    s_load_4byte R5, R4, #4
    v_get_from_s RV14, R5, #1
    s_load_4byte R5, R4, #8
    v_get_from_s RV14, R5, #2
    s_load_4byte R5, R4, #16
    v_get_from_s RV15, R5, #0
    s_load_4byte R5, R4, #20
    v_get_from_s RV15, R5, #1
    s_load_4byte R5, R4, #24
    v_get_from_s RV15, R5, #2
    trace
    s_mov R20, R29                 // the result area 0x80(TID)FFF0
    s_write_low R20, #0xfff0
    v_store_16byte RV15, R20, #0
    fin
`;

// Eight small triangles facing +z at z = 0, placed out of index order along x (so the BVH reorders them), and a big one
// behind them all at z = −1 with the highest index (a ray through a small one hits both: the nearer, lower-t one wins).
const xs = [3, -1, 5, 0, -4, 2, -2, 4.5];
const vertices: number[] = [];
const triangles: number[] = [];
const triangle = (corners: readonly (readonly [number, number, number])[], shader: number) => {
  const base = vertices.length / 3;
  for (const c of corners) vertices.push(...c.map(f32));
  triangles.push(base, base + 1, base + 2, shader);
};
xs.forEach((x, i) => triangle([[x - 0.375, -0.375, 0], [x + 0.375, -0.375, 0], [x, 0.375, 0]], i + 1));
triangle([[-20, -10, -1], [20, -10, -1], [0, 10, -1]], 9);
const scene: Scene = { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
const BIG = xs.length;

const down = [0, 0, f32(-1)] as const;
/** The rays and the scene triangle each hits (−1: a miss). */
const rays: { origin: readonly number[]; direction: readonly number[]; hits: number }[] = [
  ...xs.map((x, i) => ({ origin: [f32(x), f32(-0.125), f32(5)], direction: down, hits: i })),
  { origin: [f32(1), f32(-0.125), f32(5)], direction: down, hits: BIG }, // between the small ones: the big one
  { origin: [f32(1), f32(-0.125), f32(5)], direction: [0, 0, f32(1)], hits: -1 }, // away from everything
];
const constants = new Uint32Array(8 * rays.length);
rays.forEach((r, i) => {
  constants.set(r.origin, 8 * i);
  constants.set(r.direction, 8 * i + 4);
});

const program = assemble(kernel, 'rv15.s').words;
const run = (opts: Partial<MachineOptions>) => new Machine({ program, constants, scene, ...opts }).run(rays.length);
/** RV15 as castRay over the original scene gives it, with `index` in w (all zero on a miss). */
const expected = (i: number, index: (sceneTriangle: number) => number) => {
  const r = rays[i]!;
  if (r.hits < 0) return [0, 0, 0, 0];
  const n = castRay(scene, r.origin as never, r.direction as never).normal;
  return [n[0], n[1], n[2], index(r.hits)];
};

describe('RV15.w after trace is the hit triangle index (ISS, 8 + 1 triangles, 10 rays)', () => {
  test('the rays hit the triangles they are aimed at (the scene is as intended)', () => {
    rays.forEach((r, i) => expect(castRay(scene, r.origin as never, r.direction as never).triangle, `ray ${i}`).toBe(r.hits));
  });

  test('brute force: the scene index; a miss: RV15 all zero', () => {
    const { pixels, faults } = run({});
    expect(faults).toEqual([]);
    pixels.forEach((p, i) => expect(p.ret, `ray ${i}`).toEqual(expected(i, (t) => t)));
    expect(pixels[rays.length - 1]!.ret).toEqual([0, 0, 0, 0]);
  });

  test("bvh: the index in the BVH's triangle order (the reordered scene the triangle memory holds)", () => {
    const bvh = buildBvh(scene, { maxLeafTriangles: 2 });
    const ordered = reorderScene(scene, bvh);
    const perm = Array.from(bvh.perm);
    expect(perm, 'the BVH reorders the triangles (else this test could not tell the orders apart)').not.toEqual(perm.map((_, i) => i));
    const { pixels, faults } = run({ scene: ordered, bvh });
    expect(faults).toEqual([]);
    pixels.forEach((p, i) => expect(p.ret, `ray ${i}`).toEqual(expected(i, (t) => perm.indexOf(t))));
  });

  test('bvh8: the GFX12 primitive index, which is the scene index', () => {
    const { pixels, faults } = run({ traversal: 'bvh8' });
    expect(faults).toEqual([]);
    pixels.forEach((p, i) => expect(p.ret, `ray ${i}`).toEqual(expected(i, (t) => t)));
  });
});
