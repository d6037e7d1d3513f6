// The memory controller as a co-simulation design: a blind host (MMIO writes and reads of every register,
// CONTROL commands also while busy), a DMA port that stalls at random, and random patch traffic; a model of
// the registers, the read engine, the frame and the write-back engine.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { MEMORY_MAP } from '../../../isa/instructions.ts';
import { PATCH_THREADS } from '../../commandPatcher/commandPatcher.ts';
import { MemoryController, type MemoryControllerParams } from '../memoryController.ts';
import { contextBits } from '../../rtCore/registerFile.ts';
import { CONTEXT_REG, CONTEXT_STATE, CONTROL, ERROR_CODE, FEATURE, IC_CORE_REG, INTERFACE_VERSION, MMIO, MMIO_ID, REG_ADDR_BITS, RT_CORE_REG, TEXTURE_REG } from '../registers.ts';

/** Two cores of each kind and a small triangle counter keep the netlist (and Icarus) small. */
export const memoryControllerCosimParams: MemoryControllerParams = { rtCores: 2, icCores: 2, triangleCountBits: 10, contexts: 4 };

const b = (x: boolean): bigint => (x ? 1n : 0n);
const U32 = 0xffffffffn;
const U64 = (1n << 64n) - 1n;

/** The registers the host can write (the texture load's only with a texture unit), and the largest word counts the read engine accepts. */
const BASE_WRITABLE = [
  MMIO.PROGRAM_ADDR_LO, MMIO.PROGRAM_ADDR_HI, MMIO.PROGRAM_WORDS,
  MMIO.CONST_ADDR_LO, MMIO.CONST_ADDR_HI, MMIO.CONST_WORDS,
  MMIO.TRI_ADDR_LO, MMIO.TRI_ADDR_HI, MMIO.TRI_WORDS,
  MMIO.OUT_ADDR_LO, MMIO.OUT_ADDR_HI, MMIO.PIXEL_COUNT, MMIO.FIRST_PIXEL,
  MMIO.REPORT_ADDR_LO, MMIO.REPORT_ADDR_HI,
] as const;
const TEXTURE_WRITABLE = [MMIO.TEX_ADDR_LO, MMIO.TEX_ADDR_HI, MMIO.TEX_WORDS] as const;
const writableRegisters = (p: Pick<MemoryControllerParams, 'texture'>): readonly number[] => (p.texture ? [...BASE_WRITABLE, ...TEXTURE_WRITABLE] : BASE_WRITABLE);
/** Per load (program, constants, triangles, texture): the most words it takes, and the error when it is asked for more. */
const WORD_LIMITS = [MEMORY_MAP.instructionWords, MEMORY_MAP.constantBytes / 4, undefined, MEMORY_MAP.textureWords] as const;
const TOO_LONG = [ERROR_CODE.programTooLong, ERROR_CODE.constantsTooLong, ERROR_CODE.none, ERROR_CODE.textureTooLong] as const;
const ALL_SOURCES = [
  { lo: MMIO.PROGRAM_ADDR_LO, hi: MMIO.PROGRAM_ADDR_HI, words: MMIO.PROGRAM_WORDS },
  { lo: MMIO.CONST_ADDR_LO, hi: MMIO.CONST_ADDR_HI, words: MMIO.CONST_WORDS },
  { lo: MMIO.TRI_ADDR_LO, hi: MMIO.TRI_ADDR_HI, words: MMIO.TRI_WORDS },
  { lo: MMIO.TEX_ADDR_LO, hi: MMIO.TEX_ADDR_HI, words: MMIO.TEX_WORDS },
] as const;
/** The port of each TEXTURE register: the texture unit's counters as the controller's tex_counters input. */
const TEXTURE_COUNTER_PORTS: Record<keyof typeof TEXTURE_REG, string> = {
  REQUESTS: 'tex_counters_issued',
  TEXEL_LOOKUPS: 'tex_counters_texel_lookups',
  TEXEL_HITS: 'tex_counters_texel_hits',
  TEXEL_FILLS: 'tex_counters_texel_fills',
  DESCRIPTOR_FILLS: 'tex_counters_descriptor_fills',
  STALL_CYCLES: 'tex_counters_stall_cycles',
  DESCRIPTOR_STALL_CYCLES: 'tex_counters_descriptor_stall_cycles',
};
const sourcesOf = (p: Pick<MemoryControllerParams, 'texture'>) => ALL_SOURCES.slice(0, p.texture ? 4 : 3);

/** Every readable register of a controller with these core counts. */
export function readableRegisters(p: MemoryControllerParams): number[] {
  const regs: number[] = [MMIO.ID, MMIO.CONFIG, MMIO.STATUS, MMIO.ERROR, MMIO.TRIANGLES, MMIO.CONTEXTS, ...writableRegisters(p)];
  regs.push(MMIO.PATCHES_DONE, MMIO.FAULT_COUNT, MMIO.FAULT_MASK, MMIO.DONE_MASK, MMIO.CYCLES_LO, MMIO.CYCLES_HI, MMIO.INSTRUCTIONS, MMIO.TRACES, MMIO.FEATURES);
  for (let c = 0; c < p.rtCores; c++) for (const r of Object.values(RT_CORE_REG)) regs.push(MMIO.RT_CORE + 16 * c + 4 * r);
  for (let k = 0; k < p.icCores; k++) for (const r of Object.values(IC_CORE_REG)) regs.push(MMIO.IC_CORE + 16 * k + 4 * r);
  for (let i = 0; i < p.rtCores * p.contexts; i++) for (const r of Object.values(CONTEXT_REG)) regs.push(MMIO.CONTEXT + 8 * i + 4 * r);
  if (p.texture) for (const r of Object.values(TEXTURE_REG)) regs.push(MMIO.TEXTURE + 4 * r);
  return regs;
}

