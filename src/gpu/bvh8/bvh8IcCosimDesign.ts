// The BVH8 IC system as a co-simulation design (`rtgpu cosim bvh8_ic`): a random scene's BVH8 scene image (one in three
// with a malformed node: OBB on, a bad child type, a cycle, an undecodable primitive node) through the load port, random
// rays for a while, a pause for the rays in flight to finish, then the next scene. The golden model parses the loaded image
// and checks every answer against castRayBvh8, and the counters whenever no ray is in flight.
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../util/seededRandom.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../../golden/bvh/bvh8Caster.ts';
import type { Vec3 } from '../../golden/rayCaster.ts';
import { bvh8SceneImage, decodeBvh8Image, encodeBvh8SceneImage, parseBvh8SceneImage, GFX12_NODE_WORDS, type ParsedBvh8SceneImage } from '../../bvh/index.ts';
import { packWords, unpackWords } from '../words.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { randomBvhScene } from '../bvh/bvhRays.ts';
import { Bvh8IcSystem, type Bvh8IcSystemParams } from './bvh8IcSystem.ts';

/** Small, so that the RTL builds quickly; the GPU's float latencies. The default scene's BVH8 (9 nodes) fits. */
export const bvh8IcCosimParams: Bvh8IcSystemParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, rays: 8, nodes: 32, triangles: 64, vertices: 192 };

/** Cycles of rays offered after each scene is loaded, then cycles with none, so that every ray finishes before the next load. */
export const BVH8_IC_RAY_CYCLES = 2000;
export const BVH8_IC_DRAIN_CYCLES = 1500;

const MAX_TRIANGLES = 64;
const LEAF_SIZES = [1, 2, 4, 8, 16];

/** The ways a node of a good image is broken (castRayBvh8 faults the rays that reach it). */
export const BVH8_MALFORMATIONS = ['obb', 'childType', 'cycle', 'vertexType'] as const;
export type Bvh8Malformation = (typeof BVH8_MALFORMATIONS)[number];

/**
 * A copy of the BVH8 node words with one node broken: `obb` sets a box node's obb_matrix_index (bits 224..255) to a
 * rotation, `childType` a box node's child 0 node_type to 3 (neither box nor triangle), `cycle` points the root's
 * internal_child_offset at itself (its child 0 a box child), `vertexType` sets a primitive node's vertex_type bit (bit 31). Undefined when the
 * image has no node of the kind.
 */
export function malformBvh8Nodes(words: Uint32Array, how: Bvh8Malformation, rng: Rng): Uint32Array | undefined {
  const decoded = decodeBvh8Image(words);
  const boxes = [...decoded.boxNodes.keys()];
  const prims = [...decoded.primitiveNodes.keys()];
  const out = words.slice();
  const at = (node: number, word: number) => node * GFX12_NODE_WORDS + word;
  if (how === 'obb') out[at(boxes[rng.int(boxes.length)]!, 7)] = rng.int(0x7f);
  else if (how === 'childType') {
    const w = at(boxes[rng.int(boxes.length)]!, 10); // child 0's node_type: bits 344..347
    out[w] = (out[w]! & ~(0xf << 24)) | (3 << 24);
  } else if (how === 'cycle') {
    out[at(0, 0)] = 0;
    out[at(0, 10)] = (out[at(0, 10)]! & ~(0xf << 24)) | (5 << 24); // child 0 a box child: node 0, the root itself
  } else {
    if (prims.length === 0) return undefined;
    out[at(prims[rng.int(prims.length)]!, 0)]! |= 0x80000000;
  }
  return out;
}

/** A random scene's BVH8 scene image that fits the cosim capacity, malformed one time in three. */
export function randomBvh8Image(rng: Rng): { image: Uint32Array; ray: (rng: Rng) => { origin: Vec3; direction: Vec3 } } {
  for (;;) {
    const s = randomBvhScene(rng, MAX_TRIANGLES);
    const built = bvh8SceneImage(s.scene, { maxLeafTriangles: LEAF_SIZES[rng.int(LEAF_SIZES.length)]! });
    if (built.bvh8.words.length / GFX12_NODE_WORDS > bvh8IcCosimParams.nodes || built.bvh8.words.length === 0) continue;
    if (rng.int(3) !== 0) return { image: built.image, ray: s.ray };
    const broken = malformBvh8Nodes(built.bvh8.words, BVH8_MALFORMATIONS[rng.int(BVH8_MALFORMATIONS.length)]!, rng);
    if (broken) return { image: encodeBvh8SceneImage(built.image[0]!, broken), ray: s.ray };
  }
}

/**
 * The inputs, drawn lazily from the run's generator: reset, then per scene its image (load_start alone, the words, an
 * idle cycle), BVH8_IC_RAY_CYCLES cycles with a ray offered two cycles in three (thread ids counting up), and the pause.
 */
