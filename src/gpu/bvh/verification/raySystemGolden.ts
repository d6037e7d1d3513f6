// The golden model shared by the BVH and BVH8 IC systems' co-simulations: the loaded scene image parsed, every answer checked against a golden traversal, the counters whenever no ray is in flight.
import type { GoldenModel } from '../../../hdl/cosim/index.ts';
import { hitParametersOf, type TraceResult, type Vec3 } from '../../../golden/rayCaster.ts';
import type { RayQuery } from '../../../golden/rayQuery.ts';
import { unpackWords } from '../../verification/portWords.ts';
import { queryOfWords, queryWords } from '../../icCore/verification/rayVectors.ts';

export { queryOfWords, queryWords };

/** What a golden traversal answers for one ray: RV14, RV15 and what RV13 is made of (hitParametersOf). */
export interface GoldenTrace extends Pick<TraceResult, 'hit' | 'normal' | 'triangle' | 't' | 'u' | 'v' | 'instance'> {
  readonly fault?: true;
}

/** One counter the system outputs, and the same count from the golden traversal's result. */
export interface CountedOutput<R> {
  readonly what: string;
  readonly output: string;
  readonly of: (r: R) => number;
}

export interface RaySystemGoldenSpec<S, R extends GoldenTrace> {
  /** The loaded words as a scene (throws with a message when they do not parse). */
  readonly parse: (words: Uint32Array) => S;
  /** `query`: the ray's ray_query input. */
  readonly cast: (scene: S, origin: Vec3, direction: Vec3, query: RayQuery) => R;
  readonly counters: readonly CountedOutput<R>[];
  /** The golden traversal's name, for messages. */
  readonly golden: string;
  /** Rays in flight at most: the slots, and the answers on their way out. */
  readonly maxInFlight: number;
}

interface TracedRay {
  readonly origin: Vec3;
  readonly direction: Vec3;
  readonly thread: number;
  readonly query: RayQuery;
}

const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');

/**
 * Answers come back out of order, each with its thread id; a thread id can be in flight twice only after 32
 * more rays, so an answer may match any ray in flight on its thread.
 */
export function raySystemGolden<S, R extends GoldenTrace>(spec: RaySystemGoldenSpec<S, R>): GoldenModel {
  let words: number[] = [];
  let loaded: S | string | undefined;
  let pending: TracedRay[] = [];
  let counted = spec.counters.map(() => 0);
  const scene = (): S | string => {
    if (loaded === undefined) {
      try {
        loaded = spec.parse(Uint32Array.from(words));
      } catch (e) {
        loaded = (e as Error).message;
      }
    }
    return loaded;
  };
  const answer = (outs: Readonly<Record<string, bigint>>, problems: string[]) => {
    const t = Number(outs.dispatch_done_thread);
    const hit = unpackWords(outs.dispatch_hit_info!, 4);
    const normal = unpackWords(outs.dispatch_hit_normal!, 4);
    const parameters = unpackWords(outs.dispatch_hit_parameters!, 4);
    const fault = outs.dispatch_done_fault === 1n;
    const s = scene();
    const candidates = pending.filter((r) => r.thread === t);
    if (candidates.length === 0) return problems.push(`done for thread ${t}, which has no ray in flight`);
    if (typeof s === 'string') return problems.push(`rays were accepted, but the loaded image does not parse: ${s}`);
    const results = candidates.map((r) => spec.cast(s, r.origin, r.direction, r.query));
    const k = results.findIndex((want) => hex(want.hit) === hex(hit) && hex(want.normal) === hex(normal) && hex(hitParametersOf(want)) === hex(parameters) && (want.fault === true) === fault);
    const faults = (f: boolean) => (f ? ' (fault)' : '');
    if (k < 0) {
      const r = candidates[0]!;
      return problems.push(`thread ${t}, ray ${hex(r.origin)} / ${hex(r.direction)} query ${hex(queryWords(r.query))}: hit ${hex(hit)} normal ${hex(normal)} parameters ${hex(parameters)}${faults(fault)}; golden ${hex(results[0]!.hit)} / ${hex(results[0]!.normal)} / ${hex(hitParametersOf(results[0]!))}${faults(results[0]!.fault === true)}`);
    }
    pending.splice(pending.indexOf(candidates[k]!), 1);
    counted = counted.map((n, i) => n + spec.counters[i]!.of(results[k]!));
    // With nothing in flight, the counters have counted exactly the answered rays' tests.
    const got = spec.counters.map((c) => Number(outs[c.output]));
    if (pending.length === 0 && got.some((n, i) => n !== counted[i]))
      problems.push(`with no ray in flight the system counted ${spec.counters.map((c, i) => `${got[i]} ${c.what}`).join(', ')}; ${spec.golden} ${counted.join(', ')}`);
  };
  return {
    check(_cycle, ins, outs) {
      const problems: string[] = [];
      if (ins.rst_n === 0n) {
        [pending, counted, words, loaded] = [[], spec.counters.map(() => 0), [], undefined];
        return null;
      }
      if (outs.load_error !== 0n) problems.push('load_error is set');
      if (outs.dispatch_done === 1n) answer(outs, problems);
      if (ins.dispatch_ray_start === 1n && outs.dispatch_ready === 1n) {
        if (pending.length >= spec.maxInFlight) problems.push(`a ray was accepted while ${pending.length} were unanswered (at most ${spec.maxInFlight}: the slots and the answers on their way out)`);
        pending.push({ origin: unpackWords(ins.ray_origin!, 3) as unknown as Vec3, direction: unpackWords(ins.ray_direction!, 3) as unknown as Vec3, thread: Number(ins.ray_thread), query: queryOfWords(unpackWords(ins.ray_query!, 3)) });
      }
      if (ins.load_start === 1n) {
        if (pending.length > 0) problems.push(`a new scene was loaded with ${pending.length} rays in flight (the stimulus pauses too briefly)`);
        [words, loaded] = [[], undefined];
      }
      if (ins.load_valid === 1n) {
        words.push(Number(ins.load_data));
        loaded = undefined;
      }
      return problems.length ? problems.join('; ') : null;
    },
  };
}
