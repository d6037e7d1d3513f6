// Random scenes and rays for checking the BVH IC system (verification code, not hardware): the IC cores' tricky scenes
// and rays (rayVectors.ts), closed meshes with rays exactly through their shared vertices and edges, and rays from every side.
import type { Rng } from '../../../util/seededRandom.ts';
import { fromNumber, toNumber } from '../../../golden/float32.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { triangleCount, vertexCount, type Scene } from '../../../golden/scene.ts';
import { defaultScene } from '../../../scenes/defaultScene.ts';
import { closedMeshRay, randomClosedMesh, randomIcScene, randomRay, type Ray } from '../../icCore/verification/rayVectors.ts';

export interface BvhTestScene {
  readonly scene: Scene;
  /** How to draw a ray for it. */
  readonly ray: (rng: Rng) => Ray;
  readonly what: string;
}

/** The box around the scene's vertices (numbers), or the unit cube around the origin for an empty scene. */
function bounds(scene: Scene): { lo: number[]; hi: number[] } {
  if (vertexCount(scene) === 0) return { lo: [-1, -1, -1], hi: [1, 1, 1] };
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < vertexCount(scene); v++) {
    for (let i = 0; i < 3; i++) {
      const x = toNumber(scene.vertices[3 * v + i]!);
      lo[i] = Math.min(lo[i]!, x);
      hi[i] = Math.max(hi[i]!, x);
    }
  }
  return { lo, hi };
}

/**
 * A ray from any side of the scene (so also from behind its triangles), or from a point inside the scene's box, aimed
 * at a point of a random triangle: its interior, a vertex or an edge.
 */
export function rayFromAnySide(rng: Rng, scene: Scene): Ray {
  const { lo, hi } = bounds(scene);
  const centre = lo.map((x, i) => (x + hi[i]!) / 2);
  const size = Math.max(1e-3, ...hi.map((x, i) => x - lo[i]!));
  let origin: number[];
  if (rng.int(4) === 0) origin = lo.map((x, i) => x + rng() * (hi[i]! - x));
  else {
    // A uniform direction (normalized Gaussian), 1 to 4 scene sizes away.
    const g = [0, 1, 2].map(() => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng()));
    const n = Math.hypot(...g) || 1;
    const r = size * (1 + 3 * rng());
    origin = centre.map((c, i) => c + (r * g[i]!) / n);
  }
  let target = centre.map((c) => c + (rng() - 0.5) * size);
  const n = triangleCount(scene);
  if (n > 0) {
    const t = rng.int(n);
    const [a, b, c] = [0, 1, 2].map((k) => {
      const v = scene.triangles[4 * t + k]!;
      return [0, 1, 2].map((i) => toNumber(scene.vertices[3 * v + i]!));
    }) as [number[], number[], number[]];
    const kind = rng.int(4);
    if (kind === 0) target = a;
    else if (kind === 1) {
      const s = rng();
      target = a.map((x, i) => x + s * (b[i]! - x));
    } else {
      const u = rng();
      const v = rng() * (1 - u);
      target = a.map((x, i) => x + u * (b[i]! - x) + v * (c[i]! - x));
    }
  }
  const bits = (v: readonly number[]) => v.map((x) => fromNumber(x)) as unknown as Vec3;
  return { origin: bits(origin), direction: bits(target.map((x, i) => x - origin[i]!)) };
}

/** Half the rays as the IC cores' tests draw them (vertices, edges, planes, away, invalid), half from any side. */
export const mixedRay = (scene: Scene) => (rng: Rng): Ray => (rng.int(2) === 0 ? randomRay(rng, scene) : rayFromAnySide(rng, scene));

/**
 * A random scene of at most `maxTriangles` triangles (and 3 vertices each) with its ray generator: the tricky small
 * scenes (degenerate, coplanar, duplicated triangles), random triangles, a closed mesh (most rays from inside exactly
 * through shared vertices and edges) or the default scene when it fits.
 */
export function randomBvhScene(rng: Rng, maxTriangles: number): BvhTestScene {
  const kind = rng.int(4);
  if (kind === 0) {
    const scene = randomIcScene(rng, 0);
    return { scene, ray: mixedRay(scene), what: `${triangleCount(scene)} tricky triangles` };
  }
  if (kind === 1) {
    const scene = randomClosedMesh(rng);
    if (triangleCount(scene) <= maxTriangles) return { scene, ray: (r) => (r.int(3) === 0 ? mixedRay(scene)(r) : closedMeshRay(r, scene)), what: `a closed mesh of ${triangleCount(scene)} triangles` };
  }
  if (kind === 2 && triangleCount(defaultScene()) <= maxTriangles) {
    const scene = defaultScene();
    return { scene, ray: mixedRay(scene), what: 'the default scene' };
  }
  const scene = randomIcScene(rng, 1 + rng.int(maxTriangles));
  return { scene, ray: mixedRay(scene), what: `${triangleCount(scene)} random triangles` };
}
