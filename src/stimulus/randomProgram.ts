// Random RT core programs (always terminating, hazard-dense, every instruction) and small random scenes, for ISS/core lockstep tests.
import type { Rng } from '../util/seededRandom.ts';
import type { Scene } from '../golden/scene.ts';
import { BY_OPCODE, MEMORY_MAP, REG, VREG } from '../isa/instructions.ts';
import { encodeTxdHandle } from '../isa/textureOperands.ts';

/** Instructions one thread of a generated program retires at most (an upper bound the generator keeps). */
export const RANDOM_PROGRAM_MAX_INSTRUCTIONS = 20_000;

export interface RandomProgramOptions {
  /** Approximate number of instruction words in the main body (the prologue, checksum tail and functions come on top). */
  readonly size: number;
  /** Emit `trace` (with the live state saved on the stack and restored after it). */
  readonly trace: boolean;
  /** Emit deliberate faults: memory faults, and rarely an illegal opcode or a PC outside instruction memory. */
  readonly faults: boolean;
  /** Emit counted loops (nested up to 2 deep). */
  readonly loops: boolean;
  /** Emit functions (after `fin`) and calls to them with jmp_link / ret. */
  readonly calls: boolean;
  /** Upper bound on the instructions one thread retires. */
  readonly maxInstructions: number;
  /**
   * Emit `txd`, mostly with the handles of RANDOM_TEXTURE_LAYOUT (run it with texture memory laid out so,
   * e.g. generateTextureMemory; without texture memory txd is illegal and ends the thread).
   */
  readonly texture: boolean;
}

export const DEFAULT_RANDOM_PROGRAM_OPTIONS: RandomProgramOptions = {
  size: 250,
  trace: true,
  faults: true,
  loops: true,
  calls: true,
  maxInstructions: RANDOM_PROGRAM_MAX_INSTRUCTIONS,
  texture: false,
};

/** The texture pools generated txd handles name: header indices and sampler indices (the last sampler is invalid words). */
export const RANDOM_TEXTURE_LAYOUT = { headers: [2, 3, 4, 5], samplers: [0, 1, 2, 3] } as const;

export interface RandomProgram {
  /** Assembly source for `assemble`. */
  readonly source: string;
  /** Constant memory image (from 0x20000000). */
  readonly constants: Uint32Array;
}

/*
 * Register plan. Random instructions write only R0 and the general registers; the rest keep the
 * invariants that make every program terminate and every address predictable:
 *   R1  pixel id (read only)      R24 0x20000000, constant memory      R26/R27 loop counters (outer/inner)
 *   R28 thread base + 0x8000, the data area (offsets stay within ±0x2000, far from the stack and 0xFFF0)
 *   R29 stack pointer (push/pop only, balanced per block)   R30 link register (jmp_link, saved when a function calls or traces)
 */
const GENERAL = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 25];
const R_CONST = 24;
/** The ISA's stack base register, here the data area's pointer. */
const R_DATA = REG.stackBase;
const R_SP = REG.sp;
const R_LINK = REG.link;
const SPECIAL_SOURCES = [REG.zero, REG.pixelId, R_CONST, 26, 27, R_DATA, R_SP, R_LINK, REG.pc];
const [RV_ORIGIN, RV_DIRECTION] = [VREG.traceOrigin, VREG.traceDirection];
/** `s_write_high`/`s_write_low` immediates that make the constant memory's base and the data area's offset (half a thread's memory). */
const CONSTANT_BASE_HIGH = `0x${(MEMORY_MAP.constantBase >>> 16).toString(16)}`;
const DATA_AREA_OFFSET = `0x${(MEMORY_MAP.threadBytes / 2).toString(16)}`;
const COUNTERS = [26, 27];

/** Words of constant memory holding edge-case and random values; rays follow them. */
const CONST_VALUES = 64;
const RAYS = 8;
/** A ray in constant memory: origin x, y, z, 0, direction x, y, z, 0. */
const RAY_WORDS = 8;

const FLOAT_EDGES = [
  0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
  0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0xc0400000,
  0x4b000000, 0x4b7fffff, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000, 0x5f800000, 0x1f800000, 0x34000000, 0x3f7fffff,
  0x3fffffff, 0x0c000000, 0x72000000, 0x00000003, 0x33800000,
];
const INT_EDGES = [0, 1, 2, 3, 7, 0xffffffff, 0xfffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xffff, 0x10000, 0x8000, 0x7fff, 0xffff8000, 100];
/**
 * Addresses outside constant memory and every thread's main memory, or in another memory (faults). The one just
 * below the thread memories stays 32 bytes below them: with the ±16 offset a store at 0x7ffffffc reached
 * 0x80000000, thread 0's own stack, and overwrote its saved link, so the thread looped (SEED=1475544419, program 85).
 */
const FAULT_ADDRESSES = [0x00000000, 0x00001000, 0x10000000, 0x1ffffffc, 0x20008000, 0x7fffffe0, 0x80ff0000, 0x80200000, 0xfffffff0, 0x40000000];

/** Instructions of the table the generator never emits (txd only with the `texture` option). */
export const NOT_GENERATED: readonly string[] = [];

const UNUSED_OPCODES = Array.from({ length: 64 }, (_, i) => i).filter((op) => !BY_OPCODE.has(op));

const hex = (x: number): string => `0x${(x >>> 0).toString(16)}`;
const f32bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0]!;

/** Straight-line code with its words and an upper bound on the instructions it retires. */
class Code {
  readonly lines: string[] = [];
  words = 0;
  cost = 0;

  op(text: string, words = 1): this {
    this.lines.push(`  ${text}`);
    this.words += words;
    this.cost += words;
    return this;
  }

  label(name: string): this {
    this.lines.push(`${name}:`);
    return this;
  }

  comment(text: string): this {
    this.lines.push(`  // ${text}`);
    return this;
  }

  append(c: Code): this {
    this.lines.push(...c.lines);
    this.words += c.words;
    this.cost += c.cost;
    return this;
  }
}

/** Where code is being generated. */
interface Ctx {
  /** Loop nesting (0–2); the counters of the enclosing loops are live. */
  readonly loops: number;
  /** Index of the function being generated, or -1 for the main body. */
  readonly fn: number;
  /** Bytes this function (or main) has pushed below the current R29 (safe negative offsets). */
  readonly pushed: number;
  /** Nesting of blocks (keeps recursion shallow). */
  readonly depth: number;
  /** The main body at top level (early exits are allowed there). */
  readonly top: boolean;
}

