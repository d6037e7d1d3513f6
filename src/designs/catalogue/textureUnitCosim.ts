// The texture unit and its texture memory as a co-simulation design: a host image (textureMemoryImage) plus random valid and invalid headers and samplers, random txd requests every cycle; sampleTxd, through the ISS's operand mapping, checks every answer (`rtgpu cosim texture_unit`).
import { elaborate, type Design } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import {
  encodeTextureHeader,
  encodeTextureSampler,
  mipChainWords,
  mipLevelsFor,
  TEXTURE_HEADER_WORDS,
  type FilterModeName,
  type TextureHeader,
  type TextureImage,
  type WrapModeName,
} from '../../golden/texture/index.ts';
import type { Vec4 } from '../../golden/index.ts';
import { executeTxd } from '../../iss/index.ts';
import type { Material } from '../../scenes/index.ts';
import { encodeTxdControl, MEMORY_MAP, TXD_HANDLE } from '../../isa/index.ts';
import { textureMemoryImage } from '../../host/textureMemory.ts';
import { createRng, type Rng } from '../../util/seededRandom.ts';
import { randomCoordinate, randomDerivative, randomFloatBits } from '../../gpu/texture/verification/textureOperandVectors.ts';
import { TextureUnitSystem, type TextureUnitSystemParams } from '../../gpu/texture/textureUnitSystem.ts';
import { defaultTextureUnitParams } from '../../gpu/texture/textureUnit.ts';
import { fromNumber } from '../../golden/float32.ts';

/** A txd request as the unit takes it (every word a 32-bit pattern). */
export interface TxdRequestItem {
  readonly s: number;
  readonly t: number;
  readonly handle: number;
  readonly control: number;
  readonly dsdx: number;
  readonly dsdy: number;
  readonly dtdx: number;
  readonly dtdy: number;
  readonly writeMask: number;
  readonly dest: readonly [number, number, number, number];
  readonly tag: number;
}

export interface TxdAnswer {
  readonly rgba: readonly number[];
  readonly status: number;
  readonly tag: number;
}

/** The ISS's txd (executeTxd, as src/iss/thread.ts runs it) on texture memory `memory` (MEMORY_MAP.textureWords words). */
export function expectedTxd(memory: Uint32Array, x: TxdRequestItem): TxdAnswer {
  const r = executeTxd(memory, [x.s, x.t, x.handle, x.control], [x.dsdx, x.dsdy, x.dtdx, x.dtdy], x.writeMask, x.dest as Vec4);
  return { rgba: r.rgba.map((v) => v >>> 0), status: r.status, tag: x.tag };
}

/** A texture memory for the tests: textures from textureMemoryImage, then more header and sampler pool entries (valid and not). */
export interface TextureTestImage {
  /** MEMORY_MAP.textureWords words. */
  readonly memory: Uint32Array;
  /** Header pool entries with their decoded header (valid) or undefined (invalid or out of memory). */
  readonly headers: readonly { readonly index: number; readonly header?: TextureHeader }[];
  readonly samplers: readonly { readonly index: number; readonly valid: boolean }[];
}

function checker(width: number, height: number, format: 'rgba8' | 'r32f', rng: Rng): TextureImage {
  const texels = new Uint32Array(width * height);
  for (let i = 0; i < texels.length; i++) texels[i] = format === 'rgba8' ? rng.u32() : rng.int(6) === 0 ? randomFloatBits(rng) : fromNumber(rng() * 4 - 1);
  return { width, height, format, texels };
}

const WRAPS: WrapModeName[] = ['repeat', 'clampToEdge', 'mirror'];
const FILTERS: FilterModeName[] = ['nearest', 'bilinear', 'trilinear'];

