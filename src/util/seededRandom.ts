// A small seeded pseudo-random generator (xoshiro128**) so that every random test can be replayed from its seed.
export interface Rng {
  /** Uniform in [0, 1). */
  (): number;
  /** Uniform 32-bit unsigned integer. */
  u32(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform value of `width` bits. */
  bits(width: number): bigint;
  readonly seed: number;
}

export function createRng(seed: number): Rng {
  // splitmix32 expands the seed into the four state words.
  let s = seed >>> 0;
  const split = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split(), b = split(), c = split(), d = split();
  const u32 = (): number => {
    const r = Math.imul(((Math.imul(b, 5) << 7) | (Math.imul(b, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = (b << 9) >>> 0;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c = (c ^ t) >>> 0;
    d = ((d << 11) | (d >>> 21)) >>> 0;
    return r;
  };
  const rng = (() => u32() / 4294967296) as Rng;
  Object.assign(rng, {
    u32,
    int: (n: number) => Math.floor((u32() / 4294967296) * n),
    bits: (width: number) => {
      let v = 0n;
      for (let w = 0; w < width; w += 32) v |= BigInt(u32()) << BigInt(w);
      return v & ((1n << BigInt(width)) - 1n);
    },
    seed,
  });
  return rng;
}

/** The seed for a randomized run: `SEED` from the environment if set, else a fresh one. Print it. */
export function seedFromEnv(): number {
  const env = process.env.SEED;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Error(`SEED must be an integer from 0 to 4294967295, got '${env}'`);
    return n;
  }
  return (Math.random() * 0x100000000) >>> 0;
}
