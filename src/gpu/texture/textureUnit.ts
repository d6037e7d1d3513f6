// The TXD texture unit: header and sampler fetch, LOD, level selection, texel coordinates and addresses, texel fetch through a cache, bilinear and level blends, write mask; one request per cycle when everything hits (docs/texture.md "Texture unit").
import { Bool, Bundle, Decoupled, UInt, Vec, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { Fifo, clog2, delay, delayValid, selectByIndex } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/index.ts';
import { TXD_CONTROL, TXD_HANDLE } from '../../isa/index.ts';
import { TxdStatus } from '../../golden/texture/index.ts';
import { checkTextureLatencies, defaultTextureFloatLatencies, type TextureFloatLatencies } from './timedFloat.ts';
import { TextureLod, textureLodLatency } from './textureLod.ts';
import { TexelCoordinates, texelCoordinatesLatency } from './texelCoordinates.ts';
import { BilinearBlend, bilinearBlendLatency, texelChannelsHw } from './bilinearBlend.ts';
import { LevelBlend, levelBlendLatency } from './levelBlend.ts';
import { TextureCache } from './textureCache.ts';
import { TxdRequest, TxdResponse } from './txdLink.ts';
import { TexelFetch } from './texelFetch.ts';
import { checkWhole } from './paramChecks.ts';
import { TEXTURE_LINE_BITS, TEXTURE_WORD_BITS, TextureLineRead } from './textureMemory.ts';
import { decodeHeaderHw, decodeSamplerHw, mipAxisSize, mipLevelTexels, mipOffsetTable } from './textureDescriptors.ts';

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

/** Texel ports of the texel stage: T00, T10, T01, T11 of level d, then of level d + 1. */
const TEXEL_PORTS = 8;
/** Answer queue entries beyond the back half's latency: a ready that comes back after a gap finds answers waiting. */
const RESPONSE_SLACK = 8;
/** Line reads the texel stage may have outstanding at the memory, and waiting for it. */
const MAX_FILLS = 16;
const REQUEST_DEPTH = 8;
const FILTER_NEAREST = 0;
const FILTER_TRILINEAR = 2;

/** What waits in order beside the middle pipeline: RVd's value before, the write mask and the tag the answer returns. */
const SideEntry = (tagBits: number) => Bundle({ dest: UInt(128), mask: UInt(4), tag: UInt(tagBits) });
/** What the back half needs of a request, carried through the texel stage: the bilinear weights are fine a, b, then coarse a, b. */
const BlendParams = Bundle({ status: UInt(3), filter: UInt(2), format: UInt(1), fraction: UInt(8), weights: Vec(4, UInt(8)) });
/** One texel a request reads (T00, T10, T01, T11 of level d, then of d + 1): its word address and whether the filter needs it. */
const TexelRead = Bundle({ address: UInt(TEXTURE_WORD_BITS), needed: Bool });
/** A request on its way from the address stage to the texel stage. */
const AddressEntry = Bundle({ blend: BlendParams, texels: Vec(TEXEL_PORTS, TexelRead) });

/** Cycles from a request leaving the descriptor stage to its addresses entering the queue: decode, LOD, level select (2), coordinates, address. */
export const textureMiddleLatency = (p: TextureUnitParams): number => 1 + textureLodLatency(p.float) + 2 + texelCoordinatesLatency(p.float) + 1;
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

export const TextureUnit = defineModule(
  'TextureUnit',
  (p: TextureUnitParams) => {
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
  },
  (m, io, p) => {
    const counter = (name: string) => m.reg(UInt(32), { reset: 0, name });

    // ---- Descriptor stage: the request waits in a register until its header and sampler lines are at hand.
    const dValid = m.reg(Bool, { reset: 0, name: 'd_valid' });
    const d = m.reg(TxdRequest(p.tagBits), { enable: io.req.fire, name: 'd' });
    m.connect(d, io.req.bits);
    const lane = (x: UIntValue, k: number): UIntValue => x.bits(32 * k + 31, 32 * k);
    const [dS, dT, dHandle, dControl] = [0, 1, 2, 3].map((k) => lane(d.coords, k)) as [UIntValue, UIntValue, UIntValue, UIntValue];
    const [dDsdx, dDsdy, dDtdx, dDtdy] = [0, 1, 2, 3].map((k) => lane(d.derivatives, k)) as [UIntValue, UIntValue, UIntValue, UIntValue];
    const headerLine = dHandle.bits(TXD_HANDLE.header.lo + TXD_HANDLE.header.width - 1, TXD_HANDLE.header.lo);
    const samplerIndex = dHandle.bits(TXD_HANDLE.sampler.lo + TXD_HANDLE.sampler.width - 1, TXD_HANDLE.sampler.lo);
    const samplerLine = samplerIndex.bits(TXD_HANDLE.sampler.width - 1, 1).zext(TXD_HANDLE.header.width);
    const descCache = m.instance(TextureCache, { lines: p.descriptorLines, ports: 2, tagBits: TXD_HANDLE.header.width }, { name: 'descriptor_cache' });
    descCache.io.lookup.at(0).set(headerLine);
    descCache.io.lookup.at(1).set(samplerLine);
    descCache.io.flush.set(io.flush);
    const haveHeader = m.reg(Bool, { reset: 0, name: 'have_header' });
    const haveSampler = m.reg(Bool, { reset: 0, name: 'have_sampler' });
    const heldHeader = m.reg(UInt(128), { name: 'held_header' });
    const heldSampler = m.reg(UInt(128), { name: 'held_sampler' });
    const headerWords = mux(haveHeader, heldHeader, descCache.io.data.at(0));
    const samplerLineWords = mux(haveSampler, heldSampler, descCache.io.data.at(1));
    const samplerWords = mux(samplerIndex.bit(0), samplerLineWords.bits(127, 64), samplerLineWords.bits(63, 0));
    const headerReady = haveHeader.or(descCache.io.hit.at(0));
    const samplerReady = haveSampler.or(descCache.io.hit.at(1));
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
      m.when(descCache.io.hit.at(0), () => {
        haveHeader.set(true);
        heldHeader.set(descCache.io.data.at(0));
      });
      m.when(descCache.io.hit.at(1), () => {
        haveSampler.set(true);
        heldSampler.set(descCache.io.data.at(1));
      });
    });

    // The mask, old lanes and tag wait in order beside the middle pipeline.
    const side = m.instance(Fifo, { payload: SideEntry(p.tagBits), depth: p.queueDepth }, { name: 'side_queue' });
    side.io.enq.valid.set(launch);
    side.io.enq.bits.dest.set(d.dest);
    side.io.enq.bits.mask.set(d.mask);
    side.io.enq.bits.tag.set(d.tag);

    // ---- Middle: decode (1), LOD, level select and offsets (2), texel coordinates, addresses (1).
    const v0 = m.regNext(launch, { reset: 0, name: 'decode_valid' });
    const hdr = decodeHeaderHw(headerWords);
    const smp = decodeSamplerHw(samplerWords);
    const r = <V extends UIntValue | BoolValue>(x: V, name: string): V => m.regNext(x, { name }) as V;
    const dec = {
      base: r(hdr.base, 'dec_base'),
      width: r(hdr.width, 'dec_width'),
      height: r(hdr.height, 'dec_height'),
      format: r(hdr.format, 'dec_format'),
      mipCount: r(hdr.mipCount, 'dec_mip_count'),
      wraps: r(cat(hdr.wrapT, hdr.wrapS), 'dec_wraps'),
      filter: r(smp.filter, 'dec_filter'),
      status: r(cat(lit(0, 1), smp.invalid, hdr.invalid), 'dec_status'),
      s: r(dS, 'dec_s'),
      t: r(dT, 'dec_t'),
      control: r(dControl, 'dec_control'),
    };
    const lodUnit = m.instance(TextureLod, p.float, { name: 'lod_unit' });
    lodUnit.io.in_valid.set(v0);
    lodUnit.io.width.set(dec.width);
    lodUnit.io.height.set(dec.height);
    lodUnit.io.mip_count.set(dec.mipCount);
    lodUnit.io.lod_bias.set(r(smp.lodBias, 'dec_lod_bias'));
    lodUnit.io.lod_min.set(r(smp.lodMin, 'dec_lod_min'));
    lodUnit.io.lod_max.set(r(smp.lodMax, 'dec_lod_max'));
    lodUnit.io.lod_clamp.set(dec.control.bits(TXD_CONTROL.lodClamp.lo + TXD_CONTROL.lodClamp.width - 1, TXD_CONTROL.lodClamp.lo));
    lodUnit.io.dsdx.set(r(dDsdx, 'dec_dsdx'));
    lodUnit.io.dsdy.set(r(dDsdy, 'dec_dsdy'));
    lodUnit.io.dtdx.set(r(dDtdx, 'dec_dtdx'));
    lodUnit.io.dtdy.set(r(dDtdy, 'dec_dtdy'));
    const lodLat = textureLodLatency(p.float);
    const offsetByte = dec.control.bits(TXD_CONTROL.offset.lo + TXD_CONTROL.offset.width - 1, TXD_CONTROL.offset.lo);
    // Everything else the item needs waits beside the LOD unit.
    const l = {
      base: delay(m, dec.base, lodLat, 'l_base'),
      width: delay(m, dec.width, lodLat, 'l_width'),
      height: delay(m, dec.height, lodLat, 'l_height'),
      format: delay(m, dec.format, lodLat, 'l_format'),
      mipCount: delay(m, dec.mipCount, lodLat, 'l_mip_count'),
      wraps: delay(m, dec.wraps, lodLat, 'l_wraps'),
      filter: delay(m, dec.filter, lodLat, 'l_filter'),
      status: delay(m, dec.status, lodLat, 'l_status'),
      s: delay(m, dec.s, lodLat, 'l_s'),
      t: delay(m, dec.t, lodLat, 'l_t'),
      offset: delay(m, offsetByte, lodLat, 'l_offset'),
    };

    // Level select (sampleTxd): trilinear d = lod >> 8 with the fraction, a zero fraction one level; otherwise the nearest level (lod + 127) >> 8.
    const lod = lodUnit.io.lod;
    const trilinear = l.filter.eq(FILTER_TRILINEAR);
    const level = mux(trilinear, lod.bits(11, 8), lod.zext(13).add(127).bits(11, 8));
    const fraction = mux(trilinear, lod.bits(7, 0), lit(0, 8));
    const s1 = {
      valid: m.regNext(lodUnit.io.out_valid, { reset: 0, name: 's1_valid' }),
      level: r(level, 's1_level'),
      fraction: r(fraction, 's1_fraction'),
      texels: mipLevelTexels(l.width, l.height).map((t, k) => r(t, `s1_texels${k}`)),
      width: r(l.width, 's1_width'),
      height: r(l.height, 's1_height'),
      base: r(l.base, 's1_base'),
      format: r(l.format, 's1_format'),
      mipCount: r(l.mipCount, 's1_mip_count'),
      wraps: r(l.wraps, 's1_wraps'),
      filter: r(l.filter, 's1_filter'),
      status: r(l.status, 's1_status'),
      s: r(l.s, 's1_s'),
      t: r(l.t, 's1_t'),
      offset: r(l.offset, 's1_offset'),
    };
    const table = mipOffsetTable(s1.texels);
    const nextLevel = s1.level.add(1);
    const chainEnd = s1.base.zext(33).add(selectByIndex(s1.mipCount, table).zext(33));
    const outOfMemory = s1.status.bits(0, 0).eq(0).and(chainEnd.gt(MEMORY_MAP.textureWords));
    const s2 = {
      valid: m.regNext(s1.valid, { reset: 0, name: 's2_valid' }),
      fine: r(s1.base.add(selectByIndex(s1.level, table).zext(32)), 's2_fine_base'),
      coarse: r(s1.base.add(selectByIndex(nextLevel, table).zext(32)), 's2_coarse_base'),
      fineWidth: r(mipAxisSize(s1.width, s1.level), 's2_fine_width'),
      fineHeight: r(mipAxisSize(s1.height, s1.level), 's2_fine_height'),
      coarseWidth: r(mipAxisSize(s1.width, nextLevel), 's2_coarse_width'),
      coarseHeight: r(mipAxisSize(s1.height, nextLevel), 's2_coarse_height'),
      fraction: r(s1.fraction, 's2_fraction'),
      format: r(s1.format, 's2_format'),
      wraps: r(s1.wraps, 's2_wraps'),
      filter: r(s1.filter, 's2_filter'),
      status: r(s1.status.or(mux(outOfMemory, lit(TxdStatus.outOfMemory, 3), lit(0, 3))), 's2_status'),
      s: r(s1.s, 's2_s'),
      t: r(s1.t, 's2_t'),
      offset: r(s1.offset, 's2_offset'),
    };
    const coords = (name: string, width: UIntValue, height: UIntValue) => {
      const c = m.instance(TexelCoordinates, p.float, { name });
      c.io.in_valid.set(s2.valid);
      c.io.s.set(s2.s);
      c.io.t.set(s2.t);
      c.io.width.set(width);
      c.io.height.set(height);
      c.io.du.set(s2.offset.bits(3, 0));
      c.io.dv.set(s2.offset.bits(7, 4));
      c.io.bilinear.set(s2.filter.ne(FILTER_NEAREST));
      c.io.wrap_s.set(s2.wraps.bits(1, 0));
      c.io.wrap_t.set(s2.wraps.bits(3, 2));
      return c;
    };
    const fineCoords = coords('fine_coords', s2.fineWidth, s2.fineHeight);
    const coarseCoords = coords('coarse_coords', s2.coarseWidth, s2.coarseHeight);
    const coordLat = texelCoordinatesLatency(p.float);
    const c = {
      fine: delay(m, s2.fine, coordLat, 'c_fine_base'),
      coarse: delay(m, s2.coarse, coordLat, 'c_coarse_base'),
      fineWidth: delay(m, s2.fineWidth, coordLat, 'c_fine_width'),
      coarseWidth: delay(m, s2.coarseWidth, coordLat, 'c_coarse_width'),
      fraction: delay(m, s2.fraction, coordLat, 'c_fraction'),
      format: delay(m, s2.format, coordLat, 'c_format'),
      filter: delay(m, s2.filter, coordLat, 'c_filter'),
      status: delay(m, s2.status, coordLat, 'c_status'),
    };
    // Texel address = level base + y · level width + x (word address; only a valid item's are < 2^18 and read).
    const address = (base: UIntValue, width: UIntValue, x: UIntValue, y: UIntValue) =>
      base.add(y.zext(32).mul(width.zext(32))).add(x.zext(32)).trunc(TEXTURE_WORD_BITS);
    const levelAddresses = (base: UIntValue, width: UIntValue, io2: typeof fineCoords.io) => [
      address(base, width, io2.x0, io2.y0),
      address(base, width, io2.x1, io2.y0),
      address(base, width, io2.x0, io2.y1),
      address(base, width, io2.x1, io2.y1),
    ];
    const addresses = [...levelAddresses(c.fine, c.fineWidth, fineCoords.io), ...levelAddresses(c.coarse, c.coarseWidth, coarseCoords.io)];
    const ok = c.status.eq(0);
    const nearest = c.filter.eq(FILTER_NEAREST);
    const twoLevels = c.fraction.ne(0);
    // T00 always; T10, T01, T11 unless nearest; level d + 1 only when blended.
    const needed = [ok, ok.and(nearest.not()), ok.and(nearest.not()), ok.and(nearest.not()), ...[0, 1, 2, 3].map(() => ok.and(twoLevels))];
    const queued = m.instance(Fifo, { payload: AddressEntry, depth: p.queueDepth }, { name: 'address_queue' });
    queued.io.enq.valid.set(m.regNext(fineCoords.io.out_valid, { reset: 0, name: 'a_valid' }));
    const entry = m.reg(AddressEntry, { name: 'a_entry' });
    entry.blend.status.set(c.status);
    entry.blend.filter.set(c.filter);
    entry.blend.format.set(c.format);
    entry.blend.fraction.set(c.fraction);
    [fineCoords.io.weight_a, fineCoords.io.weight_b, coarseCoords.io.weight_a, coarseCoords.io.weight_b].forEach((w, k) => entry.blend.weights.at(k).set(w));
    entry.texels.elems.forEach((t, k) => {
      t.address.set(addresses[k]!);
      t.needed.set(needed[k]!);
    });
    m.connect(queued.io.enq.bits, entry);

    // ---- Texel stage (TexelFetch): line lookups and fetches run ahead of the data reads; the blend parameters pass through it.
    const ports = queued.io.deq.bits.texels.elems;
    const fetch = m.instance(TexelFetch, { ports: TEXEL_PORTS, lines: p.texelLines, aheadDepth: p.aheadDepth, maxFills: MAX_FILLS, allocsPerCycle: p.allocsPerCycle, requestDepth: REQUEST_DEPTH, pass: BlendParams }, { name: 'texel_fetch' });
    fetch.io.in_valid.set(queued.io.deq.valid);
    queued.io.deq.ready.set(fetch.io.in_ready);
    ports.forEach((q, k) => fetch.io.in_addr.at(k).set(q.address));
    fetch.io.in_needed.set(cat(...ports.map((q) => q.needed).reverse()));
    m.connect(fetch.io.in_pass, queued.io.deq.bits.blend);
    fetch.io.flush.set(io.flush);
    // Requests issued and not yet answered (in the back half or the answer queue): at most the queue's depth.
    const answerDepth = textureBackLatency(p) + RESPONSE_SLACK;
    const backInFlight = m.reg(UInt(clog2(answerDepth + 1)), { reset: 0, name: 'back_in_flight' });
    fetch.io.out_ready.set(backInFlight.lt(answerDepth));
    const issue = fetch.io.out_valid;
    side.io.deq.ready.set(issue);
    m.when(launch.and(issue.not()), () => inflight.set(inflight.add(1))).elsewhen(issue.and(launch.not()), () => inflight.set(inflight.sub(1)));
    const held = fetch.io.out_pass;
    const [hStatus, hFilter, hFormat, hFraction] = [held.status, held.filter, held.format, held.fraction];
    const hWeights = held.weights.elems;

    // ---- Memory port: the texel stage's fetches first; a descriptor line when the port is free. Answers come in order: a queue says whose each is.
    const descPending = m.reg(Bool, { reset: 0, name: 'descriptor_pending' });
    const fillTag = m.reg(UInt(TXD_HANDLE.header.width), { name: 'descriptor_fill_tag' });
    const owners = m.instance(Fifo, { payload: Bool, depth: MAX_FILLS + 1 }, { name: 'fill_owners' });
    const headerMissing = dValid.and(headerReady.not());
    const descMissing = dValid.and(descReady.not());
    const descLine = mux(headerMissing, headerLine, samplerLine);
    const descStart = descMissing.and(descPending.not()).and(fetch.io.mem_req_valid.not());
    io.mem.req_valid.set(fetch.io.mem_req_valid.or(descStart));
    io.mem.req_line.set(mux(fetch.io.mem_req_valid, fetch.io.mem_req_line, descLine.trunc(TEXTURE_LINE_BITS)));
    owners.io.enq.valid.set(fetch.io.mem_req_valid.or(descStart));
    owners.io.enq.bits.set(fetch.io.mem_req_valid);
    owners.io.deq.ready.set(io.mem.resp_valid);
    const forTexels = owners.io.deq.bits;
    m.when(descStart, () => {
      descPending.set(true);
      fillTag.set(descLine);
    }).elsewhen(io.mem.resp_valid.and(forTexels.not()), () => descPending.set(false));
    // A header past texture memory reads as zeroes (an invalid header), as the ISS's out-of-range handle does.
    const outside = fillTag.bits(TXD_HANDLE.header.width - 1, TEXTURE_LINE_BITS).ne(0);
    descCache.io.fill_valid.set(io.mem.resp_valid.and(forTexels.not()));
    descCache.io.fill_tag.set(fillTag);
    descCache.io.fill_data.set(mux(outside, lit(0, 128), io.mem.resp_data));
    fetch.io.fill_valid.set(io.mem.resp_valid.and(forTexels));
    fetch.io.fill_data.set(io.mem.resp_data);

    // ---- Back: the two bilinear blends, the level blend, the write mask.
    const words = Array.from({ length: TEXEL_PORTS }, (_, k) => fetch.io.out_words.at(k));
    const blend = (name: string, k: number, weightA: UIntValue, weightB: UIntValue) => {
      const b = m.instance(BilinearBlend, p.float, { name });
      b.io.in_valid.set(issue);
      b.io.t00.set(words[k]!);
      b.io.t10.set(words[k + 1]!);
      b.io.t01.set(words[k + 2]!);
      b.io.t11.set(words[k + 3]!);
      b.io.format.set(hFormat);
      b.io.weight_a.set(weightA);
      b.io.weight_b.set(weightB);
      return b;
    };
    const fine = blend('fine_blend', 0, hWeights[0]!, hWeights[1]!);
    const coarse = blend('coarse_blend', 4, hWeights[2]!, hWeights[3]!);
    const blendLat = bilinearBlendLatency(p.float);
    // Nearest reads one texel's channels as they are (a blend with weight 0 would turn ±inf into NaN).
    const nearestLate = delay(m, hFilter.eq(FILTER_NEAREST), blendLat, 'b_nearest');
    const nearestColour = cat(...texelChannelsHw(delay(m, words[0]!, blendLat, 'b_t00'), delay(m, hFormat, blendLat, 'b_format')).reverse());
    const levels = m.instance(LevelBlend, p.float, { name: 'level_blend' });
    levels.io.in_valid.set(fine.io.out_valid);
    levels.io.fine.set(mux(nearestLate, nearestColour, fine.io.rgba));
    levels.io.coarse.set(coarse.io.rgba);
    levels.io.fraction.set(delay(m, hFraction, blendLat, 'b_fraction'));
    const backLat = blendLat + levelBlendLatency(p.float);
    const lateStatus = delay(m, hStatus, backLat, 'o_status');
    const dest = delay(m, side.io.deq.bits.dest, backLat, 'o_dest');
    const mask = delay(m, side.io.deq.bits.mask, backLat, 'o_mask');
    const colour = mux(lateStatus.eq(0), levels.io.rgba, lit(0, 128));
    const lanes = [0, 1, 2, 3].map((k) => mux(mask.bit(k), colour.bits(32 * k + 31, 32 * k), dest.bits(32 * k + 31, 32 * k)));
    // The answers queue: the back half never stalls, so the texel stage issues only while the queue will have room for everything in flight.
    const answers = m.instance(Fifo, { payload: TxdResponse(p.tagBits), depth: answerDepth }, { name: 'answer_queue' });
    answers.io.enq.valid.set(delayValid(m, issue, backLat + 1, 'answer_valid'));
    const answer = m.reg(TxdResponse(p.tagBits), { name: 'answer' });
    answer.rgba.set(cat(...lanes.reverse()));
    answer.status.set(lateStatus);
    answer.tag.set(delay(m, side.io.deq.bits.tag, backLat, 'o_tag'));
    m.connect(answers.io.enq.bits, answer);
    io.resp.valid.set(answers.io.deq.valid);
    m.connect(io.resp.bits, answers.io.deq.bits);
    answers.io.deq.ready.set(io.resp.ready);
    m.when(issue.and(answers.io.deq.fire.not()), () => backInFlight.set(backInFlight.add(1))).elsewhen(answers.io.deq.fire.and(issue.not()), () => backInFlight.set(backInFlight.sub(1)));

    // ---- Counters.
    const issued = counter('issued_count');
    const descFills = counter('descriptor_fill_count');
    const descStalls = counter('descriptor_stall_count');
    m.when(issue, () => issued.set(issued.add(1)));
    m.when(descCache.io.fill_valid, () => descFills.set(descFills.add(1)));
    m.when(dValid.and(descReady.not()), () => descStalls.set(descStalls.add(1)));
    io.counters.issued.set(issued);
    io.counters.texel_lookups.set(fetch.io.lookups);
    io.counters.texel_hits.set(fetch.io.hits);
    io.counters.texel_fills.set(fetch.io.fills);
    io.counters.descriptor_fills.set(descFills);
    io.counters.stall_cycles.set(fetch.io.stall_cycles);
    io.counters.descriptor_stall_cycles.set(descStalls);
  },
);
