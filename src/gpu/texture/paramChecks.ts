// Shared by the texture unit's blocks: a parameter that must be a whole number in a range.

/** Throws a clear error naming the block and the parameter unless v is an integer lo … hi. */
export function checkWhole(block: string, name: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new Error(`${block}: ${name} must be an integer ${lo} … ${hi}, got ${v}`);
}
