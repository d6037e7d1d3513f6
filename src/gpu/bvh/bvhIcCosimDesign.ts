// The BVH IC system as a co-simulation design (`rtgpu cosim bvh_ic`): a random scene and its BVH image through the load
// port, random rays for a while, a pause for the rays in flight to finish, then the next scene. The golden model parses
// the loaded image and checks every answer against the golden BVH traversal, and the node and triangle test counters
// whenever no ray is in flight.
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../util/seededRandom.ts';
import { castRayBvh } from '../../golden/bvh/bvhCaster.ts';
import { testTriangle, type Vec3 } from '../../golden/rayCaster.ts';
import { testTriangleWatertight } from '../../golden/watertight.ts';
import { isWatertight } from '../icCore/watertightTest.ts';
import { bvhSceneImage, parseBvhSceneImage, type BvhScene, type BvhSceneImage } from '../../bvh/index.ts';
import { packWords, unpackWords } from '../words.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { BvhIcSystem, type BvhIcSystemParams } from './bvhIcSystem.ts';
import { randomBvhScene, type BvhTestScene } from './bvhRays.ts';

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

/**
 * The inputs, drawn lazily from the run's generator: reset, then per scene its image (load_start alone, the words, an
 * idle cycle), BVH_IC_RAY_CYCLES cycles with a ray offered two cycles in three (thread ids counting up), and the pause.
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
        built = bvhSceneImage(s.scene, { maxLeafTriangles: LEAF_SIZES[rng.int(LEAF_SIZES.length)]! });
      } while (built.bvh.nodes.length > bvhIcCosimParams.nodes || built.bvh.triRanges.length > bvhIcCosimParams.triRanges);
      const image = built.image;
      rows.push({ load_start: 1n });
      for (const w of image) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
      for (let c = 0; c < BVH_IC_RAY_CYCLES; c++) {
        const r = s.ray(rng);
        rows.push(rng.int(3) === 0 ? {} : { dispatch_ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(thread++ % 32) });
      }
      for (let c = 0; c < BVH_IC_DRAIN_CYCLES; c++) rows.push({});
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ...rows[cycle] };
  };
}

const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');

/** Answers come back out of order, each with its thread id; a thread id can be in flight twice only after 32 more rays, so an answer may match any ray in flight on its thread. */
export function bvhIcGolden(p: BvhIcSystemParams): GoldenModel {
  let words: number[] = [];
  let loaded: BvhScene | string | undefined;
  let pending: { origin: Vec3; direction: Vec3; thread: number }[] = [];
  let nodeTests = 0;
  let triangleTests = 0;
  const triangleTest = isWatertight(p) ? testTriangleWatertight : testTriangle;
  const scene = (): BvhScene | string => {
    if (loaded === undefined) {
      try {
        loaded = parseBvhSceneImage(Uint32Array.from(words), '<loaded image>');
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
        nodeTests = triangleTests = 0;
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
        const s = scene();
        const candidates = pending.filter((r) => r.thread === t);
        if (candidates.length === 0) problems.push(`done for thread ${t}, which has no ray in flight`);
        else if (typeof s === 'string') problems.push(`rays were accepted, but the loaded image does not parse: ${s}`);
        else {
          const results = candidates.map((r) => castRayBvh(s.bvh, s.ordered, r.origin, r.direction, { triangleTest }));
          const k = results.findIndex((want) => hex(want.hit) === hex(hit) && hex(want.normal) === hex(normal) && (want.fault === true) === fault);
          if (k < 0) {
            const r = candidates[0]!;
            const faults = (f: boolean) => (f ? ' (fault)' : '');
            problems.push(`thread ${t}, ray ${hex(r.origin)} / ${hex(r.direction)}: hit ${hex(hit)} normal ${hex(normal)}${faults(fault)}; golden ${hex(results[0]!.hit)} / ${hex(results[0]!.normal)}${faults(results[0]!.fault === true)}`);
          } else {
            const ray = candidates[k]!;
            pending.splice(pending.indexOf(ray), 1);
            nodeTests += results[k]!.counters.nodeTests;
            triangleTests += results[k]!.counters.triangleTests;
            // With nothing in flight, the counters have counted exactly the answered rays' tests.
            if (pending.length === 0 && (Number(outs.counters_node_tests) !== nodeTests || Number(outs.counters_tests) !== triangleTests))
              problems.push(`with no ray in flight the system counted ${outs.counters_node_tests} node and ${outs.counters_tests} triangle tests; the golden traversal ${nodeTests} and ${triangleTests}`);
          }
        }
      }
      if (ins.dispatch_ray_start === 1n && outs.dispatch_ready === 1n) {
        // A slot is free again when its answer enters the last stage (o + t·d: fmul + fadd cycles), one answer per cycle.
        const most = p.rays + p.fmul + p.fadd + 1;
        if (pending.length >= most) problems.push(`a ray was accepted while ${pending.length} were unanswered (at most ${most}: ${p.rays} slots and the answers on their way out)`);
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

export const bvhIcCosimDesign: CosimDesign = {
  name: 'bvh_ic',
  description: 'BVH IC core + triangle, node and TriRange memories: random scenes and their BVH images through the load port, random rays (golden: the BVH traversal)',
  elaborate: () => elaborate(BvhIcSystem, bvhIcCosimParams).design,
  stimulus: bvhIcStimulus(),
  golden: () => bvhIcGolden(bvhIcCosimParams),
};
