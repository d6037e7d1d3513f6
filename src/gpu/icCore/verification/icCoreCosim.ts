// The IC system (core + triangle memory) as co-simulation designs: a random scene loaded through the
// image port, then random rays whenever the core takes them (one per slot in flight); the golden model rebuilds
// the scene from the loaded words and checks every answer against the caster (`rtgpu cosim ic_core`,
// and `ic_core_watertight` with the watertight test, closed meshes and rays at their shared edges).
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { castRay, hitParametersOf, testTriangle, type TriangleTestFn, type Vec3 } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY, type RayQuery } from '../../../golden/rayQuery.ts';
import { queryOfWords, queryWords } from './rayVectors.ts';
import { testTriangleWatertight } from '../../../golden/watertight.ts';
import { imageToScene, sceneToImage, type Scene } from '../../../golden/scene.ts';
import { IcSystem, defaultIcSystemParams, type IcSystemParams } from '../icSystem.ts';
import { closedMeshRay, randomClosedMesh, randomIcScene, randomRay, randomRayQuery, withRandomMasks, type Ray } from './rayVectors.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';

/** Small memories so that scenes load quickly; the GPU's slot count. */
export const icCosimParams: IcSystemParams = { fadd: 3, fmul: 3, fdiv: 14, slots: defaultIcSystemParams.slots, triangles: 32, vertices: 96 };

/** The watertight test, with room for the 80-triangle icosphere. */
export const icWatertightCosimParams: IcSystemParams = { fadd: 3, fmul: 3, fdiv: 14, slots: defaultIcSystemParams.slots, triangles: 96, vertices: 96, triangleTest: 'watertight' };

/** A run's scene (drawn on the first cycle) and how it draws each ray offered. */
interface Plan {
  readonly scene: Scene;
  readonly ray: (rng: Rng) => Ray;
}

/** ic_core: a few tricky triangles or up to the memory's capacity of random ones, half the runs with random masks and one-sided triangles; random rays, half with a random query (docs/rays.md). */
function icPlan(rng: Rng): Plan {
  const plain = randomIcScene(rng, rng.int(3) === 0 ? 0 : 1 + rng.int(icCosimParams.triangles));
  const scene = rng.int(2) === 0 ? withRandomMasks(rng, plain) : plain;
  return { scene, ray: (r) => ({ ...randomRay(r, scene), ...(r.int(2) === 0 && { query: randomRayQuery(r) }) }) };
}

/** ic_core_watertight: half the runs a closed mesh, most rays from inside exactly at its vertices and edges; half as ic_core. */
function watertightPlan(rng: Rng): Plan {
  if (rng.int(2) !== 0) return icPlan(rng);
  const scene = randomClosedMesh(rng);
  return { scene, ray: (r) => (r.int(4) === 0 ? randomRay(r, scene) : closedMeshRay(r, scene)) };
}

/**
 * The plan of inputs, built from the run's random generator on the first cycle: reset, a scene, then a
 * random ray offered most cycles (the core takes one whenever `ready`; the golden model follows it).
 */
function planner(draw: (rng: Rng) => Plan) {
  let rows: Record<string, bigint>[] = [];
  let plan: Plan | undefined;
  return (cycle: number, rng: Rng): Record<string, bigint> => {
    if (cycle === 0) {
      rows = [{ rst_n: 0n }, { rst_n: 0n }];
      plan = draw(rng);
      const scene = plan.scene;
      rows.push({ load_start: 1n });
      for (const w of sceneToImage(scene)) rows.push({ load_valid: 1n, load_data: BigInt(w) });
      rows.push({});
    }
    while (rows.length <= cycle) {
      const r = plan!.ray(rng);
      rows.push(rng.int(3) === 0 ? {} : { dispatch_ray_start: 1n, ray_origin: packWords(r.origin), ray_direction: packWords(r.direction), ray_thread: BigInt(rng.int(32)), ray_query: packWords(queryWords(r.query ?? DEFAULT_RAY_QUERY)) });
    }
    return { rst_n: cycle < 2 ? 0n : 1n, load_start: 0n, load_valid: 0n, load_data: 0n, dispatch_ray_start: 0n, ray_origin: 0n, ray_direction: 0n, ray_thread: 0n, ray_query: PLAIN_QUERY, ...rows[cycle] };
  };
}

