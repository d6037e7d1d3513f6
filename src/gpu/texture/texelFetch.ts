// The texture unit's texel stage: a tag stage that looks up (and allocates, fetching ahead) the lines of a request's texels, a short queue, and a data stage that reads them once present: a texel cache with reference counts, after Igehy et al.'s prefetching texture cache.
import { Bool, Bundle, UInt, Vec, defineModule, input, lit, mux, output, withGenericPorts, type BoolValue, type DecoupledValue, type HType, type ModuleBuilder, type PortsOf, type PortsValue, type UIntType, type UIntValue } from '../../hdl/index.ts';
import { Fifo, clog2, lowestSet, selectByIndex } from '../../hdl/lib/index.ts';
import { multiPushQueue, type MultiPushQueue } from './multiPushQueue.ts';
import { checkWhole } from './paramChecks.ts';
import { TEXTURE_LINE_BITS, TEXTURE_LINE_WORDS, TEXTURE_WORD_BITS } from './textureMemory.ts';

export interface TexelFetchParams<T extends HType = HType> {
  /** Texel ports per request (the bilinear footprints of two levels: 8). */
  readonly ports: number;
  /** Cache lines (4 words each); at least 2·ports so that a request's lines always find room. */
  readonly lines: number;
  /** Requests between the tag stage and the data stage: how far the line fetches run ahead of their use. */
  readonly aheadDepth: number;
  /** Fills the memory may have outstanding (it answers in order). */
  readonly maxFills: number;
  /** Lines the tag stage may allocate in one cycle (each a line read queued for the memory, which takes one per cycle). */
  readonly allocsPerCycle: number;
  /** Line reads waiting for the memory. */
  readonly requestDepth: number;
  /** What is carried through beside the request: any data type. */
  readonly pass: T;
}

const LINE_BITS = 32 * TEXTURE_LINE_WORDS;
/** References a line can hold: aheadDepth · ports at most. */
const REF_BITS = 10;

/** A request between the tag stage and the data stage: each port's line index, word offset and whether it is read, and what passes through. */
const AheadEntry = (p: TexelFetchParams, indexBits: number) =>
  Bundle({ index: Vec(p.ports, UInt(indexBits)), offset: Vec(p.ports, UInt(2)), needed: Vec(p.ports, Bool), pass: p.pass });
type AheadEntryType = ReturnType<typeof AheadEntry>;
/** A line read waiting for the memory: the line, and the cache line its data fills. */
const LineRequest = (indexBits: number) => Bundle({ line: UInt(TEXTURE_LINE_BITS), index: UInt(indexBits) });

export function checkTexelFetchParams(p: TexelFetchParams): void {
  const whole = (name: string, v: number, lo: number, hi: number) => checkWhole('TexelFetch', name, v, lo, hi);
  whole('ports', p.ports, 1, 16);
  whole('lines', p.lines, 2 * p.ports, 256);
  whole('aheadDepth', p.aheadDepth, 1, Math.floor((2 ** REF_BITS - 1) / p.ports));
  whole('maxFills', p.maxFills, 1, 64);
  whole('allocsPerCycle', p.allocsPerCycle, 1, 4);
  whole('requestDepth', p.requestDepth, p.allocsPerCycle, 64);
}

/** The ports of a TexelFetch that carries `T` through. */
const texelFetchPorts = <T extends HType>(p: TexelFetchParams<T>) => {
  checkTexelFetchParams(p);
  return {
    in_valid: input(Bool),
    in_ready: output(Bool),
    /** Texel word addresses, and which of them the request reads. */
    in_addr: input(Vec(p.ports, UInt(TEXTURE_WORD_BITS))),
    in_needed: input(UInt(p.ports)),
    in_pass: input(p.pass),
    /** The request with its texel words (a port not needed reads any word), issued only while out_ready is high. */
    out_ready: input(Bool),
    out_valid: output(Bool),
    out_words: output(Vec(p.ports, UInt(32))),
    out_pass: output(p.pass),
    /** Line reads for the memory (taken every cycle) and their answers, in request order. */
    mem_req_valid: output(Bool),
    mem_req_line: output(UInt(TEXTURE_LINE_BITS)),
    fill_valid: input(Bool),
    fill_data: input(UInt(LINE_BITS)),
    /** Forget every line (texture memory is being loaded): only while idle, with no request, reference or fill in flight. */
    flush: input(Bool),
    lookups: output(UInt(32)),
    hits: output(UInt(32)),
    fills: output(UInt(32)),
    stall_cycles: output(UInt(32)),
  };
};

