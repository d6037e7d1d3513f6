// A balanced multiplexer tree: values[index] in log2(n) levels of two-way muxes.
import { hideFromSourceLocations, mux, type UIntValue } from '../index.ts';

// The muxes carry the caller's line, not this file's.
hideFromSourceLocations(import.meta.url);

/**
 * `values[index]`, as a balanced tree of two-way muxes on the bits of `index` (lowest bit first), so
 * a 32-way select is five mux levels (two LUT levels with the wide-mux cells of an FPGA) rather than
 * the 31 of a priority chain. An index past the last value selects one of the values (unspecified
 * which); callers keep the index in range.
 */
export function selectByIndex(index: UIntValue, values: readonly UIntValue[]): UIntValue {
  if (values.length === 0) throw new Error('selectByIndex: no values to select from');
  let items: UIntValue[] = [...values];
  for (let b = 0; items.length > 1; b++) {
    const next: UIntValue[] = [];
    for (let i = 0; i < items.length; i += 2) next.push(i + 1 < items.length ? mux(index.bit(b), items[i + 1]!, items[i]!) : items[i]!);
    items = next;
  }
  return items[0]!;
}
