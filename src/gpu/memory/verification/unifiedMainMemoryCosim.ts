// The unified main memory as a co-simulation design: random scalar/vector reads and writes on every port,
// mostly to distinct threads, now and then two ports on one thread; a model with one array per thread.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { UnifiedMainMemory, type UnifiedMainMemoryParams } from '../unifiedMainMemory.ts';

/** Small, so that Icarus is quick and every word is written and read many times. */
export const unifiedMainMemoryCosimParams: UnifiedMainMemoryParams = { ports: 4, threads: 4, threadWords: 64 };

const b = (x: boolean): bigint => (x ? 1n : 0n);
const WORD = 0xffffffffn;

// ---------------------------------------------------------------- stimulus

/** One port's request, as the stimulus holds it (sometimes for a few cycles, through `done`). */
interface PortRequest {
  thread: number;
  addr: number;
  read: boolean;
  write: boolean;
  vector: boolean;
  data: bigint;
  /** Further cycles the request is held unchanged. */
  hold: number;
}

function randomAddr(rng: Rng, words: number): number {
  // Often at the last words of a thread, where a vector access wraps to word 0.
  return rng.int(6) === 0 ? words - 1 - rng.int(3) : rng.int(words);
}

/** Random 128 bits, sometimes with recognisable lanes. */
function randomData(rng: Rng): bigint {
  return rng.int(4) === 0 ? BigInt(rng.u32()) * 0x00000001_00000001_00000001_00000001n : rng.bits(128);
}

export function unifiedMainMemoryStimulus(p: UnifiedMainMemoryParams): CosimDesign['stimulus'] {
  let held: (PortRequest | null)[] = [];
  return (cycle, rng) => {
    if (cycle === 0) held = Array.from({ length: p.ports }, () => null);
    const s: Record<string, bigint> = { rst_n: cycle < 2 || rng.int(1500) === 0 ? 0n : 1n };
    // Phases of 1000 cycles: one in four has frequent conflicts, the others almost none (the flag is sticky).
    const conflictOdds = Math.floor(cycle / 1000) % 4 === 3 ? 10 : 2500;
    const busyOdds = Math.floor(cycle / 700) % 3; // 0: light traffic, 1: heavy, 2: medium
    const used = new Set<number>();
    for (let i = 0; i < p.ports; i++) {
      const h = held[i];
      if (h && h.hold > 0) used.add(h.thread);
    }
    const requests: (PortRequest | null)[] = [];
    for (let i = 0; i < p.ports; i++) {
      const h = held[i];
      if (s.rst_n === 0n) {
        requests.push(null);
        continue;
      }
      if (h && h.hold > 0) {
        requests.push({ ...h, hold: h.hold - 1 });
        continue;
      }
      if (rng.int(4) >= [1, 4, 2][busyOdds]!) {
        requests.push(null);
        continue;
      }
      const free = Array.from({ length: p.threads }, (_, t) => t).filter((t) => !used.has(t));
      const taken = [...used];
      const conflict = taken.length > 0 && (free.length === 0 || rng.int(conflictOdds) === 0);
      const thread = conflict ? taken[rng.int(taken.length)]! : free[rng.int(free.length)]!;
      used.add(thread);
      const kind = rng.int(10);
      requests.push({
        thread,
        addr: randomAddr(rng, p.threadWords),
        read: kind < 7,
        write: kind >= 4,
        vector: rng.int(2) === 0,
        data: randomData(rng),
        hold: rng.int(6) === 0 ? 1 + rng.int(3) : 0,
      });
    }
    held = requests;
    requests.forEach((r, i) => {
      s[`port_${i}_thread`] = BigInt(r ? r.thread : rng.int(p.threads));
      s[`port_${i}_addr`] = BigInt(r ? r.addr : rng.int(p.threadWords));
      s[`port_${i}_read_en`] = b(r !== null && r.read);
      s[`port_${i}_write_en`] = b(r !== null && r.write);
      s[`port_${i}_s_or_v`] = r ? b(r.vector) : BigInt(rng.int(2));
      s[`port_${i}_data_write`] = r ? r.data : rng.bits(128);
    });
    return s;
  };
}

// ---------------------------------------------------------------- golden model

/** What a served read will return: the four words from `addr` (only the first is promised for a scalar). */
interface PendingRead {
  readonly value: bigint;
  readonly vector: boolean;
}

