// The compiled two-state simulator (js and wasm back ends): testbench API over the generated combinational and commit functions.
import { writeFileSync } from 'node:fs';
import type { ClockEdge, ModuleIR, Net, NetId, Property } from '../../ir/netlist.ts';
import { PropertyFailedError, propertySupport, propertyWhere } from '../propertyCheck.ts';
import { generateCode } from './codegen.ts';
import type { Layout } from './layout.ts';
import { compileImage, type NetlistImage } from './netlistImage.ts';
import { cachedRunLoop } from './compileCache.ts';
import { asyncResets } from './asyncResets.ts';
import { VcdWriter } from '../vcd.ts';
import { generateWasmRun, type RunActivity } from './wasmCodegen.ts';
import type { WasmLayout } from './wasmLayout.ts';
import { chooseBackend } from './backendChoice.ts';
import type { ActivityRegion } from './activityRegions.ts';
import { PROFILE_CYCLES, evaluatedShare, planActivity, type ActivityPlan } from './activityPlan.ts';
import { WasmSizeError } from './wasmEncoding.ts';
import { wordsOf } from './wideOps.ts';
import { clockEdges, edgeBit, observableNets } from './stepPlan.ts';
import { SignalTable, checkStepCycles, holdReset, runUntil } from '../signals.ts';
import { ClockDriver, type ClockLevels, type ClockTiming } from '../clockSchedule.ts';
import type { PortHandle, PortInfo, Simulator } from '../simulator.ts';

/** The TypeScript simulator: its generated code and every net of the flattened design are visible. */
export interface CompiledSimulator extends Simulator {
  readonly backend: 'wasm' | 'js';
  /** The compiled netlist was read from the build cache (`CompiledSimulatorOptions.cache`), not compiled now. */
  readonly fromCache: boolean;
  /** The generated JavaScript (generated on first read when the WebAssembly back end runs the same steps). */
  readonly generatedSource: string;
  /** Every net of the flattened design: all of them can be peeked. */
  readonly nets: readonly { readonly name: string; readonly width: number }[];
  /** How many clock edges each cover point (`m.cover`) held at while enabled, since power-on, by hierarchical name. */
  coverCounts(): Record<string, number>;
  /**
   * Calls `observer` before every clock edge (with the edges it commits), on the values settled before
   * it: what coverage samples. A design observed runs `runVectors` without the fused loop. Returns the
   * function that stops observing.
   */
  onEdge(observer: (edges: readonly ClockEdge[]) => void): () => void;
}

export interface CompiledSimulatorOptions {
  /**
   * Default: WebAssembly when the netlist uses only cells it supports (`wasmObstacle`), else the
   * generated JavaScript. 'wasm' insists (an error names the first unsupported cell); 'js' forces
   * JavaScript. Both come from the same levelized netlist and agree bit for bit.
   */
  readonly backend?: 'wasm' | 'js';
  /** Write the generated JavaScript here (for debugging). */
  readonly dumpSourceTo?: string;
  /**
   * Default true: the netlist is rewritten for speed first (constants folded, identities and shared
   * subexpressions removed, leading-zero trees counted with one instruction; `ir/simplify.ts`,
   * `leadingZeros.ts`), with the same value on every net. false simulates it as elaborated: the
   * reference the rewrites are tested against.
   */
  readonly optimize?: boolean;
  /**
   * The reset check: registers with a reset power on at seeded random values (the same on every engine,
   * src/hdl/ir/powerOn.ts) instead of their init value, so that a testbench that forgets the reset fails.
   */
  readonly resetCheckSeed?: number;
  /** Check the design's assertions and assumptions and count its covers (default true; false: as if it had none). */
  readonly checkProperties?: boolean;
  /**
   * Default true: a design of 1,000 cells or more (summed over its modules) is kept in the build
   * cache (`cacheRoot()`, kinds `ts-sim` and `ts-sim-run`: the compiled netlist and its fused loops), keyed
   * by the design's full content and rtgpu's own code, and a later compile of the same design reads it back
   * instead. false: compile every time.
   */
  readonly cache?: boolean;
  /** @internal Set by compileEngine from resetCheckSeed: flattened register name -> power-on value. */
  readonly powerOnValues?: ReadonlyMap<string, bigint>;
}

