// Triangle pairs for checking the BVH8 triangle engine (verification code, not hardware): random and watertight-critical pairs with ray queries, their port values, and the expected outputs from the golden watertight test, `accepts` and `closer`.
import type { Rng } from '../../../util/seededRandom.ts';
import { CANONICAL_NAN, POS_INF, fromNumber } from '../../../golden/float32.ts';
import { cross, rayIsValid, type TriangleTest, type Vec3 } from '../../../golden/rayCaster.ts';
import { testTriangleWatertight, watertightRay, type WatertightRay } from '../../../golden/watertight.ts';
import { closer } from '../../../bvh/traversal/bvhCaster.ts';
import { accepts, isAnyHit } from '../../../golden/rayAccept.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, type RayQuery } from '../../../golden/rayQuery.ts';
import { queryOfWords, queryWords, randomRayQuery } from '../../icCore/verification/rayVectors.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';

export type Triangle = readonly [Vec3, Vec3, Vec3];

/** One pair test: the ray (origin, watertight constants), the pair, and the ray's closest hit so far, as binary32 bit patterns. */
export interface PairItem {
  readonly origin: Vec3;
  /** watertightRay(d) of the ray's direction; the shear may also be any bits (the engine takes it as given). */
  readonly ray: WatertightRay;
  readonly triangles: readonly [Triangle, Triangle];
  /** Bit k: triangle k exists. */
  readonly active: number;
  readonly primIndex: readonly [number, number];
  readonly bestValid: boolean;
  readonly bestT: number;
  readonly bestIndex: number;
  /** The ray's query (docs/rays.md): the interval, the culled faces, the ray mask, ANY_HIT (terminate). */
  readonly query: RayQuery;
  /** Bit k: triangle k is one-sided (the query's culling applies to it). */
  readonly oneSided: number;
  readonly tag: number;
}

/** What the engine answers for a pair (numbers as unsigned 32-bit patterns). */
export interface PairAnswer {
  readonly hit: number;
  readonly t: readonly number[];
  readonly u: readonly number[];
  readonly v: readonly number[];
  readonly normal: readonly (readonly number[])[];
  readonly bestValid: boolean;
  readonly bestT: number;
  readonly bestIndex: number;
  readonly bestFrom: number;
  readonly terminate: boolean;
  readonly tag: number;
}

/** A triangle's geometry mask in the engine: every bit (the box child's cull_mask was checked before). */
const ALL_MASK_BITS = 0xff;

/** Unused by the test when the ray's constants are given. */
const NO_DIRECTION: Vec3 = [0, 0, 0];

/** The golden test of both triangles with the item's ray constants. */
export function pairTests(n: PairItem): TriangleTest[] {
  return n.triangles.map(([a, b, c]) => testTriangleWatertight(n.origin, NO_DIRECTION, a, b, c, n.ray));
}

/** The axes port: kx, ky, kz, 2 bits each, kx lowest (rayAxes). */
export const axesCode = (r: WatertightRay): number => r.kx | (r.ky << 2) | (r.kz << 4);

/** The golden answer: both tests, each hit accepted by the query as castRayBvh8's (mask 0xFF), then its closest-hit update (triangle 0, then 1, by `closer`). */
export function expectedPair(n: PairItem): PairAnswer {
  const tests = pairTests(n);
  let best = { valid: n.bestValid, t: n.bestT >>> 0, index: n.bestIndex >>> 0, from: 0 };
  let hit = 0;
  tests.forEach((r, k) => {
    if (!((n.active >> k) & 1) || !accepts(n.query, r, ALL_MASK_BITS, ((n.oneSided >> k) & 1) === 1)) return;
    hit |= 1 << k;
    if (!best.valid || closer(r.t, n.primIndex[k]!, best.t, best.index)) best = { valid: true, t: r.t >>> 0, index: n.primIndex[k]! >>> 0, from: 1 << k };
  });
  return {
    hit,
    t: tests.map((r) => r.t >>> 0),
    u: tests.map((r) => r.u >>> 0),
    v: tests.map((r) => r.v >>> 0),
    normal: tests.map((r) => cross(r.e1, r.e2).map((x) => x >>> 0)),
    bestValid: best.valid,
    bestT: best.t,
    bestIndex: best.index,
    bestFrom: best.from,
    terminate: isAnyHit(n.query) && best.valid,
    tag: n.tag,
  };
}

