// Texture memory: 262144 words in four word-interleaved banks, a word write port for the memory controller and a pipelined line read port for the texture cache.
import { Bool, Bundle, UInt, cat, defineModule, flip, input, lit, mux, output } from '../../hdl/index.ts';
import { delay, delayValid } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/index.ts';
import { checkWhole } from './paramChecks.ts';

/** Words per line: a cache line and one read of the read port (one word from each bank). */
export const TEXTURE_LINE_WORDS = 4;
/** Word and line address widths of the ISA's texture memory (MEMORY_MAP.textureWords = 2^18). */
export const TEXTURE_WORD_BITS = 18;
export const TEXTURE_LINE_BITS = TEXTURE_WORD_BITS - 2;

export interface TextureMemoryParams {
  /** Cycles from a line read request to its data (≥ 1: the banks' registered read, then delay registers). */
  readonly readLatency: number;
  /** Initial contents from word 0 (a host image, textureMemoryImage(...).words); the rest powers on at 0. */
  readonly init?: readonly number[];
}

/** The memory controller's load port (not wired yet): one word written per cycle with valid high. */
export const TextureLoad = Bundle({ valid: Bool, addr: UInt(TEXTURE_WORD_BITS), data: UInt(32) });
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
    const banks = [0, 1, 2, 3].map((k) => {
      const init = p.init ? Array.from({ length: Math.ceil(Math.max(0, p.init.length - k) / 4) }, (_, i) => p.init![4 * i + k]! >>> 0) : undefined;
      return m.memory(UInt(32), bankWords, { name: `bank${k}`, ...(init ? { init } : {}) });
    });
    const words = banks.map((bank, k) => {
      m.when(io.load.valid.and(io.load.addr.bits(1, 0).eq(k)), () => bank.write(io.load.addr.bits(TEXTURE_WORD_BITS - 1, 2), io.load.data));
      return bank.read(io.read.req_line);
    });
    const line = cat(...[...words].reverse());
    const late = p.readLatency - 1;
    const valid = delayValid(m, io.read.req_valid, p.readLatency, 'read_valid');
    io.read.resp_valid.set(valid);
    // Data only while valid, so that a consumer cannot depend on a stale line.
    io.read.resp_data.set(mux(valid, late === 0 ? line : delay(m, line, late, 'line'), lit(0, 32 * TEXTURE_LINE_WORDS)));
  },
);
