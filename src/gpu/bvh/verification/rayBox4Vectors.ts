// Nodes for checking the ray–box units (verification code, not hardware): random and tricky BVH4 and BVH8 nodes, their port values, and the expected outputs from the golden slab test.
import type { Rng } from '../../../util/seededRandom.ts';
import { CANONICAL_NAN, NEG_INF, POS_INF, fromNumber, toNumber } from '../../../golden/float32.ts';
import { childOrder, rayInverse, slabTest, type Box } from '../../../golden/rayBox.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';
import { CHILDREN } from '../rayBox4.ts';

/** One node test: the ray (origin, 1/d, limit) and the child boxes (four, or eight for BVH8), as binary32 bit patterns. */
export interface RayBoxNode {
  readonly origin: Vec3;
  readonly invDir: Vec3;
  readonly limit: number;
  /** The entry clamp (binary32, ≥ +0, not NaN: fmax(+0, tmin)); only the BVH4 unit has the port: absent there means +0. */
  readonly lower?: number;
  readonly boxes: readonly Box[];
  /** Bit c: child c is not empty. */
  readonly childValid: number;
  readonly tag: number;
}

/** What the unit answers for a node (numbers as unsigned 32-bit patterns). */
export interface RayBoxAnswer {
  /** Bit c: child c is valid and its slab test hits. */
  readonly hit: number;
  readonly tnear: readonly number[];
  /** One entry per slot: the hit children in childOrder() order, then the other slots ascending. */
  readonly order: readonly number[];
  readonly hitCount: number;
  readonly tag: number;
}

/** The golden answer: slabTest per child (all of them: tnear is reported for every child), childOrder over the valid ones. */
export function expectedAnswer(n: RayBoxNode): RayBoxAnswer {
  const tests = n.boxes.map((box) => slabTest(n.origin, n.invDir, box, n.limit, n.lower ?? 0));
  const hits = childOrder(tests.map((t, c) => ((n.childValid >> c) & 1 ? t : undefined)));
  const rest = n.boxes.map((_, c) => c).filter((c) => !hits.includes(c));
  return {
    hit: hits.reduce((acc, c) => acc | (1 << c), 0),
    tnear: tests.map((t) => t.tnear >>> 0),
    order: [...hits, ...rest],
    hitCount: hits.length,
    tag: n.tag,
  };
}

/** The unit's input port values for a node entering this cycle. */
export function nodeInputs(n: RayBoxNode): Record<string, bigint> {
  return {
    in_valid: 1n,
    origin: packWords(n.origin),
    inv_dir: packWords(n.invDir),
    limit: BigInt(n.limit >>> 0),
    ...(n.lower !== undefined && { lower: BigInt(n.lower >>> 0) }),
    boxes: packWords(n.boxes.flatMap((b) => [...b.min, ...b.max])),
    child_valid: BigInt(n.childValid),
    tag: BigInt(n.tag),
  };
}

/** The node on the input ports (the inverse of nodeInputs), with `children` boxes. */
export function nodeFromInputs(ins: Readonly<Record<string, bigint>>, children: number = CHILDREN): RayBoxNode {
  const vec3 = (v: bigint | undefined): Vec3 => unpackWords(v ?? 0n, 3) as unknown as Vec3;
  const boxWords = unpackWords(ins.boxes ?? 0n, 6 * children);
  const box = (c: number): Box => ({ min: boxWords.slice(6 * c, 6 * c + 3) as unknown as Vec3, max: boxWords.slice(6 * c + 3, 6 * c + 6) as unknown as Vec3 });
  return {
    origin: vec3(ins.origin),
    invDir: vec3(ins.inv_dir),
    limit: Number(ins.limit ?? 0n),
    ...(ins.lower !== undefined && { lower: Number(ins.lower) }),
    boxes: Array.from({ length: children }, (_, c) => box(c)),
    childValid: Number(ins.child_valid ?? 0n),
    tag: Number(ins.tag ?? 0n),
  };
}

/** Bits of one slot number in the `order` port: 2 for four children, 3 for eight. */
export const slotBits = (children: number): number => Math.ceil(Math.log2(children));

export const packOrder = (order: readonly number[]): bigint => BigInt(order.reduce((acc, s, k) => acc | (s << (slotBits(order.length) * k)), 0));

/** The answer read from the output ports of a unit with `children` children. */
export function answerFromOutputs(outs: Readonly<Record<string, bigint>>, children: number = CHILDREN): RayBoxAnswer {
  const order = Number(outs.order);
  const b = slotBits(children);
  return {
    hit: Number(outs.hit),
    tnear: unpackWords(outs.tnear!, children),
    order: Array.from({ length: children }, (_, k) => (order >> (b * k)) & ((1 << b) - 1)),
    hitCount: Number(outs.hit_count),
    tag: Number(outs.out_tag),
  };
}