export function compileNetlist(flat: ModuleIR, opts: CompiledSimulatorOptions = {}): CompiledSimulator {
  return new CompiledNetlistSimulator(compileImage(flat, opts), opts);
}

/** Where an image came from: its key in the compile cache (where its fused loops are kept too), and whether it was read from there. */
export interface ImageSource {
  readonly cacheKey?: string;
  readonly fromCache?: boolean;
}

/** The simulator of a compiled image. */
export function simulateImage(image: NetlistImage, opts: CompiledSimulatorOptions & ImageSource = {}): CompiledSimulator {
  return new CompiledNetlistSimulator(image, opts);
}

class CompiledNetlistSimulator implements CompiledSimulator {
  cycle = 0;
  readonly backend: 'wasm' | 'js';
  readonly fromCache: boolean;
  private source: string | undefined;
  readonly nets: readonly Net[];
  /** The design as flattened, before simplification: a failed property shows the signals the SV names (propertySupport). */
  private readonly flat: ModuleIR;
  private readonly L: Layout;
  private readonly s: Int32Array;
  private readonly t: Int32Array;
  private readonly mems: Int32Array[];
  /** Computes what the clock edge and the ports need; internal-only values stay in locals. */
  private readonly comb: () => void;
  /** Computes and stores every net, for peek and waveforms. */
  private readonly combAll: () => void;
  /** The clock edge: commits the registers and memory ports of the edges in mask `ev` (stepPlan.ts `clockEdges`). */
  private readonly commit: (ev: number) => void;
  /** Every clock edge is followed by a comb (a reset computed by logic may assert in between): no fused loop. */
  private readonly combAfterEdges: boolean;
  /** The properties, with their edge's commit bit and the state words of their condition and enable (-1: none). The fused loop checks its own (propertyChecks in wasmRunLoop.ts). */
  private readonly checks: readonly { readonly prop: Property; readonly bit: number; readonly cond: number; readonly enable: number }[];
  /** Called before each clock edge with its commit mask, on the settled values (coverage: onEdge). */
  private readonly edgeObservers: ((ev: number) => void)[] = [];
  /** Cover point (hierarchical name) -> edges where it held, since power-on. */
  private readonly coverHits = new Map<string, number>();
  private readonly edges: readonly ClockEdge[];
  /** Per clock: its current level. */
  private readonly clockLevel = new Map<string, 0 | 1>();
  private readonly driver: ClockDriver;
  /** The only (or first) clock and the commit masks of its edges: what a fast `step` commits. */
  private readonly single: { readonly clock: string | undefined; readonly rise: number; readonly fall: number };
  private dirtyAll = true;
  /** The fused loop that evaluated last, or null (comb and commit called from here). */
  private evaluator: object | null = null;
  private readonly loops = new Map<string, (stim: Uint32Array, out: Uint32Array, cycles: number) => void>();
  private readonly wasm: { readonly memory: WebAssembly.Memory; readonly layout: WasmLayout } | undefined;
  private readonly signals: SignalTable;
  private dirty = true;
  private vcd: VcdWriter | undefined;
  private stored: ReadonlySet<NetId> | undefined;
  private readonly powerOnValues: ReadonlyMap<string, bigint> | undefined;
  private readonly cacheKey: string | undefined;