// ---------------------------------------------------------------- stimulus

/** A value for a write to `addr`: word counts mostly small (sometimes at or past the limits), addresses random. */
function writeValue(rng: Rng, addr: number): number {
  const words = (limit: number) => {
    const k = rng.int(12);
    return k === 0 ? limit : k <= 2 ? limit + 1 + rng.int(3) : k === 3 ? rng.u32() : k === 4 ? 0 : rng.int(41);
  };
  switch (addr) {
    case MMIO.PROGRAM_WORDS:
      return words(WORD_LIMITS[0]);
    case MMIO.CONST_WORDS:
      return words(WORD_LIMITS[1]);
    case MMIO.TRI_WORDS:
      return rng.int(8) === 0 ? 0 : rng.int(8) === 0 ? 41 + rng.int(160) : rng.int(41);
    case MMIO.TEX_WORDS: {
      // Never the whole 262144 words (65536 beats): past it (refused), random, none, or a few.
      const k = rng.int(12);
      return k === 0 ? MEMORY_MAP.textureWords + 1 + rng.int(3) : k === 1 ? rng.u32() : k === 2 ? 0 : rng.int(41);
    }
    case MMIO.REPORT_ADDR_LO:
    case MMIO.REPORT_ADDR_HI:
      return rng.int(2) === 0 ? 0 : address(rng, addr === MMIO.REPORT_ADDR_HI); // often no reports (both halves 0)
    case MMIO.PROGRAM_ADDR_LO:
    case MMIO.CONST_ADDR_LO:
    case MMIO.TRI_ADDR_LO:
    case MMIO.TEX_ADDR_LO:
    case MMIO.OUT_ADDR_LO:
      return address(rng, false);
    case MMIO.PROGRAM_ADDR_HI:
    case MMIO.CONST_ADDR_HI:
    case MMIO.TRI_ADDR_HI:
    case MMIO.TEX_ADDR_HI:
    case MMIO.OUT_ADDR_HI:
      return address(rng, true);
    default:
      return rng.u32();
  }
}

/**
 * Half of a host address: mostly 16-byte aligned and far from the top of the address space; sometimes
 * unaligned, or (high half) at the very top, so that a transfer runs past 2^64.
 */
function address(rng: Rng, high: boolean): number {
  if (high) return rng.int(40) === 0 ? 0xffffffff : rng.int(4) === 0 ? rng.u32() >>> 1 : rng.int(16);
  const lo = rng.u32();
  return rng.int(30) === 0 ? lo : rng.int(16) === 0 ? (0xffffffff - 16 * rng.int(8)) & ~15 : lo & ~15;
}

/** A CONTROL word: mostly a sensible command, sometimes junk in the unused bits (LOAD_TEXTURE among them without a texture unit). */
function randomCommand(rng: Rng, texture: boolean): number {
  const loads = rng.int(4) === 0 ? 0 : rng.int(8);
  const cmd = loads | (rng.int(3) !== 0 ? CONTROL.START : 0) | (rng.int(5) < 3 ? CONTROL.CLEAR : 0) | (texture && rng.int(2) === 0 ? CONTROL.LOAD_TEXTURE : 0);
  return rng.int(10) === 0 ? (rng.u32() & ~0x1f) | cmd : cmd;
}

/** Odds per phase of 600 cycles: a fast host port, a slow one, a very slow one. */
const PHASES = [
  { reqReady: 2, rdValid: 1.3, wrReady: 1.5, memDone: 1.5 },
  { reqReady: 5, rdValid: 3, wrReady: 3, memDone: 3 },
  { reqReady: 15, rdValid: 8, wrReady: 8, memDone: 6 },
] as const;

