// The BVH8 IC system as a co-simulation design (`rtgpu cosim bvh8_ic`): a random scene's BVH8 scene image (built with
// oriented boxes one time in two; one in three with a malformed node: an invalid OBB matrix index, a bad child type, a
// cycle, an undecodable primitive node; one time in four an instanced scene's two-level image) through the load port, random
// rays with random queries for a while, a pause for the rays in flight to finish, then the next scene. The golden model parses the loaded image
// and checks every answer against castRayBvh8, and the counters whenever no ray is in flight.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../../../bvh/traversal/bvh8Caster.ts';
import type { Vec3 } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY } from '../../../golden/rayQuery.ts';
import { queryWords, randomRayQuery, withRandomMasks } from '../../icCore/verification/rayVectors.ts';
import { bvh8SceneImage, decodeBvh8Image, encodeBvh8SceneImage, parseBvh8SceneImage, GFX12_NODE_WORDS, OBB_DISABLED, OBB_MATRIX_COUNT, type ParsedBvh8SceneImage } from '../../../bvh/index.ts';
import { raySystemGolden } from '../../bvh/verification/raySystemGolden.ts';
import { packWords } from '../../verification/portWords.ts';
import { gpuFloatLatencies } from '../../floatLatencies.ts';
import { randomBvhScene } from '../../bvh/verification/bvhRayVectors.ts';
import { Bvh8IcSystem, type Bvh8IcSystemParams } from '../bvh8IcSystem.ts';
import { INSTANCE_MALFORMATIONS, malformInstanceNode, randomInstancedScene } from './instancedRayVectors.ts';
import { ANY_HIT_QUERY } from './bvh8RayRunner.ts';

/** ray_query on the rows with no ray: a plain trace's. */
const PLAIN_QUERY_WORDS = packWords(queryWords(DEFAULT_RAY_QUERY));

/** Small, so that the RTL builds quickly; the GPU's float latencies. The default scene's BVH8 (about ten nodes) fits. */
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
 * A copy of the BVH8 node words with one node broken: `obb` sets a box node's obb_matrix_index (bits 224..255) to an
 * invalid index (neither a ROM matrix 0–103 nor 0x7F, off), `childType` a box node's child 0 node_type to 3 (neither box nor triangle), `cycle` points the root's
 * internal_child_offset at itself (its child 0 a box child), `vertexType` sets a primitive node's vertex_type bit (bit 31). Undefined when the
 * image has no node of the kind.
 */
