// Runs rays through one BVH IC system on the TS simulator or any live one: the BVH scene image goes in through the load
// port, then every ray starts as soon as a ray slot is free; each answer is checked against the golden BVH traversal.
import { packWords, unpackWords } from '../../verification/portWords.ts';
import { elaborate, type Design } from '../../../hdl/index.ts';
import { compileSimulator, type PortHandle, type Simulator } from '../../../hdl/sim/index.ts';
import { castRayBvh } from '../../../bvh/traversal/bvhCaster.ts';
import { hitParametersOf, testTriangle, type TriangleTestFn } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY } from '../../../golden/rayQuery.ts';
import { queryWords } from '../../icCore/verification/rayVectors.ts';
import { testTriangleWatertight } from '../../../golden/watertight.ts';
import { isWatertight } from '../../icCore/watertightIntersection.ts';
import type { Scene } from '../../../golden/scene.ts';
import { bvhSceneImage, type BuildOptions, type Bvh4 } from '../../../bvh/index.ts';
import type { Ray } from '../../icCore/verification/rayVectors.ts';
import { BvhIcSystem, defaultBvhIcSystemParams, type BvhIcSystemParams } from '../bvhIcSystem.ts';

export interface BvhRunReport {
  readonly rays: number;
  /** Cycles from the first ray offered to the last answer. */
  readonly cycles: number;
  readonly nodeTests: number;
  readonly triangleTests: number;
  /** The golden traversal's counts for the same rays. */
  readonly goldenNodeTests: number;
  readonly goldenTriangleTests: number;
  /** Node tests over the cycles between the first and the last ray start (all slots busy in between). */
  readonly nodeTestsPerCycle: number;
  /** The first disagreement with the golden traversal, or null. */
  readonly difference: string | null;
  readonly loadError: boolean;
}

/** A scene image with the BVH and ordered scene it holds (what `bvhSceneImage` returns). */
export interface PrebuiltBvhScene {
  readonly image: Uint32Array;
  readonly bvh: Bvh4;
  readonly ordered: Scene;
}

const simulators = new Map<string, { design: Design; sim: Simulator }>();

/** The compiled system for these parameters (compiled once per process, powered on again for each run). */
export function bvhSystemSimulator(p: BvhIcSystemParams): { design: Design; sim: Simulator } {
  const key = JSON.stringify(p);
  let entry = simulators.get(key);
  if (!entry) {
    const design = elaborate(BvhIcSystem, p).design;
    simulators.set(key, (entry = { design, sim: compileSimulator(design) }));
  } else entry.sim.powerOn();
  return entry;
}

/** What drives the system's inputs: a simulator (a recording one keeps every cycle's inputs). */
export interface BvhDriver {
  poke(name: string, value: bigint | number): void;
  step(): void;
  /** Cycles with the `columns` inputs taken from `rows` (their words per cycle) and the others held; the named outputs of each cycle. */
  vectors(columns: readonly string[], rows: Uint32Array, cycles: number, outputs: readonly string[]): Uint32Array;
}

/** Drives the simulator directly (nothing recorded); inputs of up to 32 bits through fast port handles. */
export function directDriver(sim: Simulator): BvhDriver {
  const handles = new Map<string, PortHandle | null>();
  return {
    poke(name, value) {
      let h = handles.get(name);
      if (h === undefined) {
        try {
          h = sim.port(name);
        } catch {
          h = null; // wider than 32 bits (or not an input: poke says which)
        }
        handles.set(name, h);
      }
      if (h) h.set(Number(value));
      else sim.poke(name, value);
    },
    step: () => sim.step(),
    vectors: (columns, rows, cycles, outputs) => sim.runVectors(columns, outputs, rows, cycles),
  };
}

const isSimulator = (d: Simulator | BvhDriver): d is Simulator => 'peek' in d && 'runUntil' in d;

/**
 * Stream `image` into the load port, one word per cycle, in one vector run: load_start alone, the words, one idle
 * cycle. With `reset` (the default) rst_n is low for the two cycles before. The other inputs are held.
 */