export function memoryControllerStimulus(p: MemoryControllerParams): CosimDesign['stimulus'] {
  // The stimulus remembers what it wrote to PIXEL_COUNT and FIRST_PIXEL, so that the threads it says ended are plausible.
  let pixels = 0;
  let first = 0;
  let nextIndex = 0;
  return (cycle, rng) => {
    if (cycle === 0) [pixels, first, nextIndex] = [0, 0, 0];
    const rst = cycle < 2 || rng.int(6000) === 0;
    const ph = PHASES[Math.floor(cycle / 600) % PHASES.length]!;
    const odds = (x: number) => rng() * x < 1;
    const s: Record<string, bigint> = {
      rst_n: b(!rst),
      mmio_wr_en: 0n,
      mmio_wr_addr: 0n,
      mmio_wr_data: 0n,
      mmio_rd_en: b(rng.int(3) === 0),
      mmio_rd_addr: 0n,
      dma_rd_req_ready: b(odds(ph.reqReady)),
      dma_rd_valid: b(odds(ph.rdValid)),
      dma_rd_data: rng.bits(128),
      dma_wr_ready: b(odds(ph.wrReady)),
      tri_load_error: b(rng.int(2500) === 0),
      tri_load_triangle_count: rng.bits(p.triangleCountBits),
      frame_patch_start: b(rng.int(40) === 0),
      frame_done: b(rng.int(1500) === 0),
      instructions: rng.bits(32),
      traces: rng.bits(32),
      internal_error: b(rng.int(5000) === 0),
      mem_data_read: rng.bits(128),
      mem_done: b(odds(ph.memDone)),
    };
    for (let c = 0; c < p.rtCores; c++) {
      s[`core_busy_${c}`] = rng.bits(1);
      for (const f of ['pc', 'busy_cycles', 'issue_cycles']) s[`core_counters_${c}_${f}`] = rng.bits(32);
      s[`context_status_${c}_state`] = BigInt(rng.int(Object.keys(CONTEXT_STATE).length));
      s[`context_status_${c}_thread`] = rng.bits(5);
      s[`context_status_${c}_pc`] = rng.bits(32);
    }
    for (let k = 0; k < p.icCores; k++) for (const f of ['rays', 'tests', 'busy_cycles', 'node_tests']) s[`ic_counters_${k}_${f}`] = rng.bits(32);
    if (p.texture) for (const f of Object.values(TEXTURE_COUNTER_PORTS)) s[f] = rng.bits(32);
    const readable = readableRegisters(p);
    const writable = writableRegisters(p);
    s.mmio_rd_addr = BigInt(rng.int(10) === 0 ? rng.int(1 << REG_ADDR_BITS) : readable[rng.int(readable.length)]!);

    if (rst) pixels = 0;
    else if (pixels === 0) {
      // A frame needs a pixel count: write one first thing after a reset.
      pixels = 1 + rng.int(100);
      Object.assign(s, { mmio_wr_en: 1n, mmio_wr_addr: BigInt(MMIO.PIXEL_COUNT), mmio_wr_data: BigInt(pixels) });
    } else if (rng.int(150) === 0) {
      Object.assign(s, { mmio_wr_en: 1n, mmio_wr_addr: BigInt(MMIO.CONTROL), mmio_wr_data: BigInt(randomCommand(rng, p.texture === true) >>> 0) });
    } else if (rng.int(8) === 0) {
      const k = rng.int(writable.length + 6);
      const addr = k < writable.length ? writable[k]! : k < writable.length + 3 ? readable[rng.int(readable.length)]! : rng.int(1 << REG_ADDR_BITS);
      let data = writeValue(rng, addr);
      if (addr === MMIO.PIXEL_COUNT) pixels = data = 1 + rng.int(100);
      if (addr === MMIO.FIRST_PIXEL) first = data;
      Object.assign(s, { mmio_wr_en: 1n, mmio_wr_addr: BigInt(addr), mmio_wr_data: BigInt(data >>> 0) });
    }
    // A thread that ended: frame index i on thread i mod 32, pixel first + i. Mostly in order, so that patches
    // complete (a thread of the next patch now and then before the last of the one before); in bursts in the
    // slow phases, so that the queue sometimes overflows.
    const ended = rng.int(ph.memDone > 4 ? 7 : 12) === 0;
    if (s.mmio_wr_en === 1n && s.mmio_wr_addr === BigInt(MMIO.CONTROL)) nextIndex = 0;
    const index = rng.int(5) === 0 ? Math.min(nextIndex + 1 + rng.int(8), Math.max(pixels - 1, 0)) : nextIndex;
    if (ended && index === nextIndex) nextIndex = pixels > 0 ? (nextIndex + 1) % pixels : 0;
    Object.assign(s, { thread_done_valid: b(ended), thread_done_thread: BigInt(index % PATCH_THREADS), thread_done_pixel: BigInt((first + index) >>> 0), thread_done_fault: b(rng.int(6) === 0) });
    return s;
  };
}

// ---------------------------------------------------------------- golden model

/** `beats` 16-byte beats from byte address `at`: unaligned, or ending past 2^64. */
function badTransfer(at: bigint, beats: bigint): boolean {
  return (at & 15n) !== 0n || at + 16n * beats > 1n << 64n;
}

const STATE = { idle: 0, request: 1, receive: 2, run: 3 } as const;
type WriteBack = 'idle' | 'read' | 'write' | 'report';
interface ReportBank {
  written: number;
  faults: number;
  cycles: number;
}

/** Coverage counts over a run, for the tests. */
export interface MemoryControllerCoverage {
  /** Loads begun: program, constants, triangles, texture. */
  loads: [number, number, number, number];
  wordsStored: number;
  beats: number;
  frames: number;
  patchesWritten: number;
  reportsWritten: number;
  threadsWritten: number;
  /** Patches whose last thread was written after a thread of the next patch. */
  patchesOverlapped: number;
  queueOverflows: number;
  busyErrors: number;
  tooLong: number;
  /** Of those, texture loads past 262144 words (error 7). */
  textureTooLong: number;
  /** Loads or frames refused for an unaligned address or one past 2^64. */
  badAddresses: number;
  reads: number;
  /** Loads restarted after frame_done aborted one with words still buffered. */
  staleRestarts: number;
}

