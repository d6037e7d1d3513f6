// Packing 32-bit words into the wide port values testbenches poke and peek (word 0 least significant).

export const packWords = (words: readonly number[]): bigint => words.reduce((acc, x, i) => acc | (BigInt(x >>> 0) << BigInt(32 * i)), 0n);

export const unpackWords = (value: bigint, n: number): number[] => Array.from({ length: n }, (_, i) => Number((value >> BigInt(32 * i)) & 0xffffffffn));
