// The BVH8 intersection core: many rays in flight, each walking a GFX12 BVH8 image exactly as castRayBvh8 does with the
// ray's query (docs/rays.md); a box node (8 slab tests) entering the box engine and a triangle pair (2 watertight tests)
// entering the triangle engine per cycle (docs/bvh-hardware.md, "BVH8 traversal core").
import { Bool, Enum, UInt, Vec, cat, defineModule, input, lit, mux, output, packBits, unpackBits, type BoolValue, type EnumValue, type MemoryHandle, type ModuleBuilder, type PortsValue, type UIntType, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO, INF_BITS } from '../../hdl/lib/index.ts';
import { Fifo, PriorityEncoder, RoundRobinArbiter, clog2, delay, selectByIndex } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { rayPorts } from '../icCore/icCore.ts';
import { THREAD_BITS } from '../rtCore/interfaces.ts';
import { join3 } from '../icCore/vec3.ts';
import { TFAR_SCALE } from '../../golden/rayBox.ts';
// OBB matrix indices: OBB_DISABLED (0x7F) no rotation, 0 to OBB_MATRIX_COUNT − 1 a ROM matrix, any other a fault.
import { OBB_DISABLED, OBB_MATRIX_COUNT } from '../../bvh/index.ts';
import { answerStage, type Finish } from '../bvh/rayAnswer.ts';
import { NO_INSTANCE_ID } from '../icCore/icCoreLink.ts';
import { floatMax, floatMin, queryFields } from '../icCore/queryAccept.ts';
import { rayIntake, type Intake } from '../bvh/rayIntake.ts';
import { Bvh8BoxTag, Bvh8StackEntry, PairQueueEntry, PairTag } from './bvh8Words.ts';
import { childTargets } from './childTargets.ts';
import { LINEAR_BITS, instanceAsBoxNode, instanceFields, instanceRay, normalToWorld, type InstanceFields, type InstanceRay } from './instancePath.ts';
import { GFX12_BOX_DECODER_LATENCY, Gfx12BoxDecoder } from './gfx12BoxDecoder.ts';
import { GFX12_PRIMITIVE_DECODER_LATENCY, GFX12_PRIM_VERTICES, Gfx12PrimitiveDecoder } from './gfx12PrimitiveDecoder.ts';
import { ObbRayRotate, obbRayRotateLatency } from './obbRayRotate.ts';
import { BVH8_CHILDREN, RayBox8, rayBox8Latency } from './rayBox8.ts';
import { TrianglePair, trianglePairLatency } from './trianglePair.ts';

export interface Bvh8IcCoreParams {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Rays in flight: a power of two from 2 to 64. */
  readonly rays: number;
  /**
   * Bits of the ray link's thread id (ray_thread, dispatch_done_thread): 1 to 8, default THREAD_BITS (5, the GPU's 32
   * threads). A standalone core with 64 slots needs 6 for a caller to keep all of them busy with rays of distinct ids.
   */
  readonly threadBits?: number;
  /** Bits of a node index; node_count must be below 2^indexBits (a child offset past that saturates to all ones, never loaded). */
  readonly indexBits: number;
  /**
   * Instance children (two-level images): the ray enters the instance's BLAS in object space (RayTransform) and returns
   * to world space when its stack is back below the BLAS's entries, as castRayBvh8 with instances on. Default true;
   * false: a box node with an instance child faults (castRayBvh8 with `instances: false`).
   */
  readonly instances?: boolean;
}

/** The traversal stack's entries per ray: castRayBvh8's STACK_DEPTH (a push past it faults the ray, as in the golden). */
export const BVH8_STACK_ENTRIES = 64;
const STACK_BANKS = BVH8_CHILDREN;
const SP_BITS = clog2(BVH8_STACK_ENTRIES + 1);
const NODE_BITS = 1024;
/** Bits of a valid OBB matrix index (0 to OBB_MATRIX_COUNT − 1). */
const OBB_INDEX_BITS = 7;
/**
 * A hit's instance for the closer rule: {in an instance, user_data}, so none (a one-level image, 0) orders before every
 * instance and instances by user_data, as castRayBvh8's closerHit; RV13.w is its user_data, or NO_INSTANCE_ID for none.
 */
const USER_DATA_BITS = 24;
const INSTANCE_KEY_BITS = USER_DATA_BITS + 1;
const instanceKey = (inInstance: BoolValue, userData: UIntValue): UIntValue => cat(inInstance, userData);
const instanceIdOf = (key: UIntValue): UIntValue => mux(key.bit(USER_DATA_BITS), key.bits(USER_DATA_BITS - 1, 0).zext(32), lit(NO_INSTANCE_ID, 32));

/**
 * A ray slot's state. free → inverse (1/d and the shear in the dividers; the root may be popped before they finish) →
 * ready ⇄ wait (a pop, a node read, a box or a primitive node in flight) → pairs (the ray's pairs still in the triangle
 * engine; it may pop a box node meanwhile, which is parked there if still unsettled at its push) → ready or finish →
 * drain → free. A fault goes to pairs too (its pairs in flight end first) and then to finish. A hit in an instance
 * goes from finish to normal (its normal taken back to world space) and to finish again.
 */
export const Bvh8SlotState = Enum('Bvh8SlotState', ['free', 'inverse', 'ready', 'wait', 'pairs', 'finish', 'drain', 'normal']);
type SlotStateName = (typeof Bvh8SlotState.members)[number];

export function checkBvh8IcCoreParams(p: Bvh8IcCoreParams): void {
  for (const k of ['fadd', 'fmul', 'fdiv'] as const) if (!Number.isInteger(p[k]) || p[k] < 0 || p[k] > 40) throw new Error(`Bvh8IcCore: ${k} latency must be an integer from 0 to 40, got ${p[k]}`);
  if (![2, 4, 8, 16, 32, 64].includes(p.rays)) throw new Error(`Bvh8IcCore: rays must be 2, 4, 8, 16, 32 or 64, got ${p.rays}`);
  bvh8ThreadBits(p);
  if (!Number.isInteger(p.indexBits) || p.indexBits < 1 || p.indexBits > 24) throw new Error(`Bvh8IcCore: indexBits must be an integer from 1 to 24, got ${p.indexBits}`);
}

export const bvh8IcCorePorts = (p: Bvh8IcCoreParams) => ({
  // ray_query with ray_start: the interval, culling, ray mask and ANY_HIT (shadow rays: the ray answers the closer accepted
  // triangle of the first pair with an accepted hit, in the traversal's order, and reads nothing after that pair).
  ...rayPorts(bvh8ThreadBits(p)),
  // Beside IcCoreCounters (node_tests = box nodes tested, tests = triangle tests): ray–box tests, primitive and instance nodes read.
  box_tests: output(UInt(32)),
  primitive_nodes: output(UInt(32)),
  instance_nodes: output(UInt(32)),
  /** Nodes loaded (below 2^indexBits): a read at or past it, or more reads by one level of a ray than nodes, faults the ray. 0: every ray misses. */
  node_count: input(UInt(p.indexBits)),
  // The node memory's read side: the 128-byte node (word k at bits 32k + 31 : 32k) one cycle after the request.
  node_req_valid: output(Bool),
  node_req_index: output(UInt(p.indexBits)),
  node_resp: input(UInt(NODE_BITS)),
});

/** The ray link's thread id width (checked: 1 to 8). */
export function bvh8ThreadBits(p: Pick<Bvh8IcCoreParams, 'threadBits'>): number {
  const bits = p.threadBits ?? THREAD_BITS;
  if (!Number.isInteger(bits) || bits < 1 || bits > 8) throw new Error(`Bvh8IcCore: threadBits must be an integer from 1 to 8, got ${p.threadBits}`);
  return bits;
}

/** Cycles from a box node's pop to its children pushed: the stack read, the node read, the decoder, the box engine. */
export const bvh8BoxRoundTrip = (p: Bvh8IcCoreParams): number => 2 + GFX12_BOX_DECODER_LATENCY + rayBox8Latency({ fadd: p.fadd, fmul: p.fmul, tagBits: 1 });

/**
 * Cycles from the settle point to the box engine's answer: the limit fmin(tmax, best) registered, then scaled by
 * TFAR_SCALE (fmul cycles).
 */
const settleToAnswer = (p: Pick<Bvh8IcCoreParams, 'fmul'>): number => 1 + p.fmul;

/**
 * Cycles from a box node's pop to its settle point: where the push stage reads the ray's best hit (then takes the
 * limit and scales it, settleToAnswer cycles, to arrive with the box engine's answer). A node of a ray whose pairs are
 * still pending there (an overlapped pop) is pushed on the best so far and resolved when they have answered.
 */
export const bvh8SettlePoint = (p: Bvh8IcCoreParams): number => bvh8BoxRoundTrip(p) - settleToAnswer(p);

/** Cycles from a pop to the box engine reading the ray's 1/d: the root is popped this much before the dividers finish. */
const POP_TO_BOX_ENGINE = 2 + GFX12_BOX_DECODER_LATENCY;

/**
 * Cycles from an OBB box node's pop to its children pushed when its matrix is not its ray's last rotation: the round trip
 * of a box node, plus its detour from the decoder's output through ObbRayRotate and back to S1 (the node read again,
 * decoded again, then the box engine).
 */