export function loadBvhImage(target: Simulator | BvhDriver, image: Uint32Array, opts: { reset?: boolean } = {}): void {
  const d = isSimulator(target) ? directDriver(target) : target;
  const inputs = ['rst_n', 'load_start', 'load_valid', 'load_data'];
  const lead = opts.reset === false ? 0 : 2;
  const cycles = lead + 1 + image.length + 1;
  const stim = new Uint32Array(cycles * inputs.length);
  for (let c = lead; c < cycles; c++) stim[c * 4] = 1;
  stim[lead * 4 + 1] = 1;
  image.forEach((w, i) => {
    stim[(lead + 1 + i) * 4 + 2] = 1;
    stim[(lead + 1 + i) * 4 + 3] = w;
  });
  d.vectors(inputs, stim, cycles, ['load_error']);
}

/** One answer as the system gave it: hit_info's four words (RV14), hit_normal's four (RV15: the normal, the triangle index), hit_parameters' four (RV13: t, u, v, instance) and done_fault. */
export interface BvhAnswer {
  readonly hit: readonly number[];
  readonly normal: readonly number[];
  readonly hitParameters: readonly number[];
  readonly fault: boolean;
}

export interface BvhCastResult {
  /** Per ray, in the order given (undefined: no answer within the cycle limit). */
  readonly answers: readonly (BvhAnswer | undefined)[];
  readonly cycles: number;
  /** Cycles between the first and the last ray start: the steady state, while rays wait for a free slot. */
  readonly startSpan: number;
  /** Node tests within that span. */
  readonly startSpanNodeTests: number;
  readonly nodeTests: number;
  readonly triangleTests: number;
  /** Something the system did that no ray explains (an answer for a thread with no ray in flight), or null. */
  readonly problem: string | null;
}

const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

/**
 * Offer the rays in order on a loaded system, each as soon as a slot is free (every ray on a thread id of its own among
 * those in flight), until every answer is back or `maxCycles` pass. Inputs go through `d`, outputs are read from `sim`.
 */
export function castBvhRays(sim: Simulator, d: BvhDriver, rays: readonly Ray[], maxCycles = 200_000): BvhCastResult {
  const ports = Object.fromEntries(['dispatch_ready', 'dispatch_done', 'dispatch_done_thread', 'dispatch_done_fault'].map((n) => [n, sim.port(n)]));
  const inFlight = new Map<number, number>(); // thread -> ray
  // As many rays in flight as the link has thread ids (32 on the GPU's 5-bit link).
  const threads = 2 ** ports.dispatch_done_thread!.width;
  const freeThreads = Array.from({ length: threads }, (_, t) => threads - 1 - t);
  const answers: (BvhAnswer | undefined)[] = new Array(rays.length).fill(undefined);
  let next = 0;
  let lastStart = 0;
  const nodeTestsAtStart = Number(sim.peek('counters_node_tests'));
  let nodeTestsAtLastStart = nodeTestsAtStart;
  const triangleTestsAtStart = Number(sim.peek('counters_tests'));
  const firstCycle = sim.cycle;
  let problem: string | null = null;
  let guard = 0;
  while ((next < rays.length || inFlight.size > 0) && guard++ < maxCycles) {
    const offer = next < rays.length && freeThreads.length > 0;
    const thread = offer ? freeThreads.pop()! : -1;
    d.poke('dispatch_ray_start', offer ? 1 : 0);
    if (offer) {
      const r = rays[next]!;
      d.poke('ray_origin', packWords(r.origin));
      d.poke('ray_direction', packWords(r.direction));
      d.poke('ray_thread', thread);
      d.poke('ray_query', packWords(queryWords(r.query ?? DEFAULT_RAY_QUERY)));
    }
    const taken = offer && ports.dispatch_ready!.get() === 1;
    if (ports.dispatch_done!.get() === 1) {
      const t = ports.dispatch_done_thread!.get();
      const ray = inFlight.get(t);
      if (ray === undefined) {
        problem = `done for thread ${t}, which has no ray in flight (cycle ${sim.cycle})`;
        break;
      }
      const info = sim.peek('dispatch_hit_info');
      const normal = sim.peek('dispatch_hit_normal');
      answers[ray] = { hit: unpackWords(info, 4), normal: unpackWords(normal, 4), hitParameters: unpackWords(sim.peek('dispatch_hit_parameters'), 4), fault: ports.dispatch_done_fault!.get() === 1 };
      inFlight.delete(t);
      freeThreads.push(t);
    }
    if (taken) {
      inFlight.set(thread, next++);
      lastStart = sim.cycle;
      nodeTestsAtLastStart = Number(sim.peek('counters_node_tests'));
    } else if (offer) freeThreads.push(thread);
    d.step();
  }
  d.poke('dispatch_ray_start', 0);
  return {
    answers,
    cycles: sim.cycle - firstCycle,
    startSpan: Math.max(0, lastStart - firstCycle),
    startSpanNodeTests: nodeTestsAtLastStart - nodeTestsAtStart,
    nodeTests: Number(sim.peek('counters_node_tests')) - nodeTestsAtStart,
    triangleTests: Number(sim.peek('counters_tests')) - triangleTestsAtStart,
    problem,
  };
}

