// Testbench of the GCD unit: corner cases and random pairs, with random gaps and back-pressure, checked against a TypeScript gcd.
import { elaborate } from 'rtgpu/hdl';
import { StreamSink, StreamSource, type Testbench } from 'rtgpu/hdl/testbench';
import { Gcd, params } from './gcd.ts';

export const design = elaborate(Gcd, params).design;

/** The reference model: Euclid's algorithm on bigints. */
function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

const randomPairs = 300;

/** A hung design fails here instead of running to the CLI's default of a million cycles. */
export const maxCycles = 50_000;

export default async function (tb: Testbench): Promise<void> {
  await tb.reset();
  const width = params.width;
  const max = (1n << BigInt(width)) - 1n;
  const pairs: { a: bigint; b: bigint }[] = [
    { a: 0n, b: 0n },
    { a: 0n, b: 12n },
    { a: 18n, b: 0n },
    { a: 1n, b: max },
    { a: max, b: max },
    { a: 1n << BigInt(width - 1), b: 1n << BigInt(width - 2) },
  ];
  for (let i = 0; i < randomPairs; i++) {
    if (i % 2) {
      pairs.push({ a: tb.rng.bits(width), b: tb.rng.bits(width) });
    } else {
      // A shared factor (odd or even), so that answers other than 1 are common.
      const g = tb.rng.bits(tb.rng.int(width / 2) + 1) || 1n;
      pairs.push({ a: (tb.rng.bits(width) / g) * g, b: (tb.rng.bits(width) / g) * g });
    }
  }

  const requests = new StreamSource<{ a: bigint; b: bigint }>(tb, 'req', { idle: 0.3 });
  const responses = new StreamSink(tb, 'resp', { backpressure: 0.3 });
  requests.enqueue(...pairs);
  for (const { a, b } of pairs) {
    const got = await responses.receive();
    const want = gcd(a, b);
    if (got !== want) throw new Error(`gcd(${a}, ${b}): the design answered ${got}, expected ${want}`);
  }
}