export const bvh8ObbBoxRoundTrip = (p: Bvh8IcCoreParams): number => bvh8BoxRoundTrip(p) + obbRayRotateLatency({ ...p, tagBits: 1 }) + POP_TO_BOX_ENGINE;
/** Cycles after a ray is accepted before its root may be popped: its 1/d is in the slot when the root node reaches the box engine. */
const rootWait = (p: Bvh8IcCoreParams): number => Math.max(0, p.fdiv - POP_TO_BOX_ENGINE);

type Bvh8IcCoreIo = PortsValue<ReturnType<typeof bvh8IcCorePorts>>;

/** One ray in flight: where its walk is, its stack, the ray and its constants, its query, the closest accepted hit so far. */
interface RaySlot {
  readonly state: EnumValue<SlotStateName>;
  /** The root has not been popped yet: the stack is empty but the ray is not done. */
  readonly fresh: UIntValue;
  /** In the middle of a leaf: the next pop reads primitive node `leafNext` (not the stack, no tnear check). */
  readonly inLeaf: UIntValue;
  readonly leafNext: UIntValue;
  /** A primitive node of this ray is in the pair queue: the leaf's next node waits for it to leave (one per ray). */
  readonly queued: UIntValue;
  /** Pairs enqueued and not yet answered. */
  readonly pending: UIntValue;
  /** Cycles left before the root may be popped: its box test must come after the ray's 1/d is in. */
  readonly rootWait: UIntValue;
  /** An overlapped pop was given back (a primitive or unreadable entry, or a push that might overflow): wait for the pairs. */
  readonly noOverlap: UIntValue;
  /**
   * A box node pushed (or refused) before the ray's pairs answered waits for them: then it is skipped after all (sp back
   * to `savedSp`, nothing counted), faults, is given back (a child pushed may lie past the final best), or is counted
   * (`parkedTests` box tests).
   */
  readonly unresolved: UIntValue;
  readonly savedSp: UIntValue;
  readonly parkedTnear: UIntValue;
  /** The tnear of the farthest child pushed (+0 when none). */
  readonly parkedFar: UIntValue;
  /** The node last read (a parked node's index). */
  readonly parkedIndex: UIntValue;
  /** A parked node given back: the next pop takes it again ({parkedIndex, parkedTnear}; its place on the stack was pushed over). */
  readonly replay: UIntValue;
  readonly parkedTests: UIntValue;
  readonly parkedFault: UIntValue;
  /**
   * Nodes read at this level (castRayBvh8's nodeTests + primitiveNodes + instanceNodes): of the TLAS, or of this visit
   * of a BLAS. At most node_count, so indexBits bits.
   */
  readonly reads: UIntValue;
  /** The TLAS's reads while the ray is in a BLAS, back in `reads` when it leaves. */
  readonly tlasReads: UIntValue;
  readonly sp: UIntValue;
  readonly origin: UIntValue;
  readonly direction: UIntValue;
  readonly inv: UIntValue;
  /**
   * The ray's last rotation (ObbRayRotate's answer for matrix `obbIndex`): a box node with that matrix is tested with it
   * at once, with no detour (the rotation depends on the ray and the matrix only, so it is the same bits).
   */
  readonly obbValid: UIntValue;
  readonly obbIndex: UIntValue;
  readonly obbOrigin: UIntValue;
  readonly obbInv: UIntValue;
  readonly axes: UIntValue;
  readonly shear: UIntValue;
  /**
   * Inside a BLAS: the walk tests the object-space ray (obj*) instead of the world ray (origin … shear, which stay for
   * the return and the answer) until a pop finds the stack back at `mark` (castRayBvh8's stackBase).
   */
  readonly inInstance: UIntValue;
  /**
   * The ray's query (ray_query at its start, docs/rays.md): the interval the triangle engine accepts hits in and the box
   * tests clamp to, the culled faces, the ray mask the box children's and instances' masks must share a bit with, ANY_HIT.
   */
  readonly query: UIntValue;
  /** The query's ANY_HIT: no overlapped pops, a leaf's next node waits for the pairs before it, the first accepted hit ends the walk. */
  readonly anyHit: UIntValue;
  readonly mark: UIntValue;
  readonly objOrigin: UIntValue;
  readonly objDir: UIntValue;
  readonly objInv: UIntValue;
  readonly objAxes: UIntValue;
  readonly objShear: UIntValue;
  /** The object-space ray is in: the next pop reads the instance node again ({parkedIndex, parkedTnear}) for its boxes. */
  readonly instAgain: UIntValue;
  /** The instance last read: world_to_object's linear part, user_data, shader id, BLAS root. */
  readonly instLinear: UIntValue;
  readonly instUser: UIntValue;
  readonly instShader: UIntValue;
  readonly instRoot: UIntValue;
  readonly thread: UIntValue;
  readonly fault: UIntValue;
  readonly haveBest: UIntValue;
  readonly bestT: UIntValue;
  readonly bestIndex: UIntValue;
  readonly bestShader: UIntValue;
  readonly bestNormal: UIntValue;
  /** The best hit's barycentrics (binary32, RV13.y and .z). */
  readonly bestU: UIntValue;
  readonly bestV: UIntValue;
  /** The best hit's instance key (instanceKey) and its linear part, for the normal back to world space. */
  readonly bestInst: UIntValue;
  readonly bestLinear: UIntValue;
  /** The best hit's normal is still in object space (the best is in an instance and normalStage has not taken it back yet). */
  readonly objectNormal: UIntValue;
  /** RV13.w: the best hit's instance user_data, or NO_INSTANCE_ID (instanceIdOf the key). */
  readonly bestInstance: UIntValue;
}

interface Core {
  readonly m: ModuleBuilder;
  readonly io: Bvh8IcCoreIo;
  readonly p: Bvh8IcCoreParams;
  readonly f: FloatOps;
  readonly slots: readonly RaySlot[];
  readonly sb: number;
  readonly ib: number;
  readonly instances: boolean;
  /** Bits of a ray's pending pairs: at most a queued node's 8 and the triangle engine's depth. */
  readonly pendingBits: number;
}

export const Bvh8IcCore = defineModule('Bvh8IcCore', bvh8IcCorePorts, (m, io, p) => {
  checkBvh8IcCoreParams(p);
  const core: Core = { m, io, p, f: new FloatOps(m, p), slots: raySlots(m, p), sb: clog2(p.rays), ib: p.indexBits, instances: p.instances !== false, pendingBits: pendingBits(p) };
  const stack = traversalStack(core);
  const obb = obbReturn(core);
  // Every ray is watertight-tested (TrianglePair); with no nodes loaded it misses at once, as castRayBvh8 on an empty image.
  const rays = rayIntake(m, io, { free: stateMask(core, 'free'), slots: p.rays, fdiv: p.fdiv, watertight: true, traceable: io.node_count.ne(0) });
  const pop = popStage(core, stack, obb);
  const entry = entryStage(core, pop, obb);
  const decoded = decodeStage(core, entry);
  obbStage(core, decoded, obb);
  const instance = instanceStage(core, decoded);
  const box = boxStage(core, decoded);
  const push = pushStage(core, stack, box);
  const resolved = resolution(core);
  const queue = pairQueue(core, decoded);
  const pairs = pairStage(core, queue);
  const normal = normalStage(core);
  const finish = answerStage(m, io, p, core.f, core.slots, stateMask(core, 'finish').and(normal.waiting.not()));
  slotEvents(core, { rays, pop, entry, decoded, box, push, resolved, queue, pairs, finish, obb, instance, normal });
  counters(core, { accept: rays.accept, entry, push, resolved, pairs, decoded });
});

const pendingBits = (p: Bvh8IcCoreParams): number => clog2(8 + trianglePairLatency({ fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, tagBits: 1 }) + 2);

