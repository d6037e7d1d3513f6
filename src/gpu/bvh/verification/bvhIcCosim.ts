// The BVH IC system as a co-simulation design (`rtgpu cosim bvh_ic`): a random scene and its BVH image through the load
// port (most with random geometry masks and one-sided triangles), random rays with random queries for a while, a pause for
// the rays in flight to finish, then the next scene. The golden model parses
// the loaded image and checks every answer against the golden BVH traversal, and the node and triangle test counters
// whenever no ray is in flight.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { castRayBvh } from '../../../bvh/traversal/bvhCaster.ts';
import { testTriangle } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY } from '../../../golden/rayQuery.ts';
import { testTriangleWatertight } from '../../../golden/watertight.ts';
import { isWatertight } from '../../icCore/watertightIntersection.ts';
import { bvhSceneImage, parseBvhSceneImage, type BvhScene, type BvhSceneImage } from '../../../bvh/index.ts';
import { queryWords, raySystemGolden } from './raySystemGolden.ts';
import { randomRayQuery, withRandomMasks } from '../../icCore/verification/rayVectors.ts';
import { packWords } from '../../verification/portWords.ts';
import { gpuFloatLatencies } from '../../floatLatencies.ts';
import { BvhIcSystem, type BvhIcSystemParams } from '../bvhIcSystem.ts';
import { randomBvhScene, type BvhTestScene } from './bvhRayVectors.ts';

/**
 * Small memories, so that the RTL builds, synthesizes and loads quickly (Yosys' generic synthesis turns memories into
 * flip-flops: at 128 nodes and 256 triangles and vertices it took 4 minutes, here about 1.5), and the GPU's float latencies.
 * The default scene (36 triangles, 76 vertices) fits.
 */
export const bvhIcCosimParams: BvhIcSystemParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, rays: 8, triangles: 64, vertices: 128, nodes: 32, triRanges: 64 };

/** Cycles of rays offered after each scene is loaded, then cycles with none, so that every ray finishes before the next load. */
export const BVH_IC_RAY_CYCLES = 3000;
export const BVH_IC_DRAIN_CYCLES = 2000;

const MAX_TRIANGLES = Math.floor(Math.min(bvhIcCosimParams.triangles, bvhIcCosimParams.vertices / 3));
const LEAF_SIZES = [1, 2, 4, 8];

/** ray_query on a cycle with no ray: a plain trace's. */
const DEFAULT_QUERY_WORD = packWords(queryWords(DEFAULT_RAY_QUERY));

/**
 * The inputs, drawn lazily from the run's generator: reset, then per scene (two in three with random masks and
 * one-sided triangles) its image (load_start alone, the words, an idle cycle), BVH_IC_RAY_CYCLES cycles with a ray
 * offered two cycles in three (thread ids counting up; four rays in five with a random query: intervals empty, NaN,
 * infinite or ending at 0 among them, masks, culling, any-hit), and the pause.
 */
export function bvhIcStimulus() {
  let rows: Record<string, bigint>[] = [];
  let thread = 0;
  return (cycle: number, rng: Rng): Record<string, bigint> => {
    if (cycle === 0) {
      rows = [{ rst_n: 0n }, { rst_n: 0n }];
      thread = 0;
    }
    while (rows.length <= cycle) {
      let s: BvhTestScene;
      let built: BvhSceneImage;
      do {
        s = randomBvhScene(rng, MAX_TRIANGLES);
        const scene = rng.int(3) === 0 ? s.scene : withRandomMasks(rng, s.scene);
        built = bvhSceneImage(scene, { maxLeafTriangles: LEAF_SIZES[rng.int(LEAF_SIZES.length)]! });
      } while (built.bvh.nodes.length > bvhIcCosimParams.nodes || built.bvh.triRanges.length > bvhIcCosimParams.triRanges);
      const image = built.image;
      rows.push({ load_start: 1n });
      for (const w of image) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
      for (let c = 0; c < BVH_IC_RAY_CYCLES; c++) {
        const r = s.ray(rng);
        const query = rng.int(5) === 0 ? DEFAULT_RAY_QUERY : randomRayQuery(rng);
        rows.push(rng.int(3) === 0 ? {} : { dispatch_ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(thread++ % 32), ray_query: packWords(queryWords(query)) });
      }
      for (let c = 0; c < BVH_IC_DRAIN_CYCLES; c++) rows.push({});
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ray_query: DEFAULT_QUERY_WORD, ...rows[cycle] };
  };
}

/** Every answer against castRayBvh on the loaded BVH scene image (with the system's triangle test), the node and triangle test counts. */
export function bvhIcGolden(p: BvhIcSystemParams): GoldenModel {
  const triangleTest = isWatertight(p) ? testTriangleWatertight : testTriangle;
  return raySystemGolden({
    parse: (words) => parseBvhSceneImage(words, '<loaded image>'),
    cast: (s: BvhScene, origin, direction, query) => castRayBvh(s.bvh, s.ordered, origin, direction, { triangleTest, query }),
    counters: [
      { what: 'node tests', output: 'counters_node_tests', of: (r) => r.counters.nodeTests },
      { what: 'triangle tests', output: 'counters_tests', of: (r) => r.counters.triangleTests },
    ],
    golden: 'the golden traversal',
    // A slot is free again when its answer enters the last stage (o + t·d: fmul + fadd cycles), one answer per cycle.
    maxInFlight: p.rays + p.fmul + p.fadd + 1,
  });
}

export const bvhIcCosimDesign: CosimDesign = {
  name: 'bvh_ic',
  description: 'BVH IC core + triangle, node and TriRange memories: random scenes (masks, one-sided triangles) and their BVH images through the load port, random rays and ray queries (golden: the BVH traversal)',
  elaborate: () => elaborate(BvhIcSystem, bvhIcCosimParams).design,
  stimulus: bvhIcStimulus(),
  golden: () => bvhIcGolden(bvhIcCosimParams),
};
