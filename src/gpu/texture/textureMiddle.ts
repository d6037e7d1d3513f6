// The texture unit's middle pipeline, which never stalls: decode, LOD, level select, level bases, texel coordinates and addresses, from the descriptor stage's launch to the address queue (docs/texture.md "Texture unit").
import { Bool, Bundle, UInt, Vec, cat, lit, mux, type BoolValue, type ModuleBuilder, type UIntValue, type ValueOf } from '../../hdl/index.ts';
import { Fifo, delay, selectByIndex } from '../../hdl/lib/index.ts';
import { MEMORY_MAP, TXD_CONTROL } from '../../isa/index.ts';
import { TxdStatus } from '../../golden/texture/index.ts';
import type { TextureFloatLatencies } from './timedFloat.ts';
import { TextureLod, textureLodLatency } from './textureLod.ts';
import { TexelCoordinates, texelCoordinatesLatency } from './texelCoordinates.ts';
import { TEXTURE_WORD_BITS } from './textureMemory.ts';
import type { TxdRequest } from './txdLink.ts';
import { decodeHeaderHw, decodeSamplerHw, mipAxisSize, mipLevelTexels, mipOffsetTable } from './textureDescriptors.ts';

/** Texel ports of the texel stage: T00, T10, T01, T11 of level d, then of level d + 1. */
export const TEXEL_PORTS = 8;
export const FILTER_NEAREST = 0;
const FILTER_TRILINEAR = 2;

/** What the back half needs of a request, carried through the texel stage: the bilinear weights are fine a, b, then coarse a, b. */
export const BlendParams = Bundle({ status: UInt(3), filter: UInt(2), format: UInt(1), fraction: UInt(8), weights: Vec(4, UInt(8)) });
/** One texel a request reads (T00, T10, T01, T11 of level d, then of d + 1): its word address and whether the filter needs it. */
const TexelRead = Bundle({ address: UInt(TEXTURE_WORD_BITS), needed: Bool });
/** A request on its way from the address stage to the texel stage. */
const AddressEntry = Bundle({ blend: BlendParams, texels: Vec(TEXEL_PORTS, TexelRead) });

/** What the middle needs of the unit's parameters. */
export interface MiddleParams {
  readonly float: TextureFloatLatencies;
  /** The address queue's depth. */
  readonly queueDepth: number;
}

/** What the descriptor stage hands the middle: the launch, the header and sampler words, the request. */
export interface LaunchedRequest {
  readonly launch: BoolValue;
  readonly headerWords: UIntValue;
  readonly samplerWords: UIntValue;
  readonly request: ValueOf<ReturnType<typeof TxdRequest>>;
}

/** Cycles from a request leaving the descriptor stage to its addresses entering the queue: decode, LOD, level select (2), coordinates, address. */
export const textureMiddleLatency = (p: MiddleParams): number => 1 + textureLodLatency(p.float) + 2 + texelCoordinatesLatency(p.float) + 1;

/** Lane `k` (32 bits) of a vec4 word. */
export const lane = (x: UIntValue, k: number): UIntValue => x.bits(32 * k + 31, 32 * k);
/** `x` a cycle later, in a register named `name`. */
const stage = <V extends UIntValue | BoolValue>(m: ModuleBuilder, x: V, name: string): V => m.regNext(x, { name }) as V;

/** The middle, stage by stage; its addresses wait in the address queue for the texel stage. */
export function middlePipeline(m: ModuleBuilder, p: MiddleParams, launched: LaunchedRequest): AddressQueue {
  const dec = decodeStage(m, launched);
  const lod = lodStage(m, p, dec);
  const bases = levelBaseStage(m, levelSelectStage(m, lod));
  const coords = coordinateStage(m, p, bases);
  return addressStage(m, p, coords);
}

/** A request's fields in the middle pipeline at one stage: what it carries, each a register (or a delay line). */
type Fields<K extends string> = { readonly valid: BoolValue } & { readonly [F in K]: UIntValue };

type Decoded = Fields<'base' | 'width' | 'height' | 'format' | 'mipCount' | 'wraps' | 'filter' | 'status' | 's' | 't' | 'control' | 'lodBias' | 'lodMin' | 'lodMax' | 'dsdx' | 'dsdy' | 'dtdx' | 'dtdy'>;