function raySlots(m: ModuleBuilder, p: Bvh8IcCoreParams): RaySlot[] {
  return Array.from({ length: p.rays }, (_, k) => ({
    state: m.reg(Bvh8SlotState, { reset: 'free', name: `ray${k}_state` }),
    fresh: m.reg(Bool, { reset: 0, name: `ray${k}_fresh` }),
    inLeaf: m.reg(Bool, { reset: 0, name: `ray${k}_in_leaf` }),
    leafNext: m.reg(UInt(p.indexBits), { name: `ray${k}_leaf_next` }),
    queued: m.reg(Bool, { reset: 0, name: `ray${k}_queued` }),
    pending: m.reg(UInt(pendingBits(p)), { reset: 0, name: `ray${k}_pending` }),
    rootWait: m.reg(UInt(clog2(rootWait(p) + 1)), { reset: 0, name: `ray${k}_root_wait` }),
    noOverlap: m.reg(Bool, { reset: 0, name: `ray${k}_no_overlap` }),
    unresolved: m.reg(Bool, { reset: 0, name: `ray${k}_unresolved` }),
    savedSp: m.reg(UInt(SP_BITS), { name: `ray${k}_saved_sp` }),
    parkedTnear: m.reg(UInt(32), { name: `ray${k}_parked_tnear` }),
    parkedFar: m.reg(UInt(32), { name: `ray${k}_parked_far` }),
    parkedIndex: m.reg(UInt(p.indexBits), { name: `ray${k}_parked_index` }),
    replay: m.reg(Bool, { reset: 0, name: `ray${k}_replay` }),
    parkedTests: m.reg(UInt(4), { name: `ray${k}_parked_tests` }),
    parkedFault: m.reg(Bool, { name: `ray${k}_parked_fault` }),
    reads: m.reg(UInt(p.indexBits), { reset: 0, name: `ray${k}_reads` }),
    tlasReads: m.reg(UInt(p.indexBits), { name: `ray${k}_tlas_reads` }),
    sp: m.reg(UInt(SP_BITS), { reset: 0, name: `ray${k}_sp` }),
    origin: m.reg(UInt(96), { name: `ray${k}_origin` }),
    direction: m.reg(UInt(96), { name: `ray${k}_direction` }),
    inv: m.reg(UInt(96), { name: `ray${k}_inv_dir` }),
    obbValid: m.reg(Bool, { reset: 0, name: `ray${k}_obb_valid` }),
    obbIndex: m.reg(UInt(OBB_INDEX_BITS), { name: `ray${k}_obb_index` }),
    obbOrigin: m.reg(UInt(96), { name: `ray${k}_obb_origin` }),
    obbInv: m.reg(UInt(96), { name: `ray${k}_obb_inv_dir` }),
    axes: m.reg(UInt(6), { name: `ray${k}_axes` }),
    shear: m.reg(UInt(96), { name: `ray${k}_shear` }),
    inInstance: m.reg(Bool, { reset: 0, name: `ray${k}_in_instance` }),
    query: m.reg(UInt(96), { name: `ray${k}_query` }),
    anyHit: lit(0, 1),
    mark: m.reg(UInt(SP_BITS), { name: `ray${k}_mark` }),
    objOrigin: m.reg(UInt(96), { name: `ray${k}_obj_origin` }),
    objDir: m.reg(UInt(96), { name: `ray${k}_obj_dir` }),
    objInv: m.reg(UInt(96), { name: `ray${k}_obj_inv_dir` }),
    objAxes: m.reg(UInt(6), { name: `ray${k}_obj_axes` }),
    objShear: m.reg(UInt(96), { name: `ray${k}_obj_shear` }),
    instAgain: m.reg(Bool, { reset: 0, name: `ray${k}_inst_again` }),
    instLinear: m.reg(UInt(LINEAR_BITS), { name: `ray${k}_inst_linear` }),
    instUser: m.reg(UInt(24), { name: `ray${k}_inst_user` }),
    instShader: m.reg(UInt(32), { name: `ray${k}_inst_shader` }),
    instRoot: m.reg(UInt(p.indexBits), { name: `ray${k}_inst_root` }),
    thread: m.reg(UInt(bvh8ThreadBits(p)), { name: `ray${k}_thread` }),
    fault: m.reg(Bool, { reset: 0, name: `ray${k}_fault` }),
    haveBest: m.reg(Bool, { reset: 0, name: `ray${k}_have_best` }),
    bestT: m.reg(UInt(32), { name: `ray${k}_best_t` }),
    bestIndex: m.reg(UInt(32), { name: `ray${k}_best_index` }),
    bestShader: m.reg(UInt(32), { name: `ray${k}_best_shader` }),
    bestNormal: m.reg(UInt(96), { name: `ray${k}_best_normal` }),
    bestU: m.reg(UInt(32), { name: `ray${k}_best_u` }),
    bestV: m.reg(UInt(32), { name: `ray${k}_best_v` }),
    bestInst: m.reg(UInt(INSTANCE_KEY_BITS), { name: `ray${k}_best_inst` }),
    bestLinear: m.reg(UInt(LINEAR_BITS), { name: `ray${k}_best_linear` }),
    objectNormal: m.reg(Bool, { reset: 0, name: `ray${k}_object_normal` }),
    bestInstance: lit(0, 32),
  })).map((s) => ({ ...s, anyHit: queryFields(s.query).anyHit, bestInstance: instanceIdOf(s.bestInst) }));
}

/** A field of the slot `slot` names. */
const pick = (core: Core, slot: UIntValue, field: (s: RaySlot) => UIntValue): UIntValue => selectByIndex(slot, core.slots.map(field));
const stateMask = (core: Core, state: SlotStateName): UIntValue => cat(...core.slots.map((s) => s.state.is(state)).reverse());
/** A field of the ray the walk of slot `slot` tests now: the object-space one inside a BLAS, else the world ray. */
const working = (core: Core, slot: UIntValue, world: (s: RaySlot) => UIntValue, object: (s: RaySlot) => UIntValue): UIntValue =>
  mux(pick(core, slot, (s) => s.inInstance).asBool(), pick(core, slot, object), pick(core, slot, world));
const popcount = (v: UIntValue, width: number): UIntValue => Array.from({ length: v.width }, (_, i) => v.bit(i).zext(width)).reduce((a, b) => a.add(b));

/** The stack: eight banks (one per child a push may write), entry d of ray s in bank d mod 8 at word {s, d / 8}. */
interface TraversalStack {
  readonly banks: readonly MemoryHandle<UIntType>[];
  readonly word: (slot: UIntValue, depth: UIntValue) => UIntValue;
}

function traversalStack({ m, p, ib }: Core): TraversalStack {
  const banks = Array.from({ length: STACK_BANKS }, (_, b) => m.memory(UInt(Bvh8StackEntry(ib).width), p.rays * (BVH8_STACK_ENTRIES / STACK_BANKS), { name: `stack_bank${b}` }));
  return { banks, word: (slot, depth) => cat(slot, depth.bits(clog2(BVH8_STACK_ENTRIES) - 1, 3)) };
}

/** S0: a ready ray, chosen round robin (a ray in a leaf only once its last node left the pair queue), and the read of its top entry. */
interface Pop {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly fresh: BoolValue;
  readonly inLeaf: BoolValue;
  readonly replay: BoolValue;
  /** The instance node read again for its boxes (its object-space ray is in). */
  readonly instAgain: BoolValue;
  /** The entry popped lies below the BLAS's mark: the walk returns to the world ray. */
  readonly leave: BoolValue;
  /** The depth of the entry popped: the slot's stack pointer after the pop. */
  readonly depth: UIntValue;
  readonly reads: readonly UIntValue[];
}

function popStage(core: Core, stack: TraversalStack, obb: ObbReturn): Pop {
  const { m, slots } = core;
  const arbiter = m.instance(RoundRobinArbiter, { n: slots.length, width: 1 }, { name: 'pop_arbiter' });
  const atMark = (s: RaySlot) => s.inInstance.asBool().and(s.sp.eq(s.mark));
  slots.forEach((s, k) => {
    // A pop that leaves the BLAS waits for the BLAS's pairs (the triangle engine tests them with the slot's object-space ray).
    const leavesEarly = atMark(s).and(s.inLeaf.asBool().or(s.replay.asBool()).or(s.instAgain.asBool()).not()).and(s.pending.ne(0));
    // An overlapped pop: the next entry while the ray's pairs are pending (one unresolved node at a time).
    const overlap = s.state.is('pairs').and(s.anyHit.asBool().not()).and(s.fault.asBool().not()).and(s.sp.ne(0)).and(s.noOverlap.asBool().not()).and(s.unresolved.asBool().not()).and(s.pending.ne(0)).and(atMark(s).not());
    // The root, popped while the dividers finish (the ray's 1/d is in before the node reaches the box engine).
    const root = s.state.is('inverse').and(s.rootWait.eq(0));
    arbiter.io.in.at(k).valid.set(s.state.is('ready').and(s.inLeaf.asBool().and(s.queued.asBool()).not()).and(leavesEarly.not()).or(overlap).or(root));
    arbiter.io.in.at(k).bits.set(0);
  });
  // A bubble when an OBB node's rotated ray comes back: its node read takes S1 next cycle.
  arbiter.io.out.ready.set(obb.valid.not());
  const slot = arbiter.io.chosen;
  const depth = pick(core, slot, (s) => s.sp).sub(1);
  const valid = arbiter.io.out.valid.and(obb.valid.not());
  const fresh = pick(core, slot, (s) => s.fresh).asBool();
  const inLeaf = pick(core, slot, (s) => s.inLeaf).asBool();
  const replay = pick(core, slot, (s) => s.replay).asBool();
  const instAgain = pick(core, slot, (s) => s.instAgain).asBool();
  const fromStack = fresh.or(inLeaf).or(replay).or(instAgain).not();
  return {
    valid,
    slot,
    fresh,
    inLeaf,
    replay,
    instAgain,
    leave: valid.and(fromStack).and(selectByIndex(slot, slots.map((s) => atMark(s)))),
    depth,
    reads: stack.banks.map((bank) => bank.read(stack.word(slot, depth))),
  };
}

/**
 * S1: the entry; skipped when farther than the best hit, else its node read, or a fault when it cannot be read. An
 * overlapped pop (the ray's pairs in flight: its best may still come closer) skips only what the final best would skip
 * too; it reads only a box node (settled at the push, or parked), and gives back (undoes) a primitive or unreadable entry.
 */
interface Entry {
  readonly slot: UIntValue;
  /** An OBB box node back from ObbRayRotate: its node read again (not counted in `reads`). */
  readonly again: BoolValue;
  /** An instance node read again for its boxes (not counted in `reads`). */
  readonly instanceBoxes: BoolValue;
  readonly instance: BoolValue;
  readonly skip: BoolValue;
  readonly fault: BoolValue;
  readonly read: BoolValue;
  readonly undo: BoolValue;
  readonly primitive: BoolValue;
  readonly index: UIntValue;
  readonly tnear: UIntValue;
}

