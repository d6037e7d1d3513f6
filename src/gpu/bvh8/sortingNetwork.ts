// A pipelined sorting network: Batcher's odd–even merge sort over unsigned keys, one comparator layer per register stage.
import type { ModuleBuilder, UIntValue } from '../../hdl/index.ts';
import { mux } from '../../hdl/index.ts';

/** One comparator: after it, position `lo` holds the smaller key and `hi` the larger (lo < hi). */
export type Comparator = readonly [lo: number, hi: number];

/**
 * The comparator layers of Batcher's odd–even merge sort of n keys (n a power of two, 2 to 64): the
 * comparators of a layer touch distinct positions, so a layer is one stage of logic. n = 8: 19
 * comparators in 6 layers.
 */
export function oddEvenMergeSortLayers(n: number): Comparator[][] {
  if (!Number.isInteger(n) || n < 2 || n > 64 || (n & (n - 1)) !== 0) throw new Error(`sorting network: the key count must be a power of two from 2 to 64, got ${n}`);
  const layers: Comparator[][] = [];
  for (let p = 1; p < n; p *= 2) {
    for (let k = p; k >= 1; k /= 2) {
      const layer: Comparator[] = [];
      for (let j = k % p; j + k < n; j += 2 * k) {
        for (let i = 0; i < k && i + j + k < n; i++) {
          // Only pairs inside the same block of 2p positions are merged at this step.
          if (Math.floor((i + j) / (2 * p)) === Math.floor((i + j + k) / (2 * p))) layer.push([i + j, i + j + k]);
        }
      }
      layers.push(layer);
    }
  }
  return layers;
}

/** The network applied to numbers (the reference the hardware is checked against in tests). */
export function applyNetwork(layers: readonly (readonly Comparator[])[], keys: readonly bigint[]): bigint[] {
  const v = [...keys];
  for (const layer of layers) for (const [lo, hi] of layer) if (v[hi]! < v[lo]!) [v[lo], v[hi]] = [v[hi]!, v[lo]!];
  return v;
}

/**
 * The keys sorted ascending (unsigned compare), each layer's outputs registered: the result stands
 * `layers.length` cycles after the keys. Keys must be distinct for the order to be the unique one
 * (callers append the slot number).
 */
export function sortPipelined(m: ModuleBuilder, layers: readonly (readonly Comparator[])[], keys: readonly UIntValue[], name: string): UIntValue[] {
  let v = [...keys];
  layers.forEach((layer, l) => {
    const next = [...v];
    for (const [lo, hi] of layer) {
      const swap = v[hi]!.lt(v[lo]!);
      next[lo] = mux(swap, v[hi]!, v[lo]!);
      next[hi] = mux(swap, v[lo]!, v[hi]!);
    }
    v = next.map((k, i) => m.regNext(k, { name: `${name}_l${l}_k${i}` }));
  });
  return v;
}
