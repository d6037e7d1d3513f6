// A reactive testbench's handle on the TS simulator that records every cycle's inputs, so that the
// same run can be replayed on Verilator and Icarus (`replayRecording`) and compared cycle by cycle.
import type { Design } from '../ir/netlist.ts';
import { topModule } from '../ir/netlist.ts';
import type { Simulator } from '../sim/index.ts';
import type { Recording } from './replay.ts';

const wordsOf = (width: number) => Math.ceil(width / 32);

export class RecordingDriver {
  /** Every input of the top but clk, in port order: the columns of a row. */
  readonly inputs: readonly { readonly name: string; readonly width: number }[];
  private readonly values: bigint[];
  private readonly index = new Map<string, number>();
  private readonly chunks: Uint32Array[] = [];
  private pending: number[] = [];
  private readonly rowWords: number;
  cycles = 0;

  constructor(
    readonly sim: Simulator,
    design: Design,
  ) {
    const top = topModule(design);
    this.inputs = top.ports.map((p) => top.nets[p]!).filter((n) => n.kind === 'input' && n.name !== 'clk').map((n) => ({ name: n.name, width: n.width }));
    this.inputs.forEach((i, k) => this.index.set(i.name, k));
    this.values = this.inputs.map(() => 0n);
    this.rowWords = this.inputs.reduce((s, i) => s + wordsOf(i.width), 0);
  }

  poke(name: string, value: bigint | number): void {
    const k = this.index.get(name);
    if (k === undefined) throw new Error(`'${name}' is not an input of the recorded design`);
    this.sim.poke(name, value);
    this.values[k] = BigInt(value);
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

  step(): void {
    for (const w of this.row()) this.pending.push(w);
    this.sim.step();
    this.cycles++;
  }

  /**
   * `cycles` cycles with the inputs held as they are, in the simulator's fast batch loop; returns the
   * named outputs of every cycle (rows of their words, as `Simulator.runVectors`).
   */
  hold(cycles: number, outputs: readonly string[]): Uint32Array {
    const row = this.row();
    const rows = new Uint32Array(cycles * this.rowWords);
    for (let c = 0; c < cycles; c++) rows.set(row, c * this.rowWords);
    this.flush();
    this.chunks.push(rows);
    this.cycles += cycles;
    return this.sim.runVectors(this.inputs.map((i) => i.name), outputs, rows, cycles);
  }

  /**
   * `cycles` cycles in the simulator's fast batch loop with the inputs named in `columns` taken from
   * `rows` (one row per cycle: their words in that order, as `Simulator.runVectors`) and every other
   * input held; afterwards the last row's values stay applied. Returns the named outputs of every cycle.
   */
  vectors(columns: readonly string[], rows: Uint32Array, cycles: number, outputs: readonly string[]): Uint32Array {
    const at: number[] = [];
    let offset = 0;
    this.inputs.forEach((i) => {
      at.push(offset);
      offset += wordsOf(i.width);
    });
    const cols = columns.map((name) => {
      const k = this.index.get(name);
      if (k === undefined) throw new Error(`'${name}' is not an input of the recorded design`);
      const width = this.inputs[k]!.width;
      // The top word keeps only the input's bits, as runVectors applies them (so the recording replays what ran).
      return { k, at: at[k]!, words: wordsOf(width), top: width % 32 === 0 ? 0xffffffff : 2 ** (width % 32) - 1 };
    });
    const inRow = cols.reduce((s, c) => s + c.words, 0);
    if (rows.length < inRow * cycles) throw new Error(`vectors: ${rows.length} words for ${cycles} cycles of ${inRow} words`);
    const base = this.row();
    const full = new Uint32Array(cycles * this.rowWords);
    for (let c = 0; c < cycles; c++) {
      full.set(base, c * this.rowWords);
      let from = c * inRow;
      for (const col of cols) for (let w = 0; w < col.words; w++) full[c * this.rowWords + col.at + w] = w === col.words - 1 ? (rows[from++]! & col.top) >>> 0 : rows[from++]!;
    }
    if (cycles > 0) {
      let from = (cycles - 1) * inRow;
      for (const col of cols) {
        let v = 0n;
        for (let w = 0; w < col.words; w++) v |= BigInt(w === col.words - 1 ? (rows[from++]! & col.top) >>> 0 : rows[from++]!) << BigInt(32 * w);
        this.values[col.k] = v;
      }
    }
    this.flush();
    this.chunks.push(full);
    this.cycles += cycles;
    return this.sim.runVectors(this.inputs.map((i) => i.name), outputs, full, cycles);
  }

  private flush(): void {
    if (this.pending.length) this.chunks.push(Uint32Array.from(this.pending));
    this.pending = [];
  }

  recording(): Recording {
    this.flush();
    const rows = new Uint32Array(this.chunks.reduce((s, c) => s + c.length, 0));
    let at = 0;
    for (const c of this.chunks) {
      rows.set(c, at);
      at += c.length;
    }
    return { inputs: this.inputs.map((i) => i.name), rows, cycles: this.cycles };
  }
}
