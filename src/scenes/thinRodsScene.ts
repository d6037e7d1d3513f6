// A scene of thin rotated objects for oriented boxes: three sets of parallel chains of long thin links, each set at its own tilt, in the Cornell box (docs/performance.md, "Oriented boxes").
import { defaultScene } from './defaultScene.ts';
import { fromNumber } from '../golden/float32.ts';
import type { Scene } from '../golden/scene.ts';
import { mergeScenes } from './sceneLibrary.ts';

type Point = [number, number, number];

const SHADER = 5;
const DEG = Math.PI / 180;

/** One set of chains: a centre, its tilt (about z, then about x), how many chains side by side. */
interface ChainSet {
  readonly centre: Point;
  readonly tiltZ: number;
  readonly tiltX: number;
  readonly chains: number;
}

/**
 * Sets like the hanging chains of seed 002's example: within a set one rotation fits every chain; the first set's
 * tilt is one of the ROM's rotations (30° about z), the others are not (40° and 25°, 65° and 35°).
 */
const SETS: readonly ChainSet[] = [
  { centre: [-0.55, 1.05, 0.1], tiltZ: 30, tiltX: 0, chains: 12 },
  { centre: [0.5, 1.1, 0.2], tiltZ: -40, tiltX: 25, chains: 12 },
  { centre: [0, 1.25, -0.45], tiltZ: 65, tiltX: -35, chains: 12 },
];
/** Links per chain, each a box of 12 triangles; a chain's length and thickness; the gap between chains of a set. */
const LINKS = 16;
const LENGTH = 1.2;
const THICKNESS = 0.03;
const SPACING = 0.07;

const rotate = (p: Point, tiltZ: number, tiltX: number): Point => {
  const [cz, sz, cx, sx] = [Math.cos(tiltZ * DEG), Math.sin(tiltZ * DEG), Math.cos(tiltX * DEG), Math.sin(tiltX * DEG)];
  const [x, y, z] = [cz * p[0] - sz * p[1], sz * p[0] + cz * p[1], p[2]];
  return [x, cx * y - sx * z, sx * y + cx * z];
};

/** A box [lo, hi] (its own frame), rotated and moved to `centre`: 8 corners, 12 triangles wound outward. */
function box(lo: Point, hi: Point, tiltZ: number, tiltX: number, centre: Point): { points: Point[]; faces: number[][] } {
  const points = [0, 1, 2, 3, 4, 5, 6, 7].map((c): Point => {
    const r = rotate([c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]], tiltZ, tiltX);
    return [r[0] + centre[0], r[1] + centre[1], r[2] + centre[2]];
  });
  const quads = [
    [0, 2, 3, 1],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 6, 7, 3],
    [0, 4, 6, 2],
    [1, 3, 7, 5],
  ];
  return { points, faces: quads.flatMap(([a, b, c, d]) => [[a!, b!, c!], [a!, c!, d!]]) };
}

/** The thin rods alone: 3 sets × 12 chains × 16 links × 12 triangles = 6,912 triangles; `sets` < 3: only the first sets (small tests). */
export function thinRods(sets = SETS.length): Scene {
  const vertices: number[] = [];
  const triangles: number[] = [];
  for (const set of SETS.slice(0, sets))
    for (let chain = 0; chain < set.chains; chain++) {
      const offset = (chain - (set.chains - 1) / 2) * SPACING;
      for (let link = 0; link < LINKS; link++) {
        const y0 = -LENGTH / 2 + (link * LENGTH) / LINKS;
        const { points, faces } = box([offset, y0, -THICKNESS / 2], [offset + THICKNESS, y0 + LENGTH / LINKS, THICKNESS / 2], set.tiltZ, set.tiltX, set.centre);
        const base = vertices.length / 3;
        vertices.push(...points.flat().map(fromNumber));
        for (const f of faces) triangles.push(base + f[0]!, base + f[1]!, base + f[2]!, SHADER);
      }
    }
  return { vertices: Uint32Array.from(vertices), triangles: Uint32Array.from(triangles) };
}

/** The Cornell box with the thin rods: 36 + 6,912 = 6,948 triangles. */
export const thinRodsInBox = (): Scene => mergeScenes(defaultScene(), thinRods());