  constructor(image: NetlistImage, opts: CompiledSimulatorOptions & ImageSource) {
    const flat = image.flat;
    this.L = image.layout;
    this.nets = flat.nets;
    this.flat = flat;
    this.cacheKey = opts.cacheKey;
    this.fromCache = opts.fromCache ?? false;
    this.signals = new SignalTable(flat);
    this.powerOnValues = opts.powerOnValues;
    if (opts.dumpSourceTo) writeFileSync(opts.dumpSourceTo, this.generatedSource);
    this.edges = clockEdges(flat);
    for (const c of this.signals.clocks) this.clockLevel.set(c, 0);
    const first = this.signals.clocks[0];
    this.single = { clock: first, rise: first === undefined ? 0 : this.edgeMask(first, 'rising'), fall: first === undefined ? 0 : this.edgeMask(first, 'falling') };
    this.driver = new ClockDriver(this, this.signals.clocks.length === 1 ? (n) => this.cycles(n) : undefined, this.signals.clockTimings);
    const chosen = chooseBackend(image, opts.backend, () => this.generatedSource);
    const fns = chosen.fns;
    this.backend = chosen.backend;
    this.s = chosen.s;
    this.t = chosen.t;
    this.mems = chosen.mems;
    this.wasm = chosen.wasm;
    // After a fused loop, comb and commit called from here start with a full evaluation (handOver).
    this.comb = this.wasm ? () => (this.handOver(null), fns.comb()) : fns.comb;
    // The store-everything comb sets no dirty flags: the next clock edge and comb must treat everything as changed.
    this.combAll = this.wasm ? () => (fns.combAll(), this.forceFullEvaluation()) : fns.combAll;
    const commit = this.wasm ? (ev: number) => (this.handOver(null), fns.commit(ev)) : fns.commit;
    // An asynchronous reset computed from state and inputs may assert between a clock edge and the next
    // input change (the new state with the old inputs): the comb runs right after the edge, as an
    // event-driven simulator's does, and not only once the inputs have changed (asyncResets.ts).
    this.combAfterEdges = asyncResets(this.L).some((x) => !x.early);
    const committed = this.combAfterEdges ? (ev: number) => (commit(ev), this.comb()) : commit;
    // Properties are checked on the settled values before each edge they sample.
    this.checks = (flat.properties ?? []).map((p) => ({ prop: p, bit: edgeBit(this.edges, p), cond: this.L.slots[p.cond]!.off, enable: p.enable === undefined ? -1 : this.L.slots[p.enable]!.off }));
    this.commit = (ev) => {
      if (this.edgeObservers.length) for (const o of this.edgeObservers) o(ev);
      if (this.checks.length) this.checkProperties(ev);
      committed(ev);
    };
    this.powerOn();
  }

  /** Generating the JavaScript of a large design takes a noticeable part of the compile: only when asked or needed. */
  get generatedSource(): string {
    return (this.source ??= generateCode(this.L).source);
  }

  powerOn(): void {
    const flat = this.L.flat;
    this.s.fill(0);
    this.t.fill(0);
    for (const m of this.mems) m.fill(0);
    for (const [id, v] of this.L.consts) this.write(id, v);
    for (const r of flat.regs) {
      const v = this.powerOnValues?.get(flat.nets[r.q]!.name) ?? r.init;
      if (v !== undefined) this.write(r.q, v);
    }
    flat.memories.forEach((m, i) => m.init && this.fillMemory(i, m.init, 0));
    this.cycle = 0;
    for (const { prop } of this.checks) if (prop.kind === 'cover') this.coverHits.set(prop.name, 0);
    for (const c of this.clockLevel.keys()) this.clockLevel.set(c, 0);
    this.driver.restart();
    this.changed();
    this.forceFullEvaluation();
    // Inputs power on at 0, so active-low asynchronous resets are asserted: their registers take the
    // reset now, as on Verilator and Icarus, even if the first poke releases the reset before any read.
    this.settle();
  }

  /**
   * The WebAssembly comb skips regions whose inputs are as at their last evaluation; after state changed
   * behind its back (power-on, memory loads, the store-everything comb) it must evaluate them all once.
   */
  private forceFullEvaluation(): void {
    if (this.wasm) new Int32Array(this.wasm.memory.buffer, this.wasm.layout.forceByte, 1)[0] = 1;
  }

  // ---------------------------------------------------------------- raw access

  private write(id: NetId, v: bigint): void {
    const sl = this.L.slots[id]!;
    if (sl.width <= 32) this.s[sl.off] = Number(BigInt.asIntN(32, v));
    else for (let k = 0; k < sl.words; k++) this.s[sl.off + k] = Number(BigInt.asIntN(32, v >> BigInt(32 * k)));
  }

  private read(id: NetId): bigint {
    const sl = this.L.slots[id]!;
    let v = 0n;
    for (let k = sl.words - 1; k >= 0; k--) v = (v << 32n) | BigInt(this.s[sl.off + k]! >>> 0);
    return v;
  }

  private settle(): void {
    if (this.dirty) {
      this.comb();
      this.dirty = false;
    }
  }

  private settleAll(): void {
    if (this.dirtyAll) {
      this.combAll();
      this.forceFullEvaluation();
      this.dirtyAll = false;
      this.dirty = false;
    }
  }