/** The engine's input port values for a pair entering this cycle. */
export function pairInputs(n: PairItem): Record<string, bigint> {
  return {
    in_valid: 1n,
    origin: packWords(n.origin),
    axes: BigInt(axesCode(n.ray)),
    shear: packWords([n.ray.sx, n.ray.sy, n.ray.sz]),
    vertices: packWords(n.triangles.flatMap((tri) => tri.flatMap((v) => [...v]))),
    active: BigInt(n.active),
    prim_index: packWords(n.primIndex),
    best_valid: n.bestValid ? 1n : 0n,
    best_t: BigInt(n.bestT >>> 0),
    best_index: BigInt(n.bestIndex >>> 0),
    one_sided: BigInt(n.oneSided),
    query: packWords(queryWords(n.query)),
    tag: BigInt(n.tag),
  };
}

const vec3At = (words: readonly number[], at: number): Vec3 => [words[at]!, words[at + 1]!, words[at + 2]!];

/** The ray constants on the axes and shear ports. */
const rayFromPorts = (axes: number, shear: readonly number[]): WatertightRay => ({ kx: axes & 3, ky: (axes >> 2) & 3, kz: (axes >> 4) & 3, sx: shear[0]!, sy: shear[1]!, sz: shear[2]! });

/** The pair on the input ports (the inverse of pairInputs). */
export function pairFromInputs(ins: Readonly<Record<string, bigint>>): PairItem {
  const w = unpackWords(ins.vertices ?? 0n, 18);
  const tri = (k: number): Triangle => [vec3At(w, 9 * k), vec3At(w, 9 * k + 3), vec3At(w, 9 * k + 6)];
  const idx = unpackWords(ins.prim_index ?? 0n, 2);
  return {
    origin: vec3At(unpackWords(ins.origin ?? 0n, 3), 0),
    ray: rayFromPorts(Number(ins.axes ?? 0n), unpackWords(ins.shear ?? 0n, 3)),
    triangles: [tri(0), tri(1)],
    active: Number(ins.active ?? 0n),
    primIndex: [idx[0]!, idx[1]!],
    bestValid: ins.best_valid === 1n,
    bestT: Number(ins.best_t ?? 0n),
    bestIndex: Number(ins.best_index ?? 0n),
    query: queryOfWords(unpackWords(ins.query ?? 0n, 3)),
    oneSided: Number(ins.one_sided ?? 0n),
    tag: Number(ins.tag ?? 0n),
  };
}

/** The answer read from the output ports. */
export function pairAnswerFromOutputs(outs: Readonly<Record<string, bigint>>): PairAnswer {
  const normal = unpackWords(outs.normal ?? 0n, 6);
  return {
    hit: Number(outs.hit),
    t: unpackWords(outs.t ?? 0n, 2),
    u: unpackWords(outs.u ?? 0n, 2),
    v: unpackWords(outs.v ?? 0n, 2),
    normal: [normal.slice(0, 3), normal.slice(3)],
    bestValid: outs.best_valid_out === 1n,
    bestT: Number(outs.best_t_out),
    bestIndex: Number(outs.best_index_out),
    bestFrom: Number(outs.best_from),
    terminate: outs.terminate === 1n,
    tag: Number(outs.out_tag),
  };
}

const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
const hex3 = (v: readonly number[]) => v.map(hex).join(' ');

export const describePair = (n: PairItem): string =>
  `pair origin ${hex3(n.origin)} axes ${n.ray.kx}${n.ray.ky}${n.ray.kz} shear ${hex3([n.ray.sx, n.ray.sy, n.ray.sz])} tris ${n.triangles.map((t) => `[${t.map(hex3).join(' | ')}]`).join(' ')} active ${n.active} index ${n.primIndex.join(',')} best ${n.bestValid ? `${hex(n.bestT)}#${n.bestIndex}` : '-'} query ${hex3(queryWords(n.query))} one-sided ${n.oneSided} tag ${n.tag}`;

