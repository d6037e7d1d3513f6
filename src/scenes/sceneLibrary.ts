// Scenes for BVH work: the Stanford bunny in the built-in Cornell box, and procedural meshes of any size.
import bunny from 'bunny';
import { fromNumber } from '../golden/float32.ts';
import { DEFAULT_SHADERS, defaultScene } from './defaultScene.ts';
import { TEXCOORD_WORDS, type Scene } from '../golden/scene.ts';

type Point = readonly [number, number, number];

/** The bunny's material in bunnyInBox: the boxes' warm off-white, like fired clay. */
export const BUNNY_SHADER = DEFAULT_SHADERS.box;
/** Where bunnyInBox stands the bunny: centre of its footprint on the floor (y = 0), and its height. */
export const BUNNY_PLACEMENT = { x: -0.375, z: 0.4375, height: 0.625 } as const;

/** A scene from points in double precision (rounded to binary32) and triangles of three point indices. */
function meshScene(points: readonly Point[], faces: readonly Point[], shader: number): Scene {
  return {
    vertices: Uint32Array.from(points.flatMap((p) => p.map(fromNumber))),
    triangles: Uint32Array.from(faces.flatMap((f) => [f[0], f[1], f[2], shader])),
  };
}

/** Scenes side by side: vertices appended, later scenes' vertex indices shifted; texcoords kept (zeros for a scene without) when any has them. */
export function mergeScenes(...scenes: readonly Scene[]): Scene {
  const vertices = new Uint32Array(scenes.reduce((n, s) => n + s.vertices.length, 0));
  const triangles = new Uint32Array(scenes.reduce((n, s) => n + s.triangles.length, 0));
  const textured = scenes.some((s) => s.texcoords !== undefined);
  const texcoords = new Uint32Array(textured ? (triangles.length / 4) * TEXCOORD_WORDS : 0);
  let [v, t] = [0, 0];
  for (const s of scenes) {
    const base = v / 3;
    vertices.set(s.vertices, v);
    s.triangles.forEach((w, i) => (triangles[t + i] = i % 4 === 3 ? w : w + base));
    if (s.texcoords !== undefined) texcoords.set(s.texcoords, (t / 4) * TEXCOORD_WORDS);
    v += s.vertices.length;
    t += s.triangles.length;
  }
  return textured ? { vertices, triangles, texcoords } : { vertices, triangles };
}

/** The Stanford bunny (npm `bunny`: 1,839 vertices, 3,674 triangles), scaled to `height`, its footprint centred on (x, z), feet at y = 0. */
export function bunnyMesh(place: { x: number; z: number; height: number } = BUNNY_PLACEMENT, shader: number = BUNNY_SHADER): Scene {
  const axis = (a: number) => bunny.positions.map((p) => p[a]!);
  const [lo, hi] = [[0, 1, 2].map((a) => Math.min(...axis(a))), [0, 1, 2].map((a) => Math.max(...axis(a)))];
  const s = place.height / (hi[1]! - lo[1]!);
  const centre = [0, 2].map((a) => (lo[a]! + hi[a]!) / 2);
  const points = bunny.positions.map((p): Point => [(p[0] - centre[0]!) * s + place.x, (p[1] - lo[1]!) * s, (p[2] - centre[1]!) * s + place.z]);
  return meshScene(points, bunny.cells, shader);
}

/** The built-in Cornell box (36 triangles) with the bunny standing on its floor, front left: 3,710 triangles. */
export function bunnyInBox(): Scene {
  return mergeScenes(defaultScene(), bunnyMesh());
}

function checkCount(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
}

/** A geodesic sphere: the icosahedron with each triangle split in four `subdivisions` times (20 · 4^s triangles; s = 6 gives 81,920). */
export function icosphere(subdivisions: number, opts: { centre?: Point; radius?: number; shader?: number } = {}): Scene {
  checkCount('subdivisions', subdivisions, 0, 8);
  const [cx, cy, cz] = opts.centre ?? [0, 1, 0];
  const radius = opts.radius ?? 0.5;
  const g = (1 + Math.sqrt(5)) / 2;
  const points: Point[] = [
    [-1, g, 0], [1, g, 0], [-1, -g, 0], [1, -g, 0], [0, -1, g], [0, 1, g],
    [0, -1, -g], [0, 1, -g], [g, 0, -1], [g, 0, 1], [-g, 0, -1], [-g, 0, 1],
  ].map((p) => unit(p as unknown as Point));
  let faces: Point[] = [
    [0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6], [7, 1, 8],
    [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1],
  ];
  for (let s = 0; s < subdivisions; s++) faces = subdivide(points, faces);
  const placed = points.map((p): Point => [cx + radius * p[0], cy + radius * p[1], cz + radius * p[2]]);
  return meshScene(placed, faces, opts.shader ?? DEFAULT_SHADERS.white);
}

const unit = (p: Point): Point => {
  const l = Math.hypot(p[0], p[1], p[2]);
  return [p[0] / l, p[1] / l, p[2] / l];
};

/** Each triangle into four, through its edge midpoints pushed onto the unit sphere (shared between neighbours). */
function subdivide(points: Point[], faces: readonly Point[]): Point[] {
  const midpoints = new Map<number, number>();
  const mid = (a: number, b: number): number => {
    const key = Math.min(a, b) * 0x100000 + Math.max(a, b);
    let m = midpoints.get(key);
    if (m === undefined) {
      const [p, q] = [points[a]!, points[b]!];
      m = points.push(unit([(p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (p[2] + q[2]) / 2])) - 1;
      midpoints.set(key, m);
    }
    return m;
  };
  return faces.flatMap(([a, b, c]): Point[] => {
    const [ab, bc, ca] = [mid(a, b), mid(b, c), mid(c, a)];
    return [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]];
  });
}

/** A torus (axis y) tessellated into n × n quads, 2n² triangles (n = 182 gives 66,248). */
export function torusGrid(n: number, opts: { centre?: Point; major?: number; minor?: number; shader?: number } = {}): Scene {
  checkCount('n', n, 3, 2048);
  const [cx, cy, cz] = opts.centre ?? [0, 1, 0];
  const [major, minor] = [opts.major ?? 0.6, opts.minor ?? 0.2];
  const points: Point[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const [u, v] = [(2 * Math.PI * i) / n, (2 * Math.PI * j) / n];
      const r = major + minor * Math.cos(v);
      points.push([cx + r * Math.cos(u), cy + minor * Math.sin(v), cz + r * Math.sin(u)]);
    }
  const at = (i: number, j: number) => (i % n) * n + (j % n);
  const faces: Point[] = [];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) faces.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)], [at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
  return meshScene(points, faces, opts.shader ?? DEFAULT_SHADERS.white);
}