/**
 * The memory controller as its header and the register map describe it, one clock edge at a time.
 *
 * Checked every cycle (qualified data only when its strobe is up):
 * - MMIO: mmio_rd_valid the cycle after mmio_rd_en, with mmio_rd_data = the register as it was in the
 *   request cycle: read-back of every writable register, ID, CONFIG, STATUS, ERROR, the frame counters,
 *   the 64-bit busy-cycle counter, the pass-through status inputs at their documented bit positions,
 *   0 for CONTROL and unmapped addresses.
 * - CONTROL: accepted only while not busy (else ERROR = busy); loads in the order program, constants,
 *   triangles; PROGRAM_WORDS > 4096 / CONST_WORDS > 8192 refused; START only without an error; CLEAR;
 *   irq = DONE or ERROR.
 * - DMA read: dma_rd_req_valid, its address and dma_rd_req_beats = ceil(words / 4); dma_rd_ready; the words
 *   of the accepted beats (dma_rd_valid && dma_rd_ready) leave in order, one per cycle, on imem_load_we /
 *   cmem_load_we / tri_load_valid with imem_load_waddr / cmem_load_waddr = their index, and only the first
 *   `words` of them (a scoreboard checks this independently of the cycle model); imem_load_start,
 *   cmem_load_start and tri_load_start as each load begins.
 * - The frame: frame_start, frame_pixel_count; each thread_done (while the frame runs) is queued; the write-back reads
 *   the thread's return vector (mem_read_en, mem_thread, mem_addr = 0xFFF0 / 4, until mem_done) and writes it
 *   to OUT_ADDR + 16·(pixel − FIRST_PIXEL) (dma_wr_valid, dma_wr_addr, dma_wr_data), with frame_thread_written
 *   and frame_written_thread as the write is taken. Once every thread of the oldest unfinished patch n is written
 *   (a report bank per patch parity), its report goes to REPORT_ADDR + 16·n (when REPORT_ADDR ≠ 0) with
 *   frame_patch_written; frame_patch_start restarts the next bank's cycle count; frame_done ends the frame.
 * Outputs whose strobe is down are compared across the simulators only.
 */
export class MemoryControllerModel {
  private regs = new Map<number, number>();
  private state: number = STATE.idle;
  private pendingLoads = 0;
  private pendingStart = false;
  private done = false;
  private error = 0;
  private current = 0;
  private wordIndex = 0;
  private beatsLeft = 0;
  private buffer: number[] = [0, 0, 0, 0];
  private bufferWords = 0;
  private bufferPos = 0;
  private queue: { thread: number; pixel: number; fault: boolean }[] = [];
  private wb: WriteBack = 'idle';
  private thread = 0;
  private index = 0;
  private fault = false;
  private result = 0n;
  private banks: ReportBank[] = [0, 1].map(() => ({ written: 0, faults: 0, cycles: 0 }));
  private startBank = 0;
  private patches = 0;
  private faults = 0;
  private faultMask = 0;
  private cycles = 0n;
  private rdValid = false;
  private rdData = 0;
  /** Scoreboard: the words of the beats accepted for the running load, and how many were stored. */
  private stream: number[] = [];
  private stored = 0;
  private lastStored = -1;
  private wordsRewritten = false;
  /** Cleared for a load that began with words of an aborted load still buffered (see `clock`). */
  private scored = true;
  readonly coverage: MemoryControllerCoverage = { loads: [0, 0, 0, 0], wordsStored: 0, beats: 0, frames: 0, patchesWritten: 0, reportsWritten: 0, threadsWritten: 0, patchesOverlapped: 0, queueOverflows: 0, busyErrors: 0, tooLong: 0, textureTooLong: 0, badAddresses: 0, reads: 0, staleRestarts: 0 };

  private readonly sources: ReturnType<typeof sourcesOf>;
  private readonly writable: readonly number[];

  constructor(private readonly p: MemoryControllerParams) {
    this.sources = sourcesOf(p);
    this.writable = writableRegisters(p);
  }

  private reg(addr: number): number {
    return this.regs.get(addr) ?? 0;
  }

  private addr64(lo: number, hi: number): bigint {
    return (BigInt(this.reg(hi)) << 32n) | BigInt(this.reg(lo));
  }

  private get busy(): boolean {
    return this.state !== STATE.idle || this.pendingLoads !== 0 || this.pendingStart;
  }

  private nextLoad(): number {
    return this.sources.findIndex((_, j) => (this.pendingLoads >> j) & 1);
  }

  private tooLong(j: number): boolean {
    const limit = WORD_LIMITS[j];
    return limit !== undefined && this.reg(this.sources[j]!.words) > limit;
  }

  /** A load from source j: its address unaligned or its transfer past 2^64 (a 0-word load transfers nothing). */
  private badSource(j: number): boolean {
    const words = this.reg(this.sources[j]!.words);
    return words !== 0 && badTransfer(this.addr64(this.sources[j]!.lo, this.sources[j]!.hi), BigInt(Math.ceil(words / 4)));
  }

  /** The frame's results and reports would not fit the address space (or are unaligned). */
  private badFrame(): boolean {
    const pixels = this.reg(MMIO.PIXEL_COUNT);
    const out = badTransfer(this.addr64(MMIO.OUT_ADDR_LO, MMIO.OUT_ADDR_HI), BigInt(pixels));
    return out || (this.reportsOn && badTransfer(this.addr64(MMIO.REPORT_ADDR_LO, MMIO.REPORT_ADDR_HI), BigInt(Math.ceil(pixels / 32))));
  }

  private get reportsOn(): boolean {
    return this.addr64(MMIO.REPORT_ADDR_LO, MMIO.REPORT_ADDR_HI) !== 0n;
  }