  private changed(): void {
    this.dirty = true;
    this.dirtyAll = true;
  }

  private net(name: string): Net {
    return this.signals.net(name);
  }

  private input(name: string): Net {
    return this.signals.input(name);
  }

  get top(): string {
    return this.signals.top;
  }

  get ports(): readonly PortInfo[] {
    return this.signals.ports;
  }

  // ---------------------------------------------------------------- testbench API

  poke(name: string, value: bigint | number): void {
    const { net, value: v } = this.signals.inputValue(name, value);
    this.write(net.id, v);
    this.changed();
  }

  peek(name: string): bigint {
    const n = this.net(name);
    // Ports and state are stored by the fast comb function; other nets only by the store-everything variant.
    if (n.kind === 'input' || n.kind === 'output' || n.kind === 'reg' || n.kind === 'memread') this.settle();
    else this.settleAll();
    return this.read(n.id);
  }

  get clocks(): readonly string[] {
    return this.signals.clocks;
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
    this.driver.advance(ns);
    this.vcd?.flush();
  }

  step(cycles = 1): void {
    if (this.signals.clocks.length === 0) {
      checkStepCycles(cycles);
      this.cycles(cycles);
    } else this.driver.step(cycles);
    // The file is complete up to here: a viewer or a crash after this call sees every cycle.
    this.vcd?.flush();
  }

  /** The commit mask of one edge of a clock (0: no register uses it). */
  private edgeMask(clock: string, edge: 'rising' | 'falling'): number {
    return this.edges.some((e) => e.clock === clock && e.edge === edge) ? edgeBit(this.edges, { clock: { clock, edge } }) : 0;
  }

  /** `n` cycles of the only clock (or of none), from a cycle boundary: its rising edge, then its falling edge where something uses it. */
  private cycles(n: number): void {
    const { clock, rise, fall } = this.single;
    if (clock !== undefined && this.clockLevel.get(clock) === 1) throw new Error(`step: clock '${clock}' is high (set by setClocks); set it low first`);
    for (let i = 0; i < n; i++) {
      if (this.vcd) {
        this.settleAll();
        this.vcd.sample(this.cycle);
      } else this.settle();
      if (rise) this.commit(rise);
      this.cycle++;
      this.changed();
      if (fall) {
        this.settle();
        this.commit(fall);
        this.changed();
      }
    }
  }

  setClocks(levels: ClockLevels): void {
    let ev = 0;
    let firstRose = false;
    const changes = this.signals.clockLevels(levels).filter(([name, v]) => this.clockLevel.get(name) !== v);
    for (const [name, v] of changes) {
      ev |= this.edgeMask(name, v === 1 ? 'rising' : 'falling');
      if (v === 1 && name === this.signals.clocks[0]) firstRose = true;
    }
    // A timed waveform (several clocks): inputs changed since the last instant, then the instant, at its time (vcd.ts).
    const timed = this.vcd?.timed === true;
    if (this.vcd) {
      this.settleAll();
      if (timed) this.vcd.beforeInstant(this.driver.nowPs);
      else if (firstRose) this.vcd.sample(this.cycle);
    } else this.settle();
    for (const [name, v] of changes) this.clockLevel.set(name, v);
    if (ev) {
      this.commit(ev);
      this.changed();
    }
    if (firstRose) this.cycle++;
    if (timed) {
      this.settleAll();
      this.vcd!.instantAt(this.driver.nowPs);
    }
  }