/**
 * The main memory as its header describes it: per thread an array of words; a request is served by the
 * lowest port naming its thread; a read returns the words as they were in the request cycle, a write takes
 * effect at the edge (so a read and write on one port return the old words); `done` is the request
 * one cycle later; `conflict` is sticky until reset. Checked every cycle: `done`, `conflict`, and
 * `data_read` when `done` follows a served read (all 128 bits for a vector, bits 31:0 for a scalar).
 * Not checked: `data_read` of a port that lost a conflict or made no read (lockstep only).
 */
export class UnifiedMainMemoryModel {
  readonly memory: Uint32Array[];
  private done: boolean[];
  private conflict = false;
  private pending: (PendingRead | null)[];

  constructor(private readonly p: UnifiedMainMemoryParams) {
    this.memory = Array.from({ length: p.threads }, () => new Uint32Array(p.threadWords));
    this.done = Array.from({ length: p.ports }, () => false);
    this.pending = Array.from({ length: p.ports }, () => null);
  }

  check(ins: Readonly<Record<string, bigint>>, outs: Readonly<Record<string, bigint>>): string | null {
    if (outs.conflict !== b(this.conflict)) return `conflict is ${outs.conflict}, the model expects ${b(this.conflict)}`;
    for (let i = 0; i < this.p.ports; i++) {
      if (outs[`port_${i}_done`] !== b(this.done[i]!)) return `port_${i}_done is ${outs[`port_${i}_done`]}, the model expects ${b(this.done[i]!)}`;
      const r = this.pending[i];
      if (!this.done[i] || !r) continue;
      const got = r.vector ? outs[`port_${i}_data_read`]! : outs[`port_${i}_data_read`]! & WORD;
      const want = r.vector ? r.value : r.value & WORD;
      if (got !== want) return `port_${i}_data_read is 0x${got.toString(16)}, the model expects 0x${want.toString(16)} (${r.vector ? 'vector' : 'scalar'} read)`;
    }
    this.clock(ins);
    return null;
  }

  private clock(ins: Readonly<Record<string, bigint>>): void {
    const ports = Array.from({ length: this.p.ports }, (_, i) => i);
    const request = ports.map((i) => ins[`port_${i}_read_en`] === 1n || ins[`port_${i}_write_en`] === 1n);
    const thread = ports.map((i) => Number(ins[`port_${i}_thread`]));
    const served = ports.map((i) => request[i]! && !ports.slice(0, i).some((j) => request[j] && thread[j] === thread[i]));
    const conflictNow = ports.some((i) => request[i] && !served[i]);
    // Reads see the words before this edge's writes.
    this.pending = ports.map((i) => {
      if (!served[i] || ins[`port_${i}_read_en`] !== 1n) return null;
      const mem = this.memory[thread[i]!]!;
      const addr = Number(ins[`port_${i}_addr`]);
      let value = 0n;
      for (let j = 3; j >= 0; j--) value = (value << 32n) | BigInt(mem[(addr + j) % this.p.threadWords]!);
      return { value, vector: ins[`port_${i}_s_or_v`] === 1n };
    });
    for (const i of ports) {
      if (!served[i] || ins[`port_${i}_write_en`] !== 1n) continue;
      const mem = this.memory[thread[i]!]!;
      const addr = Number(ins[`port_${i}_addr`]);
      const data = ins[`port_${i}_data_write`]!;
      const lanes = ins[`port_${i}_s_or_v`] === 1n ? 4 : 1;
      for (let j = 0; j < lanes; j++) mem[(addr + j) % this.p.threadWords] = Number((data >> BigInt(32 * j)) & WORD);
    }
    if (ins.rst_n === 0n) {
      this.done = this.done.map(() => false);
      this.conflict = false;
      return;
    }
    this.done = ports.map((i) => request[i]!);
    this.conflict ||= conflictNow;
  }
}

export function unifiedMainMemoryGolden(p: UnifiedMainMemoryParams): GoldenModel {
  const model = new UnifiedMainMemoryModel(p);
  return { check: (_cycle, ins, outs) => model.check(ins, outs) };
}

export const unifiedMainMemoryCosimDesign: CosimDesign = {
  name: 'main_memory',
  description: `unified main memory (${unifiedMainMemoryCosimParams.ports} ports, ${unifiedMainMemoryCosimParams.threads} threads of ${unifiedMainMemoryCosimParams.threadWords} words): random scalar/vector reads and writes, sometimes two ports on one thread`,
  elaborate: () => elaborate(UnifiedMainMemory, unifiedMainMemoryCosimParams).design,
  stimulus: unifiedMainMemoryStimulus(unifiedMainMemoryCosimParams),
  golden: () => unifiedMainMemoryGolden(unifiedMainMemoryCosimParams),
};
