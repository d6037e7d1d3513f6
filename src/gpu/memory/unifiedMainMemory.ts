// The unified main memory (seed 9.4): one word-interleaved group of four banks per thread, so the RT
// cores' ports, each serving a different thread, never compete for a bank; a port reaches only the
// memory of the thread it names.
import { Bool, UInt, Vec, cat, defineModule, input, lit, mux, output, type BoolValue, type UIntValue } from '../../hdl/index.ts';
import { clog2, selectByIndex } from '../../hdl/lib/index.ts';
import { vectorWords } from './vectorWord.ts';
import { MainMemoryPort } from './mainMemoryPort.ts';

export interface UnifiedMainMemoryParams {
  /** Requesters (1 to 4): the RT cores; the memory controller borrows port 0 between patches. */
  readonly ports: number;
  /** Threads (each its own bank group; a power of two). */
  readonly threads: number;
  /** 32-bit words per thread (a power of two, at least 8: two rows per bank). */
  readonly threadWords: number;
}

export const UnifiedMainMemory = defineModule(
  'UnifiedMainMemory',
  (p: UnifiedMainMemoryParams) => ({
    /** The requesters' ports (SV ports port_<i>_thread … port_<i>_done). */
    port: input(Vec(p.ports, MainMemoryPort(clog2(p.threads), clog2(p.threadWords)))),
    /** Sticky: two ports named the same thread in one cycle (the lower port was served). */
    conflict: output(Bool),
  }),
  (m, io, p) => {
    const pow2 = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
    if (!Number.isInteger(p.ports) || p.ports < 1 || p.ports > 4) throw new Error(`UnifiedMainMemory: ports must be 1 to 4, got ${p.ports}`);
    if (!pow2(p.threads) || !pow2(p.threadWords) || p.threadWords < 8) throw new Error(`UnifiedMainMemory: threads and threadWords must be powers of two (threadWords >= 8), got ${p.threads} and ${p.threadWords}`);
    const aw = clog2(p.threadWords);
    const ports = Array.from({ length: p.ports }, (_, i) => i);
    const request = ports.map((i) => io.port.at(i).read_en.or(io.port.at(i).write_en));
    // What each port asks of bank k: the row, the word and whether bank k is part of the access.
    const toBank = ports.map((i) => {
      const { addr, data_write, write_en, s_or_v } = io.port.at(i);
      const first = addr.bits(1, 0);
      const writeWords = vectorWords(data_write);
      return [0, 1, 2, 3].map((k) => {
        const lane = lit(k, 2).sub(first);
        const laneAddr = [1, 2, 3].reduce((acc, j) => mux(lane.eq(j), addr.add(j), acc), addr);
        const word = [1, 2, 3].reduce((acc, j) => mux(lane.eq(j), writeWords[j]!, acc), writeWords[0]!);
        return { row: laneAddr.bits(aw - 1, 2), word, write: write_en.and(s_or_v.or(lane.eq(0))) };
      });
    });

    // Each thread's group is driven by the lowest port naming it.
    const groupData: UIntValue[][] = [];
    let conflictNow: BoolValue = lit(0, 1).asBool();
    for (let t = 0; t < p.threads; t++) {
      const names = ports.map((i) => request[i]!.and(io.port.at(i).thread.eq(t)));
      const owner = ports.slice(1).reduce<UIntValue>((acc, i) => mux(names.slice(0, i).reduce<BoolValue>((a, b) => a.or(b), lit(0, 1).asBool()).not().and(names[i]!), lit(i, 2), acc), lit(0, 2));
      const pick = <T extends UIntValue>(f: (i: number) => T): UIntValue => ports.slice(1).reduce<UIntValue>((acc, i) => mux(owner.eq(i), f(i), acc), f(0));
      const anyName = names.reduce<BoolValue>((a, b) => a.or(b), lit(0, 1).asBool());
      for (let i = 1; i < p.ports; i++) conflictNow = conflictNow.or(names[i]!.and(names.slice(0, i).reduce<BoolValue>((a, b) => a.or(b), lit(0, 1).asBool())));
      groupData.push(
        [0, 1, 2, 3].map((k) => {
          const bank = m.memory(UInt(32), p.threadWords / 4, { name: `t${t}_bank${k}` });
          const row = pick((i) => toBank[i]![k]!.row);
          m.when(anyName.and(pick((i) => toBank[i]![k]!.write).asBool()), () => bank.write(row, pick((i) => toBank[i]![k]!.word)));
          return bank.read(row);
        }),
      );
    }

    // The answer a cycle later, lanes rotated back from the banks that held them.
    ports.forEach((i) => {
      const threadQ = m.regNext(io.port.at(i).thread, { name: `thread_q${i}` });
      const firstQ = m.regNext(io.port.at(i).addr.bits(1, 0), { name: `first_q${i}` });
      // Balanced trees: the 32-way thread select is this path's depth (a priority chain was 9 LUT levels).
      const words = [0, 1, 2, 3].map((k) => selectByIndex(threadQ, groupData.map((g) => g[k]!)));
      const laneWord = (j: number) => selectByIndex(lit(j, 2).add(firstQ), words);
      io.port.at(i).data_read.set(cat(laneWord(3), laneWord(2), laneWord(1), laneWord(0)));
      // Every cycle with a request is one access, answered on the next cycle.
      io.port.at(i).done.set(m.regNext(request[i]!, { reset: 0, name: `done${i}` }));
    });
    const conflict = m.reg(Bool, { reset: 0 });
    m.when(conflictNow, () => conflict.set(true));
    io.conflict.set(conflict);
  },
);