/** An instance's `in_pass` and `out_pass` are of its `pass` type. */
interface TexelFetchPortsOf extends PortsOf {
  readonly ports: ReturnType<typeof texelFetchPorts<this['params'] extends TexelFetchParams<infer T> ? T : HType>>;
}

export const TexelFetch = withGenericPorts<TexelFetchParams, TexelFetchPortsOf>(defineModule(
  'TexelFetch',
  texelFetchPorts,
  (m, io, p) => {
    const ib = clog2(p.lines);
    const lines = cacheLines(m, p.lines);
    const fillIndices = m.instance(Fifo, { width: ib, depth: p.maxFills }, { name: 'fill_indices' });
    const requests = multiPushQueue(m, 'line_requests', { payload: LineRequest(ib), depth: p.requestDepth });
    const ahead = m.instance(Fifo, { payload: AheadEntry(p, ib), depth: p.aheadDepth }, { name: 'ahead' });
    const tag = tagStage(m, io, p, lines, requests.space, ahead.io.enq);
    requestLines(m, io, tag.allocs, requests, fillIndices.io.enq);
    const data = dataStage(m, io, lines, ahead.io.deq);
    updateLines(m, io, lines, tag, data, fillIndices.io.deq);
    countEvents(m, io, tag, data);
  },
));

type TexelFetchIo = PortsValue<ReturnType<typeof texelFetchPorts>>;

/** A cache line's state: allocated to `tag` (its fill maybe on its way), its data present, the requests between the stages that read it. */
interface CacheLine {
  readonly allocated: BoolValue;
  readonly present: BoolValue;
  readonly tag: UIntValue;
  readonly refs: UIntValue;
  readonly data: UIntValue;
}

function cacheLines(m: ModuleBuilder, count: number): CacheLine[] {
  return Array.from({ length: count }, (_, i) => ({
    allocated: m.reg(Bool, { reset: 0, name: `allocated${i}` }),
    present: m.reg(Bool, { reset: 0, name: `present${i}` }),
    tag: m.reg(UInt(TEXTURE_LINE_BITS), { name: `tag${i}` }),
    refs: m.reg(UInt(REF_BITS), { reset: 0, name: `refs${i}` }),
    data: m.reg(UInt(LINE_BITS), { name: `data${i}` }),
  }));
}

/** A port at the tag stage: its line, whether the cache has it, and the line it found in an earlier cycle of a waiting request. */
interface PortLookup {
  readonly line: UIntValue;
  readonly offset: UIntValue;
  readonly needed: BoolValue;
  readonly hit: BoolValue;
  readonly hitIndex: UIntValue;
  readonly resolved: BoolValue;
  readonly index: UIntValue;
}

/** A missing line given a victim this cycle (when `go`). */
interface Allocation {
  readonly line: UIntValue;
  readonly victim: UIntValue;
  readonly go: BoolValue;
}

/** Where a port's line is this cycle, and whether it has one. */
interface Resolution {
  readonly done: BoolValue;
  readonly index: UIntValue;
}

interface TagStage {
  readonly ports: readonly PortLookup[];
  readonly allocs: readonly Allocation[];
  readonly now: readonly Resolution[];
  /** The request leaves the tag stage for the ahead queue. */
  readonly pass: BoolValue;
  /** The request at the tag stage has waited a cycle (its lookups are counted once). */
  readonly waited: BoolValue;
}

/** Tag stage: each needed port finds its line (a hit, an earlier cycle's answer, or this cycle's allocation); the request leaves when all have. */
function tagStage(m: ModuleBuilder, io: TexelFetchIo, p: TexelFetchParams, lines: readonly CacheLine[], space: UIntValue, enq: DecoupledValue<AheadEntryType>): TagStage {
  const ib = clog2(p.lines);
  const ports = lookUpPorts(m, io, p, lines);
  const pointer = m.reg(UInt(ib), { reset: 0, name: 'victim_pointer' });
  const allocs = allocateLines(p, io.in_valid, lines, ports, pointer, space);
  const now = ports.map((q) => resolvePort(q, allocs));
  const allDone = now.map((x) => x.done).reduce((a, b) => a.and(b));
  const pass = io.in_valid.and(allDone).and(enq.ready);
  io.in_ready.set(pass);
  const waited = m.reg(Bool, { reset: 0, name: 'waited' });
  m.when(pass, () => {
    waited.set(false);
    for (const q of ports) q.resolved.set(false);
  }).elsewhen(io.in_valid, () => {
    waited.set(true);
    ports.forEach((q, k) => {
      q.resolved.set(now[k]!.done.and(q.needed));
      q.index.set(now[k]!.index);
    });
  });
  enq.valid.set(pass);
  ports.forEach((q, k) => {
    enq.bits.index.at(k).set(now[k]!.index);
    enq.bits.offset.at(k).set(q.offset);
    enq.bits.needed.at(k).set(q.needed);
  });
  m.connect(enq.bits.pass, io.in_pass);
  m.when(allocs[0]!.go, () => pointer.set(allocs.reduce((acc, a) => mux(a.go, mux(a.victim.eq(p.lines - 1), lit(0, ib), a.victim.add(1)), acc), pointer)));
  return { ports, allocs, now, pass, waited };
}