export const describePairAnswer = (a: PairAnswer): string =>
  `hit ${a.hit.toString(2).padStart(2, '0')} t ${hex3(a.t)} u ${hex3(a.u)} v ${hex3(a.v)} normal ${a.normal.map(hex3).join(' / ')} best ${a.bestValid ? `${hex(a.bestT)}#${a.bestIndex}` : '-'} from ${a.bestFrom} terminate ${a.terminate ? 1 : 0} tag ${a.tag}`;

/** A difference between two answers, described, or null. */
export function comparePairAnswers(got: PairAnswer, want: PairAnswer): string | null {
  const g = describePairAnswer(got);
  const w = describePairAnswer(want);
  return g === w ? null : `got ${g}; expected ${w}`;
}

// ---------------------------------------------------------------------------------- random pairs

const bits = fromNumber;
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;
const SPECIALS = [0, 0x80000000, POS_INF, 0xff800000, CANONICAL_NAN, 0x00000001, 0x80000001, 0x007fffff, 0x7f7fffff];

/** A point on a 1/64 grid: edges between such points are hit exactly by rays from grid origins more often. */
const gridPoint = (rng: Rng): number[] => [rng.int(257) / 64 - 2, rng.int(257) / 64 - 2, rng.int(257) / 64 - 1];
const lerp = (a: number[], b: number[], s: number) => a.map((x, i) => x + s * (b[i]! - x));
const toBits3 = (v: number[]): Vec3 => v.map(bits) as unknown as Vec3;

/** The pair as numbers and a point the ray is aimed at. */
interface Shape {
  readonly tris: [number[][], number[][]];
  readonly target: number[];
  /** The ray is aimed at an interior point of the edge the two triangles of a flat quad share. */
  readonly sharedEdge: boolean;
}

const shapes: readonly ((rng: Rng) => Shape)[] = [
  // GFX12's pair: (a, b, c) and (b, a, d) share the edge a–b; the ray through that edge (its midpoint, or k/512 along it).
  // Half the time a flat quad (d = a + b − c): c and d on either side of the edge from every viewpoint, so no ray
  // through the edge may miss both; else a folded one, where the edge can be a silhouette that a ray grazes.
  (rng) => {
    const [a, b, c] = [gridPoint(rng), gridPoint(rng), gridPoint(rng)];
    const flat = rng.int(2) === 0;
    const d = flat ? a.map((x, i) => x + b[i]! - c[i]!) : gridPoint(rng);
    return { tris: [[a, b, c], [b, a, d]], target: lerp(a, b, rng.int(2) ? 0.5 : (128 + rng.int(257)) / 512), sharedEdge: flat };
  },
  // A shared vertex: the ray through it.
  (rng) => {
    const [a, b, c, d, e] = [gridPoint(rng), gridPoint(rng), gridPoint(rng), gridPoint(rng), gridPoint(rng)];
    return { tris: [[a, b, c], [a, d, e]], target: a, sharedEdge: false };
  },
  // The same triangle twice (the second maybe wound the other way): equal t, the tie goes to the lower index.
  (rng) => {
    const [a, b, c] = [gridPoint(rng), gridPoint(rng), gridPoint(rng)];
    const u = rng() * 0.5;
    return { tris: [[a, b, c], rng.int(2) ? [a, c, b] : [a, b, c]], target: lerp(lerp(a, b, u), c, rng() * 0.5), sharedEdge: false };
  },
  // Two unrelated triangles, the ray through the interior of one.
  (rng) => {
    const tris: [number[][], number[][]] = [[gridPoint(rng), gridPoint(rng), gridPoint(rng)], [gridPoint(rng), gridPoint(rng), gridPoint(rng)]];
    const [a, b, c] = tris[rng.int(2)]!;
    return { tris, target: lerp(lerp(a!, b!, rng()), c!, rng()), sharedEdge: false };
  },
  // Degenerate triangle 0 (two equal vertices, or three on a line) beside a normal one.
  (rng) => {
    const [a, b, d, e, g] = [gridPoint(rng), gridPoint(rng), gridPoint(rng), gridPoint(rng), gridPoint(rng)];
    const c = rng.int(2) ? a : lerp(a, b, 0.25);
    return { tris: [[a, b, c], [d, e, g]], target: rng.int(2) ? lerp(a, b, 0.5) : lerp(lerp(d, e, 0.3), g, 0.3), sharedEdge: false };
  },
];