  reset(cycles = 1, resetName?: string): void {
    const r = this.signals.resetOf(resetName);
    holdReset(this, cycles, r.name, r.activeHigh);
  }

  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): number {
    return runUntil<Simulator>(this, pred, maxCycles);
  }

  private memoryIndex(path: string): number {
    return this.signals.memoryIndex(path);
  }

  private fillMemory(i: number, words: readonly (bigint | number)[], offset: number): void {
    const m = this.L.flat.memories[i]!;
    const n = wordsOf(m.width);
    this.signals.memoryWords(m, words, offset).forEach((v, j) => {
      for (let k = 0; k < n; k++) this.mems[i]![(offset + j) * n + k] = Number(BigInt.asIntN(32, v >> BigInt(32 * k)));
    });
  }

  loadMemory(path: string, words: readonly (bigint | number)[], offset = 0): void {
    this.fillMemory(this.memoryIndex(path), words, offset);
    this.changed();
    this.forceFullEvaluation();
  }

  dumpMemory(path: string): bigint[] {
    const i = this.memoryIndex(path);
    const m = this.L.flat.memories[i]!;
    const n = wordsOf(m.width);
    const out: bigint[] = [];
    for (let a = 0; a < m.depth; a++) {
      let v = 0n;
      for (let k = n - 1; k >= 0; k--) v = (v << 32n) | BigInt(this.mems[i]![a * n + k]! >>> 0);
      out.push(v);
    }
    return out;
  }

  port(name: string): PortHandle {
    const n = this.signals.narrowPort(name);
    const off = this.L.slots[n.id]!.off;
    const isInput = this.signals.inputs.has(name);
    const limit = 2 ** n.width;
    return {
      width: n.width,
      get: () => {
        this.settleAll();
        return this.s[off]! >>> 0;
      },
      set: (v: number) => {
        if (!isInput) throw new Error(`'${name}' is not an input port`);
        if (!Number.isInteger(v) || v < 0 || v >= limit) throw new Error(`value ${v} does not fit input '${name}' (${n.width} bits)`);
        this.s[off] = v | 0;
        this.changed();
      },
    };
  }

  runVectors(inputs: readonly string[], outputs: readonly string[], stimulus: Uint32Array, cycles: number): Uint32Array {
    if (!Number.isSafeInteger(cycles) || cycles < 0 || cycles > 0xffffffff) throw new Error(`runVectors: cycles must be an integer from 0 to 2^32 - 1, got ${cycles}`);
    checkVectorClocking(this.L.flat.name, this.edges);
    const ins = inputs.map((name) => {
      const n = this.input(name);
      return { off: this.L.slots[n.id]!.off, words: wordsOf(n.width), mask: n.width % 32 === 0 ? -1 : 2 ** (n.width % 32) - 1 };
    });
    const outs = outputs.map((name) => {
      const n = this.net(name);
      return { off: this.L.slots[n.id]!.off, words: wordsOf(n.width) };
    });
    const inRow = ins.reduce((a, p) => a + p.words, 0);
    const outRow = outs.reduce((a, p) => a + p.words, 0);
    if (stimulus.length < inRow * cycles) throw new Error(`runVectors: stimulus has ${stimulus.length} words, ${cycles} cycles need ${inRow * cycles}`);
    const result = new Uint32Array(outRow * cycles);
    // A sampled net the fused loops do not store (a value only a peek sees, e.g. a wire no port or
    // register reads) needs the store-everything comb, as a peek does.
    const storesAll = this.vcd !== undefined || outputs.some((name) => !this.storedByComb.has(this.L.root[this.net(name).id]!));
    if (storesAll) {
      this.vectorLoopStoringAll(ins, outs, stimulus, result, cycles);
      this.vcd?.flush();
    } else {
      // An edge observer sees every edge: a loop that calls commit from JavaScript (cached apart).
      const key = `${inputs.join(',')}|${outputs.join(',')}${this.edgeObservers.length ? '|observed' : ''}`;
      let loop = this.loops.get(key);
      if (!loop) {
        // Each loop counts its cycles as it goes: a failed property reports the cycle it failed in.
        const stepped = vectorLoop(ins, outs, this.comb, (ev) => (this.commit(ev), this.cycle++), this.s);
        loop = this.wasm && !this.combAfterEdges && this.edgeObservers.length === 0 ? this.wasmLoop(inputs.map((n) => this.input(n).id), outputs.map((n) => this.net(n).id), stepped) : stepped;
        this.loops.set(key, loop);
      }
      loop(stimulus, result, cycles);
    }
    this.changed();
    return result;
  }

  /**
   * The fused WebAssembly loop for one port list, run in batches through a reserved memory region.
   * Its first cycles run `stepped` (comb and commit called from JavaScript), whose comb counts how often
   * each activity region runs; the loop is then compiled once, regions busy nearly every cycle losing
   * their guard when that saves enough (`regionsToEvaluateAlways`). Not a fused loop that counts: it
   * would run those cycles and be thrown away, but V8 optimizes it all the same (1.4 s of a compile
   * thread on the GPU) ahead of the loop that stays.
   */
  private wasmLoop(inputs: NetId[], outputs: NetId[], stepped: VectorLoop): VectorLoop {
    const { memory, layout } = this.wasm!;
    const compile = (activity: RunActivity) => {
      const bytes = () => generateWasmRun(this.L, layout, inputs, outputs, activity);
      const module = new WebAssembly.Module(this.cacheKey === undefined ? bytes() : cachedRunLoop(this.cacheKey, inputs, outputs, activity, bytes));
      return (new WebAssembly.Instance(module, { env: { memory } }).exports as { run: (n: number, stim: number, out: number) => void }).run;
    };
    const nIn = inputs.reduce((n, id) => n + wordsOf(this.L.flat.nets[id]!.width), 0);
    const nOut = outputs.reduce((n, id) => n + wordsOf(this.L.flat.nets[id]!.width), 0);
    // Short batches: V8 tiers a wasm function up to optimized code only between calls (no on-stack replacement).
    const batch = Math.max(1, Math.min(4096, Math.floor(layout.batchWords / Math.max(1, nIn + nOut))));
    const words = new Uint32Array(memory.buffer, layout.batchByte, layout.batchWords);
    const counter = (b: number) => new Int32Array(memory.buffer, b, 1);
    const regionCounters = layout.evaluationBytes.map(counter);
    const groupCounters = layout.groupEvaluationBytes.map(counter);
    const read = (cs: Int32Array[]) => cs.map((c) => c[0]!);
    // Each loop measures its own plan: one stored by an earlier run on another workload made the loop up to
    // 21 % slower (rtcore: a busy run's plan on an idle run).
    const profile = { regions: read(regionCounters), groups: read(groupCounters), cycles: 0 };
    let run: ((n: number, stim: number, out: number) => void) | undefined;
    /** Too large to fuse: `stepped` runs every cycle. */
    let unfused = false;
    const measure = (stim: Uint32Array, out: Uint32Array, cycles: number): number => {
      const n = Math.min(cycles, PROFILE_CYCLES - profile.cycles);
      stepped(stim.subarray(0, n * nIn), out.subarray(0, n * nOut), n);
      if ((profile.cycles += n) < PROFILE_CYCLES) return n;
      const regions = read(regionCounters).map((x, k) => (x - profile.regions[k]!) | 0);
      const groups = read(groupCounters).map((x, k) => (x - profile.groups[k]!) | 0);
      const plan = planActivity(this.L, layout.regions, layout.commitGroups, regions, groups, profile.cycles);
      if (process.env.RTGPU_SIM_PROFILE) reportActivity(this.L, layout.regions, regions, profile.cycles, plan, groups);
      try {
        run = compile({ ...plan, counting: false });
      } catch (e) {
        if (!(e instanceof WasmSizeError)) throw e;
        unfused = true;
      }
      return n;
    };
    // Each loop keeps only the flags it tests up to date (not those of busy regions and groups, nor of
    // groups whose registers it writes in place), and code outside it keeps flags the loop relies on
    // (a comb run by a peek may take a region's flag without the commit that follows): after a change
    // of evaluator, everything is evaluated once (see `handOver`).
    const loop = {};
    const stopWord = counter(layout.propertyStopByte);
    const coverWords = layout.coverCountBytes.map((b) => (b < 0 ? null : counter(b)));
    return (stim: Uint32Array, out: Uint32Array, cycles: number) => {
      const first = run || unfused ? 0 : measure(stim, out, cycles);
      if (!run) return unfused ? stepped(stim.subarray(first * nIn), out.subarray(first * nOut), cycles - first) : undefined;
      this.handOver(loop);
      for (let c = first; c < cycles; c += batch) {
        const n = Math.min(batch, cycles - c);
        words.set(stim.subarray(c * nIn, (c + n) * nIn), 0);
        run(n, layout.batchByte, layout.batchByte + n * nIn * 4);
        out.set(words.subarray(n * nIn, n * (nIn + nOut)), c * nOut);
        if (this.checks.length) this.afterFusedBatch(n, stopWord, coverWords);
        else this.cycle += n;
      }
    };
  }

  /**
   * After a batch of `n` cycles of the fused loop: its cover hits handed over; if a property failed
   * (the loop left before that cycle's edge, with its inputs applied), the cycle count is that cycle's
   * and the JavaScript check, on the comb evaluated again, throws the failure with its values.
   */
  private afterFusedBatch(n: number, stopWord: Int32Array, coverWords: readonly (Int32Array | null)[]): void {
    coverWords.forEach((w, k) => {
      if (!w || w[0] === 0) return;
      const name = this.L.flat.properties![k]!.name;
      this.coverHits.set(name, this.coverHits.get(name)! + w[0]!);
      w[0] = 0;
    });
    const left = stopWord[0]!;
    this.cycle += n - left;
    if (left === 0) return;
    stopWord[0] = 0;
    this.changed();
    this.settle();
    this.checkProperties(1, false);
    throw new Error(`internal: the fused loop of ${this.L.flat.name} stopped for a property that holds at cycle ${this.cycle}`);
  }

  /**
   * Whoever evaluates next (`by`: a fused loop, or null for comb and commit called from here) after
   * someone else did starts with a full evaluation: each keeps only the flags it tests.
   */
  private handOver(by: object | null): void {
    if (this.evaluator === by) return;
    this.evaluator = by;
    this.forceFullEvaluation();
  }

  /** Root nets every comb and fused loop stores (state, ports, what the clock edge reads): runVectors may sample them from the fast loops. */
  private get storedByComb(): ReadonlySet<NetId> {
    return (this.stored ??= observableNets(this.L));
  }

  /** The vector loop on the store-everything comb: for waveforms, and for samples of nets the fast loops keep in locals. */
  private vectorLoopStoringAll(ins: { off: number; words: number; mask: number }[], outs: { off: number; words: number }[], stimulus: Uint32Array, result: Uint32Array, cycles: number): void {
    const s = this.s;
    let si = 0;
    let ri = 0;
    for (let c = 0; c < cycles; c++) {
      for (const p of ins) {
        for (let k = 0; k < p.words - 1; k++) s[p.off + k] = stimulus[si++]! | 0;
        s[p.off + p.words - 1] = stimulus[si++]! & p.mask;
      }
      this.combAll();
      this.vcd?.sample(this.cycle);
      for (const p of outs) for (let k = 0; k < p.words; k++) result[ri++] = s[p.off + k]!;
      this.commit(1);
      this.cycle++;
    }
  }

  onEdge(observer: (edges: readonly ClockEdge[]) => void): () => void {
    const o = (ev: number) => observer(this.edges.filter((_, i) => (ev >> i) & 1));
    this.edgeObservers.push(o);
    return () => {
      const i = this.edgeObservers.indexOf(o);
      if (i >= 0) this.edgeObservers.splice(i, 1);
    };
  }

  /** How many clock edges each cover point held at (enabled), since power-on, by hierarchical name. */
  coverCounts(): Record<string, number> {
    return Object.fromEntries(this.coverHits);
  }

  /** The properties sampled by the edges of `ev`, on the values settled before them: covers counted, a failed assertion or assumption thrown. */
  private checkProperties(ev: number, countCovers = true): void {
    const s = this.s;
    for (const c of this.checks) {
      if ((ev & c.bit) === 0 || (c.enable >= 0 && s[c.enable] === 0)) continue;
      const holds = s[c.cond] !== 0;
      if (c.prop.kind === 'cover') {
        if (holds && countCovers) this.coverHits.set(c.prop.name, this.coverHits.get(c.prop.name)! + 1);
      } else if (!holds) this.propertyFailed(c.prop);
    }
  }

  private propertyFailed(p: Property): never {
    this.settleAll();
    const values = Object.fromEntries(propertySupport(this.flat, p).map((id) => [this.flat.nets[id]!.name, this.read(id)]));
    const timeNs = this.signals.clocks.length > 1 ? this.driver.now : undefined;
    throw new PropertyFailedError(`${this.L.flat.name}.${p.name}`, p.kind as 'assert' | 'assume', propertyWhere(p), this.cycle, values, p.message, timeNs);
  }

  traceVcd(path: string): void {
    this.vcd?.close();
    const seen = new Set<string>();
    const signals = this.L.flat.nets
      .filter((n) => !n.name.split('.').at(-1)!.startsWith('_k') && !seen.has(n.name) && seen.add(n.name))
      .map((net) => ({ net, read: () => this.read(net.id) }));
    const clocks = this.signals.clocks.map((name) => ({ name, read: () => this.clockLevel.get(name)! }));
    this.vcd = new VcdWriter(path, this.L.flat.name, signals, clocks.length > 1 ? { clocks } : {});
  }

  close(): void {
    this.vcd?.close();
    this.vcd = undefined;
  }
}