  /** The oldest unfinished patch: its bank, first index and thread count; complete when every thread is written. */
  private oldest(): { bank: ReportBank; base: number; threads: number; complete: boolean } {
    const base = (this.patches * PATCH_THREADS) >>> 0;
    const remaining = (this.reg(MMIO.PIXEL_COUNT) - base) >>> 0;
    const threads = remaining < PATCH_THREADS ? remaining : PATCH_THREADS;
    const bank = this.banks[this.patches & 1]!;
    const every = threads === 32 ? 0xffffffff : (1 << threads) - 1;
    return { bank, base, threads, complete: threads !== 0 && bank.written >>> 0 === every >>> 0 };
  }

  private status(): number {
    const loading = this.state === STATE.request || this.state === STATE.receive;
    const running = this.state === STATE.run;
    return (this.busy ? 1 : 0) | (this.done ? 2 : 0) | (this.error !== 0 ? 4 : 0) | (loading ? 8 : 0) | (running ? 16 : 0);
  }

  /** What a read of `addr` returns this cycle. */
  private readRegister(addr: number, ins: Readonly<Record<string, bigint>>): number {
    const p = this.p;
    if (this.writable.includes(addr)) return this.reg(addr);
    switch (addr) {
      case MMIO.ID:
        return MMIO_ID;
      case MMIO.CONFIG:
        return ((INTERFACE_VERSION << 24) | (PATCH_THREADS << 16) | (p.icCores << 8) | p.rtCores) >>> 0;
      case MMIO.STATUS:
        return this.status();
      case MMIO.ERROR:
        return this.error;
      case MMIO.TRIANGLES:
        return Number(ins.tri_load_triangle_count);
      case MMIO.CONTEXTS:
        return p.contexts;
      case MMIO.PATCHES_DONE:
        return this.patches;
      case MMIO.FAULT_COUNT:
        return this.faults;
      case MMIO.FAULT_MASK:
        return this.faultMask;
      case MMIO.DONE_MASK:
        return this.oldest().bank.written;
      case MMIO.CYCLES_LO:
        return Number(this.cycles & U32);
      case MMIO.CYCLES_HI:
        return Number(this.cycles >> 32n);
      case MMIO.INSTRUCTIONS:
        return Number(ins.instructions);
      case MMIO.TRACES:
        return Number(ins.traces);
      case MMIO.FEATURES:
        return p.texture ? FEATURE.TEXTURE_UNIT : 0;
    }
    for (let c = 0; c < p.rtCores; c++) {
      const base = MMIO.RT_CORE + 16 * c;
      if (addr === base + 4 * RT_CORE_REG.STATUS) return Number(ins[`core_busy_${c}`]);
      if (addr === base + 4 * RT_CORE_REG.PC) return Number(ins[`core_counters_${c}_pc`]);
      if (addr === base + 4 * RT_CORE_REG.BUSY_CYCLES) return Number(ins[`core_counters_${c}_busy_cycles`]);
      if (addr === base + 4 * RT_CORE_REG.ISSUE_CYCLES) return Number(ins[`core_counters_${c}_issue_cycles`]);
    }
    // A context register shows what its core answers for the context the address selects.
    const context = (addr - MMIO.CONTEXT) >> 3;
    if (addr >= MMIO.CONTEXT && context < p.rtCores * p.contexts) {
      const c = Math.floor(context / p.contexts);
      if ((addr & 7) === 4 * CONTEXT_REG.STATUS) return (Number(ins[`context_status_${c}_thread`]) << 8) | Number(ins[`context_status_${c}_state`]);
      if ((addr & 7) === 4 * CONTEXT_REG.PC) return Number(ins[`context_status_${c}_pc`]);
    }
    for (let k = 0; k < p.icCores; k++) {
      const base = MMIO.IC_CORE + 16 * k;
      if (addr === base + 4 * IC_CORE_REG.RAYS) return Number(ins[`ic_counters_${k}_rays`]);
      if (addr === base + 4 * IC_CORE_REG.TESTS) return Number(ins[`ic_counters_${k}_tests`]);
      if (addr === base + 4 * IC_CORE_REG.BUSY_CYCLES) return Number(ins[`ic_counters_${k}_busy_cycles`]);
      if (addr === base + 4 * IC_CORE_REG.NODE_TESTS) return Number(ins[`ic_counters_${k}_node_tests`]);
    }
    if (p.texture) for (const [name, n] of Object.entries(TEXTURE_REG)) if (addr === MMIO.TEXTURE + 4 * n) return Number(ins[TEXTURE_COUNTER_PORTS[name as keyof typeof TEXTURE_REG]]);
    return 0; // CONTROL (write-only) and unmapped offsets
  }