interface FunctionDef {
  readonly name: string;
  readonly code: Code;
}

type Item = (ctx: Ctx, budget: number) => Code | undefined;

class Generator {
  private labels = 0;
  private readonly recentS: number[] = [];
  private readonly recentV: number[] = [];
  /** Data-area offsets (from R28) stored to; loads prefer them and the tail hashes them. */
  private readonly stored: number[] = [];
  /** Filled from the last: while fn i is generated, only fn i+1.. exist. */
  private readonly functions: (FunctionDef | undefined)[] = [];
  private earlyExits = 0;

  constructor(
    private readonly rng: Rng,
    private readonly o: RandomProgramOptions,
  ) {}

  // ----------------------------------------------------------------------------------------------
  // Random choices

  private chance(p: number): boolean {
    return this.rng() < p;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.rng.int(xs.length)]!;
  }

  private between(lo: number, hi: number): number {
    return lo + this.rng.int(hi - lo + 1);
  }

  private label(prefix: string): string {
    return `${prefix}${this.labels++}`;
  }

  /** A scalar source: mostly one of the last few registers written, so that results are used at once. */
  private srcS(): number {
    const r = this.rng();
    const recent = this.recentS;
    if (r < 0.4 && recent.length > 0) return recent[0]!;
    if (r < 0.6 && recent.length > 1) return recent[1]!;
    if (r < 0.7 && recent.length > 2) return recent[2]!;
    if (r < 0.9) return this.pick(GENERAL);
    return this.pick(SPECIAL_SOURCES);
  }

  private dstS(): number {
    if (this.chance(0.04)) return 0;
    if (this.chance(0.15) && this.recentS.length > 0) return this.recentS[0]!;
    return this.pick(GENERAL);
  }

  private wroteS(r: number): number {
    if (r !== 0) {
      const i = this.recentS.indexOf(r);
      if (i >= 0) this.recentS.splice(i, 1);
      this.recentS.unshift(r);
      if (this.recentS.length > 4) this.recentS.pop();
    }
    return r;
  }

  private srcV(): number {
    const r = this.rng();
    const recent = this.recentV;
    if (r < 0.4 && recent.length > 0) return recent[0]!;
    if (r < 0.55 && recent.length > 1) return recent[1]!;
    if (r < 0.95) return 1 + this.rng.int(15);
    return 0;
  }

  private dstV(): number {
    if (this.chance(0.03)) return 0;
    if (this.chance(0.15) && this.recentV.length > 0) return this.recentV[0]!;
    return 1 + this.rng.int(15);
  }

  private wroteV(r: number): number {
    if (r !== 0) {
      const i = this.recentV.indexOf(r);
      if (i >= 0) this.recentV.splice(i, 1);
      this.recentV.unshift(r);
      if (this.recentV.length > 3) this.recentV.pop();
    }
    return r;
  }

  /** A 32-bit value: float and integer edge cases, random floats of any magnitude, small integers, random bits. */
  private value(): number {
    const r = this.rng();
    if (r < 0.35) return this.pick(FLOAT_EDGES);
    if (r < 0.5) return this.pick(INT_EDGES);
    if (r < 0.7) return f32bits((this.rng() - 0.5) * 2 ** this.between(-4, 8));
    if (r < 0.8) return ((this.rng.u32() & 0x807fffff) | (this.between(1, 254) << 23)) >>> 0;
    if (r < 0.9) return f32bits(this.between(-100, 100));
    return this.rng.u32();
  }

  private simm(): number {
    const r = this.rng();
    if (r < 0.3) return this.between(-8, 8);
    if (r < 0.4) return this.pick([0, -1, 1, 32767, -32768, 0x100, -0x100]);
    return this.between(-32768, 32767);
  }

  // ----------------------------------------------------------------------------------------------
  // Single instructions and short snippets

  /** rd = value with s_write_high then s_write_low (the second reads what the first just wrote). */
  private li(c: Code, rd: number, v: number): void {
    if (this.chance(0.2)) {
      c.op(`s_write_low R${rd}, #${hex(v & 0xffff)}`).op(`s_write_high R${rd}, #${hex(v >>> 16)}`);
    } else {
      c.op(`s_write_high R${rd}, #${hex(v >>> 16)}`).op(`s_write_low R${rd}, #${hex(v & 0xffff)}`);
    }
    this.wroteS(rd);
  }

  private loadValue(c: Code): void {
    const rd = this.pick(GENERAL);
    const v = this.value();
    const small = (v | 0) >= -32768 && (v | 0) <= 32767;
    if (small && this.chance(0.5)) c.op(`ii_addi R${rd}, R0, #${v | 0}`);
    else this.li(c, rd, v);
    this.wroteS(rd);
  }

  private intRR(c: Code): void {
    const m = this.pick(['ii_add', 'ii_add', 'ii_sub', 'ii_sub', 'ii_mul', 'ii_div']);
    const a = this.srcS();
    const b = this.srcS();
    c.op(`${m} R${this.wroteS(this.dstS())}, R${a}, R${b}`);
  }

  private logic(c: Code): void {
    const m = this.pick(['not', 'and', 'or', 'xor']);
    const a = this.srcS();
    if (m === 'not') c.op(`not R${this.wroteS(this.dstS())}, R${a}`);
    else c.op(`${m} R${this.wroteS(this.dstS())}, R${a}, R${this.srcS()}`);
  }

  private intImm(c: Code): void {
    const m = this.pick(['ii_addi', 'ii_addi', 'ii_subi', 'ii_muli', 'ii_divi']);
    c.op(`${m} R${this.wroteS(this.dstS())}, R${this.srcS()}, #${this.simm()}`);
  }

  private floatRR(c: Code): void {
    const m = this.pick(['ff_add', 'ff_sub', 'ff_mul', 'ff_div']);
    const a = this.srcS();
    c.op(`${m} R${this.wroteS(this.dstS())}, R${a}, R${this.srcS()}`);
  }

  private floatUnary(c: Code): void {
    const m = this.pick(['s_sqrt', 's_itof', 's_ftoi', 's_itof', 's_ftoi']);
    c.op(`${m} R${this.wroteS(this.dstS())}, R${this.srcS()}`);
  }

  private vector(c: Code): void {
    if (this.chance(0.5)) {
      const m = this.pick(['vv_add', 'vv_sub', 'vv_mul_ele', 'vv_div']);
      const a = this.srcV();
      c.op(`${m} RV${this.wroteV(this.dstV())}, RV${a}, RV${this.srcV()}`);
    } else {
      const m = this.pick(['vf_add', 'vf_sub', 'vf_mul', 'vf_div']);
      const a = this.srcV();
      c.op(`${m} RV${this.wroteV(this.dstV())}, RV${a}, R${this.srcS()}`);
    }
  }

  private move(c: Code): void {
    switch (this.rng.int(8)) {
      case 0:
        c.op(`v_reduce R${this.wroteS(this.dstS())}, RV${this.srcV()}`);
        return;
      case 1:
        c.op(`s_get_from_v R${this.wroteS(this.dstS())}, RV${this.srcV()}, #${this.rng.int(4)}`);
        return;
      case 2:
      case 3:
        c.op(`v_get_from_s RV${this.wroteV(this.dstV())}, R${this.srcS()}, #${this.rng.int(4)}`);
        return;
      case 4: {
        // On a register just written: s_write_high/low read their destination.
        const r = this.recentS[0] ?? this.pick(GENERAL);
        c.op(`${this.pick(['s_write_high', 's_write_low'])} R${this.wroteS(r)}, #${hex(this.rng.int(0x10000))}`);
        return;
      }
      case 5:
        c.op(`s_mov R${this.wroteS(this.dstS())}, R${this.srcS()}`);
        return;
      case 6:
        c.op(`v_mov RV${this.wroteV(this.dstV())}, RV${this.srcV()}`);
        return;
      default: {
        const m = this.pick(['s_setzero', 'ii_mod', 'ii_modi']);
        if (m === 's_setzero') {
          c.op(`s_setzero R${this.wroteS(this.dstS())}`);
          return;
        }
        // ii_mod/ii_modi: the destination must differ from the sources (it holds the quotient).
        const a = this.srcS();
        const b = this.srcS();
        const d = this.pick(GENERAL.filter((r) => r !== a && r !== b));
        if (m === 'ii_mod') c.op(`ii_mod R${d}, R${a}, R${b}`, 3);
        else c.op(`ii_modi R${d}, R${a}, #${this.simm()}`, 3);
        this.wroteS(d);
      }
    }
  }

  /** A data-area offset for a scalar access: often one stored before, sometimes with the low two bits set. */
  private dataOffset(forLoad: boolean): number {
    if (forLoad && this.stored.length > 0 && this.chance(0.7)) return this.pick(this.stored) + (this.chance(0.1) ? this.rng.int(4) : 0);
    const wide = this.chance(0.1);
    const off = wide ? 4 * this.between(-0x7f0, 0x7f0) : 4 * this.between(-0x40, 0x40);
    return off + (this.chance(0.05) ? this.rng.int(4) : 0);
  }

  private noteStore(off: number, words: number): void {
    const w = off & ~3;
    for (let i = 0; i < words; i++) if (!this.stored.includes(w + 4 * i)) this.stored.push(w + 4 * i);
  }

  private memory(c: Code, ctx: Ctx): void {
    const r = this.rng.int(10);
    if (r < 2) {
      const off = this.dataOffset(false);
      c.op(`s_store_4byte R${this.srcS()}, R${R_DATA}, #${off}`);
      this.noteStore(off, 1);
    } else if (r < 3) {
      const off = this.dataOffset(false);
      c.op(`v_store_16byte RV${this.srcV()}, R${R_DATA}, #${off}`);
      this.noteStore(off, 4);
    } else if (r < 5) {
      c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${R_DATA}, #${this.dataOffset(true)}`);
    } else if (r < 6) {
      c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${R_DATA}, #${this.dataOffset(true)}`);
    } else if (r < 8) {
      this.storeThenLoad(c);
    } else if (r < 9) {
      // Constant memory: mostly the initialized words, sometimes anywhere in its 32 KiB (zeros).
      const off = this.chance(0.85) ? 4 * this.rng.int(CONST_VALUES + RAYS * RAY_WORDS) : this.rng.int(0x8000);
      c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${R_CONST}, #${off}`);
    } else {
      // The stack: saved words below R29 (known to this function), free words above it.
      const below = ctx.pushed / 4;
      const off = below > 0 && this.chance(0.5) ? -4 * this.between(1, below) : 4 * this.rng.int(16);
      if (this.chance(0.7)) c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${R_SP}, #${off}`);
      else c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${R_SP}, #${off}`);
      if (off >= 0 && this.chance(0.4)) c.op(`s_store_4byte R${this.srcS()}, R${R_SP}, #${4 * this.rng.int(16)}`);
    }
  }

  /** A store and a load of (part of) the same words, back to back or one apart, scalar and vector mixed. */
  private storeThenLoad(c: Code): void {
    const off = this.dataOffset(false) & ~3;
    const vStore = this.chance(0.4);
    if (vStore) c.op(`v_store_16byte RV${this.srcV()}, R${R_DATA}, #${off}`);
    else c.op(`s_store_4byte R${this.srcS()}, R${R_DATA}, #${off}`);
    this.noteStore(off, vStore ? 4 : 1);
    if (this.chance(0.3)) this.simple(c);
    const loadOff = off + (vStore ? 4 * this.rng.int(4) : -4 * this.rng.int(4) * (this.chance(0.5) ? 1 : 0));
    if (this.chance(0.5)) c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${R_DATA}, #${vStore ? loadOff : off}`);
    else c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${R_DATA}, #${vStore ? off : loadOff}`);
  }

  /** Operations on edge values: x/0, INT_MIN/−1, inf − inf, 0 · inf, sqrt(−1), ftoi saturation, subnormals. */
  private edge(c: Code): void {
    const d = this.pick(GENERAL);
    const s = this.pick(GENERAL);
    switch (this.rng.int(8)) {
      case 0:
        c.op(this.chance(0.5) ? `ii_div R${this.wroteS(d)}, R${this.srcS()}, R0` : `ii_divi R${this.wroteS(d)}, R${this.srcS()}, #0`);
        return;
      case 1:
        this.li(c, s, 0x80000000);
        if (this.chance(0.5)) c.op(`ii_divi R${this.wroteS(d)}, R${s}, #-1`);
        else {
          const m = this.pick(GENERAL.filter((r) => r !== s));
          c.op(`ii_addi R${this.wroteS(m)}, R0, #-1`).op(`ii_div R${this.wroteS(d)}, R${s}, R${m}`);
        }
        return;
      case 2:
        this.li(c, s, this.pick([0x7f800000, 0xff800000, 0x00000000, 0x80000000]));
        c.op(`${this.pick(['ff_sub', 'ff_mul', 'ff_div', 'ff_add'])} R${this.wroteS(d)}, R${s}, R${this.chance(0.5) ? s : this.srcS()}`);
        return;
      case 3:
        this.li(c, s, this.pick([0xbf800000, 0x80000000, 0x00000001, 0x7f800000, 0xff800000, 0x7fc00000]));
        c.op(`s_sqrt R${this.wroteS(d)}, R${s}`);
        return;
      case 4:
        this.li(c, s, this.pick([0x4f000000, 0xcf000000, 0xcf000001, 0x4effffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xbf7fffff, 0x3f7fffff]));
        c.op(`s_ftoi R${this.wroteS(d)}, R${s}`);
        return;
      case 5:
        this.li(c, s, this.pick([0x80000000, 0x7fffffff, 0x01000001, 0xffffffff, 0x00ffffff, 0x7fffffc0]));
        c.op(`s_itof R${this.wroteS(d)}, R${s}`);
        return;
      case 6:
        this.li(c, s, this.pick([0x00000001, 0x007fffff, 0x00800000, 0x80000001]));
        c.op(`${this.pick(['ff_mul', 'ff_div', 'ff_add', 'ff_sub'])} R${this.wroteS(d)}, R${s}, R${this.srcS()}`);
        return;
      default: {
        // v_reduce over lanes with infinities of both signs and a NaN somewhere.
        const v = 1 + this.rng.int(15);
        this.li(c, s, this.pick([0x7f800000, 0xff800000, 0x7fc00000, 0x00000001]));
        c.op(`v_get_from_s RV${this.wroteV(v)}, R${s}, #${this.rng.int(4)}`);
        c.op(`v_reduce R${this.wroteS(d)}, RV${v}`);
      }
    }
  }

  /** Memory faults: out-of-thread access, a vector straddling the end of the thread's memory, vector or store access to constant memory. */
  private fault(c: Code): void {
    const t = this.pick(GENERAL);
    switch (this.rng.int(6)) {
      case 0:
      case 1: {
        this.li(c, t, this.pick(FAULT_ADDRESSES));
        const off = 4 * this.between(-4, 4);
        const k = this.rng.int(4);
        if (k === 0) c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${t}, #${off}`);
        else if (k === 1) c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${t}, #${off}`);
        else if (k === 2) c.op(`s_store_4byte R${this.srcS()}, R${t}, #${off}`);
        else c.op(`v_store_16byte RV${this.srcV()}, R${t}, #${off}`);
        return;
      }
      case 2: {
        // Another thread's memory (TID xor 1), or just below / straddling the end of this one.
        const m = this.pick(GENERAL.filter((r) => r !== t));
        const k = this.rng.int(3);
        if (k === 0) {
          this.li(c, m, 0x10000);
          c.op(`xor R${this.wroteS(t)}, R${R_SP}, R${m}`);
        } else {
          c.op(`s_mov R${this.wroteS(t)}, R${R_SP}`).op(`s_write_low R${t}, #${k === 1 ? 0 : hex(0xfff4 + 4 * this.rng.int(3))}`);
          if (k === 1) c.op(`ii_subi R${t}, R${t}, #4`);
        }
        if (this.chance(0.5)) c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${t}, #0`);
        else c.op(`v_store_16byte RV${this.srcV()}, R${t}, #0`);
        return;
      }
      case 3:
        c.op(`v_load_16byte RV${this.wroteV(this.dstV())}, R${R_CONST}, #${4 * this.rng.int(CONST_VALUES)}`);
        return;
      case 4:
        c.op(this.chance(0.5) ? `s_store_4byte R${this.srcS()}, R${R_CONST}, #${4 * this.rng.int(CONST_VALUES)}` : `v_store_16byte RV${this.srcV()}, R${R_CONST}, #${4 * this.rng.int(CONST_VALUES)}`);
        return;
      default:
        // A load through whatever a register holds: usually outside every memory.
        c.op(`s_load_4byte R${this.wroteS(this.dstS())}, R${this.srcS()}, #${4 * this.between(-8, 8)}`);
    }
  }

  /** One random straight-line instruction or snippet, never a fault. */
  private simple(c: Code): void {
    const r = this.rng.int(100);
    if (r < 12) this.intRR(c);
    else if (r < 19) this.logic(c);
    else if (r < 27) this.intImm(c);
    else if (r < 38) this.floatRR(c);
    else if (r < 43) this.floatUnary(c);
    else if (r < 55) this.vector(c);
    else if (r < 67) this.move(c);
    else if (r < 74) this.loadValue(c);
    else this.memory(c, { loops: 0, fn: -1, pushed: 0, depth: 0, top: false });
  }

  /** One real (single-word) instruction for code that is jumped over. */
  private singleWord(c: Code): void {
    const r = this.rng.int(4);
    if (r === 0) this.intRR(c);
    else if (r === 1) this.floatRR(c);
    else if (r === 2) c.op(`.word ${hex(this.pick(UNUSED_OPCODES) << 26)}`);
    else c.op(`s_store_4byte R${this.srcS()}, R${R_DATA}, #${this.dataOffset(false)}`);
  }

  // ----------------------------------------------------------------------------------------------
  // Blocks

  /** Straight-line and structured code of about `target` words, retiring at most `budget` instructions. */
  private block(target: number, budget: number, ctx: Ctx): Code {
    const c = new Code();
    let misses = 0;
    while (c.words < target && misses < 6) {
      const item = this.item(ctx, budget - c.cost);
      if (item === undefined || item.cost > budget - c.cost) {
        misses++;
        continue;
      }
      c.append(item);
    }
    return c;
  }

  private item(ctx: Ctx, budget: number): Code | undefined {
    const deep = ctx.depth >= 3;
    const choices: [number, Item][] = [
      [70, (cx) => this.straight(cx)],
      [2, () => this.withFaults()],
      [deep ? 0 : 9, (cx, b) => this.branchBlock(cx, b)],
      [deep || !this.o.loops || ctx.loops >= 2 || ctx.fn >= 0 ? 0 : 3, (cx, b) => this.loop(cx, b)],
      [this.callable(ctx).length === 0 ? 0 : 3, (cx, b) => this.call(cx, b)],
      [deep ? 0 : 3, (cx, b) => this.pushRegion(cx, b)],
      [this.o.trace ? 2 : 0, (cx) => this.trace(cx)],
      [this.o.texture ? 3 : 0, () => this.textureFetch()],
      [2, () => this.retJump()],
      [this.o.faults && ctx.top && this.earlyExits === 0 ? 0.3 : 0, () => this.earlyExit()],
    ];
    const total = choices.reduce((s, [w]) => s + w, 0);
    let x = this.rng() * total;
    for (const [w, f] of choices) {
      if ((x -= w) < 0) return f(ctx, budget);
    }
    return undefined;
  }

  private straight(ctx: Ctx): Code {
    const c = new Code();
    const n = this.between(1, 4);
    for (let i = 0; i < n; i++) {
      const r = this.rng.int(100);
      if (r < 8) this.edge(c);
      else if (r < 20) this.memory(c, ctx);
      else this.simple(c);
    }
    return c;
  }

  private withFaults(): Code {
    const c = new Code();
    if (this.o.faults) this.fault(c);
    else this.edge(c);
    if (this.chance(0.5)) this.simple(c);
    return c;
  }

  /** cmp_i or cmp_f on recent values, with equal operands, a fresh NaN or ±0 often enough for every flag. */
  private compare(c: Code): void {
    const a = this.srcS();
    if (this.chance(0.45)) {
      const r = this.rng();
      const b = r < 0.2 ? a : r < 0.35 ? 0 : this.srcS();
      c.op(this.chance(0.85) ? `cmp_i R${a}, R${b}` : `cmp_i R${b}, R${a}`);
      return;
    }
    const r = this.rng();
    let b: number;
    if (r < 0.15) b = a;
    else if (r < 0.35) {
      b = this.pick(GENERAL.filter((x) => x !== a));
      this.li(c, b, this.pick([0x7fc00000, 0xffc00000, 0x7f800001, 0x00000000, 0x80000000, 0x3f800000]));
    } else b = this.srcS();
    c.op(this.chance(0.7) ? `cmp_f R${a}, R${b}` : `cmp_f R${b}, R${a}`);
  }

  /** A compare, then one to three forward branches over random blocks (or an if/else). */
  private branchBlock(ctx: Ctx, budget: number): Code | undefined {
    const c = new Code();
    this.compare(c);
    // Usually the branch follows the compare at once.
    const gap = this.chance(0.75) ? 0 : this.between(1, 2);
    for (let i = 0; i < gap; i++) this.simple(c);
    const inner: Ctx = { ...ctx, depth: ctx.depth + 1, top: false };
    const cond = (): string => (this.chance(0.04) ? 'jmp' : this.pick(['be', 'bne', 'bl', 'bge', 'bg', 'ble']));
    const perBlock = Math.floor((budget - c.cost - 8) / 3);
    if (perBlock < 1) return undefined;
    if (this.chance(0.25)) {
      const els = this.label('else');
      const end = this.label('endif');
      const a = this.block(this.between(1, 6), perBlock, inner);
      const b = this.block(this.between(1, 6), perBlock, inner);
      c.op(`${cond()} ${els}`).append(a).op(`jmp ${end}`).label(els).append(b).label(end);
      return c;
    }
    const n = this.chance(0.7) ? 1 : this.between(2, 3);
    const targets = Array.from({ length: n }, () => this.label('skip'));
    for (const t of targets) c.op(`${cond()} ${t}`);
    for (const t of targets) c.append(this.block(this.between(0, 6), perBlock, inner)).label(t);
    return c;
  }

  /** A counted loop on R26 (outer) or R27 (inner); the body never writes its counter. */
  private loop(ctx: Ctx, budget: number): Code | undefined {
    const counter = COUNTERS[ctx.loops]!;
    const body = this.block(this.between(2, 12), Math.min(budget - 6, 2500), { ...ctx, loops: ctx.loops + 1, depth: ctx.depth + 1, top: false });
    const perIteration = body.cost + 4;
    const n = Math.min(this.between(1, 6), Math.floor((budget - 2) / perIteration));
    if (n < 1) return undefined;
    const top = this.label('loop');
    const c = new Code();
    if (this.chance(0.5)) c.op(`ii_addi R${counter}, R0, #${n}`);
    else c.op(`s_setzero R${counter}`).op(`s_write_low R${counter}, #${n}`);
    c.label(top).append(body);
    const style = this.rng.int(3);
    if (style === 0) c.op(`ii_subi R${counter}, R${counter}, #1`).op(`cmp_i R${counter}, R0`).op(`bg ${top}`);
    else if (style === 1) c.op(`ii_subi R${counter}, R${counter}, #1`).op(`cmp_i R0, R${counter}`).op(`bne ${top}`);
    else c.op(`ii_subi R${counter}, R${counter}, #1`).op(`cmp_i R0, R${counter}`).op(`bl ${top}`);
    // Header words run once; the rest (body and back-edge) n times.
    c.cost = c.words - body.words - 3 + n * (body.cost + 3);
    return c;
  }

  private callable(ctx: Ctx): number[] {
    return this.functions.map((_, i) => i).filter((i) => i > ctx.fn && this.functions[i] !== undefined);
  }

  private call(ctx: Ctx, budget: number): Code | undefined {
    const options = this.callable(ctx).filter((i) => this.functions[i]!.code.cost + 2 <= budget);
    if (options.length === 0) return undefined;
    const f = this.functions[this.pick(options)]!;
    const c = new Code().op(`jmp_link ${f.name}`, 2);
    c.cost += f.code.cost;
    return c;
  }

  /** Pushes, a block, and pops of the same kind (into the same or other registers): balanced within the block. */
  private pushRegion(ctx: Ctx, budget: number): Code | undefined {
    const c = new Code();
    const vector = this.chance(0.35);
    const n = this.between(1, 3);
    for (let i = 0; i < n; i++) c.op(vector ? `v_push RV${this.srcV()}` : `s_push R${this.srcS()}`, 2);
    const bytes = n * (vector ? 16 : 4);
    const body = this.block(this.between(0, 6), budget - 4 * n - 2, { ...ctx, pushed: ctx.pushed + bytes, depth: ctx.depth + 1, top: false });
    c.append(body);
    for (let i = 0; i < n; i++) {
      if (vector) c.op(`v_pop RV${this.wroteV(this.chance(0.05) ? 0 : this.dstV())}`, 2);
      else c.op(`s_pop R${this.wroteS(this.dstS())}`, 2);
    }
    return c;
  }

  /** Set RV14/RV15 (from constant rays, built floats, the last hit, or whatever they hold), save live state, trace, restore. */
  /** txd on operands built lane by lane (a known handle mostly), or on whatever two vector registers hold. */
  private textureFetch(): Code {
    const c = new Code();
    const mask = this.chance(0.5) ? 0xf : 1 + this.rng.int(15);
    if (this.chance(0.2)) {
      c.op(`txd RV${this.wroteV(this.dstV())}, RV${this.srcV()}, RV${this.srcV()}, #${mask}`);
      return c;
    }
    const t = this.pick(GENERAL);
    const coords = 1 + this.rng.int(15);
    const derivatives = 1 + this.rng.int(15);
    const handle = this.chance(0.9) ? encodeTxdHandle(this.pick(RANDOM_TEXTURE_LAYOUT.headers), this.pick(RANDOM_TEXTURE_LAYOUT.samplers)) : this.rng.u32();
    const coordinate = () => (this.chance(0.8) ? f32bits(this.rng() * 4 - 1.5) : this.value());
    const derivative = () => (this.chance(0.8) ? f32bits((this.rng() - 0.5) * 2 ** this.between(-8, 1)) : this.value());
    const lanes: [number, number[]][] = [
      [coords, [coordinate(), coordinate(), handle, this.rng.u32()]],
      [derivatives, [derivative(), derivative(), derivative(), derivative()]],
    ];
    // Both registers are built before either is read, so they must differ.
    if (derivatives === coords) lanes.pop();
    for (const [v, words] of lanes) words.forEach((w, lane) => {
      this.li(c, t, w);
      c.op(`v_get_from_s RV${this.wroteV(v)}, R${t}, #${lane}`);
    });
    c.op(`txd RV${this.wroteV(this.dstV())}, RV${coords}, RV${derivatives}, #${mask}`);
    return c;
  }

  private trace(ctx: Ctx): Code {
    const c = new Code();
    const how = this.rng.int(10);
    const t = this.pick(GENERAL);
    if (how < 5) {
      // A ray from constant memory, lane by lane (vector loads from constant memory fault).
      const ray = CONST_VALUES + RAY_WORDS * this.rng.int(RAYS);
      for (const [v, base] of [[RV_ORIGIN, ray], [RV_DIRECTION, ray + 4]] as const) {
        for (let lane = 0; lane < 3; lane++) c.op(`s_load_4byte R${t}, R${R_CONST}, #${4 * (base + lane)}`).op(`v_get_from_s RV${v}, R${t}, #${lane}`);
      }
      this.wroteS(t);
    } else if (how < 7) {
      // Through the data area: copy one ray into main memory and vector-load it (at any word alignment).
      const ray = CONST_VALUES + RAY_WORDS * this.rng.int(RAYS);
      const off = 4 * this.between(-0x40, 0x40);
      for (let i = 0; i < 8; i++) c.op(`s_load_4byte R${t}, R${R_CONST}, #${4 * (ray + i)}`).op(`s_store_4byte R${t}, R${R_DATA}, #${off + 4 * i}`);
      this.noteStore(off, 8);
      c.op(`v_load_16byte RV${RV_ORIGIN}, R${R_DATA}, #${off}`).op(`v_load_16byte RV${RV_DIRECTION}, R${R_DATA}, #${off + 16}`);
      this.wroteS(t);
    } else if (how < 8) {
      // A bounce: from the last hit point, along a perturbed direction.
      c.op(`vf_mul RV${RV_DIRECTION}, RV${RV_DIRECTION}, R${this.srcS()}`).op(`vv_sub RV${RV_DIRECTION}, RV${RV_DIRECTION}, RV${this.srcV()}`);
    } else if (how < 9) {
      const o = [f32bits(this.rng() - 0.5), f32bits(0.5 + this.rng()), f32bits(3)];
      const d = [f32bits(this.rng() - 0.5), f32bits(this.rng() - 0.5), f32bits(-1)];
      for (const [v, xs] of [[RV_ORIGIN, o], [RV_DIRECTION, d]] as const) {
        xs.forEach((x, lane) => {
          this.li(c, t, x);
          c.op(`v_get_from_s RV${v}, R${t}, #${lane}`);
        });
      }
    }
    // Save: loop counters in use (all of them inside functions, whose callers may be looping), the link register, some live values.
    const saved: string[] = [];
    const counters = ctx.fn >= 0 ? COUNTERS : COUNTERS.slice(0, ctx.loops);
    for (const r of counters) saved.push(`R${r}`);
    if (ctx.fn >= 0) saved.push(`R${R_LINK}`);
    const recomputePointers = this.chance(0.5);
    if (!recomputePointers) saved.push(`R${R_CONST}`, `R${R_DATA}`);
    const extra = this.rng.int(4);
    for (let i = 0; i < extra; i++) {
      const r = this.srcS();
      saved.push(`R${GENERAL.includes(r) ? r : this.pick(GENERAL)}`);
    }
    if (this.chance(0.5)) saved.push(`RV${this.srcV()}`);
    this.shuffle(saved);
    for (const r of saved) c.op(`${r.startsWith('RV') ? 'v' : 's'}_push ${r}`, 2);
    // Half the traces are `trace RVa` (docs/rays.md); the pops restore whatever building its register overwrote.
    const query = this.chance(0.5) ? this.traceQuery(c, t) : 0;
    c.op(query ? `trace RV${query}` : 'trace');
    for (const r of [...saved].reverse()) c.op(`${r.startsWith('RV') ? 'v' : 's'}_pop ${r}`, 2);
    if (recomputePointers) c.op(`s_write_high R${R_CONST}, #${CONSTANT_BASE_HIGH}`).op(`s_mov R${R_DATA}, R${R_SP}`).op(`s_write_low R${R_DATA}, #${DATA_AREA_OFFSET}`);
    // Use the answer at once (the flag is Z after trace, so a be right here is taken).
    const k = this.rng.int(4);
    if (query) this.wroteV(VREG.traceHitParameters);
    if (k === 0) c.op(`s_get_from_v R${this.wroteS(this.pick(GENERAL))}, RV${query && this.chance(0.5) ? VREG.traceHitParameters : 14}, #${this.rng.int(4)}`);
    else if (k === 1) c.op(`v_reduce R${this.wroteS(this.pick(GENERAL))}, RV15`);
    else if (k === 2) {
      const skip = this.label('traced');
      c.op(`be ${skip}`);
      this.singleWord(c);
      c.label(skip);
    }
    this.wroteV(RV_ORIGIN);
    this.wroteV(RV_DIRECTION);
    return c;
  }

  /**
   * The query register of a `trace RVa`: mostly RV1–RV13 built lane by lane (tmin, tmax, flags: usual intervals and
   * odd ones, any-hit, culling, a random ray mask), sometimes whatever a register holds (RV14 and RV15 included).
   */
  private traceQuery(c: Code, t: number): number {
    if (this.chance(0.2)) return 1 + this.rng.int(15);
    const q = 1 + this.rng.int(VREG.traceHitParameters);
    const tmin = this.pick([0, 0, 0, f32bits(0.5 * this.rng()), f32bits(2 + this.rng()), 0x7fc00000, 0xff800000, 0x80000000, this.value()]);
    const tmax = this.pick([0x7f800000, 0x7f800000, f32bits(1 + 6 * this.rng()), f32bits(1 + 6 * this.rng()), 0, 0x7fc00000, this.value()]);
    const mask = this.pick([0xff, 0xff, 1 << this.rng.int(8), this.rng.int(256)]);
    const flags = (this.rng.int(8) | (mask << 8)) >>> 0;
    [tmin, tmax, flags].forEach((w, lane) => {
      this.li(c, t, w);
      c.op(`v_get_from_s RV${this.wroteV(q)}, R${t}, #${lane}`);
    });
    this.wroteS(t);
    return q;
  }

  private shuffle<T>(xs: T[]): void {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.rng.int(i + 1);
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
  }

  /** `ret` as a computed forward jump: the target is built from R31 (PC + 4) just before; skipped words never run. */
  private retJump(): Code {
    const c = new Code();
    if (this.chance(0.15)) return c.op(`ret R${REG.pc}`);
    const skip = this.rng.int(3);
    const r = this.pick(GENERAL);
    c.op(`ii_addi R${this.wroteS(r)}, R31, #${4 + 4 * skip}`).op(`ret R${r}`);
    for (let i = 0; i < skip; i++) this.singleWord(c);
    c.cost -= skip;
    return c;
  }

  /** A conditional early end of the thread: fin after storing a result, an illegal opcode, or a PC outside instruction memory. */
  private earlyExit(): Code {
    this.earlyExits++;
    const c = new Code();
    this.compare(c);
    const skip = this.label('noexit');
    c.op(`${this.pick(['be', 'bne', 'bl', 'bge', 'bg', 'ble'])} ${skip}`);
    const k = this.rng.int(3);
    if (k === 0) c.op(`s_store_4byte R${this.srcS()}, R${R_DATA}, #0x7ff0`).op('fin');
    else if (k === 1) c.op(`.word ${hex((this.pick(UNUSED_OPCODES) << 26) | this.rng.int(1 << 26))}`);
    else {
      const r = this.pick(GENERAL);
      c.op(`ii_addi R${r}, R0, #${this.pick([0x4000, 0x7ffc, -4])}`).op(`ret R${r}`);
    }
    c.label(skip);
    return c;
  }

  // ----------------------------------------------------------------------------------------------
  // Functions, prologue, checksum tail

  /** Functions fn0..fnN-1 (fn i may call fn j only for j > i, so there is no recursion), generated last first. */
  private makeFunctions(): void {
    const n = this.o.calls ? this.rng.int(5) : 0;
    this.functions.length = n;
    for (let i = n - 1; i >= 0; i--) {
      const name = `fn${i}`;
      const saveLink = this.chance(0.6);
      const body = this.block(this.between(2, 20), 1200, { loops: 0, fn: i, pushed: saveLink ? 4 : 0, depth: 1, top: false });
      // A function that calls or traces loses R30, so it saves it.
      const save = saveLink || body.lines.some((l) => /jmp_link|trace/.test(l));
      const c = new Code().label(name);
      if (save) c.op(`s_push R${R_LINK}`, 2);
      c.append(body);
      // s_pop R30 then ret: the return address is used right after it is loaded.
      if (save) c.op(`s_pop R${R_LINK}`, 2);
      const k = this.rng.int(4);
      if (k === 0) {
        // ret through another register, written just before.
        const r = this.pick(GENERAL);
        c.op(`s_mov R${r}, R${R_LINK}`).op(`ret R${r}`);
      } else if (k === 1 && !save) c.op(`ii_addi R${R_LINK}, R${R_LINK}, #0`).op('ret');
      else c.op('ret');
      this.functions[i] = { name, code: c };
    }
  }

  private prologue(): Code {
    const c = new Code();
    c.op(`s_write_high R${R_CONST}, #${CONSTANT_BASE_HIGH}`).op(`s_mov R${R_DATA}, R${R_SP}`).op(`s_write_low R${R_DATA}, #${DATA_AREA_OFFSET}`);
    // Seed some registers, some of them from the pixel id so that pixels differ.
    for (let i = 0; i < 6; i++) this.loadValue(c);
    for (let i = 0; i < 3; i++) {
      const r = this.pick(GENERAL);
      c.op(`${this.pick(['ii_add', 'xor', 'ii_mul'])} R${r}, R${r}, R1`);
      this.wroteS(r);
    }
    c.op(`s_itof R${this.wroteS(this.pick(GENERAL))}, R1`);
    for (let i = 0; i < 6; i++) c.op(`v_get_from_s RV${this.wroteV(1 + this.rng.int(15))}, R${this.srcS()}, #${this.rng.int(4)}`);
    for (let i = 0; i < 3; i++) c.op(`s_load_4byte R${this.wroteS(this.pick(GENERAL))}, R${R_CONST}, #${4 * this.rng.int(CONST_VALUES)}`);
    return c;
  }

  /** Hash every register, the stored words and the flag into the result vector at 0xFFF0, then fin. */
  private tail(): Code {
    const c = new Code().comment('checksum: scalar registers into R26, vector lanes into R27, stored words into R25, flag into R24');
    for (let r = 1; r <= 30; r++) {
      if (r === 26) continue;
      c.op('ii_muli R26, R26, #33').op(`xor R26, R26, R${r}`);
    }
    for (let v = 1; v <= 15; v++) {
      for (let lane = 0; lane < 4; lane++) c.op(`s_get_from_v R25, RV${v}, #${lane}`).op('ii_muli R27, R27, #33').op('xor R27, R27, R25');
    }
    c.op('s_setzero R25');
    const words = [...this.stored];
    this.shuffle(words);
    for (const off of words.slice(0, 24)) c.op(`s_load_4byte R24, R${R_DATA}, #${off}`).op('ii_muli R25, R25, #33').op('xor R25, R25, R24');
    // The flag: 1 Z, 2 N, 3 P, 4 unordered.
    const done = this.label('flagged');
    c.op('ii_addi R24, R0, #1').op(`be ${done}`).op('ii_addi R24, R0, #2').op(`bl ${done}`).op('ii_addi R24, R0, #3').op(`bg ${done}`).op('ii_addi R24, R0, #4').label(done);
    if (this.chance(0.5)) {
      c.op('s_mov R23, R29').op('s_write_low R23, #0xfff0');
      c.op('v_get_from_s RV1, R26, #0').op('v_get_from_s RV1, R27, #1').op('v_get_from_s RV1, R25, #2').op('v_get_from_s RV1, R24, #3');
      c.op('v_store_16byte RV1, R23, #0');
    } else {
      ['R26', 'R27', 'R25', 'R24'].forEach((r, i) => c.op(`s_store_4byte ${r}, R${R_DATA}, #${0x7ff0 + 4 * i}`));
    }
    return c.op('fin');
  }

  private constants(): Uint32Array {
    const words = new Uint32Array(CONST_VALUES + RAYS * RAY_WORDS);
    for (let i = 0; i < CONST_VALUES; i++) words[i] = this.value();
    for (let r = 0; r < RAYS; r++) {
      // From in front of the scene box [-1, 1] x [0, 2] x [-1, 1] towards a point inside it (a few rays miss or are degenerate).
      const o = [this.rng() - 0.5, 0.5 + this.rng(), 3];
      const p = [2 * this.rng() - 1, 2 * this.rng(), 2 * this.rng() - 1];
      const d = p.map((x, i) => x - o[i]!);
      if (r === RAYS - 1) d.fill(0);
      const at = CONST_VALUES + RAY_WORDS * r;
      o.forEach((x, i) => (words[at + i] = f32bits(x)));
      d.forEach((x, i) => (words[at + 4 + i] = f32bits(x)));
    }
    return words;
  }

  program(): RandomProgram {
    const constants = this.constants();
    this.makeFunctions();
    const prologue = this.prologue();
    const tailCost = 30 * 2 + 60 * 3 + 1 + 24 * 3 + 8 + 8;
    const budget = this.o.maxInstructions - prologue.cost - tailCost - 16;
    const main = this.block(Math.max(1, Math.min(this.o.size, 3000)), budget, { loops: 0, fn: -1, pushed: 0, depth: 0, top: true });
    const tail = this.tail();
    const all = new Code().comment(`random program: seed ${this.rng.seed}, size ${this.o.size}, trace ${this.o.trace}, faults ${this.o.faults}, loops ${this.o.loops}, calls ${this.o.calls}`);
    all.append(prologue).append(main).append(tail);
    for (const f of this.functions) if (f) all.append(f.code);
    if (all.words > MEMORY_MAP.instructionWords) throw new Error(`random program of ${all.words} words does not fit instruction memory (size ${this.o.size} too large)`);
    if (prologue.cost + main.cost + tail.cost > this.o.maxInstructions) throw new Error(`internal: random program bound ${prologue.cost + main.cost + tail.cost} exceeds ${this.o.maxInstructions}`);
    return { source: `${all.lines.join('\n')}\n`, constants };
  }
}

