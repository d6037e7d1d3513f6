// Rays and OBB matrix indices for checking ObbRayRotate (verification code, not hardware): random items, their port values, and the expected outputs from the golden obbRay.
import type { Rng } from '../../../util/seededRandom.ts';
import { OBB_DISABLED, OBB_MATRIX_COUNT } from '../../../bvh/index.ts';
import { CANONICAL_NAN, NEG_INF, POS_INF, fromNumber } from '../../../golden/float32.ts';
import { obbRay } from '../../../bvh/traversal/obbRay.ts';
import { rayInverse } from '../../../golden/rayBox.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';

export interface ObbItem {
  readonly index: number;
  readonly origin: Vec3;
  readonly dir: Vec3;
  readonly tag: number;
}

export interface ObbAnswer {
  readonly origin: readonly number[];
  readonly dir: readonly number[];
  readonly inv: readonly number[];
  readonly fault: boolean;
  readonly tag: number;
}

/** The golden answer: obbRay (an invalid index faults and passes the ray unrotated, with its own inverse). */
export function expectedObb(n: ObbItem): ObbAnswer {
  const r = obbRay(n.index, n.origin, n.dir);
  const out = r ?? { origin: n.origin, direction: n.dir, inv: rayInverse(n.dir) };
  return { origin: [...out.origin], dir: [...out.direction], inv: [...out.inv], fault: r === undefined, tag: n.tag };
}

export const obbInputs = (n: ObbItem): Record<string, bigint> => ({
  in_valid: 1n,
  obb_index: BigInt(n.index >>> 0),
  origin: packWords(n.origin),
  dir: packWords(n.dir),
  tag: BigInt(n.tag),
});

export const obbFromInputs = (ins: Readonly<Record<string, bigint>>): ObbItem => ({
  index: Number(ins.obb_index ?? 0n),
  origin: unpackWords(ins.origin ?? 0n, 3) as unknown as Vec3,
  dir: unpackWords(ins.dir ?? 0n, 3) as unknown as Vec3,
  tag: Number(ins.tag ?? 0n),
});

export const obbAnswerFromOutputs = (outs: Readonly<Record<string, bigint>>): ObbAnswer => ({
  origin: unpackWords(outs.out_origin ?? 0n, 3),
  dir: unpackWords(outs.out_dir ?? 0n, 3),
  inv: unpackWords(outs.out_inv_dir ?? 0n, 3),
  fault: outs.out_fault === 1n,
  tag: Number(outs.out_tag ?? 0n),
});

const hex = (v: readonly number[]): string => v.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');
const show = (a: ObbAnswer): string => `origin ${hex(a.origin)} dir ${hex(a.dir)} inv ${hex(a.inv)} fault ${a.fault} tag ${a.tag}`;

export function compareObbAnswers(got: ObbAnswer, want: ObbAnswer): string | null {
  return show(got) === show(want) ? null : `got ${show(got)}, expected ${show(want)}`;
}

export const describeObb = (n: ObbItem): string => `ray index ${n.index} origin ${hex(n.origin)} dir ${hex(n.dir)} tag ${n.tag}`;

/** A binary32 component: mostly ordinary values across scales, sometimes ±0, subnormals, huge, ±inf, NaN. */
function component(rng: Rng): number {
  switch (rng.int(16)) {
    case 0:
      return rng.int(2) ? 0 : 0x80000000;
    case 1:
      return (rng.u32() & 0x807fffff) >>> 0; // subnormal
    case 2:
      return [POS_INF, NEG_INF, CANONICAL_NAN, 0x7f7fffff, 0xff7fffff][rng.int(5)]!;
    case 3:
      return fromNumber((rng.int(2) ? 1 : -1) * 2 ** (rng.int(200) - 100) * (1 + rng.int(1000) / 1000));
    default:
      return fromNumber((rng.int(2001) - 1000) / (1 << rng.int(12)));
  }
}

/** An index: every ROM matrix and off in turn, now and then an invalid one (104–126, 128 or larger). */
export function randomObbItem(rng: Rng, tagBits: number, sequence: number): ObbItem {
  const k = sequence % (OBB_MATRIX_COUNT + 1);
  const index = rng.int(20) === 0 ? [104, 126, 128, 0xff, 0x17f, 0xffffffff][rng.int(6)]! : k === OBB_MATRIX_COUNT ? OBB_DISABLED : k;
  const vec = (): Vec3 => [component(rng), component(rng), component(rng)];
  return { index, origin: vec(), dir: vec(), tag: rng.int(2 ** Math.min(tagBits, 30)) };
}