  /** The outputs this cycle, only those whose value is meaningful (data under a strobe that is up). */
  outputs(ins: Readonly<Record<string, bigint>>): Record<string, bigint> {
    const receiving = this.state === STATE.receive;
    const emit = receiving && this.bufferWords !== 0;
    const store = emit && this.wordIndex < this.reg(this.sources[this.current]!.words);
    const next = this.nextLoad();
    const beginLoad = this.state === STATE.idle && next >= 0;
    const startFrame = this.state === STATE.idle && next < 0 && this.pendingStart && this.error === 0 && !this.badFrame();
    const loads = beginLoad && !this.tooLong(next) && !this.badSource(next);
    const writingResult = this.wb === 'write';
    const reporting = this.wb === 'report';
    const ready = ins.dma_wr_ready === 1n;
    const reading = this.wb === 'read';
    const oldest = this.oldest();
    const out: Record<string, bigint> = {
      mmio_rd_valid: b(this.rdValid),
      dma_rd_req_valid: b(this.state === STATE.request),
      dma_rd_ready: b(receiving && this.beatsLeft !== 0 && this.bufferWords < 2),
      dma_wr_valid: b(writingResult || (reporting && this.reportsOn)),
      irq: b(this.done || this.error !== 0),
      imem_load_we: b(store && this.current === 0),
      cmem_load_we: b(store && this.current === 1),
      tri_load_valid: b(store && this.current === 2),
      imem_load_start: b(loads && next === 0),
      cmem_load_start: b(loads && next === 1),
      tri_load_start: b(loads && next === 2),
      frame_start: b(startFrame),
      frame_pixel_count: BigInt(this.reg(MMIO.PIXEL_COUNT)),
      frame_first_pixel: BigInt(this.reg(MMIO.FIRST_PIXEL)),
      frame_patch_written: b(reporting && (ready || !this.reportsOn)),
      frame_thread_written: b(writingResult && ready),
      mem_read_en: b(reading),
      // The context index's low bits (one bit at least, as wide as the port).
      context_select: BigInt((Number(ins.mmio_rd_addr) >> 3) & ((1 << contextBits(this.p.contexts)) - 1)),
      ...(this.p.texture ? { tex_load_we: b(store && this.current === 3), tex_load_start: b(loads && next === 3) } : {}),
    };
    if (this.rdValid) out.mmio_rd_data = BigInt(this.rdData);
    if (this.state === STATE.request) {
      const src = this.sources[this.current]!;
      out.dma_rd_req_addr = this.addr64(src.lo, src.hi);
      out.dma_rd_req_beats = BigInt(this.beatsLeft);
    }
    if (store) {
      // Both memories see every stored word, at the index their address width keeps.
      out.imem_load_waddr = BigInt(this.wordIndex & 0xfff);
      out.cmem_load_waddr = BigInt(this.wordIndex & 0x1fff);
      out.imem_load_wdata = BigInt(this.buffer[this.bufferPos]!);
      out.cmem_load_wdata = out.imem_load_wdata;
      out.tri_load_data = out.imem_load_wdata;
      if (this.p.texture) [out.tex_load_waddr, out.tex_load_wdata] = [BigInt(this.wordIndex & (MEMORY_MAP.textureWords - 1)), out.imem_load_wdata];
    }
    if (reading) {
      out.mem_thread = BigInt(this.thread);
      out.mem_addr = BigInt(MEMORY_MAP.returnOffset >> 2);
    }
    if (writingResult) {
      out.frame_written_thread = BigInt(this.thread);
      out.dma_wr_addr = (this.addr64(MMIO.OUT_ADDR_LO, MMIO.OUT_ADDR_HI) + 16n * BigInt(this.index)) & U64;
      out.dma_wr_data = this.result;
    }
    if (reporting && this.reportsOn) {
      out.dma_wr_addr = (this.addr64(MMIO.REPORT_ADDR_LO, MMIO.REPORT_ADDR_HI) + 16n * BigInt(this.patches)) & U64;
      out.dma_wr_data = (BigInt(oldest.bank.cycles >>> 0) << 96n) | (BigInt(oldest.threads) << 64n) | (BigInt(oldest.base) << 32n) | BigInt(oldest.bank.faults >>> 0);
    }
    return out;
  }

  check(ins: Readonly<Record<string, bigint>>, outs: Readonly<Record<string, bigint>>): string | null {
    const want = this.outputs(ins);
    const wrong = Object.keys(want).find((k) => outs[k] !== want[k]);
    if (wrong !== undefined) return `${wrong} is 0x${outs[wrong]?.toString(16)}, the model expects 0x${want[wrong]!.toString(16)}`;
    const board = this.scoreboard(ins, outs);
    if (board) return board;
    this.clock(ins, want);
    return null;
  }

  /**
   * The load scoreboard: each stored word is the word of the accepted beats at its index, indices rise (the
   * host may change the word count mid-load, so a count that shrank and grew again can skip some), and a
   * load whose count was left alone stores words 0 .. count-1 exactly.
   */
  private scoreboard(ins: Readonly<Record<string, bigint>>, outs: Readonly<Record<string, bigint>>): string | null {
    if (!this.scored) return null;
    const imem = outs.imem_load_we === 1n;
    const tex = outs.tex_load_we === 1n;
    if (imem || tex || outs.cmem_load_we === 1n || outs.tri_load_valid === 1n) {
      // A triangle word's index: the constant memory's address (as wide as any load the tests make).
      const at = Number(imem ? outs.imem_load_waddr : tex ? outs.tex_load_waddr : outs.cmem_load_waddr);
      const data = imem ? outs.imem_load_wdata : tex ? outs.tex_load_wdata : outs.tri_load_valid === 1n ? outs.tri_load_data : outs.cmem_load_wdata;
      if (at >= this.stream.length) return `word ${at} is stored before its beat was accepted (${this.stream.length / 4} beats so far)`;
      if (data !== BigInt(this.stream[at]!)) return `stored word ${at} is 0x${data?.toString(16)}, the beats gave 0x${this.stream[at]!.toString(16)}`;
      if (at <= this.lastStored) return `word ${at} is stored after word ${this.lastStored}`;
      this.lastStored = at;
      this.stored++;
      this.coverage.wordsStored++;
    }
    if (ins.dma_rd_valid === 1n && outs.dma_rd_ready === 1n) {
      const data = ins.dma_rd_data!;
      for (let w = 0; w < 4; w++) this.stream.push(Number((data >> BigInt(32 * w)) & U32));
      this.coverage.beats++;
    }
    return null;
  }