/** Decode (1 cycle): the header and sampler fields, the status of invalid descriptors, the coordinates and derivatives. */
function decodeStage(m: ModuleBuilder, desc: LaunchedRequest): Decoded {
  const r = <V extends UIntValue | BoolValue>(x: V, name: string): V => stage(m, x, name);
  const valid = m.regNext(desc.launch, { reset: 0, name: 'decode_valid' });
  const hdr = decodeHeaderHw(desc.headerWords);
  const smp = decodeSamplerHw(desc.samplerWords);
  const { coords, derivatives } = desc.request;
  const decoded = {
    valid,
    base: r(hdr.base, 'dec_base'),
    width: r(hdr.width, 'dec_width'),
    height: r(hdr.height, 'dec_height'),
    format: r(hdr.format, 'dec_format'),
    mipCount: r(hdr.mipCount, 'dec_mip_count'),
    wraps: r(cat(hdr.wrapT, hdr.wrapS), 'dec_wraps'),
    filter: r(smp.filter, 'dec_filter'),
    status: r(cat(lit(0, 1), smp.invalid, hdr.invalid), 'dec_status'),
    s: r(lane(coords, 0), 'dec_s'),
    t: r(lane(coords, 1), 'dec_t'),
    control: r(lane(coords, 3), 'dec_control'),
  };
  return {
    ...decoded,
    lodBias: r(smp.lodBias, 'dec_lod_bias'),
    lodMin: r(smp.lodMin, 'dec_lod_min'),
    lodMax: r(smp.lodMax, 'dec_lod_max'),
    dsdx: r(lane(derivatives, 0), 'dec_dsdx'),
    dsdy: r(lane(derivatives, 1), 'dec_dsdy'),
    dtdx: r(lane(derivatives, 2), 'dec_dtdx'),
    dtdy: r(lane(derivatives, 3), 'dec_dtdy'),
  };
}

type LodFields = Fields<'lod' | 'base' | 'width' | 'height' | 'format' | 'mipCount' | 'wraps' | 'filter' | 'status' | 's' | 't' | 'offset'>;

/** LOD (TextureLod): the level of detail; everything else the request needs waits beside the unit. */
function lodStage(m: ModuleBuilder, p: MiddleParams, dec: Decoded): LodFields {
  const lodUnit = m.instance(TextureLod, p.float, { name: 'lod_unit' });
  lodUnit.io.in_valid.set(dec.valid);
  lodUnit.io.width.set(dec.width);
  lodUnit.io.height.set(dec.height);
  lodUnit.io.mip_count.set(dec.mipCount);
  lodUnit.io.lod_bias.set(dec.lodBias);
  lodUnit.io.lod_min.set(dec.lodMin);
  lodUnit.io.lod_max.set(dec.lodMax);
  lodUnit.io.lod_clamp.set(dec.control.bits(TXD_CONTROL.lodClamp.lo + TXD_CONTROL.lodClamp.width - 1, TXD_CONTROL.lodClamp.lo));
  lodUnit.io.dsdx.set(dec.dsdx);
  lodUnit.io.dsdy.set(dec.dsdy);
  lodUnit.io.dtdx.set(dec.dtdx);
  lodUnit.io.dtdy.set(dec.dtdy);
  const lat = textureLodLatency(p.float);
  const offsetByte = dec.control.bits(TXD_CONTROL.offset.lo + TXD_CONTROL.offset.width - 1, TXD_CONTROL.offset.lo);
  return {
    valid: lodUnit.io.out_valid,
    lod: lodUnit.io.lod,
    base: delay(m, dec.base, lat, 'l_base'),
    width: delay(m, dec.width, lat, 'l_width'),
    height: delay(m, dec.height, lat, 'l_height'),
    format: delay(m, dec.format, lat, 'l_format'),
    mipCount: delay(m, dec.mipCount, lat, 'l_mip_count'),
    wraps: delay(m, dec.wraps, lat, 'l_wraps'),
    filter: delay(m, dec.filter, lat, 'l_filter'),
    status: delay(m, dec.status, lat, 'l_status'),
    s: delay(m, dec.s, lat, 'l_s'),
    t: delay(m, dec.t, lat, 'l_t'),
    offset: delay(m, offsetByte, lat, 'l_offset'),
  };
}

type LevelSelect = Fields<'level' | 'fraction' | 'width' | 'height' | 'base' | 'format' | 'mipCount' | 'wraps' | 'filter' | 'status' | 's' | 't' | 'offset'> & { readonly texels: readonly UIntValue[] };

