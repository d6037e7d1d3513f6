// Testbench of the dot-product unit: random packets of (a, b) pairs, each sum checked against TypeScript.
import { elaborate } from 'rtgpu/hdl';
import { StreamSink, StreamSource, type Testbench } from 'rtgpu/hdl/testbench';
import { DotProduct, params } from './blackbox.ts';

export const design = elaborate(DotProduct, params).design;

/** A hung design fails here instead of running to the CLI's default of a million cycles. */
export const maxCycles = 20_000;

const packetCount = 120;
const longestPacket = 16;

/** One beat of the `terms` stream (a type, not an interface: StreamSource wants a record of bigints). */
type Term = { a: bigint; b: bigint; last: bigint };

export default async function (tb: Testbench): Promise<void> {
  await tb.reset();
  const max = (1n << BigInt(params.width)) - 1n;
  const packets: bigint[][][] = [
    [[0n, 0n]], // one beat, zero
    [[max, max]], // the largest product
    Array.from({ length: 256 }, () => [max, max]), // the largest sum the accumulator must hold
  ];
  for (let i = 0; i < packetCount; i++) {
    const length = 1 + tb.rng.int(longestPacket);
    packets.push(Array.from({ length }, () => [tb.rng.bits(params.width), tb.rng.bits(params.width)]));
  }

  const terms = new StreamSource<Term>(tb, 'terms', { idle: 0.3 });
  const sums = new StreamSink(tb, 'sum', { backpressure: 0.4 });
  for (const packet of packets) terms.enqueue(...packet.map(([a, b], i) => ({ a: a!, b: b!, last: i === packet.length - 1 ? 1n : 0n })));

  for (const [i, packet] of packets.entries()) {
    const want = packet.reduce((sum, [a, b]) => sum + a! * b!, 0n);
    const got = await sums.receive();
    if (got !== want) throw new Error(`packet ${i} (${packet.length} pairs): the sum is ${got}, expected ${want}`);
  }
}
