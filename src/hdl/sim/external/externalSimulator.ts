// The Simulator API over an external engine (Verilator in-process, Icarus in a child process): names,
// widths and values are checked here, exactly as the TS simulator checks them; engines see only indices and words.
import { resolve } from 'node:path';
import type { Net } from '../../ir/netlist.ts';
import { checkStepCycles, holdReset, runUntil, valueToWords, wordsOf, wordsToValue } from '../signals.ts';
import type { PortHandle, PortInfo, Simulator, VectorOptions } from '../simulator.ts';
import { ClockDriver, type ClockLevels, type ClockTiming } from '../clockSchedule.ts';
import { checkVectorClocking } from '../compiled/compiledSimulator.ts';
import type { ExternalDesign } from './externalDesign.ts';
import { hasCheckedProperties } from './engineReports.ts';
import { PropertyFailedError } from '../propertyCheck.ts';

/** What an external simulator does, in the terms of its C side: signal and memory indices, 32-bit words. */
export interface Engine {
  poke(signal: number, words: Uint32Array): void;
  peek(signal: number, into: Uint32Array): void;
  /** Several peeks at once (one round trip to a child process); a signal with bit 31 set reads X and Z as 0 (Icarus). */
  peekMany(signals: readonly number[], into: readonly Uint32Array[]): void;
  /**
   * `cycles` cycles of the only clock from a cycle boundary (its rising edge, then its falling edge), or
   * of none (each only settles the design).
   */
  step(cycles: number): void;
  /**
   * One instant: clock i of `ExternalDesign.clocks` takes bit i of `levels` where bit i of `mask` is set
   * (only clocks that change); the registers on the edges this makes update together from the values
   * before it, then logic settles. `time`: where the instant goes in the waveform: ps when `timed` (a
   * multi-clock design), else the cycle-numbered time (10 per cycle: a rise of the first clock at
   * 10c + 5, a fall at 10c, counting the cycle it ends).
   */
  clocks(mask: number, levels: number, time: number, timed: boolean): void;
  /** `ins`/`outs`: signal indices; returns `cycles` rows of `outWords` words. */
  runVectors(ins: Int32Array, outs: Int32Array, stimulus: Uint32Array, cycles: number, outWords: number): Uint32Array;
  memoryWrite(memory: number, addr: number, count: number, words: Uint32Array): void;
  memoryRead(memory: number, addr: number, count: number): Uint32Array;
  traceStart(path: string): void;
  traceStop(): void;
  /** The waveform complete up to now (after a run of instants; `step` flushes its own). */
  traceFlush(): void;
  /**
   * Takes the answers of the commands sent so far (Icarus answers a run of instants later, in one go),
   * so that a property one of them failed is raised now.
   */
  sync(): void;
  /** Back to power-on (a fresh model). */
  powerOn(): void;
  close(): void;
}

/** Longest memory transfer per engine call, in words (keeps pipe messages and buffers bounded). */
const MEMORY_CHUNK = 1 << 16;

/** Most clocks an external engine drives (their levels cross as one 32-bit word). */
export const MAX_EXTERNAL_CLOCKS = 32;

/**
 * An engine raises PropertyFailedError at the first edge where an assertion or assumption fails, as the
 * TS simulator does, with the same property, cycle and values (engineReports.ts); the run stops at that
 * edge, and only `powerOn` (or `close`) may follow.
 */
export class ExternalSimulator implements Simulator {
  cycle = 0;
  private closed = false;
  private readonly scratch = new Map<number, Uint32Array>();
  private readonly driver: ClockDriver;
  /** Bit i: the level of clock i. */
  private levels = 0;
  /** A design with several clocks runs, and is traced, in time (ps); one with a single clock in cycles. */
  private readonly timed: boolean;
  /** The design has assertions or assumptions: each call that runs edges takes the engine's answers before it returns. */
  private readonly checked: boolean;

  constructor(
    readonly backend: 'verilator' | 'icarus',
    private readonly x: ExternalDesign,
    /** The engine behind the API (for diagnostics and tests). */
    readonly engine: Engine,
  ) {
    if (x.clocks.length > MAX_EXTERNAL_CLOCKS) throw new Error(`${backend} drives up to ${MAX_EXTERNAL_CLOCKS} clocks; ${x.table.top} has ${x.clocks.length}`);
    this.timed = x.clocks.length > 1;
    this.checked = hasCheckedProperties(x.design);
    const clocked = { clocks: x.clocks, setClocks: (levels: ClockLevels) => this.instant(levels) };
    this.driver = new ClockDriver(clocked, this.x.clocks.length === 1 ? (n) => this.cycles(n) : undefined, this.x.table.clockTimings);
  }