/** The ray's origin, on a 1/256 grid in front of the triangles, now and then behind them. */
const randomOrigin = (rng: Rng): number[] => [rng.int(1537) / 256 - 3, rng.int(1537) / 256 - 3, rng.int(2) ? rng.int(1025) / 256 - 8 : rng.int(1025) / 256 + 4];

/**
 * A pair test: a shape, a ray at its target (or away from it, along an axis), an incoming best, the mode.
 * `sharedEdge`: the ray is aimed, unaltered, at an interior point of the edge the pair (a flat quad) shares.
 */
export function randomPair(rng: Rng, tagBits: number): PairItem & { readonly sharedEdge: boolean } {
  const shape = pick(rng, shapes)(rng);
  const o = randomOrigin(rng);
  let d = shape.target.map((x, i) => x - o[i]!);
  const r = rng.int(20);
  if (r === 0) d = d.map((x) => -x); // away: t < 0
  else if (r === 1) d[rng.int(3)] = 0; // a zero component
  else if (r === 2) d = [0, 0, rng.int(2) ? 1 : -1]; // along an axis
  const tris = shape.tris.map((t) => t.map(toBits3)) as unknown as [Vec3[], Vec3[]];
  const special = rng.int(25) === 0;
  if (special) {
    // A special coordinate in one vertex: NaN, infinity, zero, subnormal, huge.
    const v = [...tris[rng.int(2)]![rng.int(3)]!] as number[];
    v[rng.int(3)] = pick(rng, SPECIALS);
    tris[rng.int(2)]![rng.int(3)] = v as unknown as Vec3;
  }
  let origin = toBits3(o);
  let direction = toBits3(d);
  if (!rayIsValid(origin, direction)) [origin, direction] = [toBits3([0, 0, -5]), toBits3([0, 0, 1])];
  const oddShear = rng.int(40) === 0;
  const ray = oddShear ? { ...watertightRay(direction), sx: rng.u32(), sy: rng.u32(), sz: rng.u32() } : watertightRay(direction);
  const i0 = rng.int(1 << 30);
  const primIndex: [number, number] = [i0, rng.int(2) ? Math.max(0, i0 + rng.int(3) - 1) : rng.int(1 << 30)];
  const active = rng.int(5) === 0 ? rng.int(4) : 3;
  const base = { origin, ray, triangles: [tris[0] as unknown as Triangle, tris[1] as unknown as Triangle] as const, active, primIndex, tag: Number(rng.bits(Math.min(tagBits, 32))) };
  // The incoming best: none, a tie with one of the pair's t (index around the triangle's), or some distance.
  const tests = pairTests({ ...base, bestValid: false, bestT: 0, bestIndex: 0, query: DEFAULT_RAY_QUERY, oneSided: 0 });
  const kind = rng.int(3);
  const k = rng.int(2);
  const bestT = kind === 1 ? tests[k]!.t : rng.int(10) === 0 ? pick(rng, SPECIALS) : bits(rng() * 12);
  const bestIndex = kind === 1 ? Math.max(0, primIndex[k]! + rng.int(3) - 1) : rng.int(1 << 30);
  // Half the pairs with a plain trace's query (either mode), half with a random one (intervals, culling, masks).
  const query = rng.int(2) === 0 ? { ...DEFAULT_RAY_QUERY, flags: DEFAULT_RAY_QUERY.flags | (rng.int(2) === 0 ? RAY_FLAG_ANY_HIT : 0) } : randomRayQuery(rng);
  const plain = query.tmin === DEFAULT_RAY_QUERY.tmin && query.tmax === DEFAULT_RAY_QUERY.tmax && (query.flags & ~RAY_FLAG_ANY_HIT) === DEFAULT_RAY_QUERY.flags;
  const oneSided = rng.int(3) === 0 ? rng.int(4) : 0;
  return { ...base, bestValid: kind !== 0, bestT: bestT >>> 0, bestIndex, query, oneSided, sharedEdge: shape.sharedEdge && r > 2 && !special && !oddShear && plain && oneSided === 0 };
}
