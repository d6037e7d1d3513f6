// Closed triangle meshes and rays aimed exactly at their shared vertices and edges (verification code for the watertight test).
import { fromNumber, toNumber } from '../golden/float32.ts';
import type { Vec3 } from '../golden/rayCaster.ts';
import type { Scene } from '../golden/scene.ts';

/**
 * Coordinates are multiples of 2^-GRID_BITS in [−2, 2], so that sums, differences and midpoints of
 * vertices (and points k/2^10 of the way along an edge) are exact in binary32: a ray from a grid
 * point to such a point passes through it exactly.
 */
export const GRID_BITS = 12;
const snap = (x: number): number => Math.round(x * 2 ** GRID_BITS) / 2 ** GRID_BITS;

/** A closed mesh as a scene, vertices snapped to the grid, triangles wound outward (counter-clockwise seen from outside). */
function mesh(vertices: readonly (readonly number[])[], faces: readonly (readonly number[])[]): Scene {
  return {
    vertices: Uint32Array.from(vertices.flatMap((v) => v.map((x) => fromNumber(snap(x))))),
    triangles: Uint32Array.from(faces.flatMap((f, i) => [f[0]!, f[1]!, f[2]!, 1 + (i % 15)])),
  };
}

export function tetrahedron(): Scene {
  return mesh(
    [
      [1, 1, 1],
      [1, -1, -1],
      [-1, 1, -1],
      [-1, -1, 1],
    ],
    [
      [0, 1, 2],
      [0, 3, 1],
      [0, 2, 3],
      [1, 3, 2],
    ],
  );
}

/** The cube [−1, 1]³, two triangles per face. */
export function cube(): Scene {
  const v = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => [i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1]);
  const quads = [
    [0, 2, 3, 1], // z = −1
    [4, 5, 7, 6], // z = +1
    [0, 1, 5, 4], // y = −1
    [2, 6, 7, 3], // y = +1
    [0, 4, 6, 2], // x = −1
    [1, 3, 7, 5], // x = +1
  ];
  return mesh(
    v,
    quads.flatMap(([a, b, c, d]) => [
      [a!, b!, c!],
      [a!, c!, d!],
    ]),
  );
}

/** An icosahedron subdivided `levels` times (20·4^levels triangles), vertices on the unit sphere, then snapped. */
export function icosphere(levels: number): Scene {
  const g = (1 + Math.sqrt(5)) / 2;
  const unit = (p: readonly number[]) => {
    const n = Math.hypot(...p);
    return p.map((x) => x / n);
  };
  const verts: number[][] = [
    [-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0],
    [0, -1, g], [0, 1, g], [0, -1, -g], [0, 1, -g],
    [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1],
  ].map(unit);
  let faces: number[][] = [
    [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11],
    [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
    [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9],
    [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
  ];
  for (let l = 0; l < levels; l++) {
    const mid = new Map<string, number>();
    const middle = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let m = mid.get(key);
      if (m === undefined) {
        m = verts.push(unit(verts[a]!.map((x, i) => x + verts[b]![i]!))) - 1;
        mid.set(key, m);
      }
      return m;
    };
    faces = faces.flatMap(([a, b, c]) => {
      const [ab, bc, ca] = [middle(a!, b!), middle(b!, c!), middle(c!, a!)];
      return [[a!, ab, ca], [b!, bc, ab], [c!, ca, bc], [ab, bc, ca]];
    });
  }
  return mesh(verts, faces);
}

/** Every edge once, as vertex index pairs (a < b), in order of first appearance. */
export function meshEdges(scene: Scene): [number, number][] {
  const seen = new Set<string>();
  const edges: [number, number][] = [];
  for (let t = 0; 4 * t < scene.triangles.length; t++) {
    for (const [i, j] of [[0, 1], [1, 2], [2, 0]] as const) {
      const a = Math.min(scene.triangles[4 * t + i]!, scene.triangles[4 * t + j]!);
      const b = Math.max(scene.triangles[4 * t + i]!, scene.triangles[4 * t + j]!);
      if (!seen.has(`${a},${b}`)) {
        seen.add(`${a},${b}`);
        edges.push([a, b]);
      }
    }
  }
  return edges;
}

/** Vertex k of the scene as numbers. */
export const vertexValue = (scene: Scene, k: number): number[] => [0, 1, 2].map((i) => toNumber(scene.vertices[3 * k + i]!));

/** The point `s` of the way from vertex a to vertex b (s = k / 2^10 keeps it exact). */
export function edgePoint(scene: Scene, a: number, b: number, s: number): number[] {
  const p = vertexValue(scene, a);
  const q = vertexValue(scene, b);
  return p.map((x, i) => x + s * (q[i]! - x));
}

/** The ray from `origin` through `target`: direction target − origin, exact when both are on the grid. */
export function rayThrough(origin: readonly number[], target: readonly number[]): { origin: Vec3; direction: Vec3 } {
  const d = target.map((x, i) => x - origin[i]!);
  const bits = (v: readonly number[]) => v.map(fromNumber) as unknown as Vec3;
  if (d.some((x, i) => toNumber(fromNumber(x)) !== x || toNumber(fromNumber(origin[i]!)) !== origin[i])) throw new Error(`rayThrough: ${origin} → ${target} is not exact in binary32`);
  return { origin: bits(origin), direction: bits(d) };
}
