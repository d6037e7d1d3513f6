// A Simulator that passes every call to another and records each cycle's inputs (each instant's, for a
// design with several clocks or a falling edge), so that the same run can be replayed from a file
// (`replayRecording`, the standalone harnesses, portable testbenches) and compared cycle by cycle.
import type { Design } from '../ir/netlist.ts';
import { edgeOf, topModule } from '../ir/netlist.ts';
import { flattenDesign } from '../ir/flatten.ts';
import type { PortHandle, PortInfo, Simulator } from '../sim/index.ts';
import { SignalTable, checkStepCycles, holdReset, runUntil } from '../sim/signals.ts';
import { ClockDriver, type ClockLevels, type ClockTiming } from '../sim/clockSchedule.ts';
import type { Recording } from './recording.ts';

const wordsOf = (width: number) => Math.ceil(width / 32);

export class RecordingSimulator implements Simulator {
  /** Every input of the top but clk, in port order: the columns of a row. */
  readonly inputs: readonly { readonly name: string; readonly width: number }[];
  private readonly values: bigint[];
  private readonly memoryLoads: { memory: string; cycle: number }[] = [];
  private readonly index = new Map<string, number>();
  private readonly chunks: Uint32Array[] = [];
  private pending: number[] = [];
  private readonly rowWords: number;
  private readonly columnAt: number[] = [];
  private cycles = 0;
  /**
   * Rows are instants, not cycles: the design has several clocks or a falling-edge register (one rising
   * edge per cycle is what a row of cycles replays).
   */
  readonly byInstant: boolean;
  /** Instant rows: the clock levels after each (bit k: clock k) and its time in ps. */
  private instantLevels: number[] = [];
  private instantTimes: number[] = [];
  /** Bit k: the level of clock k. */
  private levels = 0;
  /** Inputs changed since the last instant row: one changed again first gets a row of its own (an asynchronous reset's pulse). */
  private readonly changedSinceRow = new Set<number>();
  private readonly driver: ClockDriver;
  private table: SignalTable | undefined;

  constructor(
    readonly sim: Simulator,
    private readonly design: Design,
  ) {
    const top = topModule(design);
    const fallingEdge = design.modules.some((m) => m.regs.some((r) => edgeOf(r).edge === 'falling') || m.memories.some((mem) => [...mem.writePorts, ...mem.readPorts.filter((p) => p.kind === 'sync')].some((p) => edgeOf(p).edge === 'falling')));
    this.byInstant = sim.clocks.length > 1 || fallingEdge;
    // Timed, the wrapped simulator runs the same schedule (advance): it must start where this one does.
    if (sim.clocks.length > 1 && sim.time !== 0) throw new Error(`RecordingSimulator: the simulator of ${sim.top} is at ${sim.time} ns; record from time 0 (wrap it before it runs)`);
    const clocks = sim.clocks;
    const timings = Object.fromEntries(clocks.map((c) => [c, sim.clockTiming(c)]));
    this.driver = new ClockDriver({ clocks, setClocks: (levels) => this.instant(levels, true) }, !this.byInstant && clocks.length === 1 ? (n) => this.cycleRows(n) : undefined, timings);
    this.inputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input' && n.name !== 'clk').map((n) => ({ name: n.name, width: n.width }));
    let at = 0;
    this.inputs.forEach((i, k) => {
      this.index.set(i.name, k);
      this.columnAt.push(at);
      at += wordsOf(i.width);
    });
    this.rowWords = at;
    this.values = this.inputs.map(() => 0n);
  }

  get backend() {
    return this.sim.backend;
  }

  get top(): string {
    return this.sim.top;
  }

  get cycle(): number {
    return this.sim.cycle;
  }

  get ports(): readonly PortInfo[] {
    return this.sim.ports;
  }

  get clocks(): readonly string[] {
    return this.sim.clocks;
  }

  get time(): number {
    return this.driver.now;
  }

  setClockTiming(name: string, timing: ClockTiming): void {
    this.driver.setTiming(name, timing);
    this.sim.setClockTiming(name, timing);
  }

  clockTiming(name: string): Required<ClockTiming> {
    return this.driver.timing(name);
  }

  advance(ns: number): void {
    this.driver.advance(ns);
  }

  setClocks(levels: ClockLevels): void {
    this.instant(levels, false);
  }

  /**
   * One instant, recorded: a row (instant rows; cycle rows: a rising edge of the only clock), then the
   * instant on the simulator: timed (several clocks), by its own schedule, so that its waveform has the time.
   */
  private instant(levels: ClockLevels, scheduled: boolean): void {
    const before = this.levels;
    let next = before;
    this.sim.clocks.forEach((c, k) => {
      const v = levels[c];
      if (v !== undefined) next = v === 1 ? next | (1 << k) : next & ~(1 << k);
    });
    if (scheduled && this.sim.clocks.length > 1) this.sim.advance(this.driver.nowPs / 1000);
    else this.sim.setClocks(levels);
    this.levels = next;
    if (this.byInstant) this.instantRow();
    else if (next & ~before & 1) {
      for (const w of this.row()) this.pending.push(w);
      this.cycles++;
    }
  }

  /** A row of the inputs now, with the clock levels now, at the time now. */
  private instantRow(): void {
    for (const w of this.row()) this.pending.push(w);
    this.instantLevels.push(this.levels);
    this.instantTimes.push(this.driver.nowPs);
    this.changedSinceRow.clear();
    this.cycles++;
  }

  /** An input's new value: on instant rows, an input changed twice between instants keeps its first value in a row of its own. */
  private setValue(k: number, v: bigint): void {
    if (this.byInstant && this.changedSinceRow.has(k) && this.values[k] !== v) this.instantRow();
    this.values[k] = v;
    if (this.byInstant) this.changedSinceRow.add(k);
  }

