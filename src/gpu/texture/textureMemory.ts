// Texture memory: 262144 words in four word-interleaved banks, a word load port for the memory controller (words past the latest load read zero) and a pipelined line read port for the texture cache.
import { Bool, Bundle, UInt, cat, defineModule, flip, input, lit, mux } from '../../hdl/index.ts';
import { clog2, delay, delayValid } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/index.ts';
import { MemoryLoad } from '../memory/memoryLoad.ts';
import { checkWhole } from './paramChecks.ts';

/** Words per line: a cache line and one read of the read port (one word from each bank). */
export const TEXTURE_LINE_WORDS = 4;
/** Word and line address widths of the ISA's texture memory (MEMORY_MAP.textureWords = 2^18). */
export const TEXTURE_WORD_BITS = 18;
export const TEXTURE_LINE_BITS = TEXTURE_WORD_BITS - 2;

export interface TextureMemoryParams {
  /** Cycles from a line read request to its data (≥ 1: the banks' registered read, then delay registers). */
  readonly readLatency: number;
  /** Initial contents from word 0 (a host image, textureMemoryImage(...).words), loaded as if by a load of its length; the rest powers on at 0. */
  readonly init?: readonly number[];
}

/**
 * The memory controller's load port (its `tex_load`): `start` begins a load from word 0, which empties the
 * memory (every word reads zero until written again); then one word per cycle with `we` high.
 */
export const TextureLoad = MemoryLoad(TEXTURE_WORD_BITS);
/** A line read: request (line address) this cycle, data `readLatency` cycles later; one request per cycle, never refused. */
export const TextureLineRead = Bundle({
  req_valid: Bool,
  req_line: UInt(TEXTURE_LINE_BITS),
  resp_valid: flip(Bool),
  /** Word 4·line + k in bits 32k + 31 … 32k. */
  resp_data: flip(UInt(32 * TEXTURE_LINE_WORDS)),
});

export function checkTextureMemoryParams(p: TextureMemoryParams): void {
  checkWhole('TextureMemory', 'readLatency', p.readLatency, 1, 32);
  if (p.init && p.init.length > MEMORY_MAP.textureWords) throw new Error(`TextureMemory: ${p.init.length} initial words exceed the ${MEMORY_MAP.textureWords} of texture memory`);
}

export const TextureMemory = defineModule(
  'TextureMemory',
  (p: TextureMemoryParams) => {
    checkTextureMemoryParams(p);
    return { load: input(TextureLoad), read: input(TextureLineRead) };
  },
  (m, io, p) => {
    const bankWords = MEMORY_MAP.textureWords / TEXTURE_LINE_WORDS;
    // The latest load's length (the highest word written since its start, plus one): words at or past it read
    // zero, as on the ISS, whose texture memory is exactly the loaded image; a shorter load needs no clearing.
    const length = m.reg(UInt(clog2(MEMORY_MAP.textureWords + 1)), { reset: p.init?.length ?? 0, name: 'loaded_length' });
    const end = io.load.waddr.zext(length.width).add(1);
    m.when(io.load.we, () => length.set(mux(end.gt(length), end, length))).elsewhen(io.load.start, () => length.set(0));
    const banks = [0, 1, 2, 3].map((k) => {
      const init = p.init ? Array.from({ length: Math.ceil(Math.max(0, p.init.length - k) / 4) }, (_, i) => p.init![4 * i + k]! >>> 0) : undefined;
      return m.memory(UInt(32), bankWords, { name: `bank${k}`, ...(init ? { init } : {}) });
    });
    const words = banks.map((bank, k) => {
      m.when(io.load.we.and(io.load.waddr.bits(1, 0).eq(k)), () => bank.write(io.load.waddr.bits(TEXTURE_WORD_BITS - 1, 2), io.load.wdata));
      // Word 4·line + k was loaded: decided with the request, like the banks' registered read.
      const loaded = m.regNext(cat(io.read.req_line, lit(k, 2)).zext(length.width).lt(length), { reset: 0, name: `loaded${k}` });
      return mux(loaded, bank.read(io.read.req_line), lit(0, 32));
    });
    const line = cat(...[...words].reverse());
    const late = p.readLatency - 1;
    const valid = delayValid(m, io.read.req_valid, p.readLatency, 'read_valid');
    io.read.resp_valid.set(valid);
    // Data only while valid, so that a consumer cannot depend on a stale line.
    io.read.resp_data.set(mux(valid, late === 0 ? line : delay(m, line, late, 'line'), lit(0, 32 * TEXTURE_LINE_WORDS)));
  },
);