function lookUpPorts(m: ModuleBuilder, io: TexelFetchIo, p: TexelFetchParams, lines: readonly CacheLine[]): PortLookup[] {
  return Array.from({ length: p.ports }, (_, k) => {
    const addr = io.in_addr.at(k);
    const line = addr.bits(TEXTURE_WORD_BITS - 1, 2);
    const found = lowestSet(lines.map((l) => l.allocated.and(l.tag.eq(line))));
    return {
      line,
      offset: addr.bits(1, 0),
      needed: io.in_needed.bit(k),
      hit: found.any,
      hitIndex: found.index,
      resolved: m.reg(Bool, { reset: 0, name: `resolved${k}` }),
      index: m.reg(UInt(clog2(p.lines)), { name: `index${k}` }),
    };
  });
}

/** Up to allocsPerCycle distinct missing lines get a victim each (round robin from the pointer) and a place in the request queue. */
function allocateLines(p: TexelFetchParams, valid: BoolValue, lines: readonly CacheLine[], ports: readonly PortLookup[], pointer: UIntValue, space: UIntValue): Allocation[] {
  const missing = ports.map((q) => valid.and(q.needed).and(q.resolved.not()).and(q.hit.not()));
  // A victim holds no reference, no fill in flight, and is not a line this request already found.
  const inUse = lines.map((_, i) => ports.map((q) => q.needed.and(mux(q.resolved, q.index, q.hitIndex).eq(i)).and(q.resolved.or(q.hit))).reduce((a, b) => a.or(b)));
  const eligible = lines.map((l, i) => l.refs.eq(0).and(l.allocated.not().or(l.present)).and(inUse[i]!.not()));
  const allocs: Allocation[] = [];
  for (let j = 0; j < p.allocsPerCycle; j++) {
    const missingHere = missing.map((x, k) => allocs.reduce((acc, a) => acc.and(ports[k]!.line.ne(a.line)), x));
    const first = lowestSet(missingHere);
    const free = eligible.map((e, i) => allocs.reduce((acc, a) => acc.and(a.victim.ne(i)), e));
    const fromPointer = lowestSet(free.map((e, i) => e.and(pointer.le(i))));
    const anywhere = lowestSet(free);
    const prior = j === 0 ? space.ge(1) : allocs[j - 1]!.go;
    allocs.push({
      line: selectByIndex(first.index, ports.map((q) => q.line)),
      victim: mux(fromPointer.any, fromPointer.index, anywhere.index),
      go: prior.and(first.any).and(anywhere.any).and(space.ge(j + 1)),
    });
  }
  return allocs;
}

/** A port is done when not needed, found before, a hit, or given this cycle's allocation of its line. */
function resolvePort(q: PortLookup, allocs: readonly Allocation[]): Resolution {
  let index = mux(q.resolved, q.index, q.hitIndex);
  let done = q.needed.not().or(q.resolved).or(q.hit);
  for (const a of allocs) {
    const byAlloc = a.go.and(q.line.eq(a.line)).and(q.resolved.or(q.hit).not());
    index = mux(byAlloc, a.victim, index);
    done = done.or(byAlloc);
  }
  return { done, index };
}

/** The allocations' line reads queue for the memory; the queue's head goes to memory when the memory can take another fill. */
function requestLines(m: ModuleBuilder, io: TexelFetchIo, allocs: readonly Allocation[], requests: MultiPushQueue<ReturnType<typeof LineRequest>>, fillIndices: DecoupledValue<UIntType>): void {
  const toMemory = requests.valid.and(fillIndices.ready);
  const entries = allocs.map((a) => {
    const request = m.wire(LineRequest(a.victim.width));
    request.line.set(a.line);
    request.index.set(a.victim);
    return { valid: a.go, bits: request };
  });
  requests.update(entries, toMemory);
  io.mem_req_valid.set(toMemory);
  io.mem_req_line.set(requests.head.line);
  fillIndices.valid.set(toMemory);
  fillIndices.bits.set(requests.head.index);
}