  poke(name: string, value: bigint | number): void {
    this.sim.poke(name, value);
    this.setValue(this.index.get(name)!, BigInt(value));
  }

  peek(name: string): bigint {
    return this.sim.peek(name);
  }

  /** The current input values as one row. */
  private row(): number[] {
    const row: number[] = [];
    this.inputs.forEach((i, k) => {
      const v = this.values[k]!;
      for (let w = 0; w < wordsOf(i.width); w++) row.push(Number((v >> BigInt(32 * w)) & 0xffffffffn));
    });
    return row;
  }

  step(cycles = 1): void {
    checkStepCycles(cycles);
    if (this.sim.clocks.length === 0) this.cycleRows(cycles);
    else this.driver.step(cycles);
  }

  /** Whole cycles of the only clock (one rising edge each), a row each, stepped on the simulator. */
  private cycleRows(cycles: number): void {
    if (this.levels & 1) throw new Error(`step: clock '${this.sim.clocks[0]}' is high (set by setClocks); set it low first`);
    if (cycles === 1) {
      for (const w of this.row()) this.pending.push(w);
    } else if (cycles > 1) {
      const row = this.row();
      const rows = new Uint32Array(cycles * this.rowWords);
      for (let c = 0; c < cycles; c++) rows.set(row, c * this.rowWords);
      this.flush();
      this.chunks.push(rows);
    }
    this.sim.step(cycles);
    this.cycles += Math.max(0, cycles);
  }

  reset(cycles = 1, resetName?: string): void {
    // The reset's polarity comes from the flattened design (once, when first asked).
    this.table ??= new SignalTable(flattenDesign(this.design));
    const r = this.table.resetOf(resetName);
    holdReset(this, cycles, r.name, r.activeHigh);
  }

  /** Powering on starts a new recording. */
  powerOn(): void {
    this.sim.powerOn();
    this.values.fill(0n);
    this.chunks.length = 0;
    this.pending = [];
    this.cycles = 0;
    this.memoryLoads.length = 0;
    this.levels = 0;
    this.instantLevels = [];
    this.instantTimes = [];
    this.changedSinceRow.clear();
    this.driver.restart();
  }

  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): number {
    return runUntil<Simulator>(this, pred, maxCycles);
  }

  /** Memory loads are not inputs: a replay must load the same contents itself. */
  loadMemory(path: string, words: readonly (bigint | number)[], offset?: number): void {
    this.sim.loadMemory(path, words, offset);
    this.memoryLoads.push({ memory: path, cycle: this.cycles });
  }

  dumpMemory(path: string): bigint[] {
    return this.sim.dumpMemory(path);
  }

  port(name: string): PortHandle {
    const h = this.sim.port(name);
    const k = this.index.get(name);
    if (k === undefined) return h;
    return {
      width: h.width,
      get: () => h.get(),
      set: (v: number) => {
        h.set(v);
        this.setValue(k, BigInt(v));
      },
    };
  }

  runVectors(inputs: readonly string[], outputs: readonly string[], stimulus: Uint32Array, cycles: number): Uint32Array {
    const cols = inputs.map((name) => {
      const k = this.index.get(name);
      if (k === undefined) throw new Error(`'${name}' is not an input of ${this.top}`);
      const width = this.inputs[k]!.width;
      // The top word keeps only the input's bits, as the simulators apply them (so the recording replays what ran).
      return { k, at: this.columnAt[k]!, words: wordsOf(width), top: width % 32 === 0 ? 0xffffffff : 2 ** (width % 32) - 1 };
    });
    const inRow = cols.reduce((s, c) => s + c.words, 0);
    const out = this.sim.runVectors(inputs, outputs, stimulus, cycles);
    const base = this.row();
    const full = new Uint32Array(cycles * this.rowWords);
    for (let c = 0; c < cycles; c++) {
      full.set(base, c * this.rowWords);
      let from = c * inRow;
      for (const col of cols) for (let w = 0; w < col.words; w++) full[c * this.rowWords + col.at + w] = w === col.words - 1 ? (stimulus[from++]! & col.top) >>> 0 : stimulus[from++]!;
    }
    if (cycles > 0) {
      let from = (cycles - 1) * inRow;
      for (const col of cols) {
        let v = 0n;
        for (let w = 0; w < col.words; w++) v |= BigInt(w === col.words - 1 ? (stimulus[from++]! & col.top) >>> 0 : stimulus[from++]!) << BigInt(32 * w);
        this.values[col.k] = v;
      }
    }
    this.flush();
    this.chunks.push(full);
    this.cycles += cycles;
    return out;
  }

  traceVcd(path: string): void {
    this.sim.traceVcd(path);
  }

  close(): void {
    this.sim.close();
  }

  private flush(): void {
    if (this.pending.length) this.chunks.push(Uint32Array.from(this.pending));
    this.pending = [];
  }

  /** Every cycle's inputs since power-on (or construction). */
  recording(): Recording {
    this.flush();
    const rows = new Uint32Array(this.chunks.reduce((s, c) => s + c.length, 0));
    let at = 0;
    for (const c of this.chunks) {
      rows.set(c, at);
      at += c.length;
    }
    const instants = this.byInstant ? { instants: { clocks: [...this.sim.clocks], levels: Uint32Array.from(this.instantLevels), timesPs: Float64Array.from(this.instantTimes) } } : {};
    return { inputs: this.inputs.map((i) => i.name), rows, cycles: this.cycles, ...(this.memoryLoads.length ? { memoryLoads: [...this.memoryLoads] } : {}), ...instants };
  }
}
