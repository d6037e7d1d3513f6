// Main memory for one requester: four word-interleaved banks, so a vector access (four consecutive
// words from any word address) reads or writes each bank once in the same cycle.
import { Bool, UInt, cat, defineModule, input, lit, mux, output, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { vectorWords } from './vectorWord.ts';

export interface MainMemoryParams {
  /** Total 32-bit words (a power of two, at least 4). */
  readonly words: number;
}

export const MainMemory = defineModule(
  'MainMemory',
  (p: MainMemoryParams) => ({
    /** Word address; a vector access covers addr .. addr + 3. */
    addr: input(UInt(clog2(p.words))),
    read_en: input(Bool),
    write_en: input(Bool),
    s_or_v: input(Bool),
    data_write: input(UInt(128)),
    data_read: output(UInt(128)),
    /** One cycle after each request cycle: the read data is valid, the write has happened (requests pipeline, one per cycle). */
    done: output(Bool),
  }),
  (m, io, p) => {
    if (p.words < 4 || (p.words & (p.words - 1)) !== 0) throw new Error(`MainMemory: words must be a power of two >= 4, got ${p.words}`);
    const aw = clog2(p.words);
    const first = io.addr.bits(1, 0);
    // Lane i of a vector access is word addr + i, in bank (first + i) mod 4.
    const laneAddr = (i: number): UIntValue => io.addr.add(i);
    const banks = [0, 1, 2, 3].map((k) => m.memory(UInt(32), p.words / 4, { name: `bank${k}` }));
    const request = io.read_en.or(io.write_en);
    const laneOfBank = (k: number): UIntValue => lit(k, 2).sub(first);
    const writeWords = vectorWords(io.data_write);
    const bankData = banks.map((bank, k) => {
      const lane = laneOfBank(k);
      const addr = [0, 1, 2, 3].map((i) => laneAddr(i)).reduce((acc, a, i) => mux(lane.eq(i), a, acc), laneAddr(0));
      const row = addr.bits(aw - 1, 2);
      const inAccess = io.s_or_v.or(lane.eq(0));
      const data = writeWords.reduce((acc, w, i) => mux(lane.eq(i), w, acc), lit(0, 32));
      m.when(io.write_en.and(inAccess), () => bank.write(row, data));
      return { lane, value: bank.read(row) };
    });
    // The read data comes back a cycle later: remember which bank held which lane.
    const firstQ = m.regNext(first, { name: 'first_q' });
    const laneWord = (i: number): UIntValue => {
      const bankIndex = lit(i, 2).add(firstQ);
      return bankData.reduce((acc, b, k) => mux(bankIndex.eq(k), b.value, acc), lit(0, 32));
    };
    io.data_read.set(cat(laneWord(3), laneWord(2), laneWord(1), laneWord(0)));
    // Every cycle with a request is one access, answered on the next cycle.
    io.done.set(m.regNext(request, { reset: 0, name: 'done' }));
  },
);