/** The image every texture-unit test uses, from a fixed seed (the requests are what the run's seed draws). */
export function textureTestImage(seed = 22): TextureTestImage {
  const rng = createRng(seed);
  const images = [checker(16, 16, 'rgba8', rng), checker(13, 7, 'r32f', rng), checker(1, 1, 'rgba8', rng), checker(32, 5, 'rgba8', rng), checker(6, 9, 'r32f', rng), checker(64, 64, 'rgba8', rng)];
  const materials: Material[] = images.map((image, k) => ({ name: `m${k}`, kd: [1, 1, 1], texture: { file: `t${k}`, image } }));
  const host = textureMemoryImage(materials);
  const memory = new Uint32Array(MEMORY_MAP.textureWords);
  memory.set(host.words);
  const headers: { index: number; header?: TextureHeader }[] = host.slots.map((slot) => ({ index: slot.headerAddress / TEXTURE_HEADER_WORDS, header: slot.header }));
  headers.push({ index: 0 }); // pool entry 0 holds the sampler: an invalid header
  let next = Math.ceil(host.words.length / TEXTURE_HEADER_WORDS);
  const put = (words: ArrayLike<number>, header?: TextureHeader) => {
    memory.set(words, next * TEXTURE_HEADER_WORDS);
    headers.push({ index: next++, ...(header ? { header } : {}) });
  };
  // Valid variants of every texture: any wrap per axis, any mip count.
  for (let k = 0; k < 48; k++) {
    const base = host.slots[k % host.slots.length]!.header;
    const header: TextureHeader = { ...base, mipCount: 1 + rng.int(mipLevelsFor(base.width, base.height)), wrapS: WRAPS[rng.int(3)]!, wrapT: WRAPS[rng.int(3)]! };
    put(encodeTextureHeader(header), header);
  }
  // Invalid ones: each of decodeTextureHeader's cases, and a chain past the end of memory.
  const good = Array.from(encodeTextureHeader(host.slots[0]!.header));
  const bad = (f: (w: number[]) => void) => {
    const w = [...good];
    f(w);
    put(w);
  };
  bad((w) => (w[1] = 0x4000_0003)); // height 16385
  bad((w) => (w[1] = 0x0000_ffff)); // width 65536
  bad((w) => (w[2] = (w[2]! & ~0xf) | 2)); // format 2
  bad((w) => (w[2] = w[2]! & ~0xf0)); // mip count 0
  bad((w) => (w[2] = (w[2]! & ~0xf0) | (6 << 4))); // 6 levels for 16×16
  bad((w) => (w[2] = w[2]! | (3 << 8))); // wrap s 3
  bad((w) => (w[2] = w[2]! | (3 << 10))); // wrap t 3
  bad((w) => (w[2] = w[2]! | (1 << 20))); // reserved bits
  bad((w) => (w[3] = 1));
  bad((w) => (w[0] = MEMORY_MAP.textureWords - 300)); // 16×16 chain (341 words) past the end
  bad((w) => (w[0] = 0xffffff00));
  // A chain ending at the last word exactly (valid; its texels read as the zeroes there, which keeps the preload small).
  const fits: TextureHeader = { ...host.slots[0]!.header, base: MEMORY_MAP.textureWords - mipChainWords(16, 16, host.slots[0]!.header.mipCount) };
  put(encodeTextureHeader(fits), fits);
  // Samplers: the image's (entry 0), then more in the entries after the headers.
  const samplers: { index: number; valid: boolean }[] = [{ index: 0, valid: true }];
  let s = Math.ceil((next * TEXTURE_HEADER_WORDS) / TXD_HANDLE.sampler.words);
  const putSampler = (words: ArrayLike<number>, valid: boolean) => {
    memory.set(words, s * TXD_HANDLE.sampler.words);
    samplers.push({ index: s++, valid });
  };
  for (let k = 0; k < 24; k++) {
    const min = rng.int(3) === 0 ? 0 : rng.int(0x600);
    const max = rng.int(3) === 0 ? 0xfff : min + rng.int(0x600);
    const bias = rng.int(2) === 0 ? 0 : rng.int(0x800) - 0x400;
    putSampler(encodeTextureSampler({ filter: FILTERS[k % 3]!, lodBias: bias / 256, lodMin: min / 256, lodMax: max / 256 }), true);
  }
  putSampler([3, 0], false); // filter 3
  putSampler([1 | (1 << 5), 0], false); // reserved bits
  putSampler([2, 1 << 24], false);
  putSampler([2, 0x100 | (0x0ff << 12)], false); // min above max
  return { memory, headers, samplers };
}

