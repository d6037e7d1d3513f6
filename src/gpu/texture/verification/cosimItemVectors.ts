// Shared by the texture blocks' co-simulation designs: one random item per cycle around rare resets and bubbles, and hex words in reports.
import type { Rng } from '../../../util/seededRandom.ts';

/** Reset for the first two cycles, then rarely (it must clear every valid bit in flight); a bubble one cycle in eight; else a random item. */
export const itemStimulus =
  (item: (rng: Rng) => Record<string, bigint>) =>
  (cycle: number, rng: Rng): Record<string, bigint> => ({
    rst_n: cycle < 2 || rng.int(2000) === 0 ? 0n : 1n,
    ...item(rng),
    in_valid: rng.int(8) === 0 ? 0n : 1n,
  });

/** A 32-bit word as 0x…, eight digits. */
export const hex = (x: number): string => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;
