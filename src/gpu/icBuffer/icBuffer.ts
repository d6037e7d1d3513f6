// IC buffer: the rt2ic and ic2rt queues between RT and IC cores, each written from a one-hot selected core.
import { Bool, Bundle, UInt, Vec, cat, defineModule, input, mux, output, packBits, unpackBits, type BoolValue, type BundleType, type HValue, type ModuleBuilder, type PortSpec, type UIntType, type ValueOf, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { QueueControl } from './queueControl.ts';
import { HitAnswer } from './hitAnswer.ts';

export interface IcBufferParams {
  /** RT cores feeding the rt2ic queue (1 to 4). */
  readonly rtCores: number;
  /** IC cores feeding the ic2rt queue (1 to 32). */
  readonly icCores: number;
  /** Entries per queue (1 to 4096); one per thread by default. */
  readonly depth: number;
}

export const defaultIcBufferParams: IcBufferParams = { rtCores: 4, icCores: 4, depth: 32 };

/** Bits of a queue's `*_error` output, each sticky until reset or `clear_errors`. */
export const QUEUE_ERROR = {
  /** An enqueue while full with no dequeue in the same cycle; the enqueue was dropped. */
  overflow: 1,
  /** A dequeue while empty; ignored. */
  underflow: 2,
  /** An enqueue whose core id was not one-hot (zero or several bits); ignored. */
  badCoreId: 4,
} as const;

export interface IcQueueParams {
  /** Bits per entry. */
  readonly width: number;
  readonly depth: number;
  /** Cores that can be selected as the source of an enqueue. */
  readonly sources: number;
}

/**
 * One queue with first-word fall-through: `front` shows the oldest entry (0 when empty). A full queue
 * accepts an enqueue in a cycle that also dequeues; an empty one never passes an entry straight through.
 */
export const IcQueue = defineModule(
  'IcQueue',
  (p: IcQueueParams) => ({
    data: input(Vec(p.sources, UInt(p.width))),
    enqueue: input(Bool),
    /** One-hot: which element of `data` to enqueue. */
    source: input(UInt(p.sources)),
    dequeue: input(Bool),
    clear_errors: input(Bool),
    front: output(UInt(p.width)),
    count: output(UInt(clog2(p.depth + 1))),
    empty: output(Bool),
    full: output(Bool),
    /** Sticky QUEUE_ERROR bits. */
    error: output(UInt(3)),
  }),
  (m, io, p) => {
    const slots = m.memory(UInt(p.width), p.depth, { name: 'slots' });
    const head = m.reg(UInt(clog2(p.depth)), { reset: 0 });
    const tail = m.reg(UInt(clog2(p.depth)), { reset: 0 });
    const count = m.reg(UInt(clog2(p.depth + 1)), { reset: 0 });
    const errors = m.reg(UInt(3), { reset: 0 });
    const full = count.eq(p.depth);
    const empty = count.eq(0);
    const next = (ptr: UIntValue): UIntValue => mux(ptr.eq(p.depth - 1), 0, ptr.add(p.depth === 1 ? 0 : 1));

    const sourceOneHot = isOneHot(io.source);
    const dequeued = io.dequeue.and(empty.not());
    // A full queue takes a new entry when one leaves in the same cycle: the freed slot is the tail.
    const enqueued = io.enqueue.and(sourceOneHot).and(full.not().or(dequeued));
    const overflow = io.enqueue.and(sourceOneHot).and(full).and(dequeued.not());
    const underflow = io.dequeue.and(empty);
    const badCoreId = io.enqueue.and(sourceOneHot.not());

    m.when(enqueued, () => {
      slots.write(tail, selectOneHot(io.source, p.sources, (i) => io.data.at(i)));
      tail.set(next(tail));
    });
    m.when(dequeued, () => head.set(next(head)));
    m.when(enqueued.and(dequeued.not()), () => count.set(count.add(1))).elsewhen(dequeued.and(enqueued.not()), () => count.set(count.sub(1)));
    // An error in the same cycle as clear_errors is kept: no event is lost.
    errors.set(mux(io.clear_errors, 0, errors).or(cat(badCoreId, underflow, overflow)));

    queueInvariants(m, { head, tail, count, depth: p.depth, full, enqueued, dequeued });

    io.front.set(mux(empty, 0, slots.readAsync(head)));
    io.count.set(count);
    io.empty.set(empty);
    io.full.set(full);
    io.error.set(errors);
  },
);

/**
 * What the queue promises (checked by every simulator, proven by test/formal/gpuBlocks.test.ts): the count stays
 * within the depth and is the distance from head to tail, the pointers name slots, and a full queue takes an entry
 * only when one leaves.
 */
function queueInvariants(m: ModuleBuilder, q: { head: UIntValue; tail: UIntValue; count: UIntValue; depth: number; full: BoolValue; enqueued: BoolValue; dequeued: BoolValue }): void {
  const { head, tail, count, depth } = q;
  m.assert(count.le(depth), 'the count is at most the depth', { name: 'count_in_range' });
  // At a power-of-two depth every pointer value names a slot.
  if (depth < 2 ** head.width) m.assert(head.lt(depth).and(tail.lt(depth)), 'head and tail name slots', { name: 'pointers_in_range' });
  // The distance from head to tail modulo the depth (the pointers wrap at depth, not at a power of two).
  const w = head.width + 1;
  const ahead = tail.zext(w).add(depth).sub(head.zext(w));
  const distance = mux(ahead.ge(depth), ahead.sub(depth), ahead);
  m.assert(mux(q.full, tail.eq(head), distance.eq(count.zext(Math.max(w, count.width)))), 'the count is the distance from head to tail', { name: 'count_matches_pointers' });
  m.assert(m.implies(q.enqueued.and(q.full), q.dequeued), 'a full queue takes an entry only when one leaves', { name: 'no_enqueue_when_full' });
}

/** Exactly one bit set. */
function isOneHot(x: UIntValue): UIntValue {
  return x.ne(0).and(x.and(x.sub(1)).eq(0));
}

/** The OR of the values whose select bit is set: the selected one when `select` is one-hot. */
function selectOneHot(select: UIntValue, n: number, value: (i: number) => UIntValue): UIntValue {
  let acc: UIntValue = mux(select.bit(0), value(0), 0);
  for (let i = 1; i < n; i++) acc = acc.or(mux(select.bit(i), value(i), 0));
  return acc;
}

/** An rt2ic entry: the ray and its query (docs/rays.md: tmin, tmax, flags). */
const RayEntry = Bundle({ origin: UInt(96), direction: UInt(96), query: UInt(96) });

/** The control side of one queue inside the buffer. */
interface QueueWiring {
  readonly depth: number;
  readonly sources: number;
  readonly enqueue: BoolValue;
  readonly source: UIntValue;
  readonly dequeue: BoolValue;
  readonly clearErrors: BoolValue;
}

/** A queue of `entry` records: source i's record is filled in by `fill`; the front comes back as a record. */
function icQueue<T extends BundleType>(m: ModuleBuilder, name: string, entry: T, c: QueueWiring, fill: (record: ValueOf<T>, source: number) => void) {
  const q = m.instance(IcQueue, { width: entry.width, depth: c.depth, sources: c.sources }, { name });
  for (let i = 0; i < c.sources; i++) {
    const record = m.wire(entry, { name: `${name}_entry${i}` });
    fill(record, i);
    q.io.data.at(i).set(packBits(record as HValue));
  }
  q.io.enqueue.set(c.enqueue);
  q.io.source.set(c.source);
  q.io.dequeue.set(c.dequeue);
  q.io.clear_errors.set(c.clearErrors);
  return { io: q.io, front: unpackBits(entry, q.io.front) };
}

/** A queue's status outputs, `${queue}_count`, `_full` and `_error` (sticky QUEUE_ERROR bits); `_empty` is in QueueControl. */
function queueStatusPorts<Q extends string>(queue: Q, depth: number) {
  return {
    [`${queue}_count`]: output(UInt(clog2(depth + 1))),
    [`${queue}_full`]: output(Bool),
    [`${queue}_error`]: output(UInt(3)),
  } as Record<`${Q}_count` | `${Q}_error`, PortSpec<UIntType>> & Record<`${Q}_full`, PortSpec<typeof Bool>>;
}

function checkParams(p: IcBufferParams): void {
  const inRange = (n: number, lo: number, hi: number) => Number.isInteger(n) && n >= lo && n <= hi;
  if (!inRange(p.rtCores, 1, 4)) throw new Error(`IcBuffer: rtCores must be 1 to 4, got ${p.rtCores}`);
  if (!inRange(p.icCores, 1, 32)) throw new Error(`IcBuffer: icCores must be 1 to 32, got ${p.icCores}`);
  if (!inRange(p.depth, 1, 4096)) throw new Error(`IcBuffer: depth must be 1 to 4096, got ${p.depth}`);
}

export const IcBuffer = defineModule(
  'IcBuffer',
  (p: IcBufferParams) => ({
    // rt2ic: rays from the selected RT core to the IC cores.
    ray_origin_rt: input(Vec(p.rtCores, UInt(96))),
    ray_direction_rt: input(Vec(p.rtCores, UInt(96))),
    ray_query_rt: input(Vec(p.rtCores, UInt(96))),
    ray_origin_ic: output(UInt(96)),
    ray_direction_ic: output(UInt(96)),
    ray_query_ic: output(UInt(96)),
    ...queueStatusPorts('rt2ic', p.depth),
    /** ic2rt: each IC core's answer, back to an RT core (SV ports answer_ic_<i>_info, _normal, _parameters). */
    answer_ic: input(Vec(p.icCores, HitAnswer)),
    ...queueStatusPorts('ic2rt', p.depth),
    /** The dispatcher's control of both queues (SV ports steer_q_en_rt2ic … steer_shader_normal_rt). */
    steer: input(QueueControl(p)),
    /** Clears both queues' error bits (an error in the same cycle still sets its bit). */
    clear_errors: input(Bool),
    /** Any error bit of either queue. */
    error: output(Bool),
  }),
  (m, io, p) => {
    checkParams(p);
    const { steer } = io;
    const rt2ic = icQueue(m, 'rt2ic', RayEntry, { depth: p.depth, sources: p.rtCores, enqueue: steer.q_en_rt2ic, source: steer.core_id_rt2ic, dequeue: steer.dequeue_ic, clearErrors: io.clear_errors }, (ray, i) => {
      ray.origin.set(io.ray_origin_rt.at(i));
      ray.direction.set(io.ray_direction_rt.at(i));
      ray.query.set(io.ray_query_rt.at(i));
    });
    io.ray_origin_ic.set(rt2ic.front.origin);
    io.ray_direction_ic.set(rt2ic.front.direction);
    io.ray_query_ic.set(rt2ic.front.query);

    const ic2rt = icQueue(m, 'ic2rt', HitAnswer, { depth: p.depth, sources: p.icCores, enqueue: steer.q_en_ic2rt, source: steer.core_id_ic2rt, dequeue: steer.dequeue_rt, clearErrors: io.clear_errors }, (answer, i) =>
      m.connect(answer, io.answer_ic.at(i)),
    );
    steer.shader_info_rt.set(ic2rt.front.info);
    steer.shader_normal_rt.set(ic2rt.front.normal);
    steer.shader_parameters_rt.set(ic2rt.front.parameters);
    for (const [queue, q] of [['rt2ic', rt2ic.io], ['ic2rt', ic2rt.io]] as const) {
      io[`${queue}_count`].set(q.count);
      steer[`${queue}_empty`].set(q.empty);
      io[`${queue}_full`].set(q.full);
      io[`${queue}_error`].set(q.error);
    }

    io.error.set(rt2ic.io.error.orR().or(ic2rt.io.error.orR()));
  }
);