/** runVectors runs cycles of one clock's rising edge: what a design with other edges cannot be driven by. */
export function checkVectorClocking(top: string, edges: readonly ClockEdge[]): void {
  if (edges.length > 1 || (edges.length === 1 && edges[0]!.edge === 'falling')) {
    throw new Error(`runVectors drives one rising clock edge per cycle; ${top} uses ${edges.map((e) => `the ${e.edge} edge of '${e.clock}'`).join(', ')}: drive it with step, advance or setClocks`);
  }
}

/** A run of `cycles` rows of stimulus, writing a row of outputs per cycle. */
type VectorLoop = (stim: Uint32Array, out: Uint32Array, cycles: number) => void;

/** A vector loop specialized to one list of ports: straight-line port copies, no per-port iteration. */
function vectorLoop(
  ins: readonly { off: number; words: number; mask: number }[],
  outs: readonly { off: number; words: number }[],
  comb: () => void,
  commit: (ev: number) => void,
  s: Int32Array,
): (stim: Uint32Array, out: Uint32Array, cycles: number) => void {
  const inRow = ins.reduce((a, p) => a + p.words, 0);
  const outRow = outs.reduce((a, p) => a + p.words, 0);
  const apply: string[] = [];
  let at = 0;
  for (const p of ins) {
    for (let k = 0; k < p.words - 1; k++) apply.push(`s[${p.off + k}] = stim[i + ${at++}] | 0;`);
    apply.push(`s[${p.off + p.words - 1}] = stim[i + ${at++}] & ${p.mask};`);
  }
  const sample: string[] = [];
  at = 0;
  for (const p of outs) for (let k = 0; k < p.words; k++) sample.push(`out[o + ${at++}] = s[${p.off + k}];`);
  const body = `return function run(stim, out, cycles) {
  for (let c = 0, i = 0, o = 0; c < cycles; c++, i += ${inRow}, o += ${outRow}) {
    ${apply.join('\n    ')}
    comb();
    ${sample.join('\n    ')}
    commit(1);
  }
};`;
  return new Function('s', 'comb', 'commit', body)(s, comb, commit) as (stim: Uint32Array, out: Uint32Array, cycles: number) => void;
}

