// The texture unit's texel stage: a tag stage that looks up (and allocates, fetching ahead) the lines of a request's texels, a short queue, and a data stage that reads them once present: a texel cache with reference counts, after Igehy et al.'s prefetching texture cache.
import { Bool, Bundle, UInt, Vec, cat, defineModule, input, lit, mux, output, withGenericPorts, type BoolValue, type HType, type PortsOf, type UIntValue } from '../../hdl/index.ts';
import { Fifo, clog2, lowestSet, selectByIndex } from '../../hdl/lib/index.ts';
import { multiPushQueue } from './multiPushQueue.ts';
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
    const lines = Array.from({ length: p.lines }, (_, i) => ({
      allocated: m.reg(Bool, { reset: 0, name: `allocated${i}` }),
      present: m.reg(Bool, { reset: 0, name: `present${i}` }),
      tag: m.reg(UInt(TEXTURE_LINE_BITS), { name: `tag${i}` }),
      refs: m.reg(UInt(REF_BITS), { reset: 0, name: `refs${i}` }),
      data: m.reg(UInt(LINE_BITS), { name: `data${i}` }),
    }));
    const fillIndices = m.instance(Fifo, { width: ib, depth: p.maxFills }, { name: 'fill_indices' });
    const requests = multiPushQueue(m, 'line_requests', TEXTURE_LINE_BITS + ib, p.requestDepth);
    const ahead = m.instance(Fifo, { payload: AheadEntry(p, ib), depth: p.aheadDepth }, { name: 'ahead' });

    // ---- Tag stage: each needed port finds its line (a hit, an earlier cycle's answer, or this cycle's allocation).
    const ports = Array.from({ length: p.ports }, (_, k) => {
      const addr = io.in_addr.at(k);
      const line = addr.bits(TEXTURE_WORD_BITS - 1, 2);
      const match = lines.map((l) => l.allocated.and(l.tag.eq(line)));
      const found = lowestSet(match);
      return {
        line,
        offset: addr.bits(1, 0),
        needed: io.in_needed.bit(k),
        hit: found.any,
        hitIndex: found.index,
        resolved: m.reg(Bool, { reset: 0, name: `resolved${k}` }),
        index: m.reg(UInt(ib), { name: `index${k}` }),
      };
    });
    const missing = ports.map((q) => io.in_valid.and(q.needed).and(q.resolved.not()).and(q.hit.not()));
    // A victim holds no reference, no fill in flight, and is not a line this request already found.
    const inUse = lines.map((_, i) => ports.map((q) => q.needed.and(mux(q.resolved, q.index, q.hitIndex).eq(i)).and(q.resolved.or(q.hit))).reduce((a, b) => a.or(b)));
    const eligible = lines.map((l, i) => l.refs.eq(0).and(l.allocated.not().or(l.present)).and(inUse[i]!.not()));
    const pointer = m.reg(UInt(ib), { reset: 0, name: 'victim_pointer' });
    // Up to allocsPerCycle distinct missing lines get a victim each (round robin from the pointer) and a place in the request queue.
    const allocs: { line: UIntValue; victim: UIntValue; go: BoolValue }[] = [];
    for (let j = 0; j < p.allocsPerCycle; j++) {
      const missingHere = missing.map((x, k) => allocs.reduce((acc, a) => acc.and(ports[k]!.line.ne(a.line)), x));
      const first = lowestSet(missingHere);
      const free = eligible.map((e, i) => allocs.reduce((acc, a) => acc.and(a.victim.ne(i)), e));
      const fromPointer = lowestSet(free.map((e, i) => e.and(pointer.le(i))));
      const anywhere = lowestSet(free);
      const prior = j === 0 ? requests.space.ge(1) : allocs[j - 1]!.go;
      allocs.push({
        line: selectByIndex(first.index, ports.map((q) => q.line)),
        victim: mux(fromPointer.any, fromPointer.index, anywhere.index),
        go: prior.and(first.any).and(anywhere.any).and(requests.space.ge(j + 1)),
      });
    }
    const now = ports.map((q) => {
      let index = mux(q.resolved, q.index, q.hitIndex);
      let done = q.needed.not().or(q.resolved).or(q.hit);
      for (const a of allocs) {
        const byAlloc = a.go.and(q.line.eq(a.line)).and(q.resolved.or(q.hit).not());
        index = mux(byAlloc, a.victim, index);
        done = done.or(byAlloc);
      }
      return { done, index };
    });
    const allDone = now.map((x) => x.done).reduce((a, b) => a.and(b));
    const pass = io.in_valid.and(allDone).and(ahead.io.enq.ready);
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
    ahead.io.enq.valid.set(pass);
    ports.forEach((q, k) => {
      ahead.io.enq.bits.index.at(k).set(now[k]!.index);
      ahead.io.enq.bits.offset.at(k).set(q.offset);
      ahead.io.enq.bits.needed.at(k).set(q.needed);
    });
    m.connect(ahead.io.enq.bits.pass, io.in_pass);
    m.when(allocs[0]!.go, () => pointer.set(allocs.reduce((acc, a) => mux(a.go, mux(a.victim.eq(p.lines - 1), lit(0, ib), a.victim.add(1)), acc), pointer)));
    // The queue's head goes to memory when the memory can take another fill.
    const toMemory = requests.valid.and(fillIndices.io.enq.ready);
    requests.update(allocs.map((a) => ({ valid: a.go, bits: cat(a.victim, a.line) })), toMemory);
    io.mem_req_valid.set(toMemory);
    io.mem_req_line.set(requests.head.bits(TEXTURE_LINE_BITS - 1, 0));
    fillIndices.io.enq.valid.set(toMemory);
    fillIndices.io.enq.bits.set(requests.head.bits(TEXTURE_LINE_BITS + ib - 1, TEXTURE_LINE_BITS));

    // ---- Data stage: the head of the queue leaves when every line it needs is present.
    const head = ahead.io.deq.bits;
    const [headIndex, headOffset, headNeeded, headPass] = [head.index.elems, head.offset.elems, head.needed.elems, head.pass];
    const presentAt = (i: UIntValue) => selectByIndex(i, lines.map((l) => l.present.zext(1))).eq(1);
    const ready = ports.map((_, k) => headNeeded[k]!.not().or(presentAt(headIndex[k]!))).reduce((a, b) => a.and(b));
    const issue = ahead.io.deq.valid.and(ready).and(io.out_ready);
    ahead.io.deq.ready.set(issue);
    io.out_valid.set(issue);
    m.connect(io.out_pass, headPass);
    ports.forEach((_, k) => {
      const lineData = selectByIndex(headIndex[k]!, lines.map((l) => l.data));
      io.out_words.at(k).set(selectByIndex(headOffset[k]!, [0, 1, 2, 3].map((w) => lineData.bits(32 * w + 31, 32 * w))));
    });

    // ---- Line state: references taken at the tag stage and dropped at the data stage; fills in request order.
    const fillIndex = fillIndices.io.deq.bits;
    fillIndices.io.deq.ready.set(io.fill_valid);
    lines.forEach((l, i) => {
      const taken = ports.map((q, k) => pass.and(q.needed).and(now[k]!.index.eq(i)).zext(REF_BITS)).reduce((a, b) => a.add(b));
      const dropped = ports.map((_, k) => issue.and(headNeeded[k]!).and(headIndex[k]!.eq(i)).zext(REF_BITS)).reduce((a, b) => a.add(b));
      l.refs.set(l.refs.add(taken).sub(dropped));
      for (const a of allocs) {
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

    const counter = (name: string) => m.reg(UInt(32), { reset: 0, name });
    const lookups = counter('lookup_count');
    const hits = counter('hit_count');
    const fills = counter('fill_count');
    const stalls = counter('stall_count');
    const popcount = (bits: readonly BoolValue[]) => bits.map((b) => b.zext(32)).reduce((a, b) => a.add(b));
    m.when(io.in_valid.and(waited.not()), () => {
      lookups.set(lookups.add(popcount(ports.map((q) => q.needed))));
      hits.set(hits.add(popcount(ports.map((q) => q.needed.and(q.hit)))));
    });
    m.when(allocs[0]!.go, () => fills.set(fills.add(allocs.map((a) => a.go.zext(32)).reduce((x, y) => x.add(y)))));
    m.when(io.in_valid.and(pass.not()).or(ahead.io.deq.valid.and(ready.not())), () => stalls.set(stalls.add(1)));
    io.lookups.set(lookups);
    io.hits.set(hits);
    io.fills.set(fills);
    io.stall_cycles.set(stalls);
  },
));