/** A random program that always ends (fin, or a deliberate fault) within opts.maxInstructions per thread. */
export function generateProgram(rng: Rng, opts: Partial<RandomProgramOptions> = {}): RandomProgram {
  return new Generator(rng, { ...DEFAULT_RANDOM_PROGRAM_OPTIONS, ...opts }).program();
}

/**
 * A small random scene inside the box the generated rays aim at ([-1, 1] x [0, 2] x [-1, 1]): a few
 * triangles, among them degenerate ones (repeated or collinear vertices), coplanar ones, and exact duplicates.
 */
export function generateScene(rng: Rng): Scene {
  const points: number[][] = [];
  const triangles: number[] = [];
  // A quarter of the coordinates are multiples of 1/8 (exact), so shared planes and edges are exact.
  const coord = (lo: number, hi: number): number => Math.fround(rng.int(4) === 0 ? lo + (hi - lo) * (rng.int(17) / 16) : lo + (hi - lo) * rng());
  const point = (): number[] => [coord(-1, 1), coord(0, 2), coord(-1, 1)];
  const add = (ps: number[][], shader: number): void => {
    points.push(...ps);
    const n = points.length;
    triangles.push(n - 3, n - 2, n - 1, shader);
  };
  const count = 2 + rng.int(6);
  for (let i = 0; i < count; i++) {
    const shader = 1 + rng.int(7);
    const kind = rng.int(8);
    if (kind === 0) {
      const p = point();
      add([p, p, point()], shader); // two equal vertices
    } else if (kind === 1) {
      const a = point();
      const b = point();
      add([a, b, a.map((x, k) => (x + b[k]!) / 2)], shader); // collinear (up to rounding)
    } else if (kind === 2 || kind === 3) {
      // Two triangles in one plane z = const, sharing an edge.
      const z = coord(-1, 1);
      const a = [coord(-1, 1), coord(0, 2), z];
      const b = [coord(-1, 1), coord(0, 2), z];
      add([a, b, [coord(-1, 1), coord(0, 2), z]], shader);
      add([b, a, [coord(-1, 1), coord(0, 2), z]], 1 + rng.int(7));
    } else if (kind === 4 && triangles.length > 0) {
      // An exact duplicate of an earlier triangle (equal t: the lower index wins).
      const t = rng.int(triangles.length / 4);
      add([0, 1, 2].map((k) => points[triangles[4 * t + k]!]!), shader);
    } else {
      add([point(), point(), point()], shader);
    }
  }
  return { vertices: Uint32Array.from(points.flat().map(f32bits)), triangles: Uint32Array.from(triangles) };
}
