// Ceiling of log2, the address width that reaches n items (at least 1 bit).
export function clog2(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new Error(`clog2 needs a positive integer, got ${n}`);
  return Math.max(1, Math.ceil(Math.log2(n)));
}
