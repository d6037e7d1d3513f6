// The lowest set bit of a list of bits as a balanced tree: log2(n) levels, where a priority chain of muxes is n deep.
import { cat, hideFromSourceLocations, lit, mux, type BoolValue, type UIntValue } from '../index.ts';
import { clog2 } from './clog2.ts';

hideFromSourceLocations(import.meta.url);

/** `index` (clog2(n) bits; 0 when no bit is set) of the lowest set bit of `bits`, and `any`. */
export function lowestSet(bits: readonly BoolValue[]): { index: UIntValue; any: BoolValue } {
  if (bits.length === 0) throw new Error('lowestSet needs at least one bit');
  // A node: whether a bit below it is set, and that bit's index within the node (none for a single bit).
  type Node = { any: BoolValue; index?: UIntValue };
  let level: Node[] = bits.map((any) => ({ any }));
  const none: BoolValue = lit(0, 1).asBool();
  while (level.length > 1) {
    const next: Node[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const lo = level[i]!;
      const hi = level[i + 1] ?? { any: none, index: lo.index === undefined ? undefined : lit(0, lo.index.width) };
      // The upper half's bit only when the lower half has none: with neither, the index stays 0.
      const top = lo.any.not().and(hi.any).zext(1);
      next.push({ any: lo.any.or(hi.any), index: lo.index === undefined ? top : cat(top, mux(lo.any, lo.index, hi.index!)) });
    }
    level = next;
  }
  const index = level[0]!.index ?? lit(0, 1);
  const width = clog2(bits.length);
  return { index: width === index.width ? index : index.zext(width), any: level[0]!.any };
}