function entryStage(core: Core, pop: Pop, obb: ObbReturn): Entry {
  const { m, io, f, ib } = core;
  const valid = m.regNext(pop.valid, { reset: 0 });
  const again = m.regNext(obb.valid, { reset: 0 });
  const slot = mux(again, m.regNext(obb.slot), m.regNext(pop.slot));
  const fresh = m.regNext(pop.fresh);
  const inLeaf = m.regNext(pop.inLeaf);
  const replay = m.regNext(pop.replay);
  const second = m.regNext(pop.instAgain);
  const bank = m.regNext(pop.depth.bits(2, 0));
  const E = Bvh8StackEntry(ib);
  const stored = unpackBits(E, selectByIndex(bank, pop.reads));
  // The root: box node 0 at tnear +0. A leaf's next node: no tnear check (castRayBvh8 walks a leaf to its end). A box
  // node given back, or an instance node read again: its index and tnear kept in the slot.
  const root = fresh;
  const fromSlot = replay.or(second);
  const primitive = mux(inLeaf, lit(1, 1), mux(root.or(fromSlot), lit(0, 1), stored.primitive)).asBool();
  const instance = inLeaf.or(root).or(fromSlot).not().and(stored.instance);
  const index = mux(inLeaf, pick(core, slot, (s) => s.leafNext), mux(root, lit(0, ib), mux(fromSlot, pick(core, slot, (s) => s.parkedIndex), stored.index)));
  const tnear = mux(root, lit(0, 32), mux(fromSlot, pick(core, slot, (s) => s.parkedTnear), stored.tnear));
  const haveBest = pick(core, slot, (s) => s.haveBest).asBool();
  const skip = valid.and(inLeaf.not()).and(second.not()).and(haveBest).and(f.compare(tnear, pick(core, slot, (s) => s.bestT)).eq(FLAG_POSITIVE));
  // Fewer reads at this level than nodes: more would mean a cycle in a malformed image.
  const readable = index.lt(io.node_count).and(pick(core, slot, (s) => s.reads).lt(io.node_count));
  // The instance node's second read needs no checks: its first passed them.
  const wanted = valid.and(skip.not()).and(second.not());
  // A stale best only skips what the final one skips (the best only comes closer), so the skip test above stands.
  const overlapped = pick(core, slot, (s) => s.pending).ne(0).and(inLeaf.not());
  // Only the TLAS may hold instances (one level): an instance entry inside a BLAS faults.
  const nested = instance.and(pick(core, slot, (s) => s.inInstance).asBool());
  const undo = wanted.and(overlapped).and(primitive.or(instance).or(readable.not()));
  const read = wanted.and(readable).and(undo.not()).and(nested.not());
  const instanceBoxes = valid.and(second);
  const againIndex = m.regNext(obb.index);
  io.node_req_valid.set(read.or(again).or(instanceBoxes));
  io.node_req_index.set(mux(again, againIndex, mux(read.or(instanceBoxes), index, lit(0, ib))));
  return {
    slot,
    again,
    instanceBoxes,
    instance,
    skip,
    fault: wanted.and(overlapped.not()).and(readable.not().or(nested)),
    read,
    undo,
    primitive,
    index: mux(again, againIndex, index),
    tnear: mux(again, m.regNext(obb.tnear), tnear),
  };
}

/** S2 onward: the node answer into the box decoder or the primitive decoder; their outputs and what they refuse. */
interface Decoded {
  readonly box: {
    readonly valid: BoolValue;
    readonly slot: UIntValue;
    /** Undecodable, an OBB matrix index neither 0–103 nor 0x7F, or a child target the host refuses: the ray faults. */
    readonly fault: BoolValue;
    /** The entry's tnear: the push tests it against the settled best. */
    readonly tnear: UIntValue;
    readonly index: UIntValue;
    /** A matrix the slot's last rotation is for: the node is tested with that rotated ray (an OBB node's second pass is one). */
    readonly rotated: BoolValue;
    /** A matrix the slot has no rotation for: the node leaves for ObbRayRotate instead of the box engine. */
    readonly rotate: BoolValue;
    /** An instance node's boxes (its second read), tested with the slot's object-space ray. */
    readonly instance: BoolValue;
    /** The entry clamp of the slot's query, fmax(+0, tmin) (boxClamp), taken at S2 beside the decoder. */
    readonly lower: UIntValue;
    readonly io: ReturnType<typeof boxDecoder>['io'];
  };
  /** An instance node read (S2): its fields, and its slot. */
  readonly instance: {
    readonly valid: BoolValue;
    readonly slot: UIntValue;
    readonly fields: InstanceFields;
    /** The instance's mask shares no bit with the ray mask: not entered (a miss), unless the node faults. */
    readonly masked: BoolValue;
  };
  readonly primitive: {
    readonly valid: BoolValue;
    readonly slot: UIntValue;
    readonly index: UIntValue;
    readonly fault: BoolValue;
    readonly io: ReturnType<typeof primitiveDecoder>['io'];
  };
}

const boxDecoder = (m: ModuleBuilder) => m.instance(Gfx12BoxDecoder, {}, { name: 'box_decoder' });
const primitiveDecoder = (m: ModuleBuilder) => m.instance(Gfx12PrimitiveDecoder, {}, { name: 'primitive_decoder' });

function decodeStage(core: Core, entry: Entry): Decoded {
  const { m, io, ib } = core;
  const s2Box = m.regNext(entry.read.and(entry.primitive.not()).and(entry.instance.not()).or(entry.again), { reset: 0 });
  const s2Primitive = m.regNext(entry.read.and(entry.primitive), { reset: 0 });
  const s2Instance = m.regNext(entry.read.and(entry.instance), { reset: 0 });
  const s2InstanceBoxes = m.regNext(entry.instanceBoxes, { reset: 0 });
  const s2Slot = m.regNext(entry.slot);
  const s2Index = m.regNext(entry.index);
  const s2Tnear = m.regNext(entry.tnear);
  const box = boxDecoder(m);
  box.io.in_valid.set(s2Box.or(s2InstanceBoxes));
  box.io.node.set(mux(s2Box, io.node_resp, mux(s2InstanceBoxes, instanceAsBoxNode(io.node_resp), lit(0, NODE_BITS))));
  const prim = primitiveDecoder(m);
  prim.io.in_valid.set(s2Primitive);
  prim.io.node.set(mux(s2Primitive, io.node_resp, lit(0, NODE_BITS)));
  const boxValid = box.io.out_valid;
  const instancePass = delay(m, s2InstanceBoxes, GFX12_BOX_DECODER_LATENCY, 'box_instance');
  // An instance node's boxes have no child targets and OBB off: only the decoder's error refuses them (gfx12ChildBox's).
  const targetFault = childTargets(boxHeader(box.io), ib, core.instances).fault.and(instancePass.not());
  const obbIndex = box.io.obb_matrix_index;
  const obbOff = obbIndex.eq(OBB_DISABLED);
  const obbInvalid = obbIndex.lt(OBB_MATRIX_COUNT).or(obbOff).not();
  const boxFault = boxValid.and(box.io.error.or(obbInvalid).or(targetFault));
  const boxSlot = delay(m, s2Slot, GFX12_BOX_DECODER_LATENCY, 'box_slot');
  const matrix = boxValid.and(boxFault.not()).and(obbOff.not());
  const cached = pick(core, boxSlot, (s) => s.obbValid).asBool().and(pick(core, boxSlot, (s) => s.obbIndex).eq(obbIndex.trunc(OBB_INDEX_BITS)));
  const primValid = prim.io.out_valid;
  const fields = instanceFields(io.node_resp, io.node_count, ib);
  return {
    box: {
      valid: boxValid,
      slot: boxSlot,
      fault: boxFault,
      tnear: delay(m, s2Tnear, GFX12_BOX_DECODER_LATENCY, 'box_tnear'),
      index: delay(m, s2Index, GFX12_BOX_DECODER_LATENCY, 'box_index'),
      rotated: matrix.and(cached),
      rotate: matrix.and(cached.not()),
      instance: instancePass,
      lower: delay(m, floatMax(m, lit(0, 32), queryFields(pick(core, s2Slot, (s) => s.query)).tmin, 'fmax_box_lower'), GFX12_BOX_DECODER_LATENCY, 'box_lower'),
      io: box.io,
    },
    instance: { valid: s2Instance, slot: s2Slot, fields, masked: fields.cullMask.and(queryFields(pick(core, s2Slot, (s) => s.query)).mask).eq(0) },
    primitive: { valid: primValid, slot: delay(m, s2Slot, GFX12_PRIMITIVE_DECODER_LATENCY, 'primitive_slot'), index: delay(m, s2Index, GFX12_PRIMITIVE_DECODER_LATENCY, 'primitive_index'), fault: primValid.and(prim.io.error), io: prim.io },
  };
}

const boxHeader = (d: ReturnType<typeof boxDecoder>['io']) => ({ internalChildOffset: d.internal_child_offset, primitiveChildOffset: d.primitive_child_offset, childValid: d.child_valid, nodeType: d.node_type, nodeSize: d.node_size });

/**
 * An OBB box node's ray in its node's frame (matrix `matrix`), back from ObbRayRotate: it becomes the slot's rotation,
 * and the node takes S1 the next cycle (the pop leaves a bubble).
 */
interface ObbReturn {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly index: UIntValue;
  readonly tnear: UIntValue;
  readonly matrix: UIntValue;
  readonly origin: UIntValue;
  readonly inv: UIntValue;
}

