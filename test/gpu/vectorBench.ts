// Test helper: a design on the TS simulator driven a table of input rows at a time (runVectors), rows as named bigints.
import type { Design } from '../../src/hdl/index.ts';
import { topModule } from '../../src/hdl/ir/netlist.ts';
import { compileSimulator, type Simulator } from '../../src/hdl/sim/index.ts';

type Row = Record<string, bigint>;
const words = (w: number) => Math.ceil(w / 32);

export class VectorBench {
  readonly sim: Simulator;
  private readonly ins: [string, number][];
  private readonly outs: [string, number][];

  /** Every input and output of the design's top (clk excepted), read from its ports; reset applied. */
  constructor(design: Design) {
    this.sim = compileSimulator(design);
    const top = topModule(design);
    const ports = top.ports.map((p) => top.nets[p]!).filter((n) => n.name !== 'clk');
    this.ins = ports.filter((n) => n.kind === 'input').map((n) => [n.name, n.width]);
    this.outs = ports.filter((n) => n.kind !== 'input').map((n) => [n.name, n.width]);
    this.sim.reset();
  }

  /** One output row per input row (sampled before the clock edge); inputs absent from a row are 0, rst_n 1. */
  run(rows: readonly Row[]): Row[] {
    const inRow = this.ins.reduce((a, [, w]) => a + words(w), 0);
    const stim = new Uint32Array(inRow * rows.length);
    rows.forEach((row, r) => {
      let at = r * inRow;
      for (const [name, w] of this.ins) {
        const v = row[name] ?? (name === 'rst_n' ? 1n : 0n);
        for (let k = 0; k < words(w); k++) stim[at++] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
      }
    });
    const result = this.sim.runVectors(
      this.ins.map(([n]) => n),
      this.outs.map(([n]) => n),
      stim,
      rows.length,
    );
    const outRow = this.outs.reduce((a, [, w]) => a + words(w), 0);
    return rows.map((_, r) => {
      let at = r * outRow;
      const o: Row = {};
      for (const [name, w] of this.outs) {
        let v = 0n;
        for (let k = 0; k < words(w); k++) v |= BigInt(result[at++]! >>> 0) << BigInt(32 * k);
        o[name] = v;
      }
      return o;
    });
  }
}