export function malformBvh8Nodes(words: Uint32Array, how: Bvh8Malformation, rng: Rng): Uint32Array | undefined {
  const decoded = decodeBvh8Image(words);
  const boxes = [...decoded.boxNodes.keys()];
  const prims = [...decoded.primitiveNodes.keys()];
  const out = words.slice();
  const at = (node: number, word: number) => node * GFX12_NODE_WORDS + word;
  // 104–126 or past 0x7F: neither a ROM matrix nor off.
  if (how === 'obb') out[at(boxes[rng.int(boxes.length)]!, 7)] = rng.int(2) === 0 ? OBB_MATRIX_COUNT + rng.int(OBB_DISABLED - OBB_MATRIX_COUNT) : OBB_DISABLED + 1 + rng.int(0x7fffff00);
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

/**
 * A random scene's BVH8 scene image that fits the cosim capacity: one time in four an instanced scene (a two-level image,
 * one in three of those with a broken instance node), else a one-level image with oriented boxes one time in two,
 * malformed one time in three. Half the scenes have random geometry and instance masks and one-sided triangles.
 */
export function randomBvh8Image(rng: Rng): { image: Uint32Array; ray: (rng: Rng) => { origin: Vec3; direction: Vec3 } } {
  const masks = rng.int(2) === 0;
  if (rng.int(4) === 0) {
    const s = randomInstancedScene(rng, MAX_TRIANGLES / 2, bvh8IcCosimParams.nodes, { masks });
    if (rng.int(3) !== 0) return { image: s.image, ray: s.ray };
    return { image: encodeBvh8SceneImage(s.image[0]!, malformInstanceNode(s.words, INSTANCE_MALFORMATIONS[rng.int(INSTANCE_MALFORMATIONS.length)]!, rng)), ray: s.ray };
  }
  for (;;) {
    const s = randomBvhScene(rng, MAX_TRIANGLES);
    const built = bvh8SceneImage(masks ? withRandomMasks(rng, s.scene) : s.scene, { maxLeafTriangles: LEAF_SIZES[rng.int(LEAF_SIZES.length)]!, obb: rng.int(2) === 0 });
    if (built.bvh8.words.length / GFX12_NODE_WORDS > bvh8IcCosimParams.nodes || built.bvh8.words.length === 0) continue;
    if (rng.int(3) !== 0) return { image: built.image, ray: s.ray };
    const broken = malformBvh8Nodes(built.bvh8.words, BVH8_MALFORMATIONS[rng.int(BVH8_MALFORMATIONS.length)]!, rng);
    if (broken) return { image: encodeBvh8SceneImage(built.image[0]!, broken), ray: s.ray };
  }
}

/**
 * The inputs, drawn lazily from the run's generator: reset, then per scene its image (load_start alone, the words, an
 * idle cycle), BVH8_IC_RAY_CYCLES cycles with a ray offered two cycles in three (thread ids counting up; a plain trace's
 * query or a random one: intervals empty, NaN, infinite or cut inside the scene, culling, masks, any-hit), and the pause.
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
        // A plain trace's query half the time (a quarter of those any-hit), else a random one (interval, culling, mask, mode).
        const query = rng.int(2) === 0 ? (rng.int(4) === 0 ? ANY_HIT_QUERY : DEFAULT_RAY_QUERY) : randomRayQuery(rng);
        rows.push(rng.int(3) === 0 ? {} : { dispatch_ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(thread++ % 32), ray_query: packWords(queryWords(query)) });
      }
      for (let c = 0; c < BVH8_IC_DRAIN_CYCLES; c++) rows.push({});
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ray_query: PLAIN_QUERY_WORDS, ...rows[cycle] };
  };
}

/** Every answer (RV14, RV15, RV13) against castRayBvh8 (the core's features, the ray's query) on the loaded BVH8 scene image, the box-node, box and triangle test counts. */
export function bvh8IcGolden(p: Bvh8IcSystemParams): GoldenModel {
  return raySystemGolden({
    parse: (words) => parseBvh8SceneImage(words, '<loaded image>'),
    cast: (s: ParsedBvh8SceneImage, origin, direction, query) => castRayBvh8(s.nodes, origin, direction, { ...BVH8_CORE_FEATURES, query }),
    counters: [
      { what: 'box nodes', output: 'counters_node_tests', of: (r) => r.counters.nodeTests },
      { what: 'box tests', output: 'box_tests', of: (r) => r.counters.boxTests },
      { what: 'triangle tests', output: 'counters_tests', of: (r) => r.counters.triangleTests },
      { what: 'instance nodes', output: 'instance_nodes', of: (r) => r.counters.instanceNodes },
    ],
    golden: 'castRayBvh8',
    // A slot is free again when its answer enters the last stage (o + t·d: fmul + fadd cycles), one answer per cycle.
    maxInFlight: p.rays + p.fmul + p.fadd + 1,
  });
}

export const bvh8IcCosimDesign: CosimDesign = {
  name: 'bvh8_ic',
  description: 'BVH8 IC core + node memory: random scenes (some with a malformed node, some masked) as BVH8 scene images through the load port, random rays with random queries (golden: castRayBvh8)',
  elaborate: () => elaborate(Bvh8IcSystem, bvh8IcCosimParams).design,
  stimulus: bvh8IcStimulus(),
  golden: () => bvh8IcGolden(bvh8IcCosimParams),
};