/** What the data stage did this cycle, for the lines' references and the counters. */
interface DataStage {
  /** The head request's lines are all present. */
  readonly ready: BoolValue;
  /** It leaves with its words. */
  readonly issue: BoolValue;
  /** A request waits at the data stage's head. */
  readonly valid: BoolValue;
  readonly index: readonly UIntValue[];
  readonly needed: readonly BoolValue[];
}

/** Data stage: the head of the ahead queue leaves when every line it needs is present, reading its words. */
function dataStage(m: ModuleBuilder, io: TexelFetchIo, lines: readonly CacheLine[], deq: DecoupledValue<AheadEntryType>): DataStage {
  const head = deq.bits;
  const [index, offset, needed] = [head.index.elems, head.offset.elems, head.needed.elems];
  const presentAt = (i: UIntValue) => selectByIndex(i, lines.map((l) => l.present.zext(1))).eq(1);
  const ready = needed.map((n, k) => n.not().or(presentAt(index[k]!))).reduce((a, b) => a.and(b));
  const issue = deq.valid.and(ready).and(io.out_ready);
  deq.ready.set(issue);
  io.out_valid.set(issue);
  m.connect(io.out_pass, head.pass);
  index.forEach((i, k) => {
    const lineData = selectByIndex(i, lines.map((l) => l.data));
    io.out_words.at(k).set(selectByIndex(offset[k]!, [0, 1, 2, 3].map((w) => lineData.bits(32 * w + 31, 32 * w))));
  });
  return { ready, issue, valid: deq.valid, index, needed };
}

/** Line state: references taken at the tag stage and dropped at the data stage; allocations; fills in request order; a flush. */
function updateLines(m: ModuleBuilder, io: TexelFetchIo, lines: readonly CacheLine[], tag: TagStage, data: DataStage, fillIndices: DecoupledValue<UIntType>): void {
  const fillIndex = fillIndices.bits;
  fillIndices.ready.set(io.fill_valid);
  lines.forEach((l, i) => {
    const taken = tag.ports.map((q, k) => tag.pass.and(q.needed).and(tag.now[k]!.index.eq(i)).zext(REF_BITS)).reduce((a, b) => a.add(b));
    const dropped = data.needed.map((n, k) => data.issue.and(n).and(data.index[k]!.eq(i)).zext(REF_BITS)).reduce((a, b) => a.add(b));
    l.refs.set(l.refs.add(taken).sub(dropped));
    for (const a of tag.allocs) {
      m.when(a.go.and(a.victim.eq(i)), () => {
        l.allocated.set(true);
        l.present.set(false);
        l.tag.set(a.line);
      });
    }
    m.when(io.fill_valid.and(fillIndex.eq(i)), () => {
      l.present.set(true);
      l.data.set(io.fill_data);
    });
    m.when(io.flush, () => {
      l.allocated.set(false);
      l.present.set(false);
    });
  });
}

/** The counters: lookups and hits on a request's first cycle at the tag stage, lines allocated, cycles either stage held a request. */
function countEvents(m: ModuleBuilder, io: TexelFetchIo, tag: TagStage, data: DataStage): void {
  const counter = (name: string) => m.reg(UInt(32), { reset: 0, name });
  const lookups = counter('lookup_count');
  const hits = counter('hit_count');
  const fills = counter('fill_count');
  const stalls = counter('stall_count');
  const popcount = (bits: readonly BoolValue[]) => bits.map((b) => b.zext(32)).reduce((a, b) => a.add(b));
  m.when(io.in_valid.and(tag.waited.not()), () => {
    lookups.set(lookups.add(popcount(tag.ports.map((q) => q.needed))));
    hits.set(hits.add(popcount(tag.ports.map((q) => q.needed.and(q.hit)))));
  });
  m.when(tag.allocs[0]!.go, () => fills.set(fills.add(tag.allocs.map((a) => a.go.zext(32)).reduce((x, y) => x.add(y)))));
  m.when(io.in_valid.and(tag.pass.not()).or(data.valid.and(data.ready.not())), () => stalls.set(stalls.add(1)));
  io.lookups.set(lookups);
  io.hits.set(hits);
  io.fills.set(fills);
  io.stall_cycles.set(stalls);
}