  get top(): string {
    return this.x.table.top;
  }

  get ports(): readonly PortInfo[] {
    return this.x.table.ports;
  }

  private live(): Engine {
    if (this.closed) throw new Error(`the ${this.backend} simulator of ${this.top} is closed`);
    return this.engine;
  }

  private buffer(words: number): Uint32Array {
    let b = this.scratch.get(words);
    if (!b) this.scratch.set(words, (b = new Uint32Array(words)));
    return b;
  }

  /** The engine's index of a signal it can read; a clear error for internal nets it cannot see. */
  private signal(name: string): { index: number; net: Net } {
    const index = this.x.indexOf.get(name);
    if (index !== undefined) return { index, net: this.x.signals[index]!.net };
    const net = this.x.table.net(name);
    const isReg = this.x.flat.regs.some((r) => this.x.flat.nets[r.q] === net);
    const hint = isReg ? `; compile with { registers: true } to read registers on ${this.backend}` : `; ${this.backend} reads ports${this.x.registers ? ' and registers' : ''} only`;
    throw new Error(`'${name}' is an internal ${isReg ? 'register' : 'net'} of ${this.top}${hint}`);
  }

  poke(name: string, value: bigint | number): void {
    const { net, value: v } = this.x.table.inputValue(name, value);
    this.live().poke(this.x.indexOf.get(net.name)!, valueToWords(v, wordsOf(net.width), this.buffer(wordsOf(net.width))));
  }

  peek(name: string): bigint {
    const { index, net } = this.signal(name);
    const b = this.buffer(wordsOf(net.width));
    this.live().peek(index, b);
    return wordsToValue(b, 0, b.length);
  }

  get clocks(): readonly string[] {
    return this.x.clocks;
  }

  get time(): number {
    return this.driver.now;
  }

  setClockTiming(name: string, timing: ClockTiming): void {
    this.driver.setTiming(name, timing);
  }

  clockTiming(name: string): Required<ClockTiming> {
    return this.driver.timing(name);
  }

  advance(ns: number): void {
    this.live();
    this.edges(() => this.driver.advance(ns));
    this.engine.traceFlush();
  }

  setClocks(levels: ClockLevels): void {
    this.edges(() => this.instant(levels));
  }

  /**
   * Runs edges: a failed property leaves the cycle count at its edge (as on the TS simulator), raised
   * before this returns (the engine's answers taken).
   */
  private edges(run: () => void): void {
    try {
      run();
      if (this.checked) this.engine.sync();
    } catch (e) {
      if (e instanceof PropertyFailedError) this.cycle = e.cycle;
      throw e;
    }
  }

  /** One instant (setClocks), the engine's answer taken later. */
  private instant(levels: ClockLevels): void {
    const engine = this.live();
    let mask = 0;
    let next = this.levels;
    for (const [name, v] of this.x.table.clockLevels(levels)) {
      const bit = 1 << this.x.clocks.indexOf(name);
      if (((next & bit) !== 0) === (v === 1)) continue;
      mask |= bit;
      next = v === 1 ? next | bit : next & ~bit;
    }
    if (mask === 0) return;
    const firstRose = (mask & next & 1) !== 0;
    const time = this.timed ? this.driver.nowPs : 10 * this.cycle + (firstRose ? 5 : 0);
    this.levels = next;
    engine.clocks(mask >>> 0, next >>> 0, time, this.timed);
    if (firstRose) this.cycle++;
  }

  /**
   * `peek` of each name, read together (lockstep compares every instant this way); `unknownAsZero`:
   * don't-care values whose X and Z bits Icarus reads as 0 instead of failing (as in runVectors).
   */
  peekAll(names: readonly string[], unknownAsZero?: ReadonlySet<string>): bigint[] {
    const signals = names.map((n) => this.signal(n));
    const into = signals.map((s) => new Uint32Array(wordsOf(s.net.width)));
    this.live().peekMany(
      signals.map((s, i) => (unknownAsZero?.has(names[i]!) ? (s.index | 0x80000000) >>> 0 : s.index)),
      into,
    );
    return into.map((b) => wordsToValue(b, 0, b.length));
  }

  step(cycles = 1): void {
    checkStepCycles(cycles);
    this.live();
    const clocks = this.x.clocks;
    if (clocks.length === 0) this.edges(() => this.cycles(cycles));
    else if (clocks.length === 1) this.edges(() => this.driver.step(cycles));
    else {
      this.edges(() => this.driver.step(cycles));
      if (this.timed) this.engine.traceFlush();
    }
  }

