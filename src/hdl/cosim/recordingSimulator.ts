// A Simulator that passes every call to another and records each cycle's inputs, so that the same run
// can be replayed from a file (`replayRecording`, the standalone harnesses) and compared cycle by cycle.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import type { PortHandle, PortInfo, Simulator } from '../sim/index.ts';
import { holdReset, runUntil } from '../sim/signals.ts';
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

  constructor(
    readonly sim: Simulator,
    design: Design,
  ) {
    const top = topModule(design);
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

  poke(name: string, value: bigint | number): void {
    this.sim.poke(name, value);
    this.values[this.index.get(name)!] = BigInt(value);
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

  reset(cycles = 1, resetName = 'rst_n'): void {
    holdReset(this, cycles, resetName);
  }

  /** Powering on starts a new recording. */
  powerOn(): void {
    this.sim.powerOn();
    this.values.fill(0n);
    this.chunks.length = 0;
    this.pending = [];
    this.cycles = 0;
    this.memoryLoads.length = 0;
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
        this.values[k] = BigInt(v);
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
    return { inputs: this.inputs.map((i) => i.name), rows, cycles: this.cycles, ...(this.memoryLoads.length ? { memoryLoads: [...this.memoryLoads] } : {}) };
  }
}