function obbReturn({ m, sb, ib }: Core): ObbReturn {
  return {
    valid: m.wire(Bool, { name: 'obb_back_valid' }),
    slot: m.wire(UInt(sb), { name: 'obb_back_slot' }),
    index: m.wire(UInt(ib), { name: 'obb_back_index' }),
    tnear: m.wire(UInt(32), { name: 'obb_back_tnear' }),
    matrix: m.wire(UInt(OBB_INDEX_BITS), { name: 'obb_back_matrix' }),
    origin: m.wire(UInt(96), { name: 'obb_back_origin' }),
    inv: m.wire(UInt(96), { name: 'obb_back_inv' }),
  };
}

/**
 * A decoded box node with an OBB matrix (0–103, and not refused) that is not the slot's last rotation leaves the main
 * path: the ray's origin and direction go through ObbRayRotate (castRayBvh8's obbRay), the rotated ray comes back as the
 * slot's rotation, and S1 reads the node again; the second pass finds its matrix in the slot and enters the box engine
 * with the rotated origin and 1/d. The node's slot waits meanwhile (`wait`, as for any box node in flight), so nothing
 * else of the ray moves; a plain node's path, and a node whose matrix is the slot's, are unchanged.
 */
function obbStage(core: Core, decoded: Decoded, back: ObbReturn): void {
  const { m, p, sb, ib } = core;
  const d = decoded.box;
  const tagBits = sb + ib + 32 + OBB_INDEX_BITS;
  const rotate = m.instance(ObbRayRotate, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, tagBits }, { name: 'obb_rotate' });
  rotate.io.in_valid.set(d.rotate);
  rotate.io.obb_index.set(mux(d.rotate, d.io.obb_matrix_index, lit(OBB_DISABLED, 32)));
  rotate.io.origin.set(mux(d.rotate, working(core, d.slot, (s) => s.origin, (s) => s.objOrigin), lit(0, 96)));
  rotate.io.dir.set(mux(d.rotate, working(core, d.slot, (s) => s.direction, (s) => s.objDir), lit(0, 96)));
  rotate.io.tag.set(cat(d.slot, d.index, d.tnear, d.io.obb_matrix_index.trunc(OBB_INDEX_BITS)));
  const tag = rotate.io.out_tag;
  back.valid.set(rotate.io.out_valid);
  back.slot.set(tag.bits(tagBits - 1, tagBits - sb));
  back.index.set(tag.bits(ib + 32 + OBB_INDEX_BITS - 1, 32 + OBB_INDEX_BITS));
  back.tnear.set(tag.bits(31 + OBB_INDEX_BITS, OBB_INDEX_BITS));
  back.matrix.set(tag.bits(OBB_INDEX_BITS - 1, 0));
  back.origin.set(rotate.io.out_origin);
  back.inv.set(rotate.io.out_inv_dir);
}

/**
 * An instance node read (castRayBvh8's enterInstance): refused (more than 4 children, a BLAS address not a whole node or
 * past node_count) the ray faults; an instance whose cull_mask shares no bit with the ray mask is missed; else its world ray goes through RayTransform and the dividers of the object-space
 * watertight constants (`instanceRayLatency`). The ray waits in `wait`; when the object-space ray is back, a ray that is not
 * traceable misses the instance, any other reads the node again and tests its boxes with it (`instAgain`).
 */
function instanceStage(core: Core, decoded: Decoded): InstanceRay {
  const { m, p } = core;
  const { valid, slot, fields, masked } = decoded.instance;
  const go = valid.and(fields.fault.not()).and(masked.not());
  return instanceRay(m, p, { valid: go, slot, matrix: fields.matrix, origin: pick(core, slot, (s) => s.origin), dir: pick(core, slot, (s) => s.direction) });
}

/**
 * Every decoded box node enters the box engine with no limit (+inf; a refused node with no children), so that an
 * overlapped pop's node needs no best yet: the push settles it. What the push needs rides beside the engine.
 */
interface BoxIssue {
  readonly engine: ReturnType<typeof boxEngine>['io'];
  /** Beside the engine's answer: the node was refused, its entry's tnear, its existing children. */
  readonly fault: BoolValue;
  readonly tnear: UIntValue;
  readonly childValid: UIntValue;
  /** An instance node's boxes: the push enters its BLAS (the root at the nearest hit's tnear) instead of pushing children. */
  readonly instance: BoolValue;
  /** The slot whose best the push reads at the settle point (settleToAnswer cycles before the answer). */
  readonly settleSlot: UIntValue;
}

const boxEngine = ({ m, p, sb, ib }: Core) => m.instance(RayBox8, { fadd: p.fadd, fmul: p.fmul, tagBits: Bvh8BoxTag(ib, sb).width }, { name: 'box_engine' });
const boxEngineLatency = (p: Bvh8IcCoreParams): number => rayBox8Latency({ fadd: p.fadd, fmul: p.fmul, tagBits: 1 });

function boxStage(core: Core, decoded: Decoded): BoxIssue {
  const { m, p, ib, sb } = core;
  const d = decoded.box;
  const valid = d.valid.and(d.rotate.not());
  const engine = boxEngine(core);
  const slot = d.slot;
  engine.io.in_valid.set(valid);
  // The ray: an OBB node's rotation, an instance's object-space ray for its boxes, else the ray the walk tests now.
  const ray = (rotated: (s: RaySlot) => UIntValue, world: (s: RaySlot) => UIntValue, object: (s: RaySlot) => UIntValue) =>
    mux(d.rotated, pick(core, slot, rotated), mux(d.instance, pick(core, slot, object), working(core, slot, world, object)));
  engine.io.origin.set(mux(valid, ray((s) => s.obbOrigin, (s) => s.origin, (s) => s.objOrigin), lit(0, 96)));
  engine.io.inv_dir.set(mux(valid, ray((s) => s.obbInv, (s) => s.inv, (s) => s.objInv), lit(0, 96)));
  engine.io.limit.set(INF_BITS);
  // The entry clamp, fmax(+0, tmin) (boxClamp); the exit clamp, fmin(tmax, best), is the push stage's.
  engine.io.lower.set(mux(valid, d.lower, lit(0, 32)));
  const rayMask = queryFields(pick(core, slot, (s) => s.query)).mask;
  engine.io.boxes.set(mux(valid, d.io.boxes, lit(0, d.io.boxes.width)));
  const childValid = mux(valid.and(d.fault.not()), d.io.child_valid, lit(0, BVH8_CHILDREN));
  // A box child whose cull_mask shares no bit with the ray mask is tested (counted) but a miss; an instance's boxes have no masks to read.
  const masked = cat(...Array.from({ length: BVH8_CHILDREN }, (_, c) => d.io.cull_mask.bits(8 * c + 7, 8 * c).and(rayMask).ne(0).or(d.instance)).reverse());
  engine.io.child_valid.set(childValid.and(masked));
  const targets = childTargets(boxHeader(d.io), ib, core.instances);
  const tag = m.wire(Bvh8BoxTag(ib, sb), { name: 'box_tag' });
  tag.slot.set(slot);
  // An instance's boxes all lead to its BLAS root, a box node.
  const root = pick(core, slot, (s) => s.instRoot);
  [...tag.children].forEach((child, c) => {
    child.index.set(mux(d.instance, root, targets.index[c]!));
    child.primitive.set(targets.primitive[c]!.and(d.instance.not()));
    child.instance.set(targets.instance[c]!.and(d.instance.not()));
  });
  engine.io.tag.set(packBits(tag));
  const latency = boxEngineLatency(p);
  return {
    engine: engine.io,
    fault: delay(m, d.fault, latency, 'box_fault'),
    tnear: delay(m, d.tnear, latency, 'box_entry_tnear'),
    childValid: delay(m, childValid, latency, 'box_child_valid'),
    instance: delay(m, d.instance, latency, 'box_instance_pass'),
    settleSlot: delay(m, slot, latency - settleToAnswer(p), 'settle_slot'),
  };
}

/**
 * The box engine's answer against the ray's best at the settle point (final if none of its pairs is pending then): skipped
 * if its tnear is past that best (a best only comes closer, so this is final either way); else, settled, a fault if the
 * node was refused, or the hit children within the limit fmin(tmax, best) (boxClamp), a prefix of the sorted hits, pushed
 * nearest last (popped first). The slab test's limit only clamps tfar (tfar = min(far, limit) · TFAR_SCALE, the product
 * monotonic), so a child hits under the limit exactly when it hits with none and tnear ≤ limit · TFAR_SCALE (the engine
 * has applied the entry clamp and the ray mask already). Past BVH8_STACK_ENTRIES the ray faults. Unsettled (an
 * overlapped pop whose pairs are still pending), the node is parked: its children within the best so far are pushed (a
 * superset of the final ones), and `resolution` settles it once the pairs have answered; a push that might overflow is
 * given back instead.
 */
