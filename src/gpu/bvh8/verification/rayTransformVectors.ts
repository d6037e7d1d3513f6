// Rays and matrices for checking the ray transform block (verification code, not hardware): random and special values, their port values, and the expected outputs from the golden transformRay.
import type { Rng } from '../../../util/seededRandom.ts';
import { CANONICAL_NAN, NEG_INF, POS_INF, fromNumber } from '../../../golden/float32.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { transformRay, type Mat3x4 } from '../../../golden/rayTransform.ts';
import { pipelineGolden } from '../../verification/pipelineGolden.ts';
import type { GoldenModel } from '../../../hdl/cosim/index.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';
import { rayTransformLatency, type RayTransformParams } from '../rayTransform.ts';

export interface TransformItem {
  readonly matrix: Mat3x4;
  readonly origin: Vec3;
  readonly dir: Vec3;
  readonly tag: number;
}

export interface TransformAnswer {
  readonly origin: readonly number[];
  readonly dir: readonly number[];
  readonly invDir: readonly number[];
  readonly tag: number;
}

/** Special values a word may take: zeros, infinities, NaNs (quiet and signalling), subnormals, the largest finite values. */
const SPECIALS = [0, 0x80000000, POS_INF, NEG_INF, CANONICAL_NAN, 0x7f800001, 0xffc00123, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000];

/** A word: mostly a moderate number, sometimes a special value, a huge or tiny one, or random bits. */
function word(rng: Rng, scale: number): number {
  const k = rng.int(40);
  if (k === 0) return SPECIALS[rng.int(SPECIALS.length)]!;
  if (k === 1) return rng.u32();
  if (k === 2) return fromNumber((rng() - 0.5) * 10 ** (rng.int(76) - 38));
  return fromNumber((rng() - 0.5) * 2 * scale);
}

/** A random item: rotation-like matrices (entries within ±1, translation within ±100) and rays, with special values sprinkled in. */
export function randomTransformItem(rng: Rng, tagBits: number): TransformItem {
  const matrix = Array.from({ length: 12 }, (_, k) => (k % 4 === 3 ? word(rng, 100) : word(rng, 1)));
  // Axis-aligned directions give exact zeros in M·d now and then.
  const dir: Vec3 = rng.int(8) === 0 ? [0, 0, fromNumber(1)] : [word(rng, 1), word(rng, 1), word(rng, 1)];
  return { matrix, origin: [word(rng, 50), word(rng, 50), word(rng, 50)], dir, tag: Number(rng.bits(Math.min(tagBits, 30))) };
}

export const transformInputs = (t: TransformItem): Record<string, bigint> => ({
  in_valid: 1n,
  matrix: packWords(t.matrix),
  origin: packWords(t.origin),
  dir: packWords(t.dir),
  tag: BigInt(t.tag),
});

export const transformFromInputs = (ins: Readonly<Record<string, bigint>>): TransformItem => ({
  matrix: unpackWords(ins.matrix ?? 0n, 12),
  origin: unpackWords(ins.origin ?? 0n, 3) as unknown as Vec3,
  dir: unpackWords(ins.dir ?? 0n, 3) as unknown as Vec3,
  tag: Number(ins.tag ?? 0n),
});

export function expectedTransform(t: TransformItem): TransformAnswer {
  const r = transformRay(t.matrix, t.origin, t.dir);
  return { origin: [...r.origin], dir: [...r.dir], invDir: [...r.invDir], tag: t.tag };
}

export const transformFromOutputs = (outs: Readonly<Record<string, bigint>>): TransformAnswer => ({
  origin: unpackWords(outs.obj_origin ?? 0n, 3),
  dir: unpackWords(outs.obj_dir ?? 0n, 3),
  invDir: unpackWords(outs.obj_inv_dir ?? 0n, 3),
  tag: Number(outs.out_tag ?? 0n),
});

const hex = (ws: readonly number[]) => ws.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join(' ');

export function compareTransforms(got: TransformAnswer, want: TransformAnswer): string | null {
  for (const k of ['origin', 'dir', 'invDir'] as const) if (hex(got[k]) !== hex(want[k])) return `${k} ${hex(got[k])}, expected ${hex(want[k])}`;
  return got.tag === want.tag ? null : `tag ${got.tag}, expected ${want.tag}`;
}

export const describeTransform = (t: TransformItem): string => `matrix ${hex(t.matrix)} origin ${hex(t.origin)} dir ${hex(t.dir)} tag ${t.tag}`;

/** The golden model: transformRay of what entered rayTransformLatency cycles earlier. */
export const rayTransformGolden = (p: RayTransformParams): GoldenModel =>
  pipelineGolden({
    latency: rayTransformLatency(p),
    readItem: transformFromInputs,
    expected: expectedTransform,
    readAnswer: transformFromOutputs,
    compare: compareTransforms,
    describe: describeTransform,
  });
