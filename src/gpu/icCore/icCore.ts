// The intersection (IC) core: each ray against every triangle of its triangle memory, a new triangle entering the test pipeline
// (Möller–Trumbore, or the watertight option) every cycle, `slots` rays in flight, the closest hit kept per ray (docs/intersection.md).
import { isWatertight, rayIntake, slotConstants, watertightDepth, watertightIntakeCycles, watertightTest, type RayIntake, type TriangleTestOption } from './watertightIntersection.ts';
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type ModuleBuilder, type PortsValue, type UIntValue } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, clog2, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { gpuFloatLatencies } from '../floatLatencies.ts';
import { TriangleRead } from '../memory/triangleRead.ts';
import { THREAD_BITS } from '../rtCore/interfaces.ts';
import { NO_INSTANCE_ID, icCoreLink } from './icCoreLink.ts';
import { IcCoreCounters } from './icCoreCounters.ts';
import { FloatOps } from './floatOps.ts';
import { mollerTrumbore, mollerTrumboreDepth, mollerTrumboreHit } from './mollerTrumbore.ts';
import { isTraceableRay } from './traceableRay.ts';
import { acceptsHit, queryFields } from './queryAccept.ts';
import { join3, split3, type Vec3 } from './vec3.ts';

/** Latencies of the float units the pipeline is built from, and the triangle test (default Möller–Trumbore). */
export interface IcCoreParams extends TriangleTestOption {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Cycles from a triangle request to its answer (the triangle memory's latency). */
  readonly memory: number;
  /** Ray slots, 2 to 8 (any count: the slot index wraps), used in turn. */
  readonly slots: number;
}

/**
 * Three slots: the fewest with which back-to-back sweeps of the built-in 36-triangle scene never wait
 * for a slot at the GPU's latencies (a ray holds its slot for its sweep, 40 cycles, and the drain, 52
 * more; test/gpu/icCore.test.ts checks that 2 are too few and 3 enough).
 */
export const DEFAULT_IC_SLOTS = 3;

export const defaultIcCoreParams: IcCoreParams = { fadd: gpuFloatLatencies.fadd, fmul: gpuFloatLatencies.fmul, fdiv: gpuFloatLatencies.fdiv, memory: 2, slots: DEFAULT_IC_SLOTS };

/** The ray slots' range: two let one ray sweep while another drains; eight keep sweeps of 4 or more triangles back to back at the GPU's latencies. */
export const IC_SLOTS_MIN = 2;
export const IC_SLOTS_MAX = 8;

function checkIcCoreParams(p: IcCoreParams): void {
  for (const k of ['fadd', 'fmul', 'fdiv', 'memory'] as const) if (!Number.isInteger(p[k]) || p[k] < 0 || p[k] > 40) throw new Error(`IcCore: ${k} latency must be an integer from 0 to 40, got ${p[k]}`);
  if (!Number.isInteger(p.slots) || p.slots < IC_SLOTS_MIN || p.slots > IC_SLOTS_MAX) throw new Error(`IcCore: slots must be an integer from ${IC_SLOTS_MIN} to ${IC_SLOTS_MAX}, got ${p.slots}`);
}

/** Cycles from a triangle entering the pipeline to its test result reaching the closest-hit register. */
export const icPipelineDepth = (p: IcCoreParams): number => (isWatertight(p) ? watertightDepth(p) : mollerTrumboreDepth(p));

const TRIANGLE_ID_BITS = 16;
/** A triangle id past every triangle memory (the system maps ids it cannot hold past its last triangle): its answer ends a sweep. */
const PAST_EVERY_TRIANGLE = 2 ** TRIANGLE_ID_BITS - 1;

/** Whether the slot's any-hit ray has had a hit accepted this cycle: its sweep can stop. */
type AnyHitFound = (slot: UIntValue) => BoolValue;

/**
 * The core's side toward the dispatcher and the host: a ray in, the answer out, the counters. Shared
 * with the systems that wrap the core, which pass these ports straight through. `threadBits`: the thread id's width
 * (the GPU's THREAD_BITS unless a standalone core keeps more rays in flight than the GPU has threads).
 */
export const rayPorts = (threadBits: number = THREAD_BITS) => ({
  /**
   * The dispatcher's link (SV ports dispatch_ray_start … dispatch_done_fault): a ray starts (taken while
   * `ready`); the answer is RV14 (the hit point and shader id, 0 = miss) and RV15 (the unnormalized geometric
   * normal and the hit triangle's index), the thread, and `done_fault` (the ray read past the loaded BVH, its answer a miss; the brute-force core drives 0).
   */
  dispatch: output(icCoreLink(threadBits)),
  // The ray, with dispatch.ray_start.
  ray_origin: input(UInt(96)),
  ray_direction: input(UInt(96)),
  ray_thread: input(UInt(threadBits)),
  /** The ray's query (docs/rays.md, RayQuery): tmin [31:0], tmax [63:32] (binary32) and the flags word [95:64]; a plain trace's is (+0, +∞, 0xFF00). */
  ray_query: input(UInt(96)),
  /** Counters for the host (SV ports counters_rays … counters_node_tests). */
  counters: output(IcCoreCounters),
});

/** The core's triangle port `tri` (SV ports tri_req_valid … tri_resp_not_valid). */
export const triangleReadPorts = (idBits: number) => ({ tri: output(TriangleRead(idBits)) });

const icCorePorts = (_p: IcCoreParams) => ({
  ...rayPorts(),
  ...triangleReadPorts(TRIANGLE_ID_BITS),
});
type IcCoreIo = PortsValue<ReturnType<typeof icCorePorts>>;

/** A ray slot: held from the ray's acceptance to its answer; the closest hit so far. */
interface RaySlot {
  readonly busy: UIntValue;
  readonly origin: UIntValue;
  readonly direction: UIntValue;
  readonly thread: UIntValue;
  /** The ray's query (docs/rays.md): interval, flags, mask. */
  readonly query: UIntValue;
  readonly haveBest: UIntValue;
  readonly bestT: UIntValue;
  readonly bestU: UIntValue;
  readonly bestV: UIntValue;
  readonly bestShader: UIntValue;
  readonly bestNormal: UIntValue;
  /** The closest hit's triangle id (its index in the triangle memory). */
  readonly bestIndex: UIntValue;
}

/** What every stage sees: the module, its ports and parameters, the float units and the slots. */
interface Core {
  readonly m: ModuleBuilder;
  readonly io: IcCoreIo;
  readonly p: IcCoreParams;
  readonly f: FloatOps;
  readonly slots: readonly RaySlot[];
  /** A field of the slot `slot` names. */
  readonly bySlot: (slot: UIntValue, field: (r: RaySlot) => UIntValue) => UIntValue;
}

export const IcCore = defineModule('IcCore', icCorePorts, (m, io, p) => {
  checkIcCoreParams(p);
  const slots = raySlots(m, p);
  const core: Core = { m, io, p, f: new FloatOps(m, p), slots, bySlot: (slot, field) => selectByIndex(slot, slots.map(field)) };
  const rayIn = rayIntake(m, io, p); // the ray as the core proper takes it: from the ports, or through the watertight intake
  // The test stage tells the sweep (a cycle's feedback through the sweep's registers) when an any-hit ray's hit is accepted.
  const anyHitAccepted = m.wire(Bool, { name: 'any_hit_accepted' });
  const anyHitSlot = m.wire(UInt(clog2(p.slots)), { name: 'any_hit_slot' });
  const sweep = sweepStage(core, rayIn, (slot) => anyHitAccepted.and(anyHitSlot.eq(slot)));
  const test = testStage(core, rayIn, sweep);
  anyHitAccepted.set(test.accepted.and(queryFields(core.bySlot(test.slot, (r) => r.query)).anyHit));
  anyHitSlot.set(test.slot);
  recordClosest(core, rayIn, sweep, test);
  finishStage(core, test);
  io.dispatch.ready.set(rayIn.portReady(sweep.ready));
  counters(core, sweep.accept, test.valid);
});

function raySlots(m: ModuleBuilder, p: IcCoreParams): RaySlot[] {
  return Array.from({ length: p.slots }, (_, k) => ({
    busy: m.reg(Bool, { reset: 0, name: `slot${k}_busy` }),
    origin: m.reg(UInt(96), { name: `slot${k}_origin` }),
    direction: m.reg(UInt(96), { name: `slot${k}_direction` }),
    thread: m.reg(UInt(5), { name: `slot${k}_thread` }),
    query: m.reg(UInt(96), { name: `slot${k}_query` }),
    haveBest: m.reg(Bool, { reset: 0, name: `slot${k}_have_best` }),
    bestT: m.reg(UInt(32), { name: `slot${k}_best_t` }),
    bestU: m.reg(UInt(32), { name: `slot${k}_best_u` }),
    bestV: m.reg(UInt(32), { name: `slot${k}_best_v` }),
    bestShader: m.reg(UInt(32), { name: `slot${k}_best_shader` }),
    bestNormal: m.reg(UInt(96), { name: `slot${k}_best_normal` }),
    bestIndex: m.reg(UInt(TRIANGLE_ID_BITS), { name: `slot${k}_best_index` }),
  }));
}

/** Rays are accepted into the slots in turn; a valid ray's sweep then requests one triangle per cycle. */
interface Sweep {
  readonly ready: BoolValue;
  readonly accept: BoolValue;
  readonly rayValid: BoolValue;
  /** The slot the next ray takes. */
  readonly nextSlot: UIntValue;
  /** A triangle answer of the current sweep enters the test pipeline. */
  readonly entering: BoolValue;
  /** The first id past the last triangle came back: the sweep is over. */
  readonly sweepEnd: BoolValue;
  /** The end token that follows the ray's last test (an invalid ray sends only the token, at once). */
  readonly endToken: BoolValue;
  /** The slot whose sweep asked for this cycle's answer. */
  readonly respSlot: UIntValue;
}

function sweepStage({ m, io, p, bySlot }: Core, rayIn: RayIntake, anyHitFound: AnyHitFound): Sweep {
  // A ray holds its slot from acceptance to its answer; the next rays may sweep while it drains.
  const sb = clog2(p.slots);
  const nextSlot = m.reg(UInt(sb), { reset: 0 });
  const sweeping = m.reg(Bool, { reset: 0 });
  const sweepSlot = m.reg(UInt(sb), { reset: 0 });
  const nextId = m.reg(UInt(TRIANGLE_ID_BITS), { reset: 0 });
  const ready = sweeping.not().and(bySlot(nextSlot, (r) => r.busy).asBool().not());
  const accept = rayIn.start.and(ready);
  const rayValid = isTraceableRay(rayIn.origin, rayIn.direction);

  io.tri.req.valid.set(sweeping);
  io.tri.req.id.set(nextId);
  // Each answer belongs to the slot whose sweep asked for it.
  const respSlot = delayValid(m, sweepSlot, p.memory, 'resp_slot');
  const ours = io.tri.resp.valid.and(sweeping).and(respSlot.eq(sweepSlot));
  const entering = ours.and(io.tri.resp.not_valid.not());
  const sweepEnd = ours.and(io.tri.resp.not_valid);
  const endToken = sweepEnd.or(accept.and(rayValid.not()));
  m.when(accept, () => {
    nextSlot.set(mux(nextSlot.eq(p.slots - 1), lit(0, sb), nextSlot.add(1)));
    m.when(rayValid, () => {
      sweeping.set(true);
      sweepSlot.set(nextSlot);
      nextId.set(0);
    });
  })
    .elsewhen(sweepEnd, () => sweeping.set(false))
    // An any-hit ray whose hit is accepted stops asking for triangles: the id past every triangle ends its sweep as
    // the last one would (its answers in flight still come back and are tested, and passed by).
    .elsewhen(anyHitFound(sweepSlot).and(sweeping), () => nextId.set(PAST_EVERY_TRIANGLE))
    .elsewhen(sweeping.and(nextId.ne(PAST_EVERY_TRIANGLE)), () => nextId.set(nextId.add(1)));
  return { ready, accept, rayValid, nextSlot, entering, sweepEnd, endToken, respSlot };
}

/** `depth` cycles after a triangle entered: its test's decision, t, normal and triangle id, and whether it is the slot's closest hit. */
interface TestResult {
  readonly valid: BoolValue;
  /** The ray's end token reached the end of the pipeline: its answer follows. */
  readonly end: BoolValue;
  readonly slot: UIntValue;
  readonly shader: UIntValue;
  /** The test hit and the ray's query accepts the hit (docs/rays.md). */
  readonly accepted: BoolValue;
  /** It becomes the slot's answer: the first accepted hit of an any-hit ray, else a closer one. */
  readonly closer: BoolValue;
  readonly t: UIntValue;
  readonly u: UIntValue;
  readonly v: UIntValue;
  readonly normal: UIntValue;
  /** The triangle id of the test leaving the pipeline. */
  readonly index: UIntValue;
}

function testStage({ m, io, p, f, bySlot }: Core, rayIn: RayIntake, sweep: Sweep): TestResult {
  const depth = icPipelineDepth(p);
  const sb = clog2(p.slots);
  const slotIn = mux(sweep.endToken.and(sweep.sweepEnd.not()), sweep.nextSlot, mux(sweep.entering.or(sweep.sweepEnd), sweep.respSlot, lit(0, sb)));
  const v0 = split3(io.tri.resp.v0);
  const v1 = split3(io.tri.resp.v1);
  const v2 = split3(io.tri.resp.v2);
  // The slot of the data at each stage selects the ray's origin and direction there.
  const slotAt = (cycles: number) => delayValid(m, slotIn, cycles, `slot_at${cycles}`);
  const rayOf = (slot: UIntValue) => ({ o: split3(bySlot(slot, (r) => r.origin)), d: split3(bySlot(slot, (r) => r.direction)) });
  // S1–S9: Möller–Trumbore, or the watertight test (watertightIntersection.ts, it decides by itself); t and the normal reach S10 after `depth`.
  const rayAt = (cycles: number) => rayOf(cycles === 0 ? slotIn : slotAt(cycles));
  const constantsOf = isWatertight(p) ? slotConstants(m, rayIn, sweep.accept, sweep.nextSlot, p.slots) : undefined;
  const test = constantsOf
    ? watertightTest({ m, units: f, p, vertices: [v0, v1, v2], originAt: (cycles) => split3(bySlot(slotAt(cycles), (r) => r.origin)), constantsAt: (cycles) => constantsOf(slotAt(cycles)) })
    : mollerTrumbore(m, f, p, [v0, v1, v2], rayAt);
  // Valid bit, end token, slot and shader travel alongside.
  const testValid = delayValid(m, sweep.entering, depth, 'test_valid');
  const testEnd = delayValid(m, sweep.endToken, depth, 'test_end');
  const testSlot = slotAt(depth);
  const testShader = delay(m, io.tri.resp.shader, depth, 'test_shader');
  const testMask = delay(m, io.tri.resp.mask, depth, 'test_mask');
  const testOneSided = delay(m, io.tri.resp.one_sided, depth, 'test_one_sided');
  // The triangle id, counted at the end rather than carried `depth` stages: a sweep's tests leave in id order from 0
  // (one request per cycle, fixed-latency answers), and its end token, which follows them, restarts the count.
  const testIndex = m.reg(UInt(TRIANGLE_ID_BITS), { reset: 0, name: 'test_index' });
  m.when(testEnd, () => testIndex.set(0)).elsewhen(testValid, () => testIndex.set(testIndex.add(1)));
  // S10 (combinational): the decision (the watertight test's own, or the four compares below, kept on the lines the default RTL cites) and the slot's closest hit (on equal t the earlier triangle stays).
  const hit = test.kind === 'watertight' ? testValid.and(test.hit) : testValid.and(mollerTrumboreHit(f, test));
  const query = bySlot(testSlot, (r) => r.query);
  const accepted = acceptsHit(f, query, { hit, t: test.t, det: test.det }, testMask, testOneSided);
  const first = bySlot(testSlot, (r) => r.haveBest).asBool().not();
  const closer = first.or(queryFields(query).anyHit.not().and(f.compare(test.t, bySlot(testSlot, (r) => r.bestT)).eq(FLAG_NEGATIVE)));
  return { valid: testValid, end: testEnd, slot: testSlot, shader: testShader, accepted, closer, t: test.t, u: test.u, v: test.v, normal: test.normal, index: testIndex };
}

/** A slot takes its ray on acceptance, then keeps the closest hit of its sweep. */
function recordClosest({ m, slots }: Core, rayIn: RayIntake, sweep: Sweep, test: TestResult): void {
  slots.forEach((r, k) => {
    const mine = test.slot.eq(k);
    m.when(sweep.accept.and(sweep.nextSlot.eq(k)), () => {
      r.busy.set(true);
      r.origin.set(rayIn.origin);
      r.direction.set(rayIn.direction);
      r.thread.set(rayIn.thread);
      r.query.set(rayIn.query);
      r.haveBest.set(false);
    }).elsewhen(test.accepted.and(mine).and(test.closer), () => {
      r.haveBest.set(true);
      r.bestT.set(test.t);
      r.bestU.set(test.u);
      r.bestV.set(test.v);
      r.bestShader.set(test.shader);
      r.bestNormal.set(test.normal);
      r.bestIndex.set(test.index);
    });
  });
}

/** The answer: the end token starts the hit point o + t·d; the slot's registers hold still until its answer leaves, which frees it. */
function finishStage({ m, io, p, f, slots, bySlot }: Core, test: TestResult): void {
  const finishRay = { o: split3(bySlot(test.slot, (r) => r.origin)), d: split3(bySlot(test.slot, (r) => r.direction)) };
  const finishT = bySlot(test.slot, (r) => r.bestT);
  const point = [0, 1, 2].map((i) => f.add(delay(m, finishRay.o[i]!, p.fmul, `o${'xyz'[i]}`), f.mul(finishT, finishRay.d[i]!))) as unknown as Vec3;
  const done = delayValid(m, test.end, p.fmul + p.fadd, 'done');
  const doneSlot = delayValid(m, test.slot, p.fmul + p.fadd, 'done_slot');
  const have = bySlot(doneSlot, (r) => r.haveBest).asBool();
  io.dispatch.done.set(done);
  io.dispatch.done_fault.set(false); // a sweep reads only the loaded triangles: nothing to fault
  // Zero between answers: a slot's thread register has no reset (silicon leaves it undefined until a ray).
  io.dispatch.done_thread.set(mux(done, bySlot(doneSlot, (r) => r.thread), lit(0, 5)));
  // Only an answer's: between answers the finish pipeline holds whatever a sweeping slot left in it.
  const answerHit = done.and(have);
  io.dispatch.hit_info.set(mux(answerHit, cat(bySlot(doneSlot, (r) => r.bestShader), join3(point)), lit(0, 128)));
  io.dispatch.hit_normal.set(mux(answerHit, cat(bySlot(doneSlot, (r) => r.bestIndex).zext(32), bySlot(doneSlot, (r) => r.bestNormal)), lit(0, 128)));
  // RV13 of `trace RVa`: t, u, v, and no instance (docs/rays.md).
  io.dispatch.hit_parameters.set(mux(answerHit, cat(lit(NO_INSTANCE_ID, 32), bySlot(doneSlot, (r) => r.bestV), bySlot(doneSlot, (r) => r.bestU), bySlot(doneSlot, (r) => r.bestT)), lit(0, 128)));
  slots.forEach((r, k) => m.when(done.and(doneSlot.eq(k)), () => r.busy.set(false)));
}

function counters({ m, io, slots }: Core, accept: BoolValue, testValid: BoolValue): void {
  const rays = m.reg(UInt(32), { reset: 0 });
  const tests = m.reg(UInt(32), { reset: 0 });
  const busy = m.reg(UInt(32), { reset: 0 });
  m.when(accept, () => rays.set(rays.add(1)));
  m.when(testValid, () => tests.set(tests.add(1)));
  m.when(slots.map((r) => r.busy).reduce((a, b) => a.or(b)), () => busy.set(busy.add(1)));
  io.counters.rays.set(rays);
  io.counters.tests.set(tests);
  io.counters.busy_cycles.set(busy);
  // Every ray meets every triangle: there is no BVH node to count.
  io.counters.node_tests.set(0);
}

/** Cycles from a ray's acceptance to the first cycle the core proper can take it: 0, or the watertight intake's (watertightIntersection.ts). */
export const icIntakeCycles = (p: IcCoreParams): number => (isWatertight(p) ? watertightIntakeCycles(p) : 0);
