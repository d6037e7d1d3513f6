// Runs many rays through one IC system (core + triangle memory) as a precomputed vector run: the scene
// is loaded through the image port, then each ray starts as soon as the core takes it. The answer is
// expected exactly when the documented timing says; results are checked against the caster (with the
// system's triangle test).
import { elaborate, type Design } from '../../../hdl/index.ts';
import { topModule } from '../../../hdl/index.ts';
import { compileSimulator, type Simulator } from '../../../hdl/sim/index.ts';
import { castRay, hitParametersOf, rayIsValid, testTriangle, type TraceResult } from '../../../golden/rayCaster.ts';
import { DEFAULT_RAY_QUERY, RAY_FLAG_ANY_HIT } from '../../../golden/rayQuery.ts';
import { queryWords } from './rayVectors.ts';
import { testTriangleWatertight } from '../../../golden/watertight.ts';
import { sceneToImage, triangleCount, type Scene } from '../../../golden/scene.ts';
import { TRIANGLE_MEMORY_LATENCY } from '../../memory/triangleMemory.ts';
import { icIntakeCycles, icPipelineDepth, type IcCoreParams } from '../icCore.ts';
import { IcSystem, defaultIcSystemParams, type IcSystemParams } from '../icSystem.ts';
import type { Ray } from './rayVectors.ts';
import { isWatertight, triangleTestParam } from '../watertightIntersection.ts';

const coreParams = (p: IcSystemParams): IcCoreParams => ({ fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, memory: TRIANGLE_MEMORY_LATENCY, slots: p.slots, ...triangleTestParam(p) });

/** Cycles from the core proper taking a ray to its `done`: a sweep of n triangles, the drain and the hit point. */
function coreRayCycles(p: IcSystemParams, n: number, valid: boolean): number {
  const c = coreParams(p);
  const tail = icPipelineDepth(c) + c.fmul + c.fadd;
  return valid ? 1 + n + c.memory + tail : tail;
}

/** Cycles from a ray's acceptance by an idle core to its `done`: the watertight intake's, if any, then the core proper's. */
export function icRayCycles(p: IcSystemParams, n: number, valid: boolean): number {
  return icIntakeCycles(coreParams(p)) + coreRayCycles(p, n, valid);
}

/**
 * The triangles a ray's sweep asks for: all n, or for an any-hit ray whose hit on triangle k is accepted, up to the
 * request the acceptance stops (k's test decides `1 + memory + depth` cycles after k was asked for; the next request
 * is the id past every triangle, which ends the sweep as the id past the last one would).
 */
export function icSweptTriangles(p: IcSystemParams, n: number, anyHitTriangle: number): number {
  const c = coreParams(p);
  return anyHitTriangle < 0 ? n : Math.min(n, anyHitTriangle + 1 + c.memory + icPipelineDepth(c));
}

/** Cycles after the core proper takes a ray before it can take the next (its sweep, ended by the first id past the last). */
export function icSweepCycles(p: IcSystemParams, n: number, valid: boolean): number {
  return valid ? n + coreParams(p).memory + 2 : 1;
}

/**
 * The fewest slots with which valid rays over n triangles sweep back to back: a ray holds its slot from
 * its acceptance to the cycle after its answer, while the next rays each take one sweep.
 */
export function icBackToBackSlots(p: IcSystemParams, n: number): number {
  return Math.ceil((coreRayCycles(p, n, true) + 1) / icSweepCycles(p, n, true));
}

const valid = (r: Ray) => rayIsValid(r.origin, r.direction);

export interface RayRunReport {
  readonly rays: number;
  readonly tests: number;
  readonly cycles: number;
  /** Triangle tests over the cycles the core was busy (from its own counters). */
  readonly testsPerBusyCycle: number;
  /** The first disagreement with the caster or the timing, or null. */
  readonly difference: string | null;
}

const designs = new Map<string, { design: Design; sim: Simulator }>();