interface Push {
  /** Settled: the node is tested and its children pushed, unless it overflows. */
  readonly valid: BoolValue;
  /** A box node settled and counted (an instance's boxes are not castRayBvh8's box tests). */
  readonly counted: BoolValue;
  /** An instance's boxes hit: its BLAS root pushed, the walk goes on in object space from here (the mark). */
  readonly enter: BoolValue;
  readonly slot: UIntValue;
  readonly pushedSp: UIntValue;
  readonly overflow: BoolValue;
  /** Unsettled and the push might overflow: the pop is given back. */
  readonly undo: BoolValue;
  /** Farther than the best: skipped, as castRayBvh8's pop would have. */
  readonly skip: BoolValue;
  readonly fault: BoolValue;
  /** Unsettled: parked (its children pushed unless it was refused) until the ray's pairs have answered. */
  readonly park: BoolValue;
  readonly parkPush: BoolValue;
  readonly tnear: UIntValue;
  /** The farthest child pushed: its tnear (+0 when none). */
  readonly far: UIntValue;
  readonly refused: BoolValue;
  readonly tests: UIntValue;
  /** Box tests of a settled node, counted now. */
  readonly boxTests: UIntValue;
}

function pushStage(core: Core, stack: TraversalStack, box: BoxIssue): Push {
  const { m, f, sb, ib } = core;
  const e = box.engine;
  const answer = e.out_valid;
  const tag = unpackBits(Bvh8BoxTag(ib, sb), e.out_tag);
  // The settle point: whether the ray's pairs have all answered (its best final), its best, and its limit scaled, ready with the answer.
  const lag = settleToAnswer(core.p);
  const settled = delay(m, pick(core, box.settleSlot, (s) => s.pending).eq(0), lag, 'settled');
  const haveBestAtSettle = pick(core, box.settleSlot, (s) => s.haveBest).asBool();
  const bestAtSettle = pick(core, box.settleSlot, (s) => s.bestT);
  const haveBest = delay(m, haveBestAtSettle, lag, 'settled_have_best');
  const bestT = delay(m, bestAtSettle, lag, 'settled_best_t');
  // The exit clamp, fmin(tmax, best) (boxClamp: a NaN tmax drops out), registered, then scaled as the slab test's tfar.
  const tmaxAtSettle = queryFields(pick(core, box.settleSlot, (s) => s.query)).tmax;
  const limit = m.regNext(floatMin(m, tmaxAtSettle, mux(haveBestAtSettle, bestAtSettle, lit(INF_BITS, 32)), 'push_limit'), { name: 'push_limit_q' });
  const scaledLimit = f.mul(limit, lit(TFAR_SCALE, 32));
  const skip = answer.and(haveBest).and(f.compare(box.tnear, bestT).eq(FLAG_POSITIVE));
  const kept = answer.and(skip.not());
  const fault = kept.and(settled).and(box.fault);
  const valid = kept.and(settled).and(box.fault.not());
  const tnear = unpackBits(Vec(BVH8_CHILDREN, UInt(32)), e.tnear);
  const order = unpackBits(Vec(BVH8_CHILDREN, UInt(3)), e.order);
  const childEntry = (c: number) => cat(packBits(tag.children.at(c)), tnear.at(c)); // a Bvh8StackEntry: the child above its tnear
  const within = Array.from({ length: BVH8_CHILDREN }, (_, c) => {
    const flag = f.compare(tnear.at(c), scaledLimit);
    return e.hit.bit(c).and(flag.eq(FLAG_NEGATIVE).or(flag.eq(FLAG_ZERO)));
  });
  const hits = popcount(cat(...within.reverse()), 4);
  // An instance pushes one entry, its BLAS root at the nearest hit's tnear (enterInstance's fmin of the hits' tnear).
  const hitCount = mux(box.instance, hits.ne(0).zext(4), hits);
  const sp = pick(core, tag.slot, (s) => s.sp);
  const pushedSp = sp.zext(SP_BITS + 1).add(hitCount.zext(SP_BITS + 1));
  const tooDeep = pushedSp.gt(BVH8_STACK_ENTRIES);
  const overflow = valid.and(tooDeep);
  const unsettled = kept.and(settled.not());
  const undo = unsettled.and(box.fault.not()).and(tooDeep);
  const parkPush = unsettled.and(box.fault.not()).and(tooDeep.not());
  const park = unsettled.and(box.fault.or(tooDeep.not()));
  const write = valid.and(tooDeep.not()).or(parkPush);
  stack.banks.forEach((bank, b) => {
    // Entry j (0 = deepest) of this push lands at depth sp + j, so bank b takes j = (b − sp) mod 8: order slot hit_count − 1 − j.
    const j = lit(b, 3).sub(sp.bits(2, 0));
    const k = hitCount.sub(1).sub(j.zext(4)).bits(2, 0);
    const child = selectByIndex(k, [...order]);
    const depth = sp.add(j.zext(SP_BITS));
    m.when(write.and(j.zext(4).lt(hitCount)), () => bank.write(stack.word(tag.slot, depth), selectByIndex(child, Array.from({ length: BVH8_CHILDREN }, (_, c) => childEntry(c)))));
  });
  const tests = popcount(box.childValid, 4);
  const far = mux(hitCount.eq(0), lit(0, 32), selectByIndex(selectByIndex(hitCount.sub(1).bits(2, 0), [...order]), [...tnear]));
  const counted = valid.and(box.instance.not());
  const enter = valid.and(box.instance).and(hits.ne(0));
  return { valid, counted, enter, slot: tag.slot, pushedSp, overflow, undo, skip, fault, park, parkPush, tnear: box.tnear, far, refused: box.fault, tests, boxTests: mux(counted, tests, lit(0, 4)) };
}

/**
 * A parked node whose ray's pairs have all answered, one per cycle, against the final best: skipped after all (its tnear
 * past the best), a fault (refused), given back when its farthest child pushed lies past the best (it may be past the
 * final limit too; the pop is made again, settled), else tested (counted): every child pushed is then within the final
 * limit, and every child within it was pushed (the limit only shrank), so the push is the golden's.
 */
interface Resolution {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly skip: BoolValue;
  readonly fault: BoolValue;
  readonly giveBack: BoolValue;
  readonly commit: BoolValue;
  readonly boxTests: UIntValue;
}

function resolution(core: Core): Resolution {
  const { m, f, slots } = core;
  const ready = m.instance(PriorityEncoder, { n: slots.length }, { name: 'resolve_slot' });
  ready.io.in.set(cat(...slots.map((s) => s.state.is('pairs').and(s.unresolved.asBool()).and(s.pending.eq(0))).reverse()));
  const valid = ready.io.valid;
  const slot = ready.io.index;
  const skip = valid.and(pick(core, slot, (s) => s.haveBest).asBool()).and(f.compare(pick(core, slot, (s) => s.parkedTnear), pick(core, slot, (s) => s.bestT)).eq(FLAG_POSITIVE));
  const refused = pick(core, slot, (s) => s.parkedFault).asBool();
  const kept = valid.and(skip.not()).and(refused.not());
  const giveBack = kept.and(pick(core, slot, (s) => s.haveBest).asBool()).and(f.compare(pick(core, slot, (s) => s.parkedFar), pick(core, slot, (s) => s.bestT)).eq(FLAG_POSITIVE));
  const commit = kept.and(giveBack.not());
  return { valid, slot, skip, fault: valid.and(skip.not()).and(refused), giveBack, commit, boxTests: mux(commit, pick(core, slot, (s) => s.parkedTests), lit(0, 4)) };
}

/** Decoded primitive nodes wait here (at most one per ray, so `rays` entries never overflow) for their pairs to enter the engine. */
interface PairQueue {
  readonly enqueue: BoolValue;
  readonly pairCount: UIntValue;
  readonly rangeStop: BoolValue;
  readonly head: ValueOf<ReturnType<typeof PairQueueEntry>>;
  readonly issue: BoolValue;
  /** The head's last pair enters this cycle: the node leaves the queue. */
  readonly leave: BoolValue;
  readonly pair: UIntValue;
}

function pairQueue(core: Core, decoded: Decoded): PairQueue {
  const { m, p, sb } = core;
  const d = decoded.primitive;
  const enqueue = d.valid.and(d.fault.not());
  const fifo = m.instance(Fifo, { payload: PairQueueEntry(sb), depth: p.rays }, { name: 'pair_queue' });
  const entry = m.wire(PairQueueEntry(sb), { name: 'pair_queue_in' });
  entry.vertices.set(d.io.vertices);
  entry.vertexIndex.set(d.io.tri_vertex_index);
  entry.active.set(d.io.tri_active);
  entry.doubleSided.set(d.io.tri_double_sided);
  entry.primitiveIndex.set(d.io.primitive_index);
  entry.geometryIndex.set(d.io.geometry_index);
  entry.pairCount.set(d.io.pair_count);
  entry.slot.set(d.slot);
  fifo.io.enq.valid.set(enqueue);
  m.connect(fifo.io.enq.bits, entry);
  // One pair per cycle from the head node: pair 0, 1, … pair_count − 1, then the node leaves.
  const pair = m.reg(UInt(3), { reset: 0, name: 'pair_index' });
  const head = fifo.io.deq.bits;
  const issue = fifo.io.deq.valid;
  const leave = issue.and(pair.zext(4).eq(head.pairCount.sub(1)));
  fifo.io.deq.ready.set(leave);
  m.when(issue, () => pair.set(mux(leave, lit(0, 3), pair.add(1))));
  return { enqueue, pairCount: d.io.pair_count, rangeStop: d.io.range_stop, head, issue, leave, pair };
}

/**
 * The triangle engine: a pair in per cycle with the ray's query (it accepts the hits: interval, culled faces); its closer
 * accepted triangle merged into the ray's best, with its (u, v), when it comes out.
 */