const PLAIN_QUERY = packWords(queryWords(DEFAULT_RAY_QUERY));

/** `inFlight`: the most rays accepted and not yet answered (the slots, and the watertight intake). */
function golden(test: TriangleTestFn, inFlight: number): GoldenModel {
  let words: number[] = [];
  let scene: Scene = { vertices: new Uint32Array(0), triangles: new Uint32Array(0) };
  // Accepted rays in order: answers come back in the order the rays went in.
  let pending: { origin: Vec3; direction: Vec3; thread: number; query: RayQuery }[] = [];
  const hex = (w: readonly number[]) => w.map((x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');
  return {
    check(_cycle, ins, outs) {
      let msg: string | null = null;
      if (outs.dispatch_done === 1n) {
        const ray = pending.shift();
        if (!ray) msg = 'done without a ray in flight';
        else {
          const want = castRay(scene, ray.origin, ray.direction, test, ray.query);
          const hit = unpackWords(outs.dispatch_hit_info!, 4);
          const normal = unpackWords(outs.dispatch_hit_normal!, 4);
          const parameters = unpackWords(outs.dispatch_hit_parameters!, 4);
          const wantParameters = hitParametersOf(want);
          if (hex(hit) !== hex(want.hit) || hex(normal) !== hex(want.normal) || hex(parameters) !== hex(wantParameters) || Number(outs.dispatch_done_thread) !== ray.thread)
            msg = `ray ${hex(ray.origin)} / ${hex(ray.direction)} query ${hex(queryWords(ray.query))}: hit ${hex(hit)} normal ${hex(normal)} parameters ${hex(parameters)} thread ${outs.dispatch_done_thread}; caster ${hex(want.hit)} / ${hex(want.normal)} / ${hex(wantParameters)} thread ${ray.thread}`;
          else if (outs.dispatch_done_fault !== undefined && outs.dispatch_done_fault !== 0n) msg = `ray ${hex(ray.origin)} / ${hex(ray.direction)}: done_fault set (a brute-force sweep cannot fault)`;
        }
      }
      if (ins.rst_n === 0n) pending = [];
      else if (ins.dispatch_ray_start === 1n && outs.dispatch_ready === 1n) {
        if (pending.length >= inFlight) msg ??= `a ray was accepted while ${inFlight} were in flight`;
        pending.push({ origin: unpackWords(ins.ray_origin!, 3) as unknown as Vec3, direction: unpackWords(ins.ray_direction!, 3) as unknown as Vec3, thread: Number(ins.ray_thread), query: queryOfWords(unpackWords(ins.ray_query!, 3)) });
      }
      if (ins.load_start === 1n) words = [];
      if (ins.load_valid === 1n) {
        words.push(Number(ins.load_data));
        // Every prefix that parses is a scene; the whole image, the last one, is what the rays see.
        try {
          scene = imageToScene(Uint32Array.from(words));
        } catch {
          // not a whole image yet
        }
      }
      return msg;
    },
  };
}

export const icCoreCosimDesign: CosimDesign = {
  name: 'ic_core',
  description: 'IC core + triangle memory: a random scene through the image port, then random rays (golden: the ray caster)',
  elaborate: () => elaborate(IcSystem, icCosimParams).design,
  stimulus: planner(icPlan),
  golden: () => golden(testTriangle, icCosimParams.slots),
};

export const icCoreWatertightCosimDesign: CosimDesign = {
  name: 'ic_core_watertight',
  description: 'IC core with the watertight triangle test + triangle memory: closed meshes and rays at their shared vertices and edges, or as ic_core (golden: the watertight caster)',
  elaborate: () => elaborate(IcSystem, icWatertightCosimParams).design,
  stimulus: planner(watertightPlan),
  golden: () => golden(testTriangleWatertight, icWatertightCosimParams.slots + 1),
};
