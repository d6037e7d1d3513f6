// The BVH intersection core: many rays in flight, each walking its BVH4 depth first exactly as the golden traversal does,
// one node test (RayBox4) and one triangle test (Möller–Trumbore) entering per cycle (docs/bvh-hardware.md); each ray
// with its query (docs/rays.md): the interval, masks, culled faces and any-hit.
import { Bool, Enum, UInt, Vec, cat, defineModule, input, lit, mux, output, packBits, unpackBits, type BoolValue, type EnumValue, type MemoryHandle, type ModuleBuilder, type PortsValue, type UIntType, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { FLAG_NEGATIVE, FLAG_POSITIVE, FLAG_ZERO, INF_BITS } from '../../hdl/lib/index.ts';
import { Fifo, RoundRobinArbiter, clog2, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { mollerTrumbore, mollerTrumboreDepth, mollerTrumboreHit } from '../icCore/mollerTrumbore.ts';
import { join3, split3 } from '../icCore/vec3.ts';
import { rayPorts, triangleReadPorts } from '../icCore/icCore.ts';
import { acceptsHit, floatMax, floatMin, queryFields } from '../icCore/queryAccept.ts';
import { isWatertight, watertightTest, type TriangleTestOption } from '../icCore/watertightIntersection.ts';
import { BoxTag, CHILDREN, LeafEntry, NodeWord, StackEntry } from './bvhWords.ts';
import { answerStage, type Finish } from './rayAnswer.ts';
import { rayIntake, type Intake } from './rayIntake.ts';
import { RayBox4, rayBox4Latency } from './rayBox4.ts';

export interface BvhIcCoreParams extends TriangleTestOption {
  readonly fadd: number;
  readonly fmul: number;
  readonly fdiv: number;
  /** Rays in flight: a power of two from 2 to 32. */
  readonly rays: number;
  /** Bits of a node index and of a TriRange index (the stack holds either). */
  readonly indexBits: number;
  /** Bits of a triangle id (the triangle memory's `req_id`). */
  readonly triangleBits: number;
  /** Cycles from a triangle request to its answer (the triangle memory's latency). */
  readonly memory: number;
}

/** The traversal stack's entries per ray (docs/bvh.md: the builder and decodeBvh4 refuse BVHs that need more). */
export const STACK_ENTRIES = 64;
const STACK_BANKS = 4;
const SP_BITS = clog2(STACK_ENTRIES + 1);


/** A ray slot's state. free → inverse (1/d in the dividers) → ready ⇄ wait (a pop, node or leaf in flight) → finish → drain → free; wait → finish on a fault. */
export const RaySlotState = Enum('RaySlotState', ['free', 'inverse', 'ready', 'wait', 'finish', 'drain']);
type RaySlotStateName = (typeof RaySlotState.members)[number];

export function checkBvhIcCoreParams(p: BvhIcCoreParams): void {
  for (const k of ['fadd', 'fmul', 'fdiv', 'memory'] as const) if (!Number.isInteger(p[k]) || p[k] < 0 || p[k] > 40) throw new Error(`BvhIcCore: ${k} latency must be an integer from 0 to 40, got ${p[k]}`);
  if (![2, 4, 8, 16, 32].includes(p.rays)) throw new Error(`BvhIcCore: rays must be 2, 4, 8, 16 or 32, got ${p.rays}`);
  if (!Number.isInteger(p.indexBits) || p.indexBits < 1 || p.indexBits > 24) throw new Error(`BvhIcCore: indexBits must be an integer from 1 to 24, got ${p.indexBits}`);
  if (!Number.isInteger(p.triangleBits) || p.triangleBits < 1 || p.triangleBits > 24) throw new Error(`BvhIcCore: triangleBits must be an integer from 1 to 24, got ${p.triangleBits}`);
  isWatertight(p); // throws on an unknown triangle test
}

/** Bits of a BVHNode4 as the node memory answers (NodeWord: the boxes, then child_idx[0..3], then child_flags). */
export const nodeWordBits = (indexBits: number): number => NodeWord(indexBits).width;

export const bvhIcCorePorts = (p: BvhIcCoreParams) => ({
  ...rayPorts(),
  /** One cycle per event: a ray needed more than STACK_ENTRIES stack entries (a malformed BVH); it finishes with what it has. The system keeps it in its sticky load_error. */
  stack_overflow: output(Bool),
  // The loaded sizes: a node or TriRange index at or past its count, or a TriRange reaching past the triangles, faults the ray.
  node_count: input(UInt(p.indexBits + 1)),
  range_count: input(UInt(p.indexBits + 1)),
  triangle_count: input(UInt(p.triangleBits)),
  // The node memory's read side: the answer comes one cycle after the request.
  node_req_valid: output(Bool),
  node_req_index: output(UInt(p.indexBits)),
  node_resp: input(UInt(nodeWordBits(p.indexBits))),
  // The TriRange memory's read side, likewise one cycle.
  range_req_valid: output(Bool),
  range_req_index: output(UInt(p.indexBits)),
  range_resp_first: input(UInt(p.triangleBits)),
  range_resp_count: input(UInt(p.triangleBits)),
  // The triangle memory's read side (`memory` cycles).
  ...triangleReadPorts(p.triangleBits),
});

/** Cycles from one pop of a ray to its next when the entry is a node: the stack read, the node read, the ray–box unit, the push. */
export const bvhNodeRoundTrip = (p: BvhIcCoreParams): number => 3 + rayBox4Latency({ fadd: p.fadd, fmul: p.fmul, tagBits: 1 });

type BvhIcCoreIo = PortsValue<ReturnType<typeof bvhIcCorePorts>>;

/** One ray in flight: where its walk is, its stack pointer, the ray and its constants, the closest hit so far. */
interface RaySlot {
  readonly state: EnumValue<RaySlotStateName>;
  /** The root has not been popped yet: the stack is empty but the ray is not done. */
  readonly fresh: UIntValue;
  readonly sp: UIntValue;
  readonly origin: UIntValue;
  readonly direction: UIntValue;
  readonly inv: UIntValue;
  readonly thread: UIntValue;
  /** The ray's query (ray_query): tmin, tmax, the flags word. */
  readonly query: UIntValue;
  readonly haveBest: UIntValue;
  /** The ray reached an index past the loaded BVH: it answers a miss with done_fault. */
  readonly fault: UIntValue;
  readonly bestT: UIntValue;
  readonly bestIndex: UIntValue;
  readonly bestShader: UIntValue;
  readonly bestNormal: UIntValue;
  /** The best hit's barycentrics (binary32), RV13.y and .z. */
  readonly bestU: UIntValue;
  readonly bestV: UIntValue;
  // The watertight test's ray constants (literal 0 for Möller–Trumbore).
  readonly axes: UIntValue;
  readonly shear: UIntValue;
}

/** What every stage sees: the module, its ports and parameters, the float units, the ray slots. */
interface Core {
  readonly m: ModuleBuilder;
  readonly io: BvhIcCoreIo;
  readonly p: BvhIcCoreParams;
  readonly f: FloatOps;
  readonly slots: readonly RaySlot[];
  /** Bits of a slot number and of a node or TriRange index. */
  readonly sb: number;
  readonly ib: number;
  readonly watertight: boolean;
}

export const BvhIcCore = defineModule('BvhIcCore', bvhIcCorePorts, (m, io, p) => {
  checkBvhIcCoreParams(p);
  const core: Core = { m, io, p, f: new FloatOps(m, p), slots: raySlots(m, p), sb: clog2(p.rays), ib: p.indexBits, watertight: isWatertight(p) };
  const stack = traversalStack(core);
  const rays = rayIntake(m, io, { free: stateMask(core, 'free'), slots: p.rays, fdiv: p.fdiv, watertight: core.watertight });
  const pop = popStage(core, stack);
  const entry = entryStage(core, pop);
  const node = nodeStage(core, entry);
  const push = pushStage(core, stack, node.box);
  const request = leafWalk(core, node.leafQueue);
  const triangle = triangleStage(core, request);
  const finish = answerStage(m, io, p, core.f, core.slots, stateMask(core, 'finish'));
  slotEvents(core, { rays, pop, entry, node, push, triangle, finish });
  counters(core, rays.accept, triangle.counted, entry.node);
});

function raySlots(m: ModuleBuilder, p: BvhIcCoreParams): RaySlot[] {
  const watertight = isWatertight(p);
  return Array.from({ length: p.rays }, (_, k) => ({
    state: m.reg(RaySlotState, { reset: 'free', name: `ray${k}_state` }),
    fresh: m.reg(Bool, { reset: 0, name: `ray${k}_fresh` }),
    sp: m.reg(UInt(SP_BITS), { reset: 0, name: `ray${k}_sp` }),
    origin: m.reg(UInt(96), { name: `ray${k}_origin` }),
    direction: m.reg(UInt(96), { name: `ray${k}_direction` }),
    inv: m.reg(UInt(96), { name: `ray${k}_inv_dir` }),
    thread: m.reg(UInt(5), { name: `ray${k}_thread` }),
    query: m.reg(UInt(96), { name: `ray${k}_query` }),
    haveBest: m.reg(Bool, { reset: 0, name: `ray${k}_have_best` }),
    fault: m.reg(Bool, { reset: 0, name: `ray${k}_fault` }),
    bestT: m.reg(UInt(32), { name: `ray${k}_best_t` }),
    bestIndex: m.reg(UInt(p.triangleBits), { name: `ray${k}_best_triangle` }),
    bestShader: m.reg(UInt(32), { name: `ray${k}_best_shader` }),
    bestNormal: m.reg(UInt(96), { name: `ray${k}_best_normal` }),
    bestU: m.reg(UInt(32), { name: `ray${k}_best_u` }),
    bestV: m.reg(UInt(32), { name: `ray${k}_best_v` }),
    // Unused by Möller–Trumbore, which synthesis then drops.
    axes: watertight ? m.reg(UInt(6), { name: `ray${k}_axes` }) : lit(0, 6),
    shear: watertight ? m.reg(UInt(96), { name: `ray${k}_shear` }) : lit(0, 96),
  }));
}

/** An any-hit ray that has its hit: it walks no further, and its tests still in flight are passed by. */
const stopped = (s: RaySlot): UIntValue => s.haveBest.and(queryFields(s.query).anyHit);

/** A field of the slot `slot` names. */
const pick = (core: Core, slot: UIntValue, field: (s: RaySlot) => UIntValue): UIntValue => selectByIndex(slot, core.slots.map(field));
/** Bit k: slot k is in `state`. */
const stateMask = (core: Core, state: RaySlotStateName): UIntValue => cat(...core.slots.map((s) => s.state.is(state)).reverse());

/** The stack: four banks, entry d of ray s in bank d mod 4 at word {s, d / 4}. */
interface TraversalStack {
  readonly banks: readonly MemoryHandle<UIntType>[];
  readonly word: (slot: UIntValue, depth: UIntValue) => UIntValue;
}

function traversalStack({ m, p, ib }: Core): TraversalStack {
  const banks = Array.from({ length: STACK_BANKS }, (_, b) => m.memory(UInt(StackEntry(ib).width), p.rays * (STACK_ENTRIES / STACK_BANKS), { name: `stack_bank${b}` }));
  return { banks, word: (slot, depth) => cat(slot, depth.bits(clog2(STACK_ENTRIES) - 1, 2)) };
}

/** S0: a ready ray, chosen round robin, and the read of its top entry. */
interface Pop {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly fresh: BoolValue;
  /** The depth of the entry popped: the slot's stack pointer after the pop. */
  readonly depth: UIntValue;
  readonly reads: readonly UIntValue[];
}

function popStage(core: Core, stack: TraversalStack): Pop {
  const { m, slots } = core;
  const readyArb = m.instance(RoundRobinArbiter, { n: slots.length, width: 1 }, { name: 'pop_arbiter' });
  slots.forEach((s, k) => {
    readyArb.io.in.at(k).valid.set(s.state.is('ready'));
    readyArb.io.in.at(k).bits.set(0);
  });
  readyArb.io.out.ready.set(true);
  const slot = readyArb.io.chosen;
  const depth = pick(core, slot, (s) => s.sp).sub(1);
  return { valid: readyArb.io.out.valid, slot, fresh: pick(core, slot, (s) => s.fresh).asBool(), depth, reads: stack.banks.map((bank) => bank.read(stack.word(slot, depth))) };
}

/** S1: the popped entry; skipped when farther than the best hit, else its node or TriRange read, or a fault when it lies past what was loaded. */
interface Entry {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  readonly haveBest: BoolValue;
  readonly bestT: UIntValue;
  /** The ray's interval, for the box clamp. */
  readonly tmin: UIntValue;
  readonly tmax: UIntValue;
  readonly skip: BoolValue;
  readonly fault: BoolValue;
  readonly node: BoolValue;
  readonly range: BoolValue;
}

function entryStage(core: Core, pop: Pop): Entry {
  const { m, io, f, ib } = core;
  const s1Valid = m.regNext(pop.valid, { reset: 0 });
  const s1Slot = m.regNext(pop.slot);
  const s1Fresh = m.regNext(pop.fresh);
  const s1Bank = m.regNext(pop.depth.bits(1, 0));
  const s1Stored = selectByIndex(s1Bank, pop.reads);
  const s1Entry = unpackBits(StackEntry(ib), mux(s1Fresh, lit(0, StackEntry(ib).width), s1Stored)); // the root: node 0 at tnear +0
  const s1HaveBest = pick(core, s1Slot, (s) => s.haveBest).asBool();
  const s1BestT = pick(core, s1Slot, (s) => s.bestT);
  const s1Skip = s1Valid.and(s1HaveBest).and(f.compare(s1Entry.tnear, s1BestT).eq(FLAG_POSITIVE));
  // An entry that is not skipped is read only if its index is inside what was loaded; otherwise the ray faults here.
  const s1Loaded = s1Entry.index.zext(ib + 1).lt(mux(s1Entry.leaf, io.range_count, io.node_count));
  const s1Read = s1Valid.and(s1Skip.not());
  const s1Fault = s1Read.and(s1Loaded.not());
  const s1Node = s1Read.and(s1Loaded).and(s1Entry.leaf.not());
  const s1Range = s1Read.and(s1Loaded).and(s1Entry.leaf);
  io.node_req_valid.set(s1Node);
  io.node_req_index.set(mux(s1Node, s1Entry.index, lit(0, ib)));
  io.range_req_valid.set(s1Range);
  io.range_req_index.set(mux(s1Range, s1Entry.index, lit(0, ib)));
  const q = queryFields(pick(core, s1Slot, (s) => s.query));
  return { valid: s1Valid, slot: s1Slot, haveBest: s1HaveBest, bestT: s1BestT, tmin: q.tmin, tmax: q.tmax, skip: s1Skip, fault: s1Fault, node: s1Node, range: s1Range };
}

/**
 * S2: a node's four boxes enter the ray–box unit, clamped to the ray's interval and best hit (rayAccept.ts boxClamp); a
 * TriRange enters the leaf queue, or faults the ray when it reaches past the loaded triangles.
 */
interface NodeIssue {
  readonly slot: UIntValue;
  readonly fault: BoolValue;
  readonly box: ReturnType<typeof rayBoxUnit>['io'];
  readonly leafQueue: ReturnType<typeof leafQueue>;
}

const rayBoxUnit = ({ m, p, sb, ib }: Core) => m.instance(RayBox4, { fadd: p.fadd, fmul: p.fmul, tagBits: BoxTag(ib, sb).width }, { name: 'ray_box' });
const leafQueue = ({ m, p, sb, slots }: Core) => m.instance(Fifo, { payload: LeafEntry(p.triangleBits, sb), depth: slots.length }, { name: 'leaf_queue' });

function nodeStage(core: Core, entry: Entry): NodeIssue {
  const { m, io, p, sb, ib } = core;
  const s2Node = m.regNext(entry.node, { reset: 0 });
  const s2Range = m.regNext(entry.range, { reset: 0 });
  const s2Slot = m.regNext(entry.slot);
  const s2Best = m.regNext(mux(entry.haveBest, entry.bestT, lit(INF_BITS, 32)));
  const s2Tmin = m.regNext(entry.tmin);
  const s2Tmax = m.regNext(entry.tmax);
  const node = unpackBits(NodeWord(ib), io.node_resp);
  const box = rayBoxUnit(core);
  box.io.in_valid.set(s2Node);
  box.io.origin.set(mux(s2Node, pick(core, s2Slot, (s) => s.origin), lit(0, 96)));
  box.io.inv_dir.set(mux(s2Node, pick(core, s2Slot, (s) => s.inv), lit(0, 96)));
  // Entry at least fmax(+0, tmin), exit at most fmin(tmax, best): a NaN bound drops out (such a ray accepts nothing).
  // Combinational clamps: the ray–box unit registers its inputs.
  box.io.lower.set(floatMax(core.m, lit(0, 32), s2Tmin, 'clamp_lower'));
  box.io.limit.set(floatMin(core.m, s2Tmax, s2Best, 'clamp_limit'));
  box.io.boxes.set(mux(s2Node, packBits(node.boxes), lit(0, box.io.boxes.width)));
  box.io.child_valid.set(mux(s2Node, cat(...[...node.childFlags].reverse().map((flags) => flags.ne(0))), lit(0, CHILDREN)));
  const tag = m.wire(BoxTag(ib, sb), { name: 'box_tag' });
  tag.slot.set(s2Slot);
  [...tag.children].forEach((child, c) => {
    child.leaf.set(node.childFlags.at(c).bit(1));
    child.index.set(node.childIndex.at(c));
  });
  box.io.tag.set(packBits(tag));

  // A TriRange whose triangles run past the loaded ones faults the ray instead of entering the leaf queue.
  const tw = p.triangleBits + 1;
  const s2RangeEnd = io.range_resp_first.zext(tw).add(io.range_resp_count.zext(tw));
  const s2Fault = s2Range.and(s2RangeEnd.gt(io.triangle_count.zext(tw)));
  const leaves = leafQueue(core);
  leaves.io.enq.valid.set(s2Range.and(s2Fault.not()));
  const leaf = m.wire(LeafEntry(p.triangleBits, sb), { name: 'leaf_in' });
  leaf.slot.set(s2Slot);
  leaf.first.set(io.range_resp_first);
  leaf.count.set(io.range_resp_count);
  m.connect(leaves.io.enq.bits, leaf);
  return { slot: s2Slot, fault: s2Fault, box: box.io, leafQueue: leaves };
}

/** The ray–box result: the hit children pushed, the nearest last (popped first); more than STACK_ENTRIES overflows. */
interface Push {
  readonly valid: BoolValue;
  readonly slot: UIntValue;
  /** The slot's stack pointer after the push (one bit wider, to see the overflow). */
  readonly pushedSp: UIntValue;
  readonly overflow: BoolValue;
}

function pushStage(core: Core, stack: TraversalStack, box: NodeIssue['box']): Push {
  const { m, io, sb, ib } = core;
  const valid = box.out_valid;
  const tag = unpackBits(BoxTag(ib, sb), box.out_tag);
  const tnear = unpackBits(Vec(CHILDREN, UInt(32)), box.tnear);
  const order = unpackBits(Vec(CHILDREN, UInt(2)), box.order);
  const childEntry = (c: number) => cat(packBits(tag.children.at(c)), tnear.at(c)); // a StackEntry: the child above its tnear
  const hitCount = box.hit_count;
  const pushSp = pick(core, tag.slot, (s) => s.sp);
  const pushedSp = pushSp.zext(SP_BITS + 1).add(hitCount.zext(SP_BITS + 1));
  const overflow = valid.and(pushedSp.gt(STACK_ENTRIES));
  stack.banks.forEach((bank, b) => {
    // Entry j (0 = deepest) of this push lands at depth sp + j, so bank b takes j = (b − sp) mod 4.
    const j = lit(b, 2).sub(pushSp.bits(1, 0));
    const k = hitCount.sub(1).sub(j.zext(3)).bits(1, 0); // j = 0 is the farthest: order slot hit_count − 1
    const child = selectByIndex(k, [...order]);
    const depth = pushSp.add(j.zext(SP_BITS));
    m.when(valid.and(overflow.not()).and(j.zext(3).lt(hitCount)), () => bank.write(stack.word(tag.slot, depth), selectByIndex(child, [0, 1, 2, 3].map(childEntry))));
  });
  io.stack_overflow.set(overflow);
  return { valid, slot: tag.slot, pushedSp, overflow };
}

/**
 * The leaves: one triangle request per cycle, the first of a new TriRange or the next of the current one. A TriRange
 * of an any-hit ray that has its hit is cut short: its end goes at once, without the triangles left.
 */
interface TriangleRequest {
  readonly test: BoolValue;
  /** The TriRange's last request (an empty TriRange sends only this end). */
  readonly last: BoolValue;
  readonly slot: UIntValue;
  readonly id: UIntValue;
}

function leafWalk(core: Core, leaves: NodeIssue['leafQueue']): TriangleRequest {
  const { m, io, p, sb } = core;
  const walking = m.reg(Bool, { reset: 0 });
  const walkSlot = m.reg(UInt(sb));
  const walkNext = m.reg(UInt(p.triangleBits));
  const walkLeft = m.reg(UInt(p.triangleBits));
  const head = leaves.io.deq.bits;
  leaves.io.deq.ready.set(walking.not());
  const start = leaves.io.deq.fire;
  const reqSlot = mux(walking, walkSlot, head.slot);
  const reqId = mux(walking, walkNext, head.first);
  const reqLeft = mux(walking, walkLeft, head.count);
  const reqActive = walking.or(start);
  const cut = walking.and(pick(core, walkSlot, stopped).asBool());
  const reqTest = reqActive.and(reqLeft.ne(0)).and(cut.not());
  const reqLast = reqActive.and(reqLeft.le(1).or(cut));
  m.when(reqActive, () => {
    walking.set(reqLeft.gt(1).and(cut.not()));
    walkSlot.set(reqSlot);
    walkNext.set(reqId.add(1));
    walkLeft.set(reqLeft.sub(1));
  });
  io.tri.req.valid.set(reqTest);
  io.tri.req.id.set(mux(reqTest, reqId, lit(0, p.triangleBits)));
  return { test: reqTest, last: reqLast, slot: reqSlot, id: reqId };
}

/**
 * The triangle test pipeline: `depth` cycles after each answer enters it, the test's hit and whether the ray's query
 * accepts it; a cycle later the decision: whether it is closer than the slot's best. An any-hit ray stops at its first
 * accepted hit: the tests of its that are still in the pipeline then are passed by, neither accepted nor counted
 * (castRayBvh returns there).
 */
interface TriangleResult {
  /** A test decided for a ray still walking: the triangle test counter. */
  readonly counted: BoolValue;
  readonly accepted: BoolValue;
  readonly closer: BoolValue;
  /** The TriRange's last test is done: the slot goes on, */
  readonly end: BoolValue;
  /** or finishes: an any-hit ray has its hit. */
  readonly stop: BoolValue;
  readonly slot: UIntValue;
  readonly id: UIntValue;
  readonly shader: UIntValue;
  readonly t: UIntValue;
  readonly u: UIntValue;
  readonly v: UIntValue;
  readonly normal: UIntValue;
}

function triangleStage(core: Core, req: TriangleRequest): TriangleResult {
  const { m, io, p, f, watertight } = core;
  const respTest = delayValid(m, req.test, p.memory, 'resp_test');
  const respLast = delayValid(m, req.last, p.memory, 'resp_last');
  const respSlot = delay(m, req.slot, p.memory, 'resp_slot');
  const respId = delay(m, req.id, p.memory, 'resp_id');
  const entering = respTest.and(io.tri.resp.valid).and(io.tri.resp.not_valid.not());
  const slotAt = (cycles: number) => delay(m, respSlot, cycles, `test_slot_at${cycles}`);
  const slotAtStage = (cycles: number) => (cycles === 0 ? respSlot : slotAt(cycles));
  const rayAt = (cycles: number) => {
    const s = slotAtStage(cycles);
    return { o: split3(pick(core, s, (r) => r.origin)), d: split3(pick(core, s, (r) => r.direction)) };
  };
  const vertices = [split3(io.tri.resp.v0), split3(io.tri.resp.v1), split3(io.tri.resp.v2)] as const;
  const test = watertight
    ? watertightTest({
        m,
        units: f,
        p,
        vertices,
        originAt: (cycles) => split3(pick(core, slotAtStage(cycles), (s) => s.origin)),
        constantsAt: (cycles) => ({ axes: pick(core, slotAtStage(cycles), (s) => s.axes), shear: pick(core, slotAtStage(cycles), (s) => s.shear) }),
      })
    : mollerTrumbore(m, f, p, vertices, rayAt);
  const depth = mollerTrumboreDepth(p); // the watertight test's depth is the same (watertightDepth)
  const testValid = delayValid(m, entering, depth, 'test_valid');
  const testEnd = delayValid(m, respLast, depth, 'test_end');
  const testSlot = slotAt(depth);
  // The test's end: its hit, and whether the query takes it (interval, mask, face), registered; the slot's own state
  // (its best, whether it has stopped) is read a cycle later, where it is updated.
  const testMask = delay(m, io.tri.resp.mask, depth, 'test_mask');
  const testOneSided = delayValid(m, io.tri.resp.one_sided, depth, 'test_one_sided');
  const testHit = testValid.and(test.kind === 'watertight' ? test.hit : mollerTrumboreHit(f, test));
  const queryTakes = acceptsHit(f, pick(core, testSlot, (s) => s.query), { hit: testHit, t: test.t, det: test.det }, testMask, testOneSided);
  const d = (x: UIntValue, name: string) => m.regNext(x, { name: `decide_${name}` });
  const valid = m.regNext(testValid, { reset: 0, name: 'decide_valid' });
  const end = m.regNext(testEnd, { reset: 0, name: 'decide_end' });
  const takes = m.regNext(queryTakes, { reset: 0, name: 'decide_takes' });
  const slot = d(testSlot, 'slot');
  const id = d(delay(m, respId, depth, 'test_id'), 'id');
  const t = d(test.t, 't');
  // The decision: closest among the accepted hits; an any-hit ray stops at its first.
  const haveBest = pick(core, slot, (s) => s.haveBest).asBool();
  const slotStopped = pick(core, slot, stopped).asBool();
  const counted = valid.and(slotStopped.not());
  const accepted = counted.and(takes);
  const tFlag = f.compare(t, pick(core, slot, (s) => s.bestT));
  const closer = haveBest.not()
    .or(tFlag.eq(FLAG_NEGATIVE))
    .or(tFlag.eq(FLAG_ZERO).and(id.lt(pick(core, slot, (s) => s.bestIndex))));
  const stop = queryFields(pick(core, slot, (s) => s.query)).anyHit.and(slotStopped.or(accepted));
  const shader = d(delay(m, io.tri.resp.shader, depth, 'test_shader'), 'shader');
  return { counted, accepted, closer, end, stop, slot, id, shader, t, u: d(test.u, 'u'), v: d(test.v, 'v'), normal: d(test.normal, 'normal') };
}

/** Every stage's events, to update the slots they name. */
interface SlotEvents {
  readonly rays: Intake;
  readonly pop: Pop;
  readonly entry: Entry;
  readonly node: NodeIssue;
  readonly push: Push;
  readonly triangle: TriangleResult;
  readonly finish: Finish;
}

/** Per-slot state (at most one event per slot per cycle, by construction). */
function slotEvents({ m, io, slots }: Core, { rays, pop, entry, node, push, triangle, finish }: SlotEvents): void {
  /** Where a slot goes when its last action ends: on to the next pop, or done when nothing is left. */
  const afterAction = (s: RaySlot, sp: UIntValue) => m.when(sp.eq(0), () => s.state.set('finish')).otherwise(() => s.state.set('ready'));
  slots.forEach((s, k) => {
    m.when(rays.accept.and(rays.intoSlot.eq(k)), () => {
      m.when(rays.rayValid, () => s.state.set('inverse')).otherwise(() => s.state.set('finish'));
      s.origin.set(io.ray_origin);
      s.direction.set(io.ray_direction);
      s.thread.set(io.ray_thread);
      s.query.set(io.ray_query);
      s.haveBest.set(false);
      s.fault.set(false);
      s.sp.set(0);
    });
    const axes = rays.axes;
    if (axes) m.when(rays.accept.and(rays.intoSlot.eq(k)), () => s.axes.set(axes));
    m.when(rays.inverseDone.and(rays.inverseSlot.eq(k)), () => {
      s.inv.set(join3(rays.inverse));
      if (rays.shear) s.shear.set(join3(rays.shear));
      s.fresh.set(true);
      s.state.set('ready');
    });
    m.when(pop.valid.and(pop.slot.eq(k)), () => {
      s.state.set('wait');
      m.when(s.fresh, () => s.fresh.set(false)).otherwise(() => s.sp.set(pop.depth));
    });
    m.when(entry.skip.and(entry.slot.eq(k)), () => afterAction(s, s.sp));
    m.when(push.valid.and(push.slot.eq(k)), () => {
      m.when(push.overflow, () => s.state.set('finish')).otherwise(() => {
        s.sp.set(push.pushedSp.trunc(SP_BITS));
        afterAction(s, push.pushedSp);
      });
    });
    m.when(triangle.accepted.and(triangle.closer).and(triangle.slot.eq(k)), () => {
      s.haveBest.set(true);
      s.bestT.set(triangle.t);
      s.bestU.set(triangle.u);
      s.bestV.set(triangle.v);
      s.bestIndex.set(triangle.id);
      s.bestShader.set(triangle.shader);
      s.bestNormal.set(triangle.normal);
    });
    m.when(triangle.end.and(triangle.slot.eq(k)), () => m.when(triangle.stop, () => s.state.set('finish')).otherwise(() => afterAction(s, s.sp)));
    // A fault ends the walk: nothing of this ray is in flight (it waits on this entry), so it finishes as a miss.
    m.when(entry.fault.and(entry.slot.eq(k)).or(node.fault.and(node.slot.eq(k))), () => {
      s.fault.set(true);
      s.haveBest.set(false);
      s.state.set('finish');
    });
    m.when(finish.pick.and(finish.pickSlot.eq(k)), () => s.state.set('drain'));
    m.when(finish.valid.and(finish.slot.eq(k)), () => s.state.set('free'));
  });
}

function counters(core: Core, accept: BoolValue, tested: BoolValue, nodeRead: BoolValue): void {
  const { m, io } = core;
  const counter = (event: BoolValue, name: string) => {
    const c = m.reg(UInt(32), { reset: 0, name });
    m.when(event, () => c.set(c.add(1)));
    return c;
  };
  io.counters.rays.set(counter(accept, 'ray_count'));
  io.counters.tests.set(counter(tested, 'triangle_tests'));
  io.counters.node_tests.set(counter(nodeRead, 'node_test_count'));
  io.counters.busy_cycles.set(counter(stateMask(core, 'free').andR().not(), 'busy'));
}
