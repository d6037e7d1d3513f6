// Runs rays through one BVH8 IC system on the TS simulator or any live one: the BVH8 scene image goes in through the load
// port, then every ray starts as soon as a ray slot is free; each answer is checked against castRayBvh8.
import { elaborate, type Design } from '../../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../../hdl/sim/index.ts';
import { BVH8_CORE_FEATURES, castRayBvh8 } from '../../../bvh/traversal/bvh8Caster.ts';
import { hitParametersOf } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT, type RayQuery } from '../../../golden/rayQuery.ts';
import { isAnyHit } from '../../../golden/rayAccept.ts';
import { parseBvh8SceneImage } from '../../../bvh/index.ts';
import { queryWords, type Ray } from '../../icCore/verification/rayVectors.ts';
import { castBvhRays, directDriver, loadBvhImage, type BvhAnswer } from '../../bvh/verification/bvhRayRunner.ts';
import { Bvh8IcSystem, defaultBvh8IcSystemParams, type Bvh8IcSystemParams } from '../bvh8IcSystem.ts';

/** A plain trace's query with ANY_HIT: the first pair with an accepted hit ends the walk (shadow rays). */
export const ANY_HIT_QUERY: RayQuery = { ...DEFAULT_RAY_QUERY, flags: DEFAULT_RAY_QUERY.flags | RAY_FLAG_ANY_HIT };

/** The ray as an any-hit ray: its query with ANY_HIT set (a plain trace's when it has none). */
export const anyHitRay = (r: Ray): Ray => ({ ...r, query: r.query ? { ...r.query, flags: (r.query.flags | RAY_FLAG_ANY_HIT) >>> 0 } : ANY_HIT_QUERY });

/** The golden traversal's counts (castRayBvh8's counters summed over the rays). */
export interface Bvh8Counts {
  readonly nodeTests: number;
  readonly boxTests: number;
  readonly triangleTests: number;
  readonly primitiveNodes: number;
  readonly instanceNodes: number;
}

export interface Bvh8RunReport {
  readonly rays: number;
  /** Cycles from the first ray offered to the last answer. */
  readonly cycles: number;
  /** The system's counters over the run. */
  readonly counts: Bvh8Counts;
  readonly golden: Bvh8Counts;
  /** Answers that were a fault (done_fault). */
  readonly faults: number;
  /** The first disagreement with the golden traversal, or null. */
  readonly difference: string | null;
  readonly loadError: boolean;
}

const simulators = new Map<string, { design: Design; sim: Simulator }>();

/** The compiled system for these parameters (compiled once per process, powered on again for each run). */
export function bvh8SystemSimulator(p: Bvh8IcSystemParams): { design: Design; sim: Simulator } {
  const key = JSON.stringify(p);
  let entry = simulators.get(key);
  if (!entry) {
    const design = elaborate(Bvh8IcSystem, p).design;
    simulators.set(key, (entry = { design, sim: compileSimulator(design) }));
  } else entry.sim.powerOn();
  return entry;
}

const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

/** Every answer (RV14, RV15, RV13 and the fault bit) against castRayBvh8 on the image's nodes with each ray's query; the golden's counts. */
export function checkBvh8Answers(nodes: Uint32Array, rays: readonly Ray[], answers: readonly (BvhAnswer | undefined)[]): { difference: string | null; golden: Bvh8Counts } {
  const golden = { nodeTests: 0, boxTests: 0, triangleTests: 0, primitiveNodes: 0, instanceNodes: 0 };
  let difference: string | null = null;
  rays.forEach((r, i) => {
    const want = castRayBvh8(nodes, r.origin, r.direction, { ...BVH8_CORE_FEATURES, ...(r.query && { query: r.query }) });
    golden.nodeTests += want.counters.nodeTests;
    golden.boxTests += want.counters.boxTests;
    golden.triangleTests += want.counters.triangleTests;
    golden.primitiveNodes += want.counters.primitiveNodes;
    golden.instanceNodes += want.counters.instanceNodes;
    if (difference !== null) return;
    const got = answers[i];
    const wantHit = want.hit.map((x) => x >>> 0);
    const wantNormal = want.normal.map((x) => x >>> 0);
    const wantParameters = hitParametersOf(want).map((x) => x >>> 0);
    const wantFault = want.fault === true;
    const query = r.query ? `, query ${queryWords(r.query).map(hex).join(' ')}${isAnyHit(r.query) ? ' (any-hit)' : ''}` : '';
    const ray = `ray ${i} (origin ${r.origin.map(hex).join(' ')}, direction ${r.direction.map(hex).join(' ')}${query})`;
    if (!got) difference = `${ray}: no answer`;
    else if (got.hitParameters.join() !== wantParameters.join()) difference = `${ray}: hit parameters (t u v instance) ${got.hitParameters.map(hex).join(' ')}; golden ${wantParameters.map(hex).join(' ')}`;
    else if (got.hit.join() !== wantHit.join() || got.normal.join() !== wantNormal.join())
      difference = `${ray}: hit ${got.hit.map(hex).join(' ')} normal ${got.normal.map(hex).join(' ')}; golden ${wantHit.map(hex).join(' ')} / ${wantNormal.map(hex).join(' ')}`;
    else if (got.fault !== wantFault) difference = `${ray}: done_fault ${got.fault ? 1 : 0}; castRayBvh8 ${wantFault ? 'faults' : 'does not fault'}`;
  });
  return { difference, golden };
}

const counts = (sim: Simulator): Bvh8Counts => ({
  nodeTests: Number(sim.peek('counters_node_tests')),
  boxTests: Number(sim.peek('box_tests')),
  triangleTests: Number(sim.peek('counters_tests')),
  primitiveNodes: Number(sim.peek('primitive_nodes')),
  instanceNodes: Number(sim.peek('instance_nodes')),
});

/**
 * Load a BVH8 scene image (after a reset unless `reset: false`) and cast the rays on the TS simulator, or on `live`
 * (a simulator of `elaborate(Bvh8IcSystem, p)` on any back end); the report against castRayBvh8.
 */
export function runBvh8Rays(image: Uint32Array, rays: readonly Ray[], p: Bvh8IcSystemParams = defaultBvh8IcSystemParams, opts: { live?: Simulator; reset?: boolean } = {}): Bvh8RunReport {
  const sim = opts.live ?? bvh8SystemSimulator(p).sim;
  const d = directDriver(sim);
  loadBvhImage(d, image, { reset: opts.reset });
  const loadError = sim.peek('load_error') !== 0n;
  const before = counts(sim);
  // castBvhRays drives every ray's query (a plain trace's where it has none).
  const run = castBvhRays(sim, d, rays);
  const after = counts(sim);
  const { difference, golden } = checkBvh8Answers(parseBvh8SceneImage(image).nodes, rays, run.answers);
  return {
    rays: rays.length,
    cycles: run.cycles,
    counts: { nodeTests: after.nodeTests - before.nodeTests, boxTests: after.boxTests - before.boxTests, triangleTests: after.triangleTests - before.triangleTests, primitiveNodes: after.primitiveNodes - before.primitiveNodes, instanceNodes: after.instanceNodes - before.instanceNodes },
    golden,
    faults: run.answers.filter((a) => a?.fault).length,
    difference: run.problem ?? difference,
    loadError,
  };
}