  /** `cycles` whole cycles of the only clock (or of none) in the engine, from a cycle boundary. */
  private cycles(cycles: number): void {
    const engine = this.live();
    if (this.levels & 1) throw new Error(`step: clock '${this.x.clocks[0]}' is high (set by setClocks); set it low first`);
    // Bounded chunks keep the engines' 32-bit counts in range.
    for (let left = cycles; left > 0; ) {
      const n = Math.min(left, 0x4000_0000);
      engine.step(n);
      this.cycle += n;
      left -= n;
    }
  }

  reset(cycles = 1, resetName?: string): void {
    const r = this.x.table.resetOf(resetName);
    holdReset(this, cycles, r.name, r.activeHigh);
  }

  powerOn(): void {
    this.live().powerOn();
    this.cycle = 0;
    this.levels = 0;
    this.driver.restart();
  }

  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): number {
    return runUntil<Simulator>(this, pred, maxCycles);
  }

  loadMemory(path: string, words: readonly (bigint | number)[], offset = 0): void {
    const m = this.x.table.memory(path);
    const values = this.x.table.memoryWords(m, words, offset);
    const index = this.x.memories.findIndex((e) => e.memory.name === m.name);
    const per = wordsOf(m.width);
    const engine = this.live();
    for (let at = 0; at < values.length; at += MEMORY_CHUNK) {
      const chunk = values.slice(at, at + MEMORY_CHUNK);
      const buf = new Uint32Array(chunk.length * per);
      chunk.forEach((v, i) => valueToWords(v, per, buf, i * per));
      engine.memoryWrite(index, offset + at, chunk.length, buf);
    }
  }

  dumpMemory(path: string): bigint[] {
    const m = this.x.table.memory(path);
    const index = this.x.memories.findIndex((e) => e.memory.name === m.name);
    const per = wordsOf(m.width);
    const engine = this.live();
    const out: bigint[] = [];
    for (let at = 0; at < m.depth; at += MEMORY_CHUNK) {
      const count = Math.min(MEMORY_CHUNK, m.depth - at);
      const words = engine.memoryRead(index, at, count);
      for (let i = 0; i < count; i++) out.push(wordsToValue(words, i * per, per));
    }
    return out;
  }

  port(name: string): PortHandle {
    const n = this.x.table.narrowPort(name);
    const isInput = this.x.table.inputs.has(name);
    const { index } = this.signal(name);
    const word = new Uint32Array(1);
    return {
      width: n.width,
      get: () => {
        this.live().peek(index, word);
        return word[0]!;
      },
      set: (v: number) => {
        if (!isInput) throw new Error(`'${name}' is not an input port`);
        if (!Number.isInteger(v) || v < 0 || v >= 2 ** n.width) throw new Error(`value ${v} does not fit input '${name}' (${n.width} bits)`);
        word[0] = v;
        this.live().poke(index, word);
      },
    };
  }

  runVectors(inputs: readonly string[], outputs: readonly string[], stimulus: Uint32Array, cycles: number, opts: VectorOptions = {}): Uint32Array {
    if (!Number.isSafeInteger(cycles) || cycles < 0 || cycles > 0xffffffff) throw new Error(`runVectors: cycles must be an integer from 0 to 2^32 - 1, got ${cycles}`);
    checkVectorClocking(this.top, this.x.edges);
    if (this.levels & 1) throw new Error(`runVectors: clock '${this.x.clocks[0]}' is high (set by setClocks); set it low first`);
    const ins = inputs.map((n) => this.x.indexOf.get(this.x.table.input(n).name)!);
    // Icarus reads X and Z of a handle with the top bit set as 0 (icarus_live_vpi.c X_AS_ZERO); two-state Verilator has none.
    const outs = outputs.map((n) => this.signal(n).index);
    const inRow = ins.reduce((s, i) => s + wordsOf(this.x.signals[i]!.net.width), 0);
    const outRow = outs.reduce((s, i) => s + wordsOf(this.x.signals[i]!.net.width), 0);
    if (stimulus.length < inRow * cycles) throw new Error(`runVectors: stimulus has ${stimulus.length} words, ${cycles} cycles need ${inRow * cycles}`);
    // Icarus reads X and Z of a handle with the top bit set as 0 (icarus_live_vpi.c X_AS_ZERO); two-state Verilator has none.
    const flagged = outs.map((i, k) => (this.backend === 'icarus' && opts.unknownAsZero?.has(outputs[k]!) ? i | 0x80000000 : i));
    let result: Uint32Array = new Uint32Array(0);
    this.edges(() => (result = this.live().runVectors(Int32Array.from(ins), Int32Array.from(flagged), stimulus.subarray(0, inRow * cycles), cycles, outRow)));
    this.cycle += cycles;
    return result;
  }

  traceVcd(path: string): void {
    this.live().traceStart(resolve(path));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.close();
  }
}