/** A request on the image: a known header nine times in ten (else any pool entry, or one past texture memory), coordinates near the texture. */
export function randomTxdRequest(rng: Rng, image: TextureTestImage, tag: number): TxdRequestItem {
  const choice = image.headers[rng.int(image.headers.length)]!;
  const headerIndex = rng.int(40) === 0 ? (rng.int(2) ? 0x10000 + rng.int(0xf0000) : rng.int(1 << 20)) : choice.index;
  const samplerIndex = rng.int(30) === 0 ? rng.int(1 << 12) : image.samplers[rng.int(image.samplers.length)]!.index;
  const width = choice.header?.width ?? 16;
  const height = choice.header?.height ?? 16;
  const special = rng.int(10) === 0;
  const derivative = (size: number) => (special ? randomFloatBits(rng) : randomDerivative(rng, size));
  const control = rng.int(4) === 0 ? rng.u32() : encodeTxdControl(rng.int(3) === 0 ? rng.int(0x1000) : 0, rng.int(16) - 8, rng.int(16) - 8);
  return {
    s: randomCoordinate(rng, width),
    t: randomCoordinate(rng, height),
    handle: ((samplerIndex << TXD_HANDLE.sampler.lo) | headerIndex) >>> 0,
    control,
    dsdx: derivative(width),
    dsdy: derivative(width),
    dtdx: derivative(height),
    dtdy: derivative(height),
    writeMask: rng.int(3) === 0 ? rng.int(16) : 15,
    dest: [rng.u32(), rng.u32(), rng.u32(), rng.u32()],
    tag,
  };
}

/** Four 32-bit words as one 128-bit value, word 0 in bits 31:0, and back. */
const pack4 = (words: readonly number[]): bigint => words.reduceRight((acc, w) => (acc << 32n) | BigInt(w >>> 0), 0n);
const unpack4 = (v: bigint): [number, number, number, number] => [0, 1, 2, 3].map((k) => Number((v >> BigInt(32 * k)) & 0xffffffffn)) as [number, number, number, number];

export const txdRequestInputs = (x: TxdRequestItem): Record<string, bigint> => ({
  req_bits_coords: pack4([x.s, x.t, x.handle, x.control]),
  req_bits_derivatives: pack4([x.dsdx, x.dsdy, x.dtdx, x.dtdy]),
  req_bits_mask: BigInt(x.writeMask),
  req_bits_dest: pack4(x.dest),
  req_bits_tag: BigInt(x.tag),
});

export function txdRequestFromInputs(ins: Readonly<Record<string, bigint>>): TxdRequestItem {
  const [s, t, handle, control] = unpack4(ins.req_bits_coords ?? 0n);
  const [dsdx, dsdy, dtdx, dtdy] = unpack4(ins.req_bits_derivatives ?? 0n);
  return { s, t, handle, control, dsdx, dsdy, dtdx, dtdy, writeMask: Number(ins.req_bits_mask ?? 0n), dest: unpack4(ins.req_bits_dest ?? 0n), tag: Number(ins.req_bits_tag ?? 0n) };
}

export function txdAnswerFromOutputs(outs: Readonly<Record<string, bigint>>): TxdAnswer {
  return { rgba: unpack4(outs.resp_bits_rgba ?? 0n), status: Number(outs.resp_bits_status ?? 0n), tag: Number(outs.resp_bits_tag ?? 0n) };
}