interface PairResult {
  readonly tests: UIntValue;
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  /** The pair's closest hit is closer than the ray's best (by castRayBvh8's closer rule). */
  readonly better: BoolValue;
  readonly t: UIntValue;
  readonly index: UIntValue;
  readonly shader: UIntValue;
  readonly normal: UIntValue;
  /** The pair's instance key (instanceKey). */
  readonly inst: UIntValue;
  /** The closer triangle's barycentrics. */
  readonly u: UIntValue;
  readonly v: UIntValue;
}

function pairStage(core: Core, q: PairQueue): PairResult {
  const { m, p, f, sb } = core;
  const engine = m.instance(TrianglePair, { fadd: p.fadd, fmul: p.fmul, fdiv: p.fdiv, tagBits: PairTag(sb).width }, { name: 'triangle_engine' });
  const slot = q.head.slot;
  const vertex = (ref: UIntValue) => selectByIndex(ref, Array.from({ length: GFX12_PRIM_VERTICES }, (_, k) => q.head.vertices.bits(96 * k + 95, 96 * k)));
  // Triangle slots 2p (tri0) and 2p + 1 (tri1) of the pair.
  const tri = [0, 1].map((k) => {
    const triangleSlot = cat(q.pair, lit(k, 1));
    const at = (bits: UIntValue, width: number) => selectByIndex(triangleSlot, Array.from({ length: 16 }, (_, s) => bits.bits(width * s + width - 1, width * s)));
    const refs = at(q.head.vertexIndex, 12);
    return {
      vertices: cat(vertex(refs.bits(11, 8)), vertex(refs.bits(7, 4)), vertex(refs.bits(3, 0))),
      active: at(q.head.active, 1),
      oneSided: at(q.head.doubleSided, 1).not(),
      primitive: at(q.head.primitiveIndex, 32),
      geometry: at(q.head.geometryIndex, 32),
    };
  });
  const active = mux(q.issue, cat(tri[1]!.active, tri[0]!.active), lit(0, 2));
  engine.io.in_valid.set(q.issue);
  // A ray's pairs in flight are all of its current level (entering or leaving a BLAS waits for them): its working ray.
  engine.io.origin.set(working(core, slot, (s) => s.origin, (s) => s.objOrigin));
  engine.io.axes.set(working(core, slot, (s) => s.axes, (s) => s.objAxes));
  engine.io.shear.set(working(core, slot, (s) => s.shear, (s) => s.objShear));
  engine.io.vertices.set(cat(tri[1]!.vertices, tri[0]!.vertices));
  engine.io.active.set(active);
  engine.io.prim_index.set(cat(tri[1]!.primitive, tri[0]!.primitive));
  // The engine gets no best: the pair's closer accepted triangle is merged at the output (the closest hit does not depend on the order).
  engine.io.best_valid.set(false);
  engine.io.best_t.set(0);
  engine.io.best_index.set(0);
  // The query decides which hits count (the interval, the culled faces of one-sided triangles); the engine's terminate is unused.
  engine.io.query.set(pick(core, slot, (s) => s.query));
  engine.io.one_sided.set(mux(q.issue, cat(tri[1]!.oneSided, tri[0]!.oneSided), lit(0, 2)));
  const tag = m.wire(PairTag(sb), { name: 'pair_tag' });
  tag.slot.set(slot);
  tag.geometry.at(0).set(tri[0]!.geometry);
  tag.geometry.at(1).set(tri[1]!.geometry);
  tag.tests.set(popcount(active, 2));
  engine.io.tag.set(packBits(tag));

  const out = unpackBits(PairTag(sb), engine.io.out_tag);
  const valid = engine.io.out_valid;
  const outSlot = out.slot;
  const second = engine.io.best_from.bit(1);
  const t = engine.io.best_t_out;
  const index = engine.io.best_index_out;
  const bestT = pick(core, outSlot, (s) => s.bestT);
  const flag = f.compare(t, bestT);
  const inInstance = pick(core, outSlot, (s) => s.inInstance).asBool();
  const inst = instanceKey(inInstance, mux(inInstance, pick(core, outSlot, (s) => s.instUser), lit(0, USER_DATA_BITS)));
  // closerHit: equal t goes to the lower (instance, primitive index).
  const closer = flag.eq(FLAG_NEGATIVE).or(flag.eq(FLAG_ZERO).and(cat(inst, index).lt(cat(pick(core, outSlot, (s) => s.bestInst), pick(core, outSlot, (s) => s.bestIndex)))));
  const instShader = pick(core, outSlot, (s) => s.instShader);
  const geometry = mux(second, out.geometry.at(1), out.geometry.at(0));
  const haveBest = pick(core, outSlot, (s) => s.haveBest).asBool();
  // An any-hit ray is done at its first hit: the pairs behind it neither count nor change the answer (castRayBvh8 returns).
  const ended = pick(core, outSlot, (s) => s.anyHit).asBool().and(haveBest);
  const better = valid.and(engine.io.best_valid_out).and(pick(core, outSlot, (s) => s.fault).asBool().not()).and(haveBest.not().or(closer.and(ended.not())));
  return {
    // Counted as they come out, so that an any-hit ray's pairs after its hit are not.
    tests: mux(valid.and(ended.not()), out.tests, lit(0, 2)),
    valid,
    slot: outSlot,
    better,
    t,
    index,
    // An instance's shader id, unless 0: then the triangle's own (instanceHitResult).
    shader: mux(inInstance.and(instShader.ne(0)), instShader, geometry),
    normal: mux(second, engine.io.normal.bits(191, 96), engine.io.normal.bits(95, 0)),
    inst,
    u: mux(second, engine.io.u.bits(63, 32), engine.io.u.bits(31, 0)),
    v: mux(second, engine.io.v.bits(63, 32), engine.io.v.bits(31, 0)),
  };
}

/**
 * A finished ray whose best hit lies in an instance has its normal (object space) taken back to world space first
 * (normalToWorld with the instance's linear part), one ray per cycle, then finishes as any other.
 */
interface NormalStage {
  /** Bit k: slot k is finished but its normal is still in object space. */
  readonly waiting: UIntValue;
  readonly pick: BoolValue;
  readonly pickSlot: UIntValue;
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly normal: UIntValue;
}

function normalStage(core: Core): NormalStage {
  const { m, p, f, slots } = core;
  const waiting = cat(...slots.map((s) => s.state.is('finish').and(s.haveBest.asBool()).and(s.objectNormal.asBool()).and(s.fault.asBool().not())).reverse());
  const encoder = m.instance(PriorityEncoder, { n: slots.length }, { name: 'normal_slot' });
  encoder.io.in.set(waiting);
  const slot = encoder.io.index;
  const valid = encoder.io.valid;
  const back = normalToWorld(m, f, p, { valid, slot, linear: mux(valid, pick(core, slot, (s) => s.bestLinear), lit(0, LINEAR_BITS)), normal: mux(valid, pick(core, slot, (s) => s.bestNormal), lit(0, 96)) });
  return { waiting, pick: valid, pickSlot: slot, valid: back.valid, slot: back.slot, normal: back.normal };
}

interface SlotEvents {
  readonly rays: Intake;
  readonly pop: Pop;
  readonly entry: Entry;
  readonly decoded: Decoded;
  readonly box: BoxIssue;
  readonly push: Push;
  readonly resolved: Resolution;
  readonly queue: PairQueue;
  readonly pairs: PairResult;
  readonly finish: Finish;
  readonly obb: ObbReturn;
  readonly instance: InstanceRay;
  readonly normal: NormalStage;
}

