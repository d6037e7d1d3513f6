// The BVH intersection core: many rays in flight, each walking its BVH4 depth first exactly as the golden traversal does,
// one node test (RayBox4) and one triangle test (Möller–Trumbore) entering per cycle (docs/bvh-hardware.md).
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { FDiv } from '../../hdl/lib/index.ts';
import { Fifo, PriorityEncoder, RoundRobinArbiter, clog2, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { FloatOps } from '../icCore/floatOps.ts';
import { mollerTrumbore, mollerTrumboreDepth, mollerTrumboreHit } from '../icCore/mollerTrumbore.ts';
import { join3, split3, type Vec3 } from '../icCore/vec3.ts';
import { rayPorts, triangleReadPorts } from '../icCore/icCore.ts';
import { isWatertight, rayAxes, shearOperands, watertightTest, type TriangleTestOption } from '../icCore/watertightTest.ts';
import { CHILDREN, RayBox4, rayBox4Latency } from './rayBox4.ts';

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

const ONE = 0x3f800000;
const POS_INF = 0x7f800000;
const FLAG_POSITIVE = 0b10;
const FLAG_NEGATIVE = 0b11;
const FLAG_ZERO = 0b00;

/** A ray slot's state. FREE → INVERSE (1/d in the dividers) → READY ⇄ WAIT (a pop, node or leaf in flight) → FINISH → DRAIN → FREE; WAIT → FINISH on a fault. */
const STATE = { free: 0, inverse: 1, ready: 2, wait: 3, finish: 4, drain: 5 } as const;

export function checkBvhIcCoreParams(p: BvhIcCoreParams): void {
  for (const k of ['fadd', 'fmul', 'fdiv', 'memory'] as const) if (!Number.isInteger(p[k]) || p[k] < 0 || p[k] > 40) throw new Error(`BvhIcCore: ${k} latency must be an integer from 0 to 40, got ${p[k]}`);
  if (![2, 4, 8, 16, 32].includes(p.rays)) throw new Error(`BvhIcCore: rays must be 2, 4, 8, 16 or 32, got ${p.rays}`);
  if (!Number.isInteger(p.indexBits) || p.indexBits < 1 || p.indexBits > 24) throw new Error(`BvhIcCore: indexBits must be an integer from 1 to 24, got ${p.indexBits}`);
  if (!Number.isInteger(p.triangleBits) || p.triangleBits < 1 || p.triangleBits > 24) throw new Error(`BvhIcCore: triangleBits must be an integer from 1 to 24, got ${p.triangleBits}`);
  isWatertight(p); // throws on an unknown triangle test
}

/** A BVHNode4 as the node memory answers: child c's box at [192c + 191 : 192c], then child_idx[0..3] (indexBits each), then child_flags. */
export const nodeWordBits = (indexBits: number): number => 192 * CHILDREN + CHILDREN * indexBits + 2 * CHILDREN;

export const bvhIcCorePorts = (p: BvhIcCoreParams) => ({
  ...rayPorts(),
  node_tests: output(UInt(32)),
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

export const BvhIcCore = defineModule('BvhIcCore', bvhIcCorePorts, (m, io, p) => {
  checkBvhIcCoreParams(p);
  const R = p.rays;
  const sb = clog2(R);
  const ib = p.indexBits;
  const entryBits = 1 + ib + 32; // leaf flag, index, tnear
  const f = new FloatOps(m, p);
  const watertight = isWatertight(p);
  const is = (r: UIntValue, s: number) => r.eq(s);

  // ------------------------------------------------------------------ ray slots
  const slots = Array.from({ length: R }, (_, k) => ({
    state: m.reg(UInt(3), { reset: STATE.free, name: `ray${k}_state` }),
    /** The root has not been popped yet: the stack is empty but the ray is not done. */
    fresh: m.reg(Bool, { reset: 0, name: `ray${k}_fresh` }),
    sp: m.reg(UInt(SP_BITS), { reset: 0, name: `ray${k}_sp` }),
    origin: m.reg(UInt(96), { name: `ray${k}_origin` }),
    direction: m.reg(UInt(96), { name: `ray${k}_direction` }),
    inv: m.reg(UInt(96), { name: `ray${k}_inv_dir` }),
    thread: m.reg(UInt(5), { name: `ray${k}_thread` }),
    haveBest: m.reg(Bool, { reset: 0, name: `ray${k}_have_best` }),
    /** The ray reached an index past the loaded BVH: it answers a miss with done_fault. */
    fault: m.reg(Bool, { reset: 0, name: `ray${k}_fault` }),
    bestT: m.reg(UInt(32), { name: `ray${k}_best_t` }),
    bestTri: m.reg(UInt(p.triangleBits), { name: `ray${k}_best_triangle` }),
    bestShader: m.reg(UInt(32), { name: `ray${k}_best_shader` }),
    bestNormal: m.reg(UInt(96), { name: `ray${k}_best_normal` }),
    // The watertight test's ray constants (unused by Möller–Trumbore, which synthesis then drops).
    axes: watertight ? m.reg(UInt(6), { name: `ray${k}_axes` }) : lit(0, 6),
    shear: watertight ? m.reg(UInt(96), { name: `ray${k}_shear` }) : lit(0, 96),
  }));
  type SlotRegs = (typeof slots)[number];
  const pick = (slot: UIntValue, field: (s: SlotRegs) => UIntValue): UIntValue => selectByIndex(slot, slots.map(field));
  const stateMask = (state: number): UIntValue => cat(...slots.map((s) => is(s.state, state)).reverse());
  const bySlot = (slot: UIntValue, k: number) => slot.eq(k);
  /** Where a slot goes when its last action ends: on to the next pop, or done when nothing is left. */
  const afterAction = (s: SlotRegs, sp: UIntValue) => s.state.set(mux(sp.eq(0), lit(STATE.finish, 3), lit(STATE.ready, 3)));

  // ------------------------------------------------------------------ intake: a free slot takes the ray; 1/d in three dividers
  const freeSlots = m.instance(PriorityEncoder, { n: R }, { name: 'free_slot' });
  freeSlots.io.in.set(stateMask(STATE.free));
  const accept = io.ray_start.and(freeSlots.io.valid);
  const intoSlot = freeSlots.io.index;
  io.ready.set(freeSlots.io.valid);
  const finite = (x: UIntValue) => x.bits(30, 23).ne(0xff);
  const isZero = (x: UIntValue) => x.bits(30, 0).eq(0);
  const rayValid = [...split3(io.ray_origin), ...split3(io.ray_direction)].map(finite).reduce((a, b) => a.and(b)).and(split3(io.ray_direction).map(isZero).reduce((a, b) => a.and(b)).not());
  const divide = accept.and(rayValid);
  const inverse = split3(io.ray_direction).map((d, a) => {
    const u = m.instance(FDiv, { stages: p.fdiv }, { name: `inv_${'xyz'[a]}` });
    u.io.in_valid.set(divide);
    u.io.a.set(lit(ONE, 32));
    u.io.b.set(mux(divide, d, lit(ONE, 32)));
    return u.io.result;
  }) as unknown as Vec3;
  const inverseDone = delayValid(m, divide, p.fdiv, 'inverse_valid');
  const inverseSlot = delay(m, intoSlot, p.fdiv, 'inverse_slot');
  // Watertight: the ray's axes now, and its shear (d[kx], d[ky], 1) / d[kz] from three more dividers beside the inverse.
  const axesIn = watertight ? rayAxes(io.ray_direction) : undefined;
  const shearIn = axesIn ? shearOperands(io.ray_direction, axesIn) : undefined;
  const shear = shearIn?.numerators.map((a, i) => {
    const u = m.instance(FDiv, { stages: p.fdiv }, { name: `shear_${'xyz'[i]}` });
    u.io.in_valid.set(divide);
    u.io.a.set(mux(divide, a, lit(ONE, 32)));
    u.io.b.set(mux(divide, shearIn.denominator, lit(ONE, 32)));
    return u.io.result;
  }) as Vec3 | undefined;

  // ------------------------------------------------------------------ the stack: four banks, entry d of ray s at bank d mod 4, word {s, d / 4}
  const banks = Array.from({ length: STACK_BANKS }, (_, b) => m.memory(UInt(entryBits), R * (STACK_ENTRIES / STACK_BANKS), { name: `stack_bank${b}` }));
  const stackWord = (slot: UIntValue, depth: UIntValue) => cat(slot, depth.bits(clog2(STACK_ENTRIES) - 1, 2));

  // ------------------------------------------------------------------ S0: pick a ready ray and pop its top entry
  const readyArb = m.instance(RoundRobinArbiter, { n: R, width: 1 }, { name: 'pop_arbiter' });
  slots.forEach((s, k) => {
    readyArb.io.in.at(k).valid.set(is(s.state, STATE.ready));
    readyArb.io.in.at(k).bits.set(0);
  });
  readyArb.io.out.ready.set(true);
  const pop = readyArb.io.out.valid;
  const popSlot = readyArb.io.chosen;
  const popFresh = pick(popSlot, (s) => s.fresh).asBool();
  const popDepth = pick(popSlot, (s) => s.sp).sub(1);
  const popReads = banks.map((bank) => bank.read(stackWord(popSlot, popDepth)));

  // ------------------------------------------------------------------ S1: the entry; skip it if it is farther than the best hit, else read its node or TriRange
  const s1Valid = m.regNext(pop, { reset: 0 });
  const s1Slot = m.regNext(popSlot);
  const s1Fresh = m.regNext(popFresh);
  const s1Bank = m.regNext(popDepth.bits(1, 0));
  const s1Stored = selectByIndex(s1Bank, popReads);
  const s1Entry = mux(s1Fresh, lit(0, entryBits), s1Stored); // the root: node 0 at tnear +0
  const s1Leaf = s1Entry.bit(entryBits - 1);
  const s1Index = s1Entry.bits(ib + 31, 32);
  const s1Tnear = s1Entry.bits(31, 0);
  const s1HaveBest = pick(s1Slot, (s) => s.haveBest).asBool();
  const s1BestT = pick(s1Slot, (s) => s.bestT);
  const s1Skip = s1Valid.and(s1HaveBest).and(f.compare(s1Tnear, s1BestT).eq(FLAG_POSITIVE));
  // An entry that is not skipped is read only if its index is inside what was loaded; otherwise the ray faults here.
  const s1Loaded = s1Index.zext(ib + 1).lt(mux(s1Leaf, io.range_count, io.node_count));
  const s1Read = s1Valid.and(s1Skip.not());
  const s1Fault = s1Read.and(s1Loaded.not());
  const s1Node = s1Read.and(s1Loaded).and(s1Leaf.not());
  const s1Range = s1Read.and(s1Loaded).and(s1Leaf);
  io.node_req_valid.set(s1Node);
  io.node_req_index.set(mux(s1Node, s1Index, lit(0, ib)));
  io.range_req_valid.set(s1Range);
  io.range_req_index.set(mux(s1Range, s1Index, lit(0, ib)));

  // ------------------------------------------------------------------ S2: the node's four boxes into the ray–box unit; a TriRange into the leaf queue
  const s2Node = m.regNext(s1Node, { reset: 0 });
  const s2Range = m.regNext(s1Range, { reset: 0 });
  const s2Slot = m.regNext(s1Slot);
  const s2Limit = m.regNext(mux(s1HaveBest, s1BestT, lit(POS_INF, 32)));
  const node = io.node_resp;
  const childIndex = (c: number) => node.bits(192 * CHILDREN + ib * c + ib - 1, 192 * CHILDREN + ib * c);
  const childFlags = (c: number) => node.bits(192 * CHILDREN + ib * CHILDREN + 2 * c + 1, 192 * CHILDREN + ib * CHILDREN + 2 * c);
  const box = m.instance(RayBox4, { fadd: p.fadd, fmul: p.fmul, tagBits: sb + CHILDREN * (1 + ib) }, { name: 'ray_box' });
  box.io.in_valid.set(s2Node);
  box.io.origin.set(mux(s2Node, pick(s2Slot, (s) => s.origin), lit(0, 96)));
  box.io.inv_dir.set(mux(s2Node, pick(s2Slot, (s) => s.inv), lit(0, 96)));
  box.io.limit.set(s2Limit);
  box.io.boxes.set(mux(s2Node, node.bits(192 * CHILDREN - 1, 0), lit(0, 192 * CHILDREN)));
  box.io.child_valid.set(mux(s2Node, cat(...[3, 2, 1, 0].map((c) => childFlags(c).ne(0))), lit(0, CHILDREN)));
  // Tag: the slot, then per child its leaf flag and index (child 0 lowest).
  box.io.tag.set(cat(s2Slot, ...[3, 2, 1, 0].map((c) => cat(childFlags(c).bit(1), childIndex(c)))));

  // A TriRange whose triangles run past the loaded ones faults the ray instead of entering the leaf queue.
  const tw = p.triangleBits + 1;
  const s2RangeEnd = io.range_resp_first.zext(tw).add(io.range_resp_count.zext(tw));
  const s2Fault = s2Range.and(s2RangeEnd.gt(io.triangle_count.zext(tw)));
  const leaves = m.instance(Fifo, { width: sb + 2 * p.triangleBits, depth: R }, { name: 'leaf_queue' });
  leaves.io.enq.valid.set(s2Range.and(s2Fault.not()));
  leaves.io.enq.bits.set(cat(s2Slot, io.range_resp_first, io.range_resp_count));

  // ------------------------------------------------------------------ node result: push the hit children, the nearest last (popped first)
  const pushValid = box.io.out_valid;
  const tag = box.io.out_tag;
  const pushSlot = tag.bits(sb + CHILDREN * (1 + ib) - 1, CHILDREN * (1 + ib));
  const childEntry = (c: number) => cat(tag.bits((1 + ib) * c + ib, (1 + ib) * c), box.io.tnear.bits(32 * c + 31, 32 * c));
  const hitCount = box.io.hit_count;
  const pushSp = pick(pushSlot, (s) => s.sp);
  const pushedSp = pushSp.zext(SP_BITS + 1).add(hitCount.zext(SP_BITS + 1));
  const overflow = pushValid.and(pushedSp.gt(STACK_ENTRIES));
  banks.forEach((bank, b) => {
    // Entry j (0 = deepest) of this push lands at depth sp + j, so bank b takes j = (b − sp) mod 4.
    const j = lit(b, 2).sub(pushSp.bits(1, 0));
    const k = hitCount.sub(1).sub(j.zext(3)).bits(1, 0); // j = 0 is the farthest: order slot hit_count − 1
    const child = selectByIndex(k, [0, 1, 2, 3].map((q) => box.io.order.bits(2 * q + 1, 2 * q)));
    const depth = pushSp.add(j.zext(SP_BITS));
    m.when(pushValid.and(overflow.not()).and(j.zext(3).lt(hitCount)), () => bank.write(stackWord(pushSlot, depth), selectByIndex(child, [0, 1, 2, 3].map(childEntry))));
  });
  io.stack_overflow.set(overflow);

  // ------------------------------------------------------------------ leaves: one triangle request per cycle
  const walking = m.reg(Bool, { reset: 0 });
  const walkSlot = m.reg(UInt(sb));
  const walkNext = m.reg(UInt(p.triangleBits));
  const walkLeft = m.reg(UInt(p.triangleBits));
  const head = leaves.io.deq.bits;
  leaves.io.deq.ready.set(walking.not());
  const start = leaves.io.deq.fire;
  const startCount = head.bits(p.triangleBits - 1, 0);
  // A request this cycle: the first triangle of a new leaf, or the next of the current one.
  const reqSlot = mux(walking, walkSlot, head.bits(sb + 2 * p.triangleBits - 1, 2 * p.triangleBits));
  const reqId = mux(walking, walkNext, head.bits(2 * p.triangleBits - 1, p.triangleBits));
  const reqLeft = mux(walking, walkLeft, startCount);
  const reqActive = walking.or(start);
  const reqTest = reqActive.and(reqLeft.ne(0));
  const reqLast = reqActive.and(reqLeft.le(1)); // an empty TriRange sends only its end
  m.when(reqActive, () => {
    walking.set(reqLeft.gt(1));
    walkSlot.set(reqSlot);
    walkNext.set(reqId.add(1));
    walkLeft.set(reqLeft.sub(1));
  });
  io.tri_req_valid.set(reqTest);
  io.tri_req_id.set(mux(reqTest, reqId, lit(0, p.triangleBits)));

  // ------------------------------------------------------------------ the triangle test pipeline
  const respTest = delayValid(m, reqTest, p.memory, 'resp_test');
  const respLast = delayValid(m, reqLast, p.memory, 'resp_last');
  const respSlot = delay(m, reqSlot, p.memory, 'resp_slot');
  const respId = delay(m, reqId, p.memory, 'resp_id');
  const entering = respTest.and(io.tri_resp_valid).and(io.tri_resp_not_valid.not());
  const slotAt = (cycles: number) => delay(m, respSlot, cycles, `test_slot_at${cycles}`);
  const slotAtStage = (cycles: number) => (cycles === 0 ? respSlot : slotAt(cycles));
  const rayAt = (cycles: number) => {
    const s = slotAtStage(cycles);
    return { o: split3(pick(s, (r) => r.origin)), d: split3(pick(s, (r) => r.direction)) };
  };
  const vertices = [split3(io.tri_resp_v0), split3(io.tri_resp_v1), split3(io.tri_resp_v2)] as const;
  const test = watertight
    ? watertightTest({
        m,
        units: f,
        p,
        vertices,
        originAt: (cycles) => split3(pick(slotAtStage(cycles), (s) => s.origin)),
        constantsAt: (cycles) => ({ axes: pick(slotAtStage(cycles), (s) => s.axes), shear: pick(slotAtStage(cycles), (s) => s.shear) }),
      })
    : mollerTrumbore(m, f, p, vertices, rayAt);
  const depth = mollerTrumboreDepth(p); // the watertight test's depth is the same (watertightDepth)
  const testValid = delayValid(m, entering, depth, 'test_valid');
  const testEnd = delayValid(m, respLast, depth, 'test_end');
  const testSlot = slotAt(depth);
  const testId = delay(m, respId, depth, 'test_id');
  const testShader = delay(m, io.tri_resp_shader, depth, 'test_shader');
  const hit = testValid.and(test.kind === 'watertight' ? test.hit : mollerTrumboreHit(f, test));
  const tFlag = f.compare(test.t, pick(testSlot, (s) => s.bestT));
  const closer = pick(testSlot, (s) => s.haveBest).asBool().not()
    .or(tFlag.eq(FLAG_NEGATIVE))
    .or(tFlag.eq(FLAG_ZERO).and(testId.lt(pick(testSlot, (s) => s.bestTri))));

  // ------------------------------------------------------------------ finish: pick a done ray, o + t·d, answer
  const finishing = m.instance(PriorityEncoder, { n: R }, { name: 'finish_slot' });
  finishing.io.in.set(stateMask(STATE.finish));
  const finishPick = finishing.io.valid;
  const f1Valid = m.regNext(finishPick, { reset: 0 });
  const f1Slot = m.regNext(finishing.io.index);
  const f1Have = pick(f1Slot, (s) => s.haveBest).asBool();
  const f1T = mux(f1Valid.and(f1Have), pick(f1Slot, (s) => s.bestT), lit(0, 32));
  const f1O = split3(pick(f1Slot, (s) => s.origin));
  const f1D = split3(mux(f1Valid.and(f1Have), pick(f1Slot, (s) => s.direction), lit(0, 96)));
  const lag = p.fmul + p.fadd;
  const point = [0, 1, 2].map((i) => f.add(delay(m, f1O[i]!, p.fmul, `o${'xyz'[i]}`), f.mul(f1T, f1D[i]!))) as unknown as Vec3;
  const done = delayValid(m, f1Valid, lag, 'done');
  // The answer's fields only with `done`: the delay registers have no reset (undefined in silicon until an answer).
  const answer = <V extends UIntValue | BoolValue>(v: V, name: string) => mux(done, delay(m, v, lag, name), lit(0, v.width));
  const doneHave = answer(f1Have, 'done_have').asBool();
  io.done.set(done);
  io.done_fault.set(answer(f1Valid.and(pick(f1Slot, (s) => s.fault).asBool()), 'done_fault').asBool());
  io.done_thread.set(answer(pick(f1Slot, (s) => s.thread), 'done_thread'));
  io.hit_info.set(mux(doneHave, cat(delay(m, pick(f1Slot, (s) => s.bestShader), lag, 'done_shader'), join3(point)), lit(0, 128)));
  io.hit_normal.set(mux(doneHave, delay(m, pick(f1Slot, (s) => s.bestNormal), lag, 'done_normal'), lit(0, 96)));

  // ------------------------------------------------------------------ per-slot state (at most one event per slot per cycle, by construction)
  slots.forEach((s, k) => {
    m.when(accept.and(bySlot(intoSlot, k)), () => {
      s.state.set(mux(rayValid, lit(STATE.inverse, 3), lit(STATE.finish, 3)));
      s.origin.set(io.ray_origin);
      s.direction.set(io.ray_direction);
      s.thread.set(io.ray_thread);
      s.haveBest.set(false);
      s.fault.set(false);
      s.sp.set(0);
    });
    if (axesIn) m.when(accept.and(bySlot(intoSlot, k)), () => (s.axes as typeof s.bestNormal).set(axesIn));
    m.when(inverseDone.and(bySlot(inverseSlot, k)), () => {
      s.inv.set(join3(inverse));
      if (shear) (s.shear as typeof s.bestNormal).set(join3(shear));
      s.fresh.set(true);
      s.state.set(STATE.ready);
    });
    m.when(pop.and(bySlot(popSlot, k)), () => {
      s.state.set(STATE.wait);
      m.when(s.fresh, () => s.fresh.set(false)).otherwise(() => s.sp.set(popDepth));
    });
    m.when(s1Skip.and(bySlot(s1Slot, k)), () => afterAction(s, s.sp));
    m.when(pushValid.and(bySlot(pushSlot, k)), () => {
      m.when(overflow, () => s.state.set(STATE.finish)).otherwise(() => {
        s.sp.set(pushedSp.trunc(SP_BITS));
        afterAction(s, pushedSp);
      });
    });
    m.when(hit.and(closer).and(bySlot(testSlot, k)), () => {
      s.haveBest.set(true);
      s.bestT.set(test.t);
      s.bestTri.set(testId);
      s.bestShader.set(testShader);
      s.bestNormal.set(test.normal);
    });
    m.when(testEnd.and(bySlot(testSlot, k)), () => afterAction(s, s.sp));
    // A fault ends the walk: nothing of this ray is in flight (it waits on this entry), so it finishes as a miss.
    m.when(s1Fault.and(bySlot(s1Slot, k)).or(s2Fault.and(bySlot(s2Slot, k))), () => {
      s.fault.set(true);
      s.haveBest.set(false);
      s.state.set(STATE.finish);
    });
    m.when(finishPick.and(bySlot(finishing.io.index, k)), () => s.state.set(STATE.drain));
    m.when(f1Valid.and(bySlot(f1Slot, k)), () => s.state.set(STATE.free));
  });

  // ------------------------------------------------------------------ counters
  const counter = (event: BoolValue, name: string) => {
    const c = m.reg(UInt(32), { reset: 0, name });
    m.when(event, () => c.set(c.add(1)));
    return c;
  };
  io.rays.set(counter(accept, 'ray_count'));
  io.tests.set(counter(entering, 'triangle_tests'));
  io.node_tests.set(counter(s1Node, 'node_test_count'));
  io.busy_cycles.set(counter(stateMask(STATE.free).andR().not(), 'busy'));
});