const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;
export const describeTxd = (x: TxdRequestItem): string =>
  `txd tag ${x.tag} s ${hex(x.s)} t ${hex(x.t)} handle ${hex(x.handle)} control ${hex(x.control)} d ${[x.dsdx, x.dsdy, x.dtdx, x.dtdy].map(hex).join(' ')} mask ${x.writeMask}`;

export function compareTxd(got: TxdAnswer, want: TxdAnswer): string | null {
  if (got.tag === want.tag && got.status === want.status && got.rgba.every((v, k) => v === want.rgba[k])) return null;
  return `got tag ${got.tag} status ${got.status} rgba ${got.rgba.map(hex).join(' ')}, expected tag ${want.tag} status ${want.status} rgba ${want.rgba.map(hex).join(' ')}`;
}

/** Answers come in request order: a request taken (valid and ready before the edge, out of reset) joins the queue, an answer taken (resp valid and ready) is checked against its head; a reset empties it. */
export function textureUnitGolden(memory: Uint32Array): GoldenModel {
  let queue: { item: TxdRequestItem; want: TxdAnswer }[] = [];
  return {
    check(_cycle, ins, outs) {
      let msg: string | null = null;
      if (outs.resp_valid === 1n && ins.resp_ready === 1n) {
        const head = queue.shift();
        if (!head) msg = 'resp_valid with no request outstanding';
        else {
          const diff = compareTxd(txdAnswerFromOutputs(outs), head.want);
          if (diff) msg = `${describeTxd(head.item)}: ${diff}`;
        }
      }
      if (ins.rst_n === 0n) queue = [];
      else if (ins.req_valid === 1n && outs.req_ready === 1n) {
        const item = txdRequestFromInputs(ins);
        queue.push({ item, want: expectedTxd(memory, item) });
      }
      return msg;
    },
  };
}

/** The system's parameters with the test image preloaded. */
export function textureUnitSystemParams(image: TextureTestImage, readLatency = 4): TextureUnitSystemParams {
  let last = image.memory.length;
  while (last > 0 && image.memory[last - 1] === 0) last--;
  return { unit: defaultTextureUnitParams, readLatency, init: Array.from(image.memory.subarray(0, last)) };
}

let cached: { image: TextureTestImage; design: Design } | undefined;
/** The image and the elaborated system, built once per process. */
export function textureUnitTestSystem(): { image: TextureTestImage; design: Design } {
  if (!cached) {
    const image = textureTestImage();
    cached = { image, design: elaborate(TextureUnitSystem, textureUnitSystemParams(image)).design };
  }
  return cached;
}

/** Reset for two cycles, then rarely; a request most cycles (a new one drawn each cycle: one not taken is simply not made); answers taken four cycles in five. */
export const textureUnitStimulus = (image: TextureTestImage) => (cycle: number, rng: Rng): Record<string, bigint> => ({
  rst_n: cycle < 2 || rng.int(3000) === 0 ? 0n : 1n,
  ...txdRequestInputs(randomTxdRequest(rng, image, cycle & 0xff)),
  req_valid: rng.int(6) === 0 ? 0n : 1n,
  resp_ready: rng.int(5) === 0 ? 0n : 1n,
  load_start: 0n,
  load_we: 0n,
  load_waddr: 0n,
  load_wdata: 0n,
});

export const textureUnitCosimDesign: CosimDesign = {
  name: 'texture_unit',
  description: 'TXD texture unit + texture memory (host image, valid and invalid headers and samplers): random txd requests (NaN/inf/huge/zero derivatives, offsets, wraps, masks) every cycle (golden: sampleTxd as the ISS maps txd)',
  elaborate: () => textureUnitTestSystem().design,
  stimulus: (cycle, rng) => textureUnitStimulus(textureUnitTestSystem().image)(cycle, rng),
  golden: () => textureUnitGolden(textureUnitTestSystem().image.memory),
};
