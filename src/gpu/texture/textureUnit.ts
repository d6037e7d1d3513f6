// The TXD texture unit: header and sampler fetch, LOD, level selection, texel coordinates and addresses, texel fetch through a cache, bilinear and level blends, write mask; one request per cycle when everything hits (docs/texture.md "Texture unit").
import { Bool, Bundle, Decoupled, UInt, cat, defineModule, input, lit, mux, output, type BoolValue, type ModuleBuilder, type PortsValue, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { Fifo, clog2, delay, delayValid } from '../../hdl/lib/index.ts';
import { TXD_HANDLE } from '../../isa/index.ts';
import { checkTextureLatencies, defaultTextureFloatLatencies, type TextureFloatLatencies } from './timedFloat.ts';
import { BilinearBlend, bilinearBlendLatency, texelChannelsHw } from './bilinearBlend.ts';
import { LevelBlend, levelBlendLatency } from './levelBlend.ts';
import { TextureCache } from './textureCache.ts';
import { TxdRequest, TxdResponse } from './txdLink.ts';
import { TexelFetch } from './texelFetch.ts';
import { checkWhole } from './paramChecks.ts';
import { TEXTURE_LINE_BITS, TextureLineRead } from './textureMemory.ts';
import { BlendParams, FILTER_NEAREST, TEXEL_PORTS, lane, middlePipeline, textureMiddleLatency, type AddressQueue } from './textureMiddle.ts';

export interface TextureUnitParams {
  readonly float: TextureFloatLatencies;
  /** Lines (4 words) of the header/sampler cache and of the texel cache. */
  readonly descriptorLines: number;
  readonly texelLines: number;
  /** Requests between the texel stage's tag lookup and its data read: how far line fetches run ahead. */
  readonly aheadDepth: number;
  /** Missing texel lines the tag stage allocates (and queues for the memory) in one cycle. */
  readonly allocsPerCycle: number;
  /** Requests between the descriptor stage and the texel stage (the credit count): at least the middle pipeline's latency for one request per cycle. */
  readonly queueDepth: number;
  /** Width of the tag a request carries back. */
  readonly tagBits: number;
}

export const defaultTextureUnitParams: TextureUnitParams = {
  float: defaultTextureFloatLatencies,
  descriptorLines: 4,
  texelLines: 32,
  aheadDepth: 16,
  allocsPerCycle: 2,
  queueDepth: 128,
  tagBits: 8,
};


/** The unit's counters (reset by rst_n). */
export const TextureUnitCounters = Bundle({
  /** Requests issued by the texel stage (one per cycle at most). */
  issued: UInt(32),
  /** Texel words the requests needed, and those whose line was in the cache (or on its way) on the request's first cycle at the tag stage. */
  texel_lookups: UInt(32),
  texel_hits: UInt(32),
  /** Lines fetched from memory for the texel cache and the descriptor cache. */
  texel_fills: UInt(32),
  descriptor_fills: UInt(32),
  /** Cycles in which the texel stage held a request waiting for a line (its tag stage or its data stage). */
  stall_cycles: UInt(32),
  /** Cycles in which the descriptor stage held a request waiting for its header or sampler line. */
  descriptor_stall_cycles: UInt(32),
});

/** Answer queue entries beyond the back half's latency: a ready that comes back after a gap finds answers waiting. */
const RESPONSE_SLACK = 8;
/** Line reads the texel stage may have outstanding at the memory, and waiting for it. */
const MAX_FILLS = 16;
const REQUEST_DEPTH = 8;

/** What waits in order beside the middle pipeline: RVd's value before, the write mask and the tag the answer returns. */
const SideEntry = (tagBits: number) => Bundle({ dest: UInt(128), mask: UInt(4), tag: UInt(tagBits) });

/** The middle's latency, with the unit's others (the middle is textureMiddle.ts). */
export { textureMiddleLatency };
/** Cycles from a request leaving the texel stage to its response: bilinear blend, level blend, the masked output register. */
export const textureBackLatency = (p: TextureUnitParams): number => bilinearBlendLatency(p.float) + levelBlendLatency(p.float) + 1;
/** Cycles from request to response when everything hits and nothing waits: the descriptor register, the middle, the address, ahead and answer queues (a cycle each), the back. */
export const textureUnitLatency = (p: TextureUnitParams): number => 1 + textureMiddleLatency(p) + 3 + textureBackLatency(p);

export function checkTextureUnitParams(p: TextureUnitParams): void {
  checkTextureLatencies('TextureUnit', p.float);
  const whole = (name: string, v: number, lo: number, hi: number) => checkWhole('TextureUnit', name, v, lo, hi);
  whole('descriptorLines', p.descriptorLines, 1, 64);
  whole('texelLines', p.texelLines, 2 * TEXEL_PORTS, 256);
  whole('aheadDepth', p.aheadDepth, 1, 64);
  whole('allocsPerCycle', p.allocsPerCycle, 1, 4);
  whole('queueDepth', p.queueDepth, 2, 1024);
  whole('tagBits', p.tagBits, 1, 32);
}

const textureUnitPorts = (p: TextureUnitParams) => {
  checkTextureUnitParams(p);
  return {
    req: input(Decoupled(TxdRequest(p.tagBits))),
    /** Answers wait in a queue while resp_ready is low; the texel stage issues only what the queue has room for. */
    resp: output(Decoupled(TxdResponse(p.tagBits))),
    /** Texture memory's line read port (TextureMemory.read). */
    mem: output(TextureLineRead),
    counters: output(TextureUnitCounters),
    /**
     * Texture memory is being loaded (TextureLoad's start): the descriptor and texel caches forget every line,
     * since they do not see the load's writes. Only while the unit is idle (no request in it), as the memory
     * controller loads only between frames.
     */
    flush: input(Bool),
  };
};

export const TextureUnit = defineModule('TextureUnit', textureUnitPorts, (m, io, p) => {
  const desc = descriptorStage(m, io, p);
  const side = sideQueue(m, p, desc);
  const queued = middlePipeline(m, p, desc);
  const texels = texelStage(m, io, p, queued, desc, side);
  memoryPort(m, io, desc, texels.fetch);
  backStage(m, io, p, texels, side);
  countEvents(m, io, desc, texels);
});

type TextureUnitIo = PortsValue<ReturnType<typeof textureUnitPorts>>;

function descriptorCache(m: ModuleBuilder, p: TextureUnitParams) {
  return m.instance(TextureCache, { lines: p.descriptorLines, ports: 2, tagBits: TXD_HANDLE.header.width }, { name: 'descriptor_cache' });
}

interface DescriptorStage {
  readonly valid: BoolValue;
  readonly request: ValueOf<ReturnType<typeof TxdRequest>>;
  readonly cache: ReturnType<typeof descriptorCache>;
  readonly headerLine: UIntValue;
  readonly samplerLine: UIntValue;
  /** The header and the sampler (half a line), from the cache or held since they came. */
  readonly headerWords: UIntValue;
  readonly samplerWords: UIntValue;
  readonly headerReady: BoolValue;
  readonly ready: BoolValue;
  /** The request leaves for the middle pipeline. */
  readonly launch: BoolValue;
  /** Requests between this stage and the texel stage (the credits used). */
  readonly inflight: UIntValue;
}

/** Descriptor stage: the request waits in a register until its header and sampler lines are at hand, and a credit. */
function descriptorStage(m: ModuleBuilder, io: TextureUnitIo, p: TextureUnitParams): DescriptorStage {
  const dValid = m.reg(Bool, { reset: 0, name: 'd_valid' });
  const d = m.reg(TxdRequest(p.tagBits), { enable: io.req.fire, name: 'd' });
  m.connect(d, io.req.bits);
  const dHandle = lane(d.coords, 2);
  const headerLine = dHandle.bits(TXD_HANDLE.header.lo + TXD_HANDLE.header.width - 1, TXD_HANDLE.header.lo);
  const samplerIndex = dHandle.bits(TXD_HANDLE.sampler.lo + TXD_HANDLE.sampler.width - 1, TXD_HANDLE.sampler.lo);
  const samplerLine = samplerIndex.bits(TXD_HANDLE.sampler.width - 1, 1).zext(TXD_HANDLE.header.width);
  const cache = descriptorCache(m, p);
  cache.io.lookup.at(0).set(headerLine);
  cache.io.lookup.at(1).set(samplerLine);
  cache.io.flush.set(io.flush);
  const haveHeader = m.reg(Bool, { reset: 0, name: 'have_header' });
  const haveSampler = m.reg(Bool, { reset: 0, name: 'have_sampler' });
  const heldHeader = m.reg(UInt(128), { name: 'held_header' });
  const heldSampler = m.reg(UInt(128), { name: 'held_sampler' });
  const headerWords = mux(haveHeader, heldHeader, cache.io.data.at(0));
  const samplerLineWords = mux(haveSampler, heldSampler, cache.io.data.at(1));
  const samplerWords = mux(samplerIndex.bit(0), samplerLineWords.bits(127, 64), samplerLineWords.bits(63, 0));
  const headerReady = haveHeader.or(cache.io.hit.at(0));
  const samplerReady = haveSampler.or(cache.io.hit.at(1));
  const descReady = headerReady.and(samplerReady);

  // Credits: requests between the descriptor stage and the texel stage never exceed the queue's depth.
  const inflight = m.reg(UInt(11), { reset: 0, name: 'inflight' });
  const creditOk = inflight.lt(p.queueDepth);
  const launch = dValid.and(descReady).and(creditOk);
  io.req.ready.set(dValid.not().or(launch));
  m.when(io.req.fire, () => dValid.set(true)).elsewhen(launch, () => dValid.set(false));
  m.when(launch.or(dValid.not()), () => {
    haveHeader.set(false);
    haveSampler.set(false);
  }).otherwise(() => {
    m.when(cache.io.hit.at(0), () => {
      haveHeader.set(true);
      heldHeader.set(cache.io.data.at(0));
    });
    m.when(cache.io.hit.at(1), () => {
      haveSampler.set(true);
      heldSampler.set(cache.io.data.at(1));
    });
  });
  return { valid: dValid, request: d, cache, headerLine, samplerLine, headerWords, samplerWords, headerReady, ready: descReady, launch, inflight };
}

function sideFifo(m: ModuleBuilder, p: TextureUnitParams) {
  return m.instance(Fifo, { payload: SideEntry(p.tagBits), depth: p.queueDepth }, { name: 'side_queue' });
}
type SideQueue = ReturnType<typeof sideFifo>;

/** The mask, old lanes and tag wait in order beside the middle pipeline. */
function sideQueue(m: ModuleBuilder, p: TextureUnitParams, desc: DescriptorStage): SideQueue {
  const side = sideFifo(m, p);
  side.io.enq.valid.set(desc.launch);
  side.io.enq.bits.dest.set(desc.request.dest);
  side.io.enq.bits.mask.set(desc.request.mask);
  side.io.enq.bits.tag.set(desc.request.tag);
  return side;
}

function texelFetch(m: ModuleBuilder, p: TextureUnitParams) {
  return m.instance(TexelFetch, { ports: TEXEL_PORTS, lines: p.texelLines, aheadDepth: p.aheadDepth, maxFills: MAX_FILLS, allocsPerCycle: p.allocsPerCycle, requestDepth: REQUEST_DEPTH, pass: BlendParams }, { name: 'texel_fetch' });
}
type TexelFetchIo = ReturnType<typeof texelFetch>['io'];

interface TexelStage {
  readonly fetch: TexelFetchIo;
  /** A request leaves with its texel words (and its blend parameters, `fetch.out_pass`). */
  readonly issue: BoolValue;
  /** Requests issued and not yet answered (in the back half or the answer queue), and the most there may be. */
  readonly backInFlight: UIntValue;
  readonly answerDepth: number;
}

/** Texel stage (TexelFetch): line lookups and fetches run ahead of the data reads; the blend parameters pass through it. An issue returns a credit. */
function texelStage(m: ModuleBuilder, io: TextureUnitIo, p: TextureUnitParams, queued: AddressQueue, desc: DescriptorStage, side: SideQueue): TexelStage {
  const ports = queued.io.deq.bits.texels.elems;
  const fetch = texelFetch(m, p).io;
  fetch.in_valid.set(queued.io.deq.valid);
  queued.io.deq.ready.set(fetch.in_ready);
  ports.forEach((q, k) => fetch.in_addr.at(k).set(q.address));
  fetch.in_needed.set(cat(...ports.map((q) => q.needed).reverse()));
  m.connect(fetch.in_pass, queued.io.deq.bits.blend);
  fetch.flush.set(io.flush);
  // Requests issued and not yet answered: at most the answer queue's depth.
  const answerDepth = textureBackLatency(p) + RESPONSE_SLACK;
  const backInFlight = m.reg(UInt(clog2(answerDepth + 1)), { reset: 0, name: 'back_in_flight' });
  fetch.out_ready.set(backInFlight.lt(answerDepth));
  const issue = fetch.out_valid;
  side.io.deq.ready.set(issue);
  const { launch, inflight } = desc;
  m.when(launch.and(issue.not()), () => inflight.set(inflight.add(1))).elsewhen(issue.and(launch.not()), () => inflight.set(inflight.sub(1)));
  return { fetch, issue, backInFlight, answerDepth };
}

/** Memory port: the texel stage's fetches first; a descriptor line when the port is free. Answers come in order: a queue says whose each is. */
function memoryPort(m: ModuleBuilder, io: TextureUnitIo, desc: DescriptorStage, fetch: TexelFetchIo): void {
  const descPending = m.reg(Bool, { reset: 0, name: 'descriptor_pending' });
  const fillTag = m.reg(UInt(TXD_HANDLE.header.width), { name: 'descriptor_fill_tag' });
  const owners = m.instance(Fifo, { payload: Bool, depth: MAX_FILLS + 1 }, { name: 'fill_owners' });
  const headerMissing = desc.valid.and(desc.headerReady.not());
  const descMissing = desc.valid.and(desc.ready.not());
  const descLine = mux(headerMissing, desc.headerLine, desc.samplerLine);
  const descStart = descMissing.and(descPending.not()).and(fetch.mem_req_valid.not());
  io.mem.req_valid.set(fetch.mem_req_valid.or(descStart));
  io.mem.req_line.set(mux(fetch.mem_req_valid, fetch.mem_req_line, descLine.trunc(TEXTURE_LINE_BITS)));
  owners.io.enq.valid.set(fetch.mem_req_valid.or(descStart));
  owners.io.enq.bits.set(fetch.mem_req_valid);
  owners.io.deq.ready.set(io.mem.resp_valid);
  const forTexels = owners.io.deq.bits;
  m.when(descStart, () => {
    descPending.set(true);
    fillTag.set(descLine);
  }).elsewhen(io.mem.resp_valid.and(forTexels.not()), () => descPending.set(false));
  // A header past texture memory reads as zeroes (an invalid header), as the ISS's out-of-range handle does.
  const outside = fillTag.bits(TXD_HANDLE.header.width - 1, TEXTURE_LINE_BITS).ne(0);
  desc.cache.io.fill_valid.set(io.mem.resp_valid.and(forTexels.not()));
  desc.cache.io.fill_tag.set(fillTag);
  desc.cache.io.fill_data.set(mux(outside, lit(0, 128), io.mem.resp_data));
  fetch.fill_valid.set(io.mem.resp_valid.and(forTexels));
  fetch.fill_data.set(io.mem.resp_data);
}

function bilinearBlend(m: ModuleBuilder, p: TextureUnitParams, t: TexelStage, name: string, first: number, weightA: UIntValue, weightB: UIntValue) {
  const b = m.instance(BilinearBlend, p.float, { name });
  b.io.in_valid.set(t.issue);
  b.io.t00.set(t.fetch.out_words.at(first));
  b.io.t10.set(t.fetch.out_words.at(first + 1));
  b.io.t01.set(t.fetch.out_words.at(first + 2));
  b.io.t11.set(t.fetch.out_words.at(first + 3));
  b.io.format.set(t.fetch.out_pass.format);
  b.io.weight_a.set(weightA);
  b.io.weight_b.set(weightB);
  return b.io;
}

/** Back: the two bilinear blends and the level blend (a nearest filter reads its texel's channels as they are). */
function blendStage(m: ModuleBuilder, p: TextureUnitParams, t: TexelStage): UIntValue {
  const held = t.fetch.out_pass;
  const weights = held.weights.elems;
  const fine = bilinearBlend(m, p, t, 'fine_blend', 0, weights[0]!, weights[1]!);
  const coarse = bilinearBlend(m, p, t, 'coarse_blend', 4, weights[2]!, weights[3]!);
  const blendLat = bilinearBlendLatency(p.float);
  // A blend with weight 0 would turn ±inf into NaN.
  const nearestLate = delay(m, held.filter.eq(FILTER_NEAREST), blendLat, 'b_nearest');
  const nearestColour = cat(...texelChannelsHw(delay(m, t.fetch.out_words.at(0), blendLat, 'b_t00'), delay(m, held.format, blendLat, 'b_format')).reverse());
  const levels = m.instance(LevelBlend, p.float, { name: 'level_blend' });
  levels.io.in_valid.set(fine.out_valid);
  levels.io.fine.set(mux(nearestLate, nearestColour, fine.rgba));
  levels.io.coarse.set(coarse.rgba);
  levels.io.fraction.set(delay(m, held.fraction, blendLat, 'b_fraction'));
  return levels.io.rgba;
}

/** Back, last cycle: the write mask keeps RVd's other lanes; the answer waits in the answer queue for resp_ready. */
function backStage(m: ModuleBuilder, io: TextureUnitIo, p: TextureUnitParams, t: TexelStage, side: SideQueue): void {
  const rgba = blendStage(m, p, t);
  const backLat = bilinearBlendLatency(p.float) + levelBlendLatency(p.float);
  const lateStatus = delay(m, t.fetch.out_pass.status, backLat, 'o_status');
  const dest = delay(m, side.io.deq.bits.dest, backLat, 'o_dest');
  const mask = delay(m, side.io.deq.bits.mask, backLat, 'o_mask');
  const colour = mux(lateStatus.eq(0), rgba, lit(0, 128));
  const lanes = [0, 1, 2, 3].map((k) => mux(mask.bit(k), lane(colour, k), lane(dest, k)));
  // The back half never stalls, so the texel stage issues only while the queue will have room for everything in flight.
  const answers = m.instance(Fifo, { payload: TxdResponse(p.tagBits), depth: t.answerDepth }, { name: 'answer_queue' });
  answers.io.enq.valid.set(delayValid(m, t.issue, backLat + 1, 'answer_valid'));
  const answer = m.reg(TxdResponse(p.tagBits), { name: 'answer' });
  answer.rgba.set(cat(...lanes.reverse()));
  answer.status.set(lateStatus);
  answer.tag.set(delay(m, side.io.deq.bits.tag, backLat, 'o_tag'));
  m.connect(answers.io.enq.bits, answer);
  m.connect(io.resp, answers.io.deq);
  const { issue, backInFlight } = t;
  m.when(issue.and(answers.io.deq.fire.not()), () => backInFlight.set(backInFlight.add(1))).elsewhen(answers.io.deq.fire.and(issue.not()), () => backInFlight.set(backInFlight.sub(1)));
}

/** The counters: the unit's own (issues, descriptor fills and stalls) and the texel stage's. */
function countEvents(m: ModuleBuilder, io: TextureUnitIo, desc: DescriptorStage, t: TexelStage): void {
  const counter = (name: string) => m.reg(UInt(32), { reset: 0, name });
  const issued = counter('issued_count');
  const descFills = counter('descriptor_fill_count');
  const descStalls = counter('descriptor_stall_count');
  m.when(t.issue, () => issued.set(issued.add(1)));
  m.when(desc.cache.io.fill_valid, () => descFills.set(descFills.add(1)));
  m.when(desc.valid.and(desc.ready.not()), () => descStalls.set(descStalls.add(1)));
  io.counters.issued.set(issued);
  io.counters.texel_lookups.set(t.fetch.lookups);
  io.counters.texel_hits.set(t.fetch.hits);
  io.counters.texel_fills.set(t.fetch.fills);
  io.counters.descriptor_fills.set(descFills);
  io.counters.stall_cycles.set(t.fetch.stall_cycles);
  io.counters.descriptor_stall_cycles.set(descStalls);
}