/** Level select (sampleTxd): trilinear d = lod >> 8 with the fraction, a zero fraction one level; otherwise the nearest level (lod + 127) >> 8. The levels' sizes in texels. */
function levelSelectStage(m: ModuleBuilder, l: LodFields): LevelSelect {
  const r = <V extends UIntValue | BoolValue>(x: V, name: string): V => stage(m, x, name);
  const trilinear = l.filter.eq(FILTER_TRILINEAR);
  const level = mux(trilinear, l.lod.bits(11, 8), l.lod.zext(13).add(127).bits(11, 8));
  const fraction = mux(trilinear, l.lod.bits(7, 0), lit(0, 8));
  return {
    valid: m.regNext(l.valid, { reset: 0, name: 's1_valid' }),
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
}

type LevelBases = Fields<'fine' | 'coarse' | 'fineWidth' | 'fineHeight' | 'coarseWidth' | 'coarseHeight' | 'fraction' | 'format' | 'wraps' | 'filter' | 'status' | 's' | 't' | 'offset'>;

/** Level offsets: the base and size of level d (fine) and d + 1 (coarse); a chain past texture memory is out of memory. */
function levelBaseStage(m: ModuleBuilder, s1: LevelSelect): LevelBases {
  const r = <V extends UIntValue | BoolValue>(x: V, name: string): V => stage(m, x, name);
  const table = mipOffsetTable(s1.texels);
  const nextLevel = s1.level.add(1);
  const chainEnd = s1.base.zext(33).add(selectByIndex(s1.mipCount, table).zext(33));
  const outOfMemory = s1.status.bits(0, 0).eq(0).and(chainEnd.gt(MEMORY_MAP.textureWords));
  return {
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
}

function texelCoordinates(m: ModuleBuilder, p: MiddleParams, s2: LevelBases, name: string, width: UIntValue, height: UIntValue) {
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
  return c.io;
}
type CoordinatesIo = ReturnType<typeof texelCoordinates>;

type Coordinates = Fields<'fine' | 'coarse' | 'fineWidth' | 'coarseWidth' | 'fraction' | 'format' | 'filter' | 'status'> & { readonly fineCoords: CoordinatesIo; readonly coarseCoords: CoordinatesIo };

/** Texel coordinates (TexelCoordinates) in both levels: the footprint's corners and bilinear weights; the level bases wait beside them. */
function coordinateStage(m: ModuleBuilder, p: MiddleParams, s2: LevelBases): Coordinates {
  const fineCoords = texelCoordinates(m, p, s2, 'fine_coords', s2.fineWidth, s2.fineHeight);
  const coarseCoords = texelCoordinates(m, p, s2, 'coarse_coords', s2.coarseWidth, s2.coarseHeight);
  const lat = texelCoordinatesLatency(p.float);
  return {
    valid: fineCoords.out_valid,
    fineCoords,
    coarseCoords,
    fine: delay(m, s2.fine, lat, 'c_fine_base'),
    coarse: delay(m, s2.coarse, lat, 'c_coarse_base'),
    fineWidth: delay(m, s2.fineWidth, lat, 'c_fine_width'),
    coarseWidth: delay(m, s2.coarseWidth, lat, 'c_coarse_width'),
    fraction: delay(m, s2.fraction, lat, 'c_fraction'),
    format: delay(m, s2.format, lat, 'c_format'),
    filter: delay(m, s2.filter, lat, 'c_filter'),
    status: delay(m, s2.status, lat, 'c_status'),
  };
}

/** Texel address = level base + y · level width + x (word address; only a valid item's are < 2^18 and read). */
const texelAddress = (base: UIntValue, width: UIntValue, x: UIntValue, y: UIntValue) =>
  base.add(y.zext(32).mul(width.zext(32))).add(x.zext(32)).trunc(TEXTURE_WORD_BITS);

/** T00, T10, T01, T11 of one level. */
const levelAddresses = (base: UIntValue, width: UIntValue, c: CoordinatesIo) => [
  texelAddress(base, width, c.x0, c.y0),
  texelAddress(base, width, c.x1, c.y0),
  texelAddress(base, width, c.x0, c.y1),
  texelAddress(base, width, c.x1, c.y1),
];

function addressFifo(m: ModuleBuilder, p: MiddleParams) {
  return m.instance(Fifo, { payload: AddressEntry, depth: p.queueDepth }, { name: 'address_queue' });
}
export type AddressQueue = ReturnType<typeof addressFifo>;

/** Addresses (1 cycle): the eight texel addresses and which the filter reads, into the address queue with the blend parameters. */
function addressStage(m: ModuleBuilder, p: MiddleParams, c: Coordinates): AddressQueue {
  const addresses = [...levelAddresses(c.fine, c.fineWidth, c.fineCoords), ...levelAddresses(c.coarse, c.coarseWidth, c.coarseCoords)];
  const ok = c.status.eq(0);
  const nearest = c.filter.eq(FILTER_NEAREST);
  const twoLevels = c.fraction.ne(0);
  // T00 always; T10, T01, T11 unless nearest; level d + 1 only when blended.
  const needed = [ok, ok.and(nearest.not()), ok.and(nearest.not()), ok.and(nearest.not()), ...[0, 1, 2, 3].map(() => ok.and(twoLevels))];
  const queued = addressFifo(m, p);
  queued.io.enq.valid.set(m.regNext(c.valid, { reset: 0, name: 'a_valid' }));
  const entry = m.reg(AddressEntry, { name: 'a_entry' });
  entry.blend.status.set(c.status);
  entry.blend.filter.set(c.filter);
  entry.blend.format.set(c.format);
  entry.blend.fraction.set(c.fraction);
  [c.fineCoords.weight_a, c.fineCoords.weight_b, c.coarseCoords.weight_a, c.coarseCoords.weight_b].forEach((w, k) => entry.blend.weights.at(k).set(w));
  entry.texels.elems.forEach((t, k) => {
    t.address.set(addresses[k]!);
    t.needed.set(needed[k]!);
  });
  m.connect(queued.io.enq.bits, entry);
  return queued;
}
