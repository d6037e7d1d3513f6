// Wrap modes on integer texel indices: repeat, clamp-to-edge and mirror map any index into 0 … size − 1.
import type { WrapModeName } from './textureHeader.ts';

/** Non-negative remainder of i by n (n ≥ 1). */
const modulo = (i: number, n: number): number => ((i % n) + n) % n;

/**
 * The texel index an integer index `i` reads along an axis of `size` texels:
 * repeat: i mod size; clampToEdge: i clamped to [0, size − 1];
 * mirror: k = i mod 2·size, then k if k < size else 2·size − 1 − k (…, 1, 0, 0, 1, …, size − 1, size − 1, …).
 */
export function wrapTexelIndex(i: number, size: number, mode: WrapModeName): number {
  switch (mode) {
    case 'repeat':
      return modulo(i, size);
    case 'clampToEdge':
      return Math.min(Math.max(i, 0), size - 1);
    case 'mirror': {
      const k = modulo(i, 2 * size);
      return k < size ? k : 2 * size - 1 - k;
    }
  }
}
