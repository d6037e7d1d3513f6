// The lockstep back end: several engines run the same design side by side; every poke goes to all of them,
// every output (and, on request, every register) is compared every cycle (with several clocks or a falling
// edge: after every instant at which some clock has an edge), and the first difference stops the run. A
// property every engine fails at the same edge is the design's failure; one only some fail, a difference.
import { mkdirSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import type { Design, EnumInfo, ModuleIR, Net } from '../../ir/netlist.ts';
import { clockEdgesOf } from '../../ir/netlist.ts';
import { flattenDesign } from '../../ir/flatten.ts';
import { emitSystemVerilog } from '../../emit/index.ts';
import { svName } from '../../emit/svNames.ts';
import { compileEngine, engineOptions, type EngineOptions } from '../compileEngine.ts';
import { SignalTable, checkStepCycles, holdReset, runUntil, valueToWords, wordsOf, wordsToValue } from '../signals.ts';
import type { PortHandle, PortInfo, Simulator } from '../simulator.ts';
import { simulators, type SimulatorBackend } from '../simulators.ts';
import { ClockDriver, type ClockLevels, type ClockTiming } from '../clockSchedule.ts';
import { ExternalSimulator } from '../external/externalSimulator.ts';
import { VcdWriter } from '../vcd.ts';
import { PropertyFailedError } from '../propertyCheck.ts';
import { onEveryMember, type PropertyDisagreement } from './propertyAgreement.ts';

/** A back end by name, by its options, or a simulator already compiled (of the same design; closed with the lockstep one). */
export type LockstepMember = Exclude<SimulatorBackend, 'lockstep'> | EngineOptions | Simulator;

const isSimulator = (m: LockstepMember): m is Simulator => typeof m === 'object' && typeof (m as Simulator).runVectors === 'function';

export interface LockstepOptions {
  readonly backend: 'lockstep';
  /**
   * The engines to run side by side (default: the TS simulator, Verilator and Icarus). The first is the
   * reference: its values are what `peek` and `runVectors` return.
   */
  readonly backends?: readonly LockstepMember[];
  /** Also compare every register of the hierarchy every cycle (external engines are built to read them). */
  readonly compareRegisters?: boolean;
  /** Where the waveforms of a mismatch go (default: the system's temporary directory). */
  readonly mismatchDir?: string;
  /** Cycles before a mismatch that its waveforms show (default 64). */
  readonly historyCycles?: number;
  /**
   * Outputs whose value does not matter in some cycles (docs/hdl-guide.md, "X and don't-care values"):
   * port -> the 1-bit output that says it matters (compared only while that is 1), or `true` (never
   * compared). Meanwhile Icarus reads their X and Z bits as 0 instead of failing. Added to the default.
   */
  readonly dontCare?: Readonly<Record<string, string | true>>;
  /**
   * Compare nothing until the first reset is over (the reset `reset()` holds, `rst_n` by default, asserted
   * then released): for third-party RTL whose registers hold X until reset (default false: compared from cycle 0).
   */
  readonly fromFirstReset?: boolean;
  /** The default: every stream's payload (`<s>_bits`, `<s>_bits_*` outputs beside `<s>_valid`) matters only while `<s>_valid` is 1 (default true). */
  readonly payloadsWhileValid?: boolean;
  readonly log?: (line: string) => void;
  /** The reset check on every member built here: registers with a reset power on at the same seeded values (CompiledSimulatorOptions.resetCheckSeed). */
  readonly resetCheckSeed?: number;
}

/** The first difference between the engines: where, what each one had, and waveforms of the cycles before. */
export class LockstepMismatchError extends Error {
  override name = 'LockstepMismatchError';
  constructor(
    readonly cycle: number,
    readonly signal: string,
    readonly width: number,
    readonly values: Readonly<Record<string, bigint>>,
    /** The TypeScript line that declares the signal, and the SystemVerilog line that drives it. */
    readonly tsLocation: string,
    readonly svLocation: string,
    readonly waveforms: readonly string[],
    /** The signal's enumeration, so values print with their member names. */
    readonly enumType?: EnumInfo,
    /** What else explains the values (an X Icarus read as 0). */
    readonly note?: string,
    /** Simulated time of the instant compared, in ns (designs compared instant by instant). */
    readonly timeNs?: number,
  ) {
    const digits = Math.max(1, Math.ceil(width / 4));
    const member = (v: bigint) => {
      const m = enumType?.members.find((x) => BigInt(x.value) === v);
      return m ? ` (${enumType!.name}.${m.name})` : enumType ? ` (not a member of ${enumType.name})` : '';
    };
    const rows = Object.entries(values).map(([k, v]) => `  ${k.padEnd(10)} ${width}'h${v.toString(16).padStart(digits, '0')}${member(v)}`);
    super(
      [
        `lockstep mismatch at cycle ${cycle}${timeNs === undefined ? '' : ` (${timeNs} ns)`} on ${signal} (${width} bits):`,
        ...rows,
        `  declared at ${tsLocation}, driven at ${svLocation}`,
        ...(waveforms.length ? [`  waveforms of the cycles before: ${waveforms.join(', ')}`] : []),
        ...(note ? [`  ${note}`] : []),
      ].join('\n'),
    );
  }
}

interface Member {
  readonly label: string;
  readonly sim: Simulator;
}

/** One cycle (or instant) of history: the inputs applied, and each member's compared values (all as packed words). */
interface HistoryRow {
  readonly cycle: number;
  /** An instant: its time in ps and the clock levels after it (bit i: clock i); a vector cycle: -1. */
  readonly timePs: number;
  readonly levels: number;
  readonly inputs: Uint32Array;
  readonly compared: readonly Uint32Array[];
}

function memberOptions(m: Exclude<SimulatorBackend, 'lockstep'> | EngineOptions, registers: boolean, log?: (line: string) => void, resetCheckSeed?: number): EngineOptions {
  const given: EngineOptions = typeof m === 'string' ? ({ backend: m } as EngineOptions) : m;
  const o: EngineOptions = resetCheckSeed === undefined || given.resetCheckSeed !== undefined ? given : { ...given, resetCheckSeed };
  if ((o as { backend?: string }).backend === 'lockstep') throw new Error('a lockstep simulator cannot contain another lockstep simulator');
  if (o.backend === 'verilator' || o.backend === 'icarus') return { ...o, registers: o.registers || registers, log: o.log ?? log };
  return o;
}

export async function compileLockstepSimulator(design: Design, opts: LockstepOptions): Promise<LockstepSimulator> {
  const specs = opts.backends ?? simulators.lockstep.members.map((m) => engineOptions(m));
  if (specs.length < 2) throw new Error(`lockstep needs at least two back ends to compare, got ${specs.length}`);
  const sims: Simulator[] = [];
  try {
    for (const s of specs) {
      if (isSimulator(s)) {
        if (s.top !== design.top) throw new Error(`a lockstep member simulates ${s.top}, not ${design.top}`);
        sims.push(s);
      } else sims.push(await compileEngine(design, memberOptions(s, opts.compareRegisters ?? false, opts.log, opts.resetCheckSeed)));
    }
  } catch (e) {
    for (const s of sims) s.close();
    throw e;
  }
  const seen = new Map<string, number>();
  const members = sims.map((sim) => {
    const n = (seen.get(sim.backend) ?? 0) + 1;
    seen.set(sim.backend, n);
    return { label: n === 1 ? sim.backend : `${sim.backend}#${n}`, sim };
  });
  return new LockstepSimulator(design, members, opts);
}

export class LockstepSimulator implements Simulator {
  readonly backend = 'lockstep' as const;
  cycle = 0;
  private readonly flat: ModuleIR;
  private readonly table: SignalTable;
  /** Every output port, then (with compareRegisters) every register. */
  private readonly compared: readonly Net[];
  private readonly comparedWords: number;
  private readonly inputNets: readonly Net[];
  private readonly inputs: Map<string, bigint>;
  private history: HistoryRow[] = [];
  private readonly historyCycles: number;
  /** Per compared net (by index): the index of the compared output that says it matters, or -1 (never); absent: always compared. */
  private readonly qualifiers: ReadonlyMap<number, number>;
  /** The same by output name, for peek (called every cycle by testbenches: no search of the compared list). */
  private readonly qualifierOf: ReadonlyMap<string, number>;
  private readonly unknownAsZero: ReadonlySet<string>;
  /** Word offset of each compared net within a row. */
  private readonly comparedOffsets: readonly number[];
  /** With fromFirstReset: whether the reset has been asserted, and whether that reset is over (comparing from then on). */
  private resetSeen = false;
  private comparing: boolean;
  private readonly firstReset: { readonly name: string; readonly activeHigh: boolean };
  /** Time and the clocks: instants at which some clock has an edge, in time order (ClockDriver). */
  private readonly driver: ClockDriver;
  /** Bit i: the level of clock i. */
  private levels = 0;
  /**
   * Cycles may run as vector runs on the members, compared cycle by cycle: one rising edge of the only
   * clock (or no clock). Otherwise every instant is compared after it.
   */
  private readonly vectorCycles: boolean;
  /** Several clocks: members follow the schedule in time (their waveforms are timed). */
  private readonly timed: boolean;
  /** The reference's cover counts, when it counts them (the TS simulator). */
  readonly coverCounts?: () => Record<string, number>;

  /** The engines it runs side by side, in order. */
  get simulators(): readonly Simulator[] {
    return this.members.map((m) => m.sim);
  }

  constructor(
    private readonly design: Design,
    private readonly members: readonly Member[],
    private readonly opts: LockstepOptions,
  ) {
    this.flat = flattenDesign(design);
    this.table = new SignalTable(this.flat);
    this.inputNets = [...this.table.inputs.values()];
    this.inputs = new Map(this.inputNets.map((n) => [n.name, 0n]));
    const registers = opts.compareRegisters ? this.flat.regs.map((r) => this.flat.nets[r.q]!) : [];
    this.compared = [...this.table.outputs.values(), ...registers];
    this.comparedWords = this.compared.reduce((s, n) => s + wordsOf(n.width), 0);
    this.historyCycles = Math.max(1, opts.historyCycles ?? 64);
    const dontCare = dontCarePolicy(this.table, opts);
    this.qualifiers = new Map([...dontCare].map(([port, q]) => [this.compared.findIndex((n) => n.name === port), q === true ? -1 : this.compared.findIndex((n) => n.name === q)]));
    this.qualifierOf = new Map([...this.qualifiers].map(([i, q]) => [this.compared[i]!.name, q]));
    this.unknownAsZero = new Set(dontCare.keys());
    this.comparing = !opts.fromFirstReset;
    let at = 0;
    this.comparedOffsets = this.compared.map((n) => ((at += wordsOf(n.width)), at - wordsOf(n.width)));
    this.firstReset = this.table.resetOf(undefined);
    const edges = clockEdgesOf(this.flat);
    this.vectorCycles = this.table.clocks.length <= 1 && edges.every((e) => e.edge === 'rising');
    this.timed = this.table.clocks.length > 1;
    const reference = members[0]!.sim;
    if (reference.coverCounts) this.coverCounts = () => reference.coverCounts!();
    this.driver = new ClockDriver({ clocks: this.table.clocks, setClocks: (levels) => this.scheduledInstant(levels) }, this.vectorCycles && this.table.clocks.length === 1 ? (n) => this.cycles(n) : undefined, this.table.clockTimings);
    // Members run the lockstep's schedule (timed: each follows it with advance): it must be theirs too.
    for (const m of members) {
      if (m.sim.time !== 0) throw new Error(`lockstep member ${m.label} is at ${m.sim.time} ns: members start at time 0`);
      for (const c of this.table.clocks) {
        const [mine, theirs] = [this.driver.timing(c), m.sim.clockTiming(c)];
        if (mine.period !== theirs.period || mine.phase !== theirs.phase || mine.high !== theirs.high) throw new Error(`lockstep member ${m.label} runs clock '${c}' with another timing (${JSON.stringify(theirs)}, not ${JSON.stringify(mine)}): set timings on the lockstep simulator`);
      }
    }
  }

  get top(): string {
    return this.table.top;
  }

  get ports(): readonly PortInfo[] {
    return this.table.ports;
  }

  /** The engines, in order (the first is the reference). */
  get backends(): readonly string[] {
    return this.members.map((m) => m.label);
  }

  poke(name: string, value: bigint | number): void {
    const { value: v } = this.table.inputValue(name, value);
    for (const m of this.members) m.sim.poke(name, v);
    this.inputs.set(name, v);
  }

  peek(name: string): bigint {
    // A value that does not matter now is the reference's alone (another engine may hold X there).
    if (!this.comparing || this.dontCareNow(name)) return this.members[0]!.sim.peek(name);
    const values = this.members.map((m) => m.sim.peek(name));
    if (values.some((v) => v !== values[0])) this.mismatch(this.cycle, this.table.net(name), values);
    return values[0]!;
  }

  get clocks(): readonly string[] {
    return this.table.clocks;
  }

  get time(): number {
    return this.driver.now;
  }

  setClockTiming(name: string, timing: ClockTiming): void {
    this.driver.setTiming(name, timing);
    for (const m of this.members) m.sim.setClockTiming(name, timing);
  }

  clockTiming(name: string): Required<ClockTiming> {
    return this.driver.timing(name);
  }

  advance(ns: number): void {
    this.driver.advance(ns);
  }

  setClocks(levels: ClockLevels): void {
    this.table.clockLevels(levels);
    this.onMembers((m) => m.sim.setClocks(levels));
    this.afterInstant(levels);
  }

  /** An instant of the schedule: timed members run it by their own schedule (the same), so that their waveforms carry its time. */
  private scheduledInstant(levels: ClockLevels): void {
    if (this.timed) {
      const ns = this.driver.nowPs / 1000;
      this.onMembers((m) => m.sim.advance(ns));
    } else this.onMembers((m) => m.sim.setClocks(levels));
    this.afterInstant(levels);
  }

  /**
   * `run` on every member, each run whatever the others did: a property every one failed at the same edge
   * is raised once (naming them), a property only some failed (or at different edges) is a mismatch.
   */
  private onMembers<T>(run: (m: Member) => T): T[] {
    try {
      return onEveryMember(this.members, run, (d) => this.propertyMismatch(d));
    } catch (e) {
      if (e instanceof PropertyFailedError) this.cycle = e.cycle;
      throw e;
    }
  }

  /** The engines disagree on a property: a mismatch on it (0: failed at that edge, 1: did not), with what each did. */
  private propertyMismatch(d: PropertyDisagreement): never {
    this.cycle = d.cycle;
    const prop = this.flat.properties?.find((p) => `${this.top}.${p.name}` === d.first.property);
    const ts = prop ? `${relative(process.cwd(), prop.loc.file) || prop.loc.file}:${prop.loc.line}` : d.first.where;
    const emitted = emitSystemVerilog(this.design);
    const sv = emitted.files.map((f) => ({ f, at: f.text.split('\n').findIndex((l) => l.includes(`$error("${d.first.where}: `)) })).find((x) => x.at >= 0);
    throw new LockstepMismatchError(d.cycle, d.first.property, 1, d.values, ts, sv ? `${sv.f.path}:${sv.at + 1}` : '?', this.writeWaveforms(), undefined, d.note, d.timeNs);
  }

  step(cycles = 1): void {
    checkStepCycles(cycles);
    if (this.table.clocks.length === 0) this.cycles(cycles);
    else this.driver.step(cycles);
  }

  /** Whole cycles as vector runs on the members (one rising edge of the only clock, or none), compared cycle by cycle. */
  private cycles(cycles: number): void {
    if (this.levels & 1) throw new Error(`step: clock '${this.table.clocks[0]}' is high (set by setClocks); set it low first`);
    for (let left = cycles; left > 0; ) {
      // Until comparing starts (fromFirstReset), a cycle at a time: it starts at an exact cycle.
      const n = Math.min(left, this.comparing ? 4096 : 1);
      this.run([], new Uint32Array(0), n, []);
      left -= n;
    }
  }

  /** After an instant on every member: the clock levels, the cycle count, and every compared value. */
  private afterInstant(levels: ClockLevels): void {
    const before = this.levels;
    this.table.clocks.forEach((c, i) => {
      const v = levels[c];
      if (v !== undefined) this.levels = v === 1 ? this.levels | (1 << i) : this.levels & ~(1 << i);
    });
    if (this.levels & ~before & 1) this.cycle++;
    this.compareInstant();
  }

  reset(cycles = 1, resetName?: string): void {
    const r = this.table.resetOf(resetName);
    holdReset(this, cycles, r.name, r.activeHigh);
  }

  powerOn(): void {
    for (const m of this.members) m.sim.powerOn();
    // Timed members follow the lockstep's schedule from time 0 again (advance): each must be back there too.
    const late = this.timed ? this.members.find((m) => m.sim.time !== 0) : undefined;
    if (late) throw new Error(`lockstep: member ${late.label} is at ${late.sim.time} ns after powerOn(); members of a design with several clocks must return to time 0`);
    for (const k of this.inputs.keys()) this.inputs.set(k, 0n);
    this.history = [];
    this.cycle = 0;
    this.levels = 0;
    this.driver.restart();
    this.resetSeen = false;
    this.comparing = !this.opts.fromFirstReset;
  }

  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): number {
    return runUntil<Simulator>(this, pred, maxCycles);
  }

  loadMemory(path: string, words: readonly (bigint | number)[], offset = 0): void {
    this.table.memoryWords(this.table.memory(path), words, offset);
    for (const m of this.members) m.sim.loadMemory(path, words, offset);
  }

  dumpMemory(path: string): bigint[] {
    const dumps = this.members.map((m) => m.sim.dumpMemory(path));
    const mem = this.table.memory(path);
    for (let a = 0; a < mem.depth; a++) {
      if (dumps.some((d) => d[a] !== dumps[0]![a])) {
        const net: Net = { id: -1, name: `${path}[${a}]`, width: mem.width, kind: 'wire', signed: false, loc: mem.loc };
        this.mismatch(this.cycle, net, dumps.map((d) => d[a]!), false);
      }
    }
    return dumps[0]!;
  }

  port(name: string): PortHandle {
    const n = this.table.narrowPort(name);
    const isInput = this.table.inputs.has(name);
    return {
      width: n.width,
      get: () => Number(this.peek(name)),
      set: (v: number) => {
        if (!isInput) throw new Error(`'${name}' is not an input port`);
        this.poke(name, v);
      },
    };
  }

  runVectors(inputs: readonly string[], outputs: readonly string[], stimulus: Uint32Array, cycles: number): Uint32Array {
    if (!this.vectorCycles) throw new Error(`runVectors drives one rising clock edge per cycle; ${this.top} has ${this.table.clocks.length > 1 ? 'several clocks' : 'a falling-edge register'}: drive it with step, advance or setClocks`);
    const inNets = inputs.map((n) => this.table.input(n));
    const inRow = inNets.reduce((s, n) => s + wordsOf(n.width), 0);
    if (stimulus.length < inRow * cycles) throw new Error(`runVectors: stimulus has ${stimulus.length} words, ${cycles} cycles need ${inRow * cycles}`);
    const outNets = outputs.map((n) => this.table.net(n));
    const outRow = outNets.reduce((s, n) => s + wordsOf(n.width), 0);
    const result = new Uint32Array(outRow * cycles);
    for (let done = 0; done < cycles; ) {
      const n = Math.min(cycles - done, this.comparing ? 4096 : 1);
      const part = this.run(inputs, stimulus.subarray(done * inRow, (done + n) * inRow), n, outputs);
      result.set(part, done * outRow);
      done += n;
    }
    return result;
  }

  /** `cycles` cycles on every member, compared cycle by cycle; returns the reference's rows of `extra` outputs. */
  private run(inputs: readonly string[], stimulus: Uint32Array, cycles: number, extra: readonly string[]): Uint32Array {
    const names = [...this.compared.map((n) => n.name), ...extra];
    // Before the first reset is over, X anywhere is expected: every compared value may hold it.
    const unknownAsZero = this.comparing ? this.unknownAsZero : new Set(this.compared.map((n) => n.name));
    const rows = this.onMembers((m) => m.sim.runVectors(inputs, names, stimulus, cycles, { unknownAsZero }));
    const extraWords = extra.reduce((s, n) => s + wordsOf(this.table.net(n).width), 0);
    const row = this.comparedWords + extraWords;
    const inNets = inputs.map((n) => this.table.input(n));
    const inRow = inNets.reduce((s, n) => s + wordsOf(n.width), 0);
    const out = new Uint32Array(extraWords * cycles);
    for (let c = 0; c < cycles; c++) {
      // The inputs of this cycle: held values, overridden by this row's.
      let at = c * inRow;
      for (const n of inNets) {
        this.inputs.set(n.name, wordsToValue(stimulus, at, wordsOf(n.width)) & ((1n << BigInt(n.width)) - 1n));
        at += wordsOf(n.width);
      }
      this.remember(rows.map((r) => r.slice(c * row, c * row + this.comparedWords)), -1);
      this.followReset();
      let off = c * row;
      for (let i = 0; i < this.compared.length; i++) {
        const net = this.compared[i]!;
        const w = wordsOf(net.width);
        const q = this.qualifiers.get(i);
        // A don't-care value: not compared (while its qualifier, as the reference has it, is 0).
        if (!this.comparing || (q !== undefined && (q < 0 || rows[0]![c * row + this.comparedOffsets[q]!] === 0))) {
          off += w;
          continue;
        }
        for (let k = 0; k < w; k++) {
          const ref = rows[0]![off + k];
          if (rows.some((r) => r[off + k] !== ref)) this.mismatch(this.cycle, net, rows.map((r) => wordsToValue(r, off, w)));
        }
        off += w;
      }
      out.set(rows[0]!.subarray(c * row + this.comparedWords, (c + 1) * row), c * extraWords);
      this.cycle++;
    }
    return out;
  }

  /** fromFirstReset: comparing starts in the first cycle the reset is released after it was asserted. */
  private followReset(): void {
    if (this.comparing) return;
    const rst = this.inputs.get(this.firstReset.name);
    if (rst !== undefined && (rst !== 0n) === this.firstReset.activeHigh) this.resetSeen = true;
    else if (this.resetSeen || rst === undefined) this.comparing = true;
  }

  /**
   * After an instant: every compared value on every member (a don't-care one where its qualifier, as the
   * reference has it, is 0: only the reference's). The reference is read first, so an X another engine
   * holds in a don't-care value is never read.
   */
  private compareInstant(): void {
    this.followReset();
    if (!this.comparing) return;
    const ref = new Uint32Array(this.comparedWords);
    const now: number[] = [];
    // An external engine reads them in one go (Icarus: one round trip, not one per signal), a don't-care
    // value's X and Z as 0 (as in the vector runs).
    const read = (sim: Simulator, names: readonly string[]) => (sim instanceof ExternalSimulator ? sim.peekAll(names, this.unknownAsZero) : names.map((n) => sim.peek(n)));
    const all = read(this.members[0]!.sim, this.compared.map((n) => n.name));
    this.compared.forEach((net, i) => valueToWords(all[i]!, wordsOf(net.width), ref, this.comparedOffsets[i]!));
    this.compared.forEach((_, i) => {
      const q = this.qualifiers.get(i);
      if (q === undefined || (q >= 0 && ref[this.comparedOffsets[q]!] !== 0)) now.push(i);
    });
    const names = now.map((i) => this.compared[i]!.name);
    const rows = this.members.map((m, k) => {
      if (k === 0) return ref;
      const r = ref.slice();
      const values = read(m.sim, names);
      now.forEach((i, j) => valueToWords(values[j]!, wordsOf(this.compared[i]!.width), r, this.comparedOffsets[i]!));
      return r;
    });
    this.remember(rows, this.driver.nowPs);
    for (const i of now) {
      const net = this.compared[i]!;
      const off = this.comparedOffsets[i]!;
      const w = wordsOf(net.width);
      for (let k = 0; k < w; k++) {
        if (rows.some((r) => r[off + k] !== ref[off + k])) this.mismatch(this.cycle, net, rows.map((r) => wordsToValue(r, off, w)));
      }
    }
  }

  /** Whether `name` is a don't-care output that does not matter in the current cycle. */
  private dontCareNow(name: string): boolean {
    const q = this.qualifierOf.get(name);
    if (q === undefined) return false;
    return q < 0 || this.members[0]!.sim.peek(this.compared[q]!.name) === 0n;
  }

  /** One row of history: each member's compared values (`timePs` of an instant, or -1). */
  private remember(compared: readonly Uint32Array[], timePs: number): void {
    const inputs = new Uint32Array(this.inputNets.reduce((s, n) => s + wordsOf(n.width), 0));
    let at = 0;
    for (const n of this.inputNets) {
      valueToWords(this.inputs.get(n.name)!, wordsOf(n.width), inputs, at);
      at += wordsOf(n.width);
    }
    this.history.push({ cycle: this.cycle, timePs, levels: this.levels, inputs, compared });
    if (this.history.length > 2 * this.historyCycles) this.history = this.history.slice(-this.historyCycles);
  }

  private mismatch(cycle: number, net: Net, values: readonly bigint[], waves = true): never {
    const emitted = emitSystemVerilog(this.design);
    const sv = svName(this.design, emitted, net.name);
    const line = sv ? emitted.lines[sv.module]?.[net.name.split('.').at(-1)!] : undefined;
    const byMember = Object.fromEntries(this.members.map((m, i) => [m.label, values[i]!]));
    const files = waves ? this.writeWaveforms() : [];
    const ts = `${relative(process.cwd(), net.loc.file) || net.loc.file}:${net.loc.line}`;
    const note = this.unknownAsZero.has(net.name) && this.members.some((m) => m.sim.backend === 'icarus') ? "Icarus reads X and Z of this don't-care port as 0: its 0 bits may be X (valid was high)" : undefined;
    const timeNs = this.timed || !this.vectorCycles ? this.driver.now : undefined;
    throw new LockstepMismatchError(cycle, `${this.top}.${net.name}`, net.width, byMember, ts, sv ? `${sv.module}.sv:${line ?? '?'}` : '?', files, net.enumType, note, timeNs);
  }

  /**
   * A VCD per member of the remembered cycles: the inputs and every compared signal; timed (ps, each
   * clock) for a design with several clocks, else one row per cycle (the last of each cycle's instants).
   */
  private writeWaveforms(): string[] {
    const kept = this.history.slice(-this.historyCycles);
    const rows = this.timed ? kept : kept.filter((r, i) => kept[i + 1]?.cycle !== r.cycle);
    if (!rows.length) return [];
    const dir = resolve(this.opts.mismatchDir ?? join(process.env.TMPDIR ?? '/tmp', 'rtgpu-lockstep'));
    mkdirSync(dir, { recursive: true });
    return this.members.map((m, i) => {
      const file = join(dir, `${this.top}.${m.label.replace('#', '-')}.vcd`);
      let current = rows[0]!;
      const column = (words: () => Uint32Array, at: number, w: number) => () => wordsToValue(words(), at, w);
      const signals: { net: Net; read: () => bigint }[] = [];
      let at = 0;
      for (const net of this.inputNets) {
        signals.push({ net, read: column(() => current.inputs, at, wordsOf(net.width)) });
        at += wordsOf(net.width);
      }
      at = 0;
      for (const net of this.compared) {
        signals.push({ net, read: column(() => current.compared[i]!, at, wordsOf(net.width)) });
        at += wordsOf(net.width);
      }
      const clocks = this.table.clocks.map((name, k) => ({ name, read: () => ((current.levels >> k) & 1) as 0 | 1 }));
      const vcd = new VcdWriter(file, this.top, signals, this.timed ? { clocks } : {});
      for (const r of rows) {
        current = r;
        if (this.timed) vcd.instantAt(r.timePs);
        else vcd.sample(r.cycle);
      }
      vcd.close();
      return file;
    });
  }

  traceVcd(path: string): void {
    const ext = extname(path) || '.vcd';
    const stem = join(resolve(path, '..'), basename(path, extname(path)));
    for (const m of this.members) m.sim.traceVcd(`${stem}.${m.label.replace('#', '-')}${ext}`);
  }

  close(): void {
    for (const m of this.members) m.sim.close();
  }
}

/**
 * The don't-care outputs and what qualifies each: the streams' payloads (unless turned off), then the
 * options' own; a qualifier is a 1-bit output. Errors name the port.
 */
function dontCarePolicy(table: SignalTable, opts: LockstepOptions): Map<string, string | true> {
  const outputs = table.outputs;
  const policy = new Map<string, string | true>();
  if (opts.payloadsWhileValid ?? true) {
    for (const name of outputs.keys()) {
      const m = /^(.*)_bits(?:_.*)?$/.exec(name);
      if (m && outputs.get(`${m[1]}_valid`)?.width === 1) policy.set(name, `${m[1]}_valid`);
    }
  }
  for (const [port, q] of Object.entries(opts.dontCare ?? {})) {
    if (!outputs.has(port)) throw new Error(`dontCare: '${port}' is not an output of ${table.top}; outputs: ${[...outputs.keys()].join(', ')}`);
    if (q !== true && (typeof q !== 'string' || outputs.get(q)?.width !== 1)) throw new Error(`dontCare: '${port}' is qualified by ${JSON.stringify(q)}, which is not a 1-bit output of ${table.top} (or true: never compared)`);
    policy.set(port, q);
  }
  return policy;
}
