// Test helpers for the BVH tests: seeded random scenes and rays, and small hand-made scenes.
import { createRng, seedFromEnv, type Rng } from '../../src/util/seededRandom.ts';
import { fromNumber, toNumber } from '../../src/golden/float32.ts';
import type { Vec3 } from '../../src/golden/rayCaster.ts';
import type { Scene } from '../../src/golden/scene.ts';

export { createRng, type Rng };

/** The run's seed (SEED=… to replay), printed with the file's name. */
export function announceSeed(file: string): number {
  const seed = seedFromEnv();
  console.log(`${file} seed=${seed} (rerun with SEED=${seed})`);
  return seed;
}

export type P = readonly [number, number, number];
export const bits3 = (p: P): Vec3 => [fromNumber(p[0]), fromNumber(p[1]), fromNumber(p[2])];
export const num3 = (v: Vec3): P => [toNumber(v[0]), toNumber(v[1]), toNumber(v[2])];

/** A scene of unshared triangles given as three points (rounded to binary32) and a shader id. */
export function sceneOf(tris: readonly (readonly [P, P, P, number])[]): Scene {
  return {
    vertices: Uint32Array.from(tris.flatMap(([a, b, c]) => [...bits3(a), ...bits3(b), ...bits3(c)])),
    triangles: Uint32Array.from(tris.flatMap(([, , , s], i) => [3 * i, 3 * i + 1, 3 * i + 2, s])),
  };
}

const uniform = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();

/** Triangles of random size (up to `size`) scattered in [−1, 1]³: general position, nothing axis-aligned. */
export function randomScene(rng: Rng, n: number, size = 0.3): Scene {
  return sceneOf(
    Array.from({ length: n }, () => {
      const c: P = [uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)];
      const corner = (): P => [c[0] + uniform(rng, -size, size), c[1] + uniform(rng, -size, size), c[2] + uniform(rng, -size, size)];
      return [corner(), corner(), corner(), 1 + rng.int(6)] as const;
    }),
  );
}

export interface TestRay {
  readonly o: Vec3;
  readonly d: Vec3;
}

/** Rays from outside [−1, 1]³ or inside it: half aimed at a random point well inside a random triangle, half in random directions. */
export function randomRays(rng: Rng, scene: Scene, n: number): TestRay[] {
  const tris = scene.triangles.length / 4;
  const vertex = (t: number, k: number): P => {
    const v = scene.triangles[4 * t + k]!;
    return [toNumber(scene.vertices[3 * v]!), toNumber(scene.vertices[3 * v + 1]!), toNumber(scene.vertices[3 * v + 2]!)];
  };
  return Array.from({ length: n }, (_, i) => {
    const o: P = [uniform(rng, -2, 2), uniform(rng, -2, 2), uniform(rng, -2, 2)];
    let d: P;
    if (i % 2 === 0 && tris > 0) {
      const t = rng.int(tris);
      const [u, v] = [uniform(rng, 0.05, 0.45), uniform(rng, 0.05, 0.45)];
      const [a, b, c] = [vertex(t, 0), vertex(t, 1), vertex(t, 2)];
      const target = [0, 1, 2].map((k) => a[k]! + u * (b[k]! - a[k]!) + v * (c[k]! - a[k]!));
      d = [target[0]! - o[0], target[1]! - o[1], target[2]! - o[2]];
    } else d = [uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)];
    return { o: bits3(o), d: bits3(d) };
  });
}
