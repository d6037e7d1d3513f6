// Random rays and scenes for checking IC cores (verification code, not hardware): rays aimed at
// triangle interiors, vertices and edges, along triangle planes, from behind, and invalid ones; closed
// meshes with rays from inside exactly through their shared vertices and edges.
import type { Rng } from '../../../util/seededRandom.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { fromNumber, toNumber } from '../../../golden/float32.ts';
import { RAY_FLAG_ANY_HIT, RAY_FLAG_CULL_BACK, RAY_FLAG_CULL_FRONT, RAY_MASK_SHIFT, type RayQuery } from '../../../golden/rayQuery.ts';
import { triangleCount, type Scene } from '../../../golden/scene.ts';
import { generateScene } from '../../../stimulus/randomProgram.ts';
import { cube, edgePoint, icosphere, meshEdges, rayThrough, tetrahedron, vertexValue } from '../../../scenes/closedMeshes.ts';

const bits = fromNumber;
const value = toNumber;

export interface Ray {
  readonly origin: Vec3;
  readonly direction: Vec3;
  /** The ray's query (docs/rays.md); absent: a plain trace's, DEFAULT_RAY_QUERY. */
  readonly query?: RayQuery;
}

/** The ray_query input's three words (tmin, tmax, flags), and back. */
export const queryWords = (q: RayQuery): number[] => [q.tmin >>> 0, q.tmax >>> 0, q.flags >>> 0];
export const queryOfWords = (w: readonly number[]): RayQuery => ({ tmin: w[0]!, tmax: w[1]!, flags: w[2]! });

const INF = 0x7f800000;
const NAN = 0x7fc00000;

/**
 * A random ray query (docs/rays.md): any-hit or closest, culling of either face, a random ray mask (sometimes
 * every bit, sometimes one), and an interval that is usually wide or cut inside the scene's range of t, sometimes
 * empty or odd: tmin > tmax, a NaN or infinite bound, tmax = 0, negative bounds.
 */
export function randomRayQuery(rng: Rng): RayQuery {
  const flags = (rng.int(2) ? RAY_FLAG_ANY_HIT : 0) | (rng.int(3) === 0 ? RAY_FLAG_CULL_BACK : 0) | (rng.int(4) === 0 ? RAY_FLAG_CULL_FRONT : 0);
  const mask = [0xff, 0xff, 1 << rng.int(8), rng.int(256)][rng.int(4)]!;
  const t = (): number => bits([0.25, 0.5, 1, 2, 3, 5, 10][rng.int(7)]! * (0.5 + rng()));
  const odd = [0, INF, 0xff800000, NAN, 0x80000000, bits(-1), 1];
  const pick = (): number => (rng.int(6) === 0 ? odd[rng.int(odd.length)]! : t());
  const interval = rng.int(4);
  const [tmin, tmax] = interval === 0 ? [0, INF] : interval === 1 ? [0, pick()] : interval === 2 ? [pick(), INF] : [pick(), pick()];
  return { tmin: tmin >>> 0, tmax: tmax >>> 0, flags: (flags | (mask << RAY_MASK_SHIFT)) >>> 0 };
}

/** The scene with random geometry masks (0–255: every bit, one bit or any byte) and about a third of its triangles one-sided. */
export function withRandomMasks(rng: Rng, scene: Scene): Scene {
  const n = triangleCount(scene);
  const masks = Uint8Array.from({ length: n }, () => [0xff, 1 << rng.int(8), 1 + rng.int(255)][rng.int(3)]!);
  const oneSided = Uint8Array.from({ length: n }, () => (rng.int(3) === 0 ? 1 : 0));
  return { ...scene, masks, oneSided };
}

function vertex(scene: Scene, t: number, k: number): number[] {
  const v = scene.triangles[4 * t + k]!;
  return [0, 1, 2].map((i) => value(scene.vertices[3 * v + i]!));
}

/** A scene: a small tricky one (degenerate, coplanar, duplicated triangles) or `size` random triangles. */
export function randomIcScene(rng: Rng, size = 0): Scene {
  if (size === 0) return generateScene(rng);
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (let t = 0; t < size; t++) {
    const c = [rng() * 4 - 2, rng() * 4 - 2, rng() * 4 - 2];
    for (let k = 0; k < 3; k++) vertices.push(...c.map((x) => bits(x + rng() - 0.5)));
    triangles.push(3 * t, 3 * t + 1, 3 * t + 2, 1 + rng.int(15));
  }
  return { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
}

export function randomRay(rng: Rng, scene: Scene): Ray {
  const o = [rng() * 6 - 3, rng() * 6 - 3, rng() * 4 - 8];
  const n = triangleCount(scene);
  const toward = (p: number[]) => p.map((x, i) => x - o[i]!);
  let d = [rng() - 0.5, rng() - 0.5, rng() * 2 - 0.5];
  if (n > 0) {
    const t = rng.int(n);
    const [a, b, c] = [0, 1, 2].map((k) => vertex(scene, t, k)) as [number[], number[], number[]];
    switch (rng.int(8)) {
      case 0:
        d = toward(a); // through a vertex
        break;
      case 1: {
        const s = rng();
        d = toward(a.map((x, i) => x + s * (b[i]! - x))); // through an edge
        break;
      }
      case 2: {
        // Along the triangle's plane (near-parallel).
        d = b.map((x, i) => x - a[i]!);
        break;
      }
      case 3:
        d = toward(a).map((x) => -x); // away from it: t <= 0
        break;
      default: {
        const u = rng();
        const v = rng() * (1 - u);
        d = toward(a.map((x, i) => x + u * (b[i]! - x) + v * (c[i]! - x))); // through the interior
      }
    }
  }
  const origin = o.map(bits) as unknown as number[];
  const direction = d.map(bits);
  switch (rng.int(40)) {
    case 0:
      origin[rng.int(3)] = 0x7fc00000; // NaN
      break;
    case 1:
      direction[rng.int(3)] = rng.int(2) ? 0x7f800000 : 0xff800000; // ±inf
      break;
    case 2:
      direction.fill(0);
      direction[rng.int(3)] = 0x80000000; // all zero (one of them negative)
      break;
  }
  return { origin: origin as unknown as Vec3, direction: direction as unknown as Vec3 };
}

/** A closed mesh: the tetrahedron, the cube or the 80-triangle icosphere (closedMeshes.ts). */
export function randomClosedMesh(rng: Rng): Scene {
  return [tetrahedron, cube, () => icosphere(1)][rng.int(3)]!();
}

/**
 * A ray from a grid point near the centre (inside each of the closed meshes) exactly through a vertex,
 * an edge midpoint or a point k/512 along an edge of `scene`: where a ray can slip between triangles.
 */
export function closedMeshRay(rng: Rng, scene: Scene): Ray {
  const origin = [0, 1, 2].map(() => Math.round((rng() - 0.5) * 128) / 256);
  const edges = meshEdges(scene);
  const [a, b] = edges[rng.int(edges.length)]!;
  const kind = rng.int(3);
  const target = kind === 0 ? vertexValue(scene, a) : edgePoint(scene, a, b, kind === 1 ? 0.5 : (1 + rng.int(511)) / 512);
  return rayThrough(origin, target);
}