const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
const hexBox = (b: Box) => `[${b.min.map(hex).join(' ')} | ${b.max.map(hex).join(' ')}]`;

export const describeNode = (n: RayBoxNode): string =>
  `origin ${n.origin.map(hex).join(' ')} inv ${n.invDir.map(hex).join(' ')} limit ${hex(n.limit)}${n.lower === undefined ? '' : ` lower ${hex(n.lower)}`} valid ${n.childValid.toString(2).padStart(n.boxes.length, '0')} tag ${n.tag} boxes ${n.boxes.map(hexBox).join(' ')}`;

export const describeAnswer = (a: RayBoxAnswer): string =>
  `hit ${a.hit.toString(2).padStart(a.tnear.length, '0')} count ${a.hitCount} order ${a.order.join('')} tnear ${a.tnear.map(hex).join(' ')} tag ${a.tag}`;

/** A difference between two answers, described, or null. */
export function compareAnswers(got: RayBoxAnswer, want: RayBoxAnswer): string | null {
  const g = describeAnswer(got);
  const w = describeAnswer(want);
  return g === w ? null : `got ${g}; expected ${w}`;
}

// ---------------------------------------------------------------------------------- random nodes

const SPECIALS = [0, 0x80000000, POS_INF, NEG_INF, CANONICAL_NAN, 0xff800001, 0x00000001, 0x80000001, 0x007fffff, 0x7f7fffff, 0xff7fffff];

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;
const bits = fromNumber;
const value = toNumber;
const uniform = (rng: Rng, lo: number, hi: number) => lo + rng() * (hi - lo);

/** A coordinate or direction component, now and then a NaN, infinity, zero, subnormal or huge value. */
const coordinate = (rng: Rng, scale: number) => (rng.int(40) === 0 ? pick(rng, SPECIALS) : bits(uniform(rng, -scale, scale)));

function randomRay(rng: Rng): { origin: Vec3; dir: number[]; invDir: Vec3 } {
  const origin = [0, 1, 2].map(() => coordinate(rng, 4)) as unknown as Vec3;
  // A zero component (±0, so 1/d = ±inf) is common in real scenes: axis-aligned rays.
  const dir = [0, 1, 2].map(() => (rng.int(6) === 0 ? (rng.int(2) ? 0x80000000 : 0) : coordinate(rng, 1)));
  let invDir = rayInverse(dir as unknown as Vec3);
  if (rng.int(30) === 0) invDir = [rng.u32(), rng.u32(), rng.u32()];
  return { origin, dir: dir.map(value), invDir };
}

const sorted2 = (a: number, b: number): [number, number] => (a <= b ? [a, b] : [b, a]);

/** A box from its two corners' values, rounded to binary32. */
function boxFrom(lo: number[], hi: number[]): Box {
  return { min: lo.map(bits) as unknown as Vec3, max: hi.map(bits) as unknown as Vec3 };
}

function boxAround(center: number[], halfSizes: number[]): Box {
  return boxFrom(
    center.map((c, a) => c - halfSizes[a]!),
    center.map((c, a) => c + halfSizes[a]!),
  );
}

type BoxMaker = (rng: Rng, ray: { origin: Vec3; dir: number[] }, others: readonly Box[]) => Box;

const half = (rng: Rng) => [0, 1, 2].map(() => uniform(rng, 0.01, 2));
const alongRay = (ray: { origin: Vec3; dir: number[] }, t: number) => ray.dir.map((d, a) => value(ray.origin[a]!) + t * (Number.isFinite(d) ? d : 0));