/** RTGPU_SIM_PROFILE=1: how much of the design the fused loop evaluated per cycle, by instance (stderr). */
function reportActivity(L: Layout, regions: readonly ActivityRegion[], counts: readonly number[], cycles: number, plan: ActivityPlan, groupCounts: readonly number[]): void {
  const byInstance = new Map<string, { steps: number; evaluated: number }>();
  let guards = 0;
  regions.forEach((r, k) => {
    if (r.inputs && !plan.regions.has(k) && !plan.ungated) guards++;
    const steps = r.end - r.start;
    const share = !r.inputs ? 1 : counts[k]! / cycles;
    const key = r.instance.split('.').slice(0, 2).join('.');
    const e = byInstance.get(key) ?? { steps: 0, evaluated: 0 };
    e.steps += steps;
    e.evaluated += steps * share;
    byInstance.set(key, e);
  });
  const share = evaluatedShare(L, regions, counts, cycles);
  const updated = groupCounts.reduce((a, n) => a + Math.min(1, n / cycles), 0) / Math.max(1, groupCounts.length);
  const lines = [`activity over ${cycles} cycles: ${regions.length} regions, ${L.liveSteps} live steps, ${(100 * share).toFixed(1)} % evaluated per cycle, ${(100 * updated).toFixed(1)} % of ${groupCounts.length} commit groups updated; ${plan.ungated ? 'the loop runs without dirty flags' : `${guards} regions keep their flags, ${plan.groups.size} busy commit groups do not`}`];
  for (const [k, e] of [...byInstance].sort((a, b) => b[1].evaluated - a[1].evaluated).slice(0, 25)) lines.push(`  ${k.padEnd(40)} ${String(e.steps).padStart(7)} steps ${(e.evaluated).toFixed(0).padStart(7)} evaluated`);
  process.stderr.write(lines.join('\n') + '\n');
}
