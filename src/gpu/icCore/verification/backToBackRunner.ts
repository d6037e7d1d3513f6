// Rays offered back to back to one IC system on the TS simulator, each held on the ports until `ready`:
// the pace the hardware keeps by itself (unlike rayRunner.ts, which feeds rays by the documented timing).
import { elaborate } from '../../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../../hdl/sim/index.ts';
import { sceneToImage, type Scene } from '../../../golden/scene.ts';
import { IcSystem, type IcSystemParams } from '../icSystem.ts';
import type { Ray } from './rayVectors.ts';
import { DEFAULT_RAY_QUERY } from '../../../golden/rayQuery.ts';
import { queryWords } from './rayVectors.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';

export interface PacedAnswer {
  readonly cycle: number;
  readonly thread: number;
  readonly hit: number[];
  readonly normal: number[];
}

export interface PacedRun {
  /** The cycle each ray was accepted, in the order offered (ray i goes with thread i mod 32). */
  readonly accepts: readonly number[];
  /** The answers in the order they left. */
  readonly answers: readonly PacedAnswer[];
  /** The core's counters at the end. */
  readonly busyCycles: number;
  readonly tests: number;
}

const simulators = new Map<string, Simulator>();

function simulatorFor(p: IcSystemParams): Simulator {
  const key = JSON.stringify(p);
  let sim = simulators.get(key);
  if (!sim) simulators.set(key, (sim = compileSimulator(elaborate(IcSystem, p).design)));
  else sim.powerOn();
  return sim;
}

function load(sim: Simulator, scene: Scene): void {
  sim.reset(2);
  sim.poke('load_start', 1);
  sim.step();
  sim.poke('load_start', 0);
  for (const w of sceneToImage(scene)) {
    sim.poke('load_valid', 1);
    sim.poke('load_data', w);
    sim.step();
  }
  sim.poke('load_valid', 0);
  sim.step();
}

/** Loads the scene, offers the rays in order from the first cycle after the load, and runs until every ray is answered (cycles counted from there). */
export function runBackToBack(scene: Scene, rays: readonly Ray[], p: IcSystemParams, limit = 1_000_000): PacedRun {
  const sim = simulatorFor(p);
  load(sim, scene);
  const accepts: number[] = [];
  const answers: PacedAnswer[] = [];
  for (let cycle = 0; answers.length < rays.length; cycle++) {
    if (cycle >= limit) throw new Error(`the IC system answered ${answers.length} of ${rays.length} rays in ${limit} cycles`);
    const ray = rays[accepts.length];
    sim.poke('dispatch_ray_start', ray ? 1 : 0);
    if (ray) {
      sim.poke('ray_origin', packWords(ray.origin));
      sim.poke('ray_direction', packWords(ray.direction));
      sim.poke('ray_thread', accepts.length & 31);
      sim.poke('ray_query', packWords(queryWords(ray.query ?? DEFAULT_RAY_QUERY)));
      if (sim.peek('dispatch_ready') === 1n) accepts.push(cycle);
    }
    if (sim.peek('dispatch_done') === 1n) answers.push({ cycle, thread: Number(sim.peek('dispatch_done_thread')), hit: unpackWords(sim.peek('dispatch_hit_info'), 4), normal: unpackWords(sim.peek('dispatch_hit_normal'), 4) });
    sim.step();
  }
  return { accepts, answers, busyCycles: Number(sim.peek('counters_busy_cycles')), tests: Number(sim.peek('counters_tests')) };
}

/** Cycles between answers once the pipeline is full: from the answer of ray `skip` to the last, per ray. */
export function steadyCyclesPerRay(run: PacedRun, skip = 4): number {
  const a = run.answers;
  if (a.length < skip + 2) throw new Error(`steadyCyclesPerRay: ${a.length} answers, need at least ${skip + 2}`);
  return (a[a.length - 1]!.cycle - a[skip]!.cycle) / (a.length - 1 - skip);
}