/** Per-slot state: one walk event per slot per cycle by construction; pair answers touch only the best and the pending count. */
function slotEvents({ m, io, p, slots, pendingBits }: Core, e: SlotEvents): void {
  const { rays, pop, entry, decoded, push, resolved, queue, pairs, finish, obb, instance, normal } = e;
  const inst = decoded.instance;
  const prim = decoded.primitive;
  slots.forEach((s, k) => {
    const at = (slot: UIntValue) => slot.eq(k);
    /** Where a slot goes when its last action ends: on to the next pop, or done when nothing is left (pairs in flight: wait for them). */
    const afterAction = (sp: UIntValue) =>
      m.when(s.pending.ne(0), () => s.state.set('pairs'))
        .elsewhen(sp.eq(0), () => s.state.set('finish'))
        .otherwise(() => s.state.set('ready'));
    /** An overlapped pop given back: the entry stays on the stack, the ray waits for its pairs. */
    const undo = () => {
      s.sp.set(s.sp.add(1));
      s.state.set('pairs');
      s.noOverlap.set(true);
    };
    m.when(rays.accept.and(at(rays.intoSlot)), () => {
      m.when(rays.rayValid, () => s.state.set('inverse')).otherwise(() => s.state.set('finish'));
      s.origin.set(io.ray_origin);
      s.direction.set(io.ray_direction);
      if (rays.axes) s.axes.set(rays.axes);
      s.thread.set(io.ray_thread);
      s.query.set(io.ray_query);
      s.haveBest.set(false);
      s.fault.set(false);
      s.inLeaf.set(false);
      s.reads.set(0);
      s.sp.set(0);
      s.noOverlap.set(false);
      s.unresolved.set(false);
      s.replay.set(false);
      s.fresh.set(true);
      s.obbValid.set(false);
      s.inInstance.set(false);
      s.instAgain.set(false);
    });
    // The rotated ray back from ObbRayRotate: the slot's rotation now (its node, read again, is tested with it).
    m.when(obb.valid.and(at(obb.slot)), () => {
      s.obbValid.set(true);
      s.obbIndex.set(obb.matrix);
      s.obbOrigin.set(obb.origin);
      s.obbInv.set(obb.inv);
    });
    m.when(rays.inverseDone.and(at(rays.inverseSlot)), () => {
      s.inv.set(join3(rays.inverse));
      if (rays.shear) s.shear.set(join3(rays.shear));
      // Unless the root was popped already.
      m.when(s.state.is('inverse'), () => s.state.set('ready'));
    });
    m.when(pop.valid.and(at(pop.slot)), () => {
      s.state.set('wait');
      s.fresh.set(false);
      s.replay.set(false);
      s.instAgain.set(false);
      m.when(s.fresh.asBool().or(s.inLeaf.asBool()).or(s.replay.asBool()).or(s.instAgain.asBool()).not(), () => s.sp.set(pop.depth));
      // Below the BLAS's entries: back to the world ray (its last OBB rotation was of the object-space ray).
      // No read of the BLAS is still to be given back here: a leaving pop is never an overlapped one.
      m.when(pop.leave, () => {
        s.inInstance.set(false);
        s.obbValid.set(false);
        s.reads.set(s.tlasReads);
      });
    });
    m.when(entry.skip.and(at(entry.slot)), () => afterAction(s.sp));
    m.when(entry.undo.and(at(entry.slot)), undo);
    m.when(entry.read.and(at(entry.slot)), () => {
      s.reads.set(s.reads.add(1));
      s.parkedIndex.set(entry.index);
      // An instance node is read again with its tnear for its boxes.
      m.when(entry.instance, () => s.parkedTnear.set(entry.tnear));
    });
    // An instance node read: what a hit in it answers with, and its BLAS root (the ray waits; no pairs are in flight).
    m.when(inst.valid.and(at(inst.slot)), () => {
      s.instLinear.set(inst.fields.linear);
      s.instUser.set(inst.fields.userData);
      s.instShader.set(inst.fields.shaderId);
      s.instRoot.set(inst.fields.root);
      // Its mask shares no bit with the ray's: missed, as enterInstance answers (after its checks: a fault below wins).
      m.when(inst.masked, () => afterAction(s.sp));
    });
    // The object-space ray back: not traceable, the instance is missed; else its boxes are tested with it.
    m.when(instance.valid.and(at(instance.slot)), () => {
      m.when(instance.traceable, () => {
        s.objOrigin.set(instance.origin);
        s.objDir.set(instance.dir);
        s.objInv.set(instance.inv);
        s.objAxes.set(instance.axes);
        s.objShear.set(instance.shear);
        s.instAgain.set(true);
        s.state.set('ready');
      }).otherwise(() => afterAction(s.sp));
    });
    m.when(push.valid.and(at(push.slot)).and(push.overflow.not()), () => {
      s.sp.set(push.pushedSp.trunc(SP_BITS));
      afterAction(push.pushedSp);
    });
    // Into the BLAS: its entries start at the mark, and its reads are counted from 0.
    m.when(push.enter.and(at(push.slot)), () => {
      s.inInstance.set(true);
      s.mark.set(s.sp);
      s.tlasReads.set(s.reads);
      s.reads.set(0);
      s.obbValid.set(false);
    });
    // An overlapped pop's box node that is not tested after all: its read is not one castRayBvh8 makes.
    m.when(push.skip.and(at(push.slot)), () => {
      s.reads.set(s.reads.sub(1));
      afterAction(s.sp);
    });
    m.when(push.undo.and(at(push.slot)), () => {
      s.reads.set(s.reads.sub(1));
      undo();
    });
    m.when(push.park.and(at(push.slot)), () => {
      s.unresolved.set(true);
      s.savedSp.set(s.sp);
      s.parkedTnear.set(push.tnear);
      s.parkedFar.set(push.far);
      s.parkedTests.set(push.tests);
      s.parkedFault.set(push.refused);
      s.state.set('pairs');
      m.when(push.parkPush, () => s.sp.set(push.pushedSp.trunc(SP_BITS)));
    });
    // The parked node settled: skipped (its children dropped, its read taken back), or tested (a fault is below).
    m.when(resolved.valid.and(at(resolved.slot)), () => {
      s.unresolved.set(false);
      m.when(resolved.skip, () => {
        s.sp.set(s.savedSp);
        s.reads.set(s.reads.sub(1));
        afterAction(s.savedSp);
      });
      m.when(resolved.giveBack, () => {
        s.sp.set(s.savedSp);
        s.reads.set(s.reads.sub(1));
        s.replay.set(true);
        s.state.set('ready');
      });
      m.when(resolved.commit, () => afterAction(s.sp));
    });
    // A primitive node decoded: its pairs queued; the leaf goes on at the next node, or ends once its pairs are answered.
    m.when(prim.valid.and(prim.fault.not()).and(at(prim.slot)), () => {
      s.queued.set(true);
      m.when(queue.rangeStop, () => {
        s.inLeaf.set(false);
        s.state.set('pairs');
      }).otherwise(() => {
        s.inLeaf.set(true);
        s.leafNext.set(prim.index.add(1));
        // Any-hit: castRayBvh8 reads the leaf's next node only after this node's pairs missed.
        m.when(s.anyHit.asBool(), () => s.state.set('pairs')).otherwise(() => s.state.set('ready'));
      });
    });
    m.when(queue.leave.and(at(queue.head.slot)), () => s.queued.set(false));
    const added = mux(queue.enqueue.and(at(prim.slot)), queue.pairCount.zext(pendingBits), lit(0, pendingBits));
    const answered = pairs.valid.and(at(pairs.slot)).zext(pendingBits);
    s.pending.set(s.pending.add(added).sub(answered));
    m.when(rays.accept.and(at(rays.intoSlot)), () => s.rootWait.set(rootWait(p))).elsewhen(s.rootWait.ne(0), () => s.rootWait.set(s.rootWait.sub(1)));
    m.when(s.pending.eq(0), () => s.noOverlap.set(false));
    m.when(pairs.better.and(at(pairs.slot)), () => {
      s.haveBest.set(true);
      s.bestT.set(pairs.t);
      s.bestIndex.set(pairs.index);
      s.bestShader.set(pairs.shader);
      s.bestNormal.set(pairs.normal);
      s.bestU.set(pairs.u);
      s.bestV.set(pairs.v);
      s.bestInst.set(pairs.inst);
      s.bestLinear.set(s.instLinear);
      s.objectNormal.set(pairs.inst.bit(USER_DATA_BITS));
    });
    // Done: a fault, an any-hit ray's hit, or nothing left (no entry, not in a leaf); else on to the next pop.
    const done = s.fault.asBool().or(s.anyHit.asBool().and(s.haveBest.asBool())).or(s.sp.eq(0).and(s.inLeaf.asBool().not()));
    m.when(s.state.is('pairs').and(s.pending.eq(0)).and(s.unresolved.asBool().not()), () => m.when(done, () => s.state.set('finish')).otherwise(() => s.state.set('ready')));
    // A fault ends the walk: the ray answers a miss once its pairs in flight are out.
    const fault = entry.fault.and(at(entry.slot)).or(inst.valid.and(inst.fields.fault).and(at(inst.slot))).or(push.fault.and(at(push.slot))).or(resolved.fault.and(at(resolved.slot))).or(prim.fault.and(at(prim.slot))).or(push.overflow.and(at(push.slot)));
    m.when(fault, () => {
      s.fault.set(true);
      s.haveBest.set(false);
      s.inLeaf.set(false);
      s.state.set('pairs');
    });
    m.when(normal.pick.and(at(normal.pickSlot)), () => s.state.set('normal'));
    m.when(normal.valid.and(at(normal.slot)), () => {
      s.bestNormal.set(normal.normal);
      s.objectNormal.set(false);
      s.state.set('finish');
    });
    m.when(finish.pick.and(at(finish.pickSlot)), () => s.state.set('drain'));
    m.when(finish.valid.and(at(finish.slot)), () => s.state.set('free'));
  });
}

interface CounterEvents {
  readonly accept: BoolValue;
  readonly entry: Entry;
  readonly push: Push;
  readonly resolved: Resolution;
  readonly pairs: PairResult;
  readonly decoded: Decoded;
}

function counters(core: Core, e: CounterEvents): void {
  const { m, io } = core;
  const counter = (by: UIntValue, name: string) => {
    const c = m.reg(UInt(32), { reset: 0, name });
    c.set(c.add(by.zext(32)));
    return c;
  };
  io.counters.rays.set(counter(e.accept.zext(1), 'ray_count'));
  io.counters.tests.set(counter(e.pairs.tests, 'triangle_tests'));
  io.counters.node_tests.set(counter(e.push.counted.zext(2).add(e.resolved.commit.zext(2)), 'node_test_count'));
  io.counters.busy_cycles.set(counter(stateMask(core, 'free').andR().not().zext(1), 'busy'));
  io.box_tests.set(counter(e.push.boxTests.zext(5).add(e.resolved.boxTests.zext(5)), 'box_test_count'));
  io.primitive_nodes.set(counter(e.decoded.primitive.valid.and(e.decoded.primitive.fault.not()).zext(1), 'primitive_node_count'));
  // An instance node's first read (its second, for its boxes, is not one castRayBvh8 makes).
  io.instance_nodes.set(counter(e.entry.read.and(e.entry.instance).zext(1), 'instance_node_count'));
}