  private clock(ins: Readonly<Record<string, bigint>>, out: Record<string, bigint>): void {
    // Everything below is decided from the values before this edge.
    const rdData = ins.mmio_rd_en === 1n ? this.readRegister(Number(ins.mmio_rd_addr), ins) >>> 0 : this.rdData;
    const wrEn = ins.mmio_wr_en === 1n;
    const wrAddr = Number(ins.mmio_wr_addr);
    const wrData = Number(ins.mmio_wr_data);
    const control = wrEn && wrAddr === MMIO.CONTROL;
    const busy = this.busy;
    const next = this.nextLoad();
    const beginLoad = this.state === STATE.idle && next >= 0;
    const tooLong = beginLoad && this.tooLong(next);
    const badSource = beginLoad && !tooLong && this.badSource(next);
    const receiving = this.state === STATE.receive;
    const emit = receiving && this.bufferWords !== 0;
    const accept = out.dma_rd_ready === 1n && ins.dma_rd_valid === 1n;
    const loadEnds = receiving && this.beatsLeft === 0 && this.bufferWords === 0;
    const startFrame = out.frame_start === 1n;
    const patchWritten = out.frame_patch_written === 1n;
    const threadWritten = out.frame_thread_written === 1n;
    const wrReady = ins.dma_wr_ready === 1n;
    const reportsOn = this.reportsOn;
    const oldest = this.oldest();

    // Each register's next value; where several rules fire in one cycle the later one below wins.
    let error = this.error;
    const raise = (code: number) => {
      if (this.error === 0) error = code; // the first error since CLEAR is kept
    };
    let done = this.done;
    let pendingLoads = this.pendingLoads;
    let pendingStart = this.pendingStart;
    let state = this.state;
    let { patches, faults, faultMask } = this;

    if (control && busy) {
      raise(ERROR_CODE.busy);
      this.coverage.busyErrors++;
    } else if (control) {
      pendingLoads = (wrData & 7) | (this.p.texture && wrData & CONTROL.LOAD_TEXTURE ? 8 : 0);
      pendingStart = (wrData & CONTROL.START) !== 0;
      if (wrData & CONTROL.CLEAR) [done, error] = [false, 0];
      if (wrData & CONTROL.START) [done, patches, faults, faultMask] = [false, 0, 0, 0];
    }

    // The read engine.
    if (tooLong || badSource) {
      raise(tooLong ? TOO_LONG[next]! : ERROR_CODE.badAddress);
      [pendingLoads, pendingStart] = [0, false];
      if (tooLong) this.coverage.tooLong++;
      if (tooLong && next === 3) this.coverage.textureTooLong++;
      else this.coverage.badAddresses++;
    } else if (beginLoad) {
      const words = this.reg(this.sources[next]!.words);
      this.current = next;
      this.wordIndex = 0;
      this.beatsLeft = Math.ceil(words / 4);
      if (words === 0) pendingLoads &= ~(1 << next);
      else state = STATE.request;
      [this.stream, this.stored, this.lastStored, this.wordsRewritten] = [[], 0, -1, false];
      // frame_done in the middle of a load (which the command patcher never sends then) sends the engine
      // back to idle; the load starts again with an empty beat buffer.
      if (this.bufferWords !== 0) this.coverage.staleRestarts++;
      this.bufferWords = 0;
      this.bufferPos = 0;
      this.scored = true;
      this.coverage.loads[next as 0 | 1 | 2 | 3]++;
    }
    if (this.state === STATE.request && ins.dma_rd_req_ready === 1n) state = STATE.receive;
    if (loadEnds) {
      state = STATE.idle;
      pendingLoads &= ~(1 << this.current);
      // Every word of the load was stored, and no more (unless the host changed the count meanwhile).
      const words = this.reg(this.sources[this.current]!.words);
      if (this.scored && !this.wordsRewritten && (this.stored !== words || this.lastStored !== words - 1)) throw new Error(`a load of ${words} words stored ${this.stored}, the last at ${this.lastStored}`);
    }
    if (emit) {
      this.wordIndex = (this.wordIndex + 1) >>> 0;
      this.bufferPos = (this.bufferPos + 1) & 3;
    }
    if (accept) {
      this.buffer = [0, 1, 2, 3].map((w) => Number((ins.dma_rd_data! >> BigInt(32 * w)) & U32));
      this.bufferWords = 4;
      this.bufferPos = 0;
      this.beatsLeft--;
    } else if (emit) this.bufferWords--;
    // The triangle memories' sticky error clears at the edge of tri_load_start: not raised in that cycle.
    if (ins.tri_load_error === 1n && !(beginLoad && !tooLong && !badSource && next === 2)) raise(ERROR_CODE.triangleImage);
    if (ins.internal_error === 1n) raise(ERROR_CODE.internal);

    // The frame.
    if (this.state === STATE.idle && next < 0 && this.pendingStart) {
      pendingStart = false;
      if (this.badFrame()) {
        raise(ERROR_CODE.badAddress);
        this.coverage.badAddresses++;
      } else if (this.error === 0) state = STATE.run;
      if (startFrame) this.coverage.frames++;
    }

    // The write-back engine.
    // (These counts win over a START's reset in the same cycle, as in the hardware.)
    const full = this.queue.length === PATCH_THREADS;
    if (threadWritten && this.fault) faults = (this.faults + 1) >>> 0;
    if (patchWritten) {
      patches = (this.patches + 1) >>> 0;
      faultMask = (this.faultMask | oldest.bank.faults) >>> 0;
      this.coverage.patchesWritten++;
      if (reportsOn) this.coverage.reportsWritten++;
    }
    this.writeBackEdge(ins, oldest.complete, threadWritten, patchWritten, reportsOn);
    // Ended threads are queued while the frame runs (32 entries; a full queue takes none, even as one leaves: an internal error).
    if (ins.thread_done_valid === 1n && this.state === STATE.run) {
      if (full) {
        raise(ERROR_CODE.internal);
        this.coverage.queueOverflows++;
      } else this.queue.push({ thread: Number(ins.thread_done_thread), pixel: Number(ins.thread_done_pixel), fault: ins.thread_done_fault === 1n });
    }
    // A new frame clears both report banks.
    if (startFrame) {
      for (const bank of this.banks) [bank.written, bank.faults] = [0, 0];
      this.startBank = 0;
    }
    if (ins.frame_done === 1n) {
      state = STATE.idle;
      done = true;
    }

    // Registers the host writes, the busy-cycle counter and the MMIO read.
    if (wrEn && this.writable.includes(wrAddr)) {
      this.regs.set(wrAddr, wrData);
      if (this.sources.some((s) => s.words === wrAddr)) this.wordsRewritten = true;
    }
    if (busy) this.cycles = (this.cycles + 1n) & U64;
    if (ins.mmio_rd_en === 1n) this.coverage.reads++;
    Object.assign(this, { error, done, pendingLoads, pendingStart, state, patches, faults, faultMask, rdData, rdValid: ins.mmio_rd_en === 1n });

    if (ins.rst_n === 0n) this.reset();
  }