export function runRays(scene: Scene, rays: readonly Ray[], p: IcSystemParams = defaultIcSystemParams): RayRunReport {
  const key = JSON.stringify(p);
  let entry = designs.get(key);
  if (!entry) {
    const design = elaborate(IcSystem, p).design;
    designs.set(key, (entry = { design, sim: compileSimulator(design) }));
  } else entry.sim.powerOn();
  const { design, sim } = entry;
  const top = topModule(design);
  const inputs = top.ports.map((id) => top.nets[id]!).filter((n) => n.kind === 'input' && n.name !== 'clk');
  const col = new Map<string, number>();
  let rowWords = 0;
  for (const n of inputs) {
    col.set(n.name, rowWords);
    rowWords += Math.ceil(n.width / 32);
  }
  const image = sceneToImage(scene);
  const n = triangleCount(scene);
  const test = isWatertight(p) ? testTriangleWatertight : testTriangle;
  const wants: TraceResult[] = rays.map((r) => castRay(scene, r.origin, r.direction, test, r.query));
  // Triangles each ray's sweep asks for (an any-hit ray stops early).
  const swept = rays.map((r, i) => icSweptTriangles(p, n, ((r.query?.flags ?? 0) & RAY_FLAG_ANY_HIT) !== 0 ? wants[i]!.triangle : -1));
  // Rays go in as early as the core takes them. The core proper takes a ray after the previous sweep,
  // into a free slot (slots are used in turn, so the ray `slots` back must have been answered). With the
  // watertight intake in front, a ray enters the intake the cycle after the core took the previous
  // one, and the core takes it `intake` cycles later at the earliest.
  const loadCycles = 2 + 1 + image.length + 1;
  const intake = icIntakeCycles(coreParams(p));
  const starts: number[] = [];
  const takes: number[] = [];
  const dones: number[] = [];
  rays.forEach((r, i) => {
    const coreFree = i === 0 ? loadCycles : takes[i - 1]! + icSweepCycles(p, swept[i - 1]!, valid(rays[i - 1]!));
    const slotFree = i >= p.slots ? dones[i - p.slots]! + 1 : 0;
    const at = i === 0 ? loadCycles : intake > 0 ? takes[i - 1]! + 1 : Math.max(coreFree, slotFree);
    const take = Math.max(at + intake, coreFree, slotFree);
    starts.push(at);
    takes.push(take);
    dones.push(take + coreRayCycles(p, swept[i]!, valid(r)));
  });
  const cycles = (dones.length ? Math.max(...dones) : loadCycles) + 2;
  const stim = new Uint32Array(cycles * rowWords);
  const put = (cycle: number, name: string, words: readonly number[]) => words.forEach((w, k) => (stim[cycle * rowWords + col.get(name)! + k] = w >>> 0));
  for (let c = 2; c < cycles; c++) put(c, 'rst_n', [1]);
  put(2, 'load_start', [1]);
  image.forEach((w, i) => {
    put(3 + i, 'load_valid', [1]);
    put(3 + i, 'load_data', [w]);
  });
  rays.forEach((r, i) => {
    put(starts[i]!, 'dispatch_ray_start', [1]);
    put(starts[i]!, 'ray_origin', r.origin);
    put(starts[i]!, 'ray_direction', r.direction);
    put(starts[i]!, 'ray_thread', [i & 31]);
    put(starts[i]!, 'ray_query', queryWords(r.query ?? DEFAULT_RAY_QUERY));
  });
  const outs = ['dispatch_done', 'dispatch_hit_info', 'dispatch_hit_normal', 'dispatch_done_thread', 'counters_tests', 'counters_busy_cycles', 'dispatch_hit_parameters'];
  const outWords = [1, 4, 4, 1, 1, 1, 4];
  const outRow = outWords.reduce((a, b) => a + b, 0);
  const result = sim.runVectors(inputs.map((x) => x.name), outs, stim, cycles);
  const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  let difference: string | null = null;
  for (let i = 0; i < rays.length && difference === null; i++) {
    const doneAt = dones[i]!;
    const row = result.subarray(doneAt * outRow, (doneAt + 1) * outRow);
    const r = rays[i]!;
    const want = wants[i]!;
    const got = { hit: Array.from(row.subarray(1, 5)), normal: Array.from(row.subarray(5, 9)), thread: row[9]!, parameters: Array.from(row.subarray(12, 16)) };
    const wantHit = want.hit.map((x) => x >>> 0);
    const wantNormal = want.normal.map((x) => x >>> 0);
    const wantParameters = hitParametersOf(want).map((x) => x >>> 0);
    const ray = `ray ${i} (origin ${r.origin.map(hex).join(' ')}, direction ${r.direction.map(hex).join(' ')}${r.query ? `, query ${queryWords(r.query).map(hex).join(' ')}` : ''})`;
    if (row[0] !== 1) difference = `${ray}: no done at cycle ${doneAt - starts[i]!} after its start`;
    else if (got.hit.join() !== wantHit.join() || got.normal.join() !== wantNormal.join())
      difference = `${ray}: hit ${got.hit.map(hex).join(' ')} normal ${got.normal.map(hex).join(' ')}; caster ${wantHit.map(hex).join(' ')} / ${wantNormal.map(hex).join(' ')}`;
    else if (got.parameters.join() !== wantParameters.join()) difference = `${ray}: hit parameters (t u v instance) ${got.parameters.map(hex).join(' ')}; caster ${wantParameters.map(hex).join(' ')}`;
    else if (got.thread !== (i & 31)) difference = `${ray}: thread ${got.thread}, expected ${i & 31}`;
  }
  const last = result.subarray((cycles - 1) * outRow);
  const tests = last[10]!;
  const busy = last[11]!;
  return { rays: rays.length, tests, cycles, testsPerBusyCycle: busy ? tests / busy : 0, difference };
}