export function bvh8IcStimulus() {
  let rows: Record<string, bigint>[] = [];
  let thread = 0;
  return (cycle: number, rng: Rng): Record<string, bigint> => {
    if (cycle === 0) {
      rows = [{ rst_n: 0n }, { rst_n: 0n }];
      thread = 0;
    }
    while (rows.length <= cycle) {
      const { image, ray } = randomBvh8Image(rng);
      rows.push({ load_start: 1n });
      for (const w of image) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
      for (let c = 0; c < BVH8_IC_RAY_CYCLES; c++) {
        const r = ray(rng);
        rows.push(rng.int(3) === 0 ? {} : { dispatch_ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(thread++ % 32) });
      }
      for (let c = 0; c < BVH8_IC_DRAIN_CYCLES; c++) rows.push({});
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ...rows[cycle] };
  };
}

const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');

/** Answers come back out of order, each with its thread id; an answer may match any ray in flight on its thread. */
export function bvh8IcGolden(p: Bvh8IcSystemParams): GoldenModel {
  let words: number[] = [];
  let loaded: ParsedBvh8SceneImage | string | undefined;
  let pending: { origin: Vec3; direction: Vec3; thread: number }[] = [];
  const counted = { node: 0, box: 0, triangle: 0 };
  const image = (): ParsedBvh8SceneImage | string => {
    if (loaded === undefined) {
      try {
        loaded = parseBvh8SceneImage(Uint32Array.from(words), '<loaded image>');
      } catch (e) {
        loaded = (e as Error).message;
      }
    }
    return loaded;
  };
  return {
    check(_cycle, ins, outs) {
      const problems: string[] = [];
      if (ins.rst_n === 0n) {
        pending = [];
        counted.node = counted.box = counted.triangle = 0;
        words = [];
        loaded = undefined;
        return null;
      }
      if (outs.load_error !== 0n) problems.push('load_error is set');
      if (outs.dispatch_done === 1n) {
        const t = Number(outs.dispatch_done_thread);
        const hit = unpackWords(outs.dispatch_hit_info!, 4);
        const normal = [...unpackWords(outs.dispatch_hit_normal!, 3), 0];
        const fault = outs.dispatch_done_fault === 1n;
        const s = image();
        const candidates = pending.filter((r) => r.thread === t);
        if (candidates.length === 0) problems.push(`done for thread ${t}, which has no ray in flight`);
        else if (typeof s === 'string') problems.push(`rays were accepted, but the loaded image does not parse: ${s}`);
        else {
          const results = candidates.map((r) => castRayBvh8(s.nodes, r.origin, r.direction, BVH8_CORE_FEATURES));
          const k = results.findIndex((want) => hex(want.hit) === hex(hit) && hex(want.normal) === hex(normal) && (want.fault === true) === fault);
          if (k < 0) {
            const r = candidates[0]!;
            const faults = (f: boolean) => (f ? ' (fault)' : '');
            problems.push(`thread ${t}, ray ${hex(r.origin)} / ${hex(r.direction)}: hit ${hex(hit)} normal ${hex(normal)}${faults(fault)}; golden ${hex(results[0]!.hit)} / ${hex(results[0]!.normal)}${faults(results[0]!.fault === true)}`);
          } else {
            pending.splice(pending.indexOf(candidates[k]!), 1);
            const c = results[k]!.counters;
            counted.node += c.nodeTests;
            counted.box += c.boxTests;
            counted.triangle += c.triangleTests;
            // With nothing in flight, the counters have counted exactly the answered rays' tests.
            const got = { node: Number(outs.counters_node_tests), box: Number(outs.box_tests), triangle: Number(outs.counters_tests) };
            if (pending.length === 0 && (got.node !== counted.node || got.box !== counted.box || got.triangle !== counted.triangle))
              problems.push(`with no ray in flight the system counted ${got.node} box nodes, ${got.box} box and ${got.triangle} triangle tests; castRayBvh8 ${counted.node}, ${counted.box} and ${counted.triangle}`);
          }
        }
      }
      if (ins.dispatch_ray_start === 1n && outs.dispatch_ready === 1n) {
        // A slot is free again when its answer enters the last stage (o + t·d: fmul + fadd cycles), one answer per cycle.
        const most = p.rays + p.fmul + p.fadd + 1;
        if (pending.length >= most) problems.push(`a ray was accepted while ${pending.length} were unanswered (at most ${most})`);
        pending.push({ origin: unpackWords(ins.ray_origin!, 3) as unknown as Vec3, direction: unpackWords(ins.ray_direction!, 3) as unknown as Vec3, thread: Number(ins.ray_thread) });
      }
      if (ins.load_start === 1n) {
        if (pending.length > 0) problems.push(`a new scene was loaded with ${pending.length} rays in flight (the stimulus pauses too briefly)`);
        words = [];
        loaded = undefined;
      }
      if (ins.load_valid === 1n) {
        words.push(Number(ins.load_data));
        loaded = undefined;
      }
      return problems.length ? problems.join('; ') : null;
    },
  };
}

export const bvh8IcCosimDesign: CosimDesign = {
  name: 'bvh8_ic',
  description: 'BVH8 IC core + node memory: random scenes (some with a malformed node) as BVH8 scene images through the load port, random rays (golden: castRayBvh8)',
  elaborate: () => elaborate(Bvh8IcSystem, bvh8IcCosimParams).design,
  stimulus: bvh8IcStimulus(),
  golden: () => bvh8IcGolden(bvh8IcCosimParams),
};