  /** The write-back state machine and the report banks at the clock edge (the queue's head is taken before new entries join). */
  private writeBackEdge(ins: Readonly<Record<string, bigint>>, complete: boolean, threadWritten: boolean, patchWritten: boolean, reportsOn: boolean): void {
    const oldestBank = this.patches & 1;
    const wb = this.wb;
    if (wb === 'idle' && complete) this.wb = 'report';
    else if (wb === 'idle' && this.queue.length > 0) {
      const head = this.queue.shift()!;
      [this.thread, this.index, this.fault] = [head.thread, (head.pixel - this.reg(MMIO.FIRST_PIXEL)) >>> 0, head.fault];
      this.wb = 'read';
    } else if (wb === 'read' && ins.mem_done === 1n) {
      this.result = ins.mem_data_read!;
      this.wb = 'write';
    } else if (wb === 'write' && ins.dma_wr_ready === 1n) this.wb = 'idle';
    else if (wb === 'report' && (ins.dma_wr_ready === 1n || !reportsOn)) this.wb = 'idle';
    this.banks.forEach((bank, k) => {
      bank.cycles = ins.frame_patch_start === 1n && this.startBank === k ? 0 : (bank.cycles + 1) >>> 0;
      if (threadWritten && ((this.index >>> 5) & 1) === k) {
        bank.written = (bank.written | (1 << this.thread)) >>> 0;
        if (this.fault) bank.faults = (bank.faults | (1 << this.thread)) >>> 0;
        if (k !== oldestBank) this.coverage.patchesOverlapped++;
      }
      if (patchWritten && oldestBank === k) [bank.written, bank.faults] = [0, 0];
    });
    if (threadWritten) this.coverage.threadsWritten++;
    if (ins.frame_patch_start === 1n) this.startBank ^= 1;
  }

  private reset(): void {
    Object.assign(this, {
      regs: new Map<number, number>(),
      state: STATE.idle, pendingLoads: 0, pendingStart: false, done: false, error: 0,
      current: 0, wordIndex: 0, beatsLeft: 0, buffer: [0, 0, 0, 0], bufferWords: 0, bufferPos: 0,
      queue: [], wb: 'idle', thread: 0, index: 0, fault: false, result: 0n, startBank: 0,
      banks: [0, 1].map(() => ({ written: 0, faults: 0, cycles: 0 })),
      patches: 0, faults: 0, faultMask: 0, cycles: 0n, rdValid: false, rdData: 0,
      stream: [], stored: 0, lastStored: -1, wordsRewritten: true, scored: true,
    });
  }
}

export function memoryControllerGolden(p: MemoryControllerParams, onModel?: (m: MemoryControllerModel) => void): GoldenModel {
  const model = new MemoryControllerModel(p);
  onModel?.(model);
  return {
    check(_cycle, ins, outs) {
      try {
        return model.check(ins, outs);
      } catch (e) {
        return (e as Error).message;
      }
    },
  };
}

export const memoryControllerCosimDesign: CosimDesign = {
  name: 'memory_controller',
  description: `memory controller (${memoryControllerCosimParams.rtCores} RT cores, ${memoryControllerCosimParams.icCores} IC cores): random MMIO traffic and commands, stalling DMA, random patches`,
  elaborate: () => elaborate(MemoryController, memoryControllerCosimParams).design,
  stimulus: memoryControllerStimulus(memoryControllerCosimParams),
  golden: () => memoryControllerGolden(memoryControllerCosimParams),
};