/** Every answer (and its fault bit) against castRayBvh on the BVH and ordered scene; the golden's counts. */
export function checkBvhAnswers(bvh: Bvh4, ordered: Scene, rays: readonly Ray[], answers: readonly (BvhAnswer | undefined)[], triangleTest?: TriangleTestFn): { difference: string | null; goldenNodeTests: number; goldenTriangleTests: number } {
  let goldenNodeTests = 0;
  let goldenTriangleTests = 0;
  let difference: string | null = null;
  rays.forEach((r, i) => {
    const want = castRayBvh(bvh, ordered, r.origin, r.direction, { triangleTest, ...(r.query && { query: r.query }) });
    goldenNodeTests += want.counters.nodeTests;
    goldenTriangleTests += want.counters.triangleTests;
    const got = answers[i];
    const wantHit = want.hit.map((x) => x >>> 0);
    const wantNormal = want.normal.map((x) => x >>> 0);
    const wantParameters = hitParametersOf(want).map((x) => x >>> 0);
    const wantFault = want.fault === true;
    if (difference !== null) return;
    const ray = `ray ${i} (origin ${r.origin.map(hex).join(' ')}, direction ${r.direction.map(hex).join(' ')}${r.query ? `, query ${queryWords(r.query).map(hex).join(' ')}` : ''})`;
    if (!got) difference = `${ray}: no answer`;
    else if (got.hitParameters.join() !== wantParameters.join()) difference = `${ray}: hit parameters (t u v instance) ${got.hitParameters.map(hex).join(' ')}; golden ${wantParameters.map(hex).join(' ')}`;
    else if (got.hit.join() !== wantHit.join() || got.normal.join() !== wantNormal.join())
      difference = `${ray}: hit ${got.hit.map(hex).join(' ')} normal ${got.normal.map(hex).join(' ')}; golden ${wantHit.map(hex).join(' ')} / ${wantNormal.map(hex).join(' ')}`;
    else if (got.fault !== wantFault) difference = `${ray}: done_fault ${got.fault ? 1 : 0}; the golden traversal ${wantFault ? 'faults' : 'does not fault'}`;
  });
  return { difference, goldenNodeTests, goldenTriangleTests };
}

/** Load the scene (after a reset) and cast the rays through `d`; the report against the golden traversal. */
function traceRays(sim: Simulator, d: BvhDriver, p: BvhIcSystemParams, scene: Scene, rays: readonly Ray[], build: BuildOptions, prebuilt?: PrebuiltBvhScene): BvhRunReport {
  const { image, bvh, ordered } = prebuilt ?? bvhSceneImage(scene, build);
  loadBvhImage(d, image);
  const loadError = sim.peek('load_error') !== 0n;
  const run = castBvhRays(sim, d, rays);
  const golden = checkBvhAnswers(bvh, ordered, rays, run.answers, isWatertight(p) ? testTriangleWatertight : testTriangle);
  return {
    rays: rays.length,
    cycles: run.cycles,
    nodeTests: run.nodeTests,
    triangleTests: run.triangleTests,
    goldenNodeTests: golden.goldenNodeTests,
    goldenTriangleTests: golden.goldenTriangleTests,
    nodeTestsPerCycle: run.startSpan > 0 ? run.startSpanNodeTests / run.startSpan : 0,
    difference: run.problem ?? golden.difference,
    loadError,
  };
}

/**
 * Rays through the system on the TS simulator, or on `live` (a simulator of `elaborate(BvhIcSystem, p)` on any
 * back end, at power-on).
 */
export function runBvhRays(scene: Scene, rays: readonly Ray[], p: BvhIcSystemParams = defaultBvhIcSystemParams, build: BuildOptions = {}, prebuilt?: PrebuiltBvhScene, live?: Simulator): BvhRunReport {
  const sim = live ?? bvhSystemSimulator(p).sim;
  return traceRays(sim, directDriver(sim), p, scene, rays, build, prebuilt);
}
