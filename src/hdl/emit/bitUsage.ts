// Which bits of each printed net the printed logic reads; the rest go to the `_unused_ok` sink so lint stays meaningful.
import type { Net, NetId } from '../ir/netlist.ts';

export class BitUsage {
  /** Per net, a bit array of read bits (1 = read). */
  private readonly bits: Uint8Array[];

  constructor(private readonly nets: readonly Net[]) {
    this.bits = nets.map((n) => new Uint8Array(n.width));
  }

  readAll(id: NetId): void {
    this.bits[id]!.fill(1);
  }

  /** Bits `lo..hi` (inclusive) of `id`. */
  read(id: NetId, lo: number, hi: number): void {
    this.bits[id]!.fill(1, lo, hi + 1);
  }

  /** The sink's concatenation list over `candidates` (`a, b[7:4]`), or '' when all their bits are read. */
  unusedSink(candidates: readonly NetId[], name: (id: NetId) => string): string {
    const parts: string[] = [];
    for (const id of candidates) {
      const r = this.bits[id]!;
      if (r.every((b) => b === 1)) continue;
      if (r.every((b) => b === 0)) {
        parts.push(name(id));
        continue;
      }
      // Ranges of unread bits, most significant first.
      for (let hi = this.nets[id]!.width - 1; hi >= 0; ) {
        if (r[hi]) {
          hi--;
          continue;
        }
        let lo = hi;
        while (lo > 0 && !r[lo - 1]) lo--;
        parts.push(hi === lo ? `${name(id)}[${hi}]` : `${name(id)}[${hi}:${lo}]`);
        hi = lo - 1;
      }
    }
    return parts.join(', ');
  }
}
