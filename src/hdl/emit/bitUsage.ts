// Which bits of each net some logic reads; the rest go to the `_unused_ok` sink so lint stays meaningful.
import type { ModuleIR, NetId } from '../ir/netlist.ts';
import { cellInputs } from '../ir/netlist.ts';

export class BitUsage {
  /** Per net, a bit array of read bits (1 = read). */
  private readonly read: Uint8Array[];

  constructor(
    private readonly mod: ModuleIR,
    private readonly consts: ReadonlyMap<NetId, bigint>,
  ) {
    this.read = mod.nets.map((n) => new Uint8Array(n.width));
    const all = (id: NetId | undefined) => id !== undefined && this.read[id]!.fill(1);
    for (const c of mod.cells) {
      if (c.op === 'slice') this.read[c.a]!.fill(1, c.lo, c.lo + mod.nets[c.out]!.width);
      else for (const i of cellInputs(c)) all(i);
    }
    for (const r of mod.regs) [r.d, r.en, r.reset?.net].forEach(all);
    for (const m of mod.memories) {
      for (const p of m.readPorts) [p.addr, p.en].forEach(all);
      for (const p of m.writePorts) [p.addr, p.data, p.en, p.mask].forEach(all);
    }
    for (const i of mod.instances) Object.values(i.inputs).forEach(all);
  }

  /** The sink's concatenation list (`a, b[7:4]`), or '' when every bit of every net is read. */
  unusedSink(name: (id: NetId) => string): string {
    const parts: string[] = [];
    for (const n of this.mod.nets) {
      if (n.kind === 'output' || this.consts.has(n.id)) continue;
      const r = this.read[n.id]!;
      if (r.every((b) => b === 1)) continue;
      if (r.every((b) => b === 0)) {
        parts.push(name(n.id));
        continue;
      }
      // Ranges of unread bits, most significant first.
      for (let hi = n.width - 1; hi >= 0; ) {
        if (r[hi]) {
          hi--;
          continue;
        }
        let lo = hi;
        while (lo > 0 && !r[lo - 1]) lo--;
        parts.push(hi === lo ? `${name(n.id)}[${hi}]` : `${name(n.id)}[${hi}:${lo}]`);
        hi = lo - 1;
      }
    }
    return parts.join(', ');
  }
}