const boxMakers: readonly BoxMaker[] = [
  // Random corners anywhere.
  (rng) => {
    const ax = [0, 1, 2].map(() => sorted2(uniform(rng, -6, 6), uniform(rng, -6, 6)));
    return boxFrom(ax.map((p) => p[0]), ax.map((p) => p[1]));
  },
  // Around the origin (tnear = +0: ties broken by slot).
  (rng, ray) => boxAround(ray.origin.map(value), half(rng)),
  // Ahead of the ray.
  (rng, ray) => boxAround(alongRay(ray, uniform(rng, 0.1, 10)), half(rng)),
  // Behind the ray.
  (rng, ray) => boxAround(alongRay(ray, uniform(rng, -10, -0.1)), half(rng)),
  // Beside the ray: ahead, then pushed sideways on one axis (often a near miss).
  (rng, ray) => {
    const c = alongRay(ray, uniform(rng, 0.1, 10));
    const h = half(rng);
    const a = rng.int(3);
    c[a] = c[a]! + (rng.int(2) ? 1 : -1) * (h[a]! + uniform(rng, 0, 0.5));
    return boxAround(c, h);
  },
  // A face through the origin exactly (0 · inf = NaN when the ray is parallel to that face).
  (rng, ray) => {
    const b = boxAround(alongRay(ray, uniform(rng, -1, 3)), half(rng));
    const a = rng.int(3);
    const min = [...b.min];
    const max = [...b.max];
    if (rng.int(2)) min[a] = ray.origin[a]!;
    else max[a] = ray.origin[a]!;
    return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
  },
  // Degenerate: min > max on an axis, or min = max (a flat box).
  (rng, ray) => {
    const b = boxAround(alongRay(ray, uniform(rng, 0.1, 5)), half(rng));
    const a = rng.int(3);
    const min = [...b.min];
    const max = [...b.max];
    if (rng.int(2)) [min[a], max[a]] = [max[a]!, min[a]!];
    else max[a] = min[a]!;
    return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
  },
  // Grazing an edge: the ray enters the slab of one axis where it leaves another's, so rounding puts
  // tnear an ulp or two past the unscaled tfar about half the time (the 1 + 2^-22 scale keeps the hit).
  (rng, ray) => {
    const p = alongRay(ray, uniform(rng, 0.5, 8));
    const enter = rng.int(3);
    const leave = (enter + 1 + rng.int(2)) % 3;
    const min = p.map((x) => x - uniform(rng, 0.1, 2));
    const max = p.map((x) => x + uniform(rng, 0.1, 2));
    // Entering axis: the near face through p; leaving axis: the far face through p.
    if (ray.dir[enter]! >= 0) min[enter] = p[enter]!;
    else max[enter] = p[enter]!;
    if (ray.dir[leave]! >= 0) max[leave] = p[leave]!;
    else min[leave] = p[leave]!;
    return boxFrom(min, max);
  },
  // A copy of another child's box (equal tnear: ties broken by slot).
  (rng, ray, others) => (others.length ? pick(rng, others) : boxAround(alongRay(ray, 2), half(rng))),
  // Special coordinates: NaN, infinities, zeros, subnormals, huge values.
  (rng, ray) => {
    const b = boxAround(alongRay(ray, uniform(rng, 0.1, 5)), half(rng));
    const min = [...b.min];
    const max = [...b.max];
    for (let k = 1 + rng.int(2); k > 0; k--) (rng.int(2) ? min : max)[rng.int(3)] = pick(rng, SPECIALS);
    return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
  },
  // Tiny boxes (subnormal sizes) at the origin, or huge ones.
  (rng, ray) => boxAround(ray.origin.map(value), [0, 1, 2].map(() => (rng.int(2) ? 1e-42 * rng.int(100) : 1e37 * uniform(rng, 1, 30)))),
];

/** The ray's limit: +inf (no hit yet) most often, else a distance that cuts some boxes, or something odd. */
function randomLimit(rng: Rng): number {
  const r = rng.int(20);
  if (r < 11) return POS_INF;
  if (r < 17) return bits(uniform(rng, 0, 10));
  if (r === 17) return rng.int(2) ? 0 : 0x80000000;
  if (r === 18) return bits(-uniform(rng, 0, 5));
  return pick(rng, SPECIALS);
}

/**
 * The entry clamp as the core gives it, fmax(+0, tmin): +0 (a plain trace) most often, else a distance that cuts some
 * boxes (often above the limit), +inf, or the smallest subnormal.
 */
function randomLower(rng: Rng): number {
  const r = rng.int(10);
  if (r < 5) return 0;
  if (r < 8) return bits(uniform(rng, 0, 10));
  return r === 8 ? POS_INF : 1;
}

/**
 * A random node: a ray, `children` boxes of mixed kinds, a limit, usually all children valid; with `lower` (the BVH4
 * unit, which has the port) an entry clamp too.
 */
export function randomNode(rng: Rng, tagBits: number, children: number = CHILDREN, lower: boolean = children === CHILDREN): RayBoxNode {
  const ray = randomRay(rng);
  const boxes: Box[] = [];
  for (let c = 0; c < children; c++) boxes.push(pick(rng, boxMakers)(rng, ray, boxes));
  return {
    origin: ray.origin,
    invDir: ray.invDir,
    limit: randomLimit(rng),
    ...(lower && { lower: randomLower(rng) }),
    boxes,
    childValid: rng.int(3) === 0 ? rng.int(1 << children) : (1 << children) - 1,
    tag: Number(rng.bits(Math.min(tagBits, 32))),
  };
}
