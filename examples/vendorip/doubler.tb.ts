// Testbench of the vendor-IP stream stage: random values in with gaps, out with back-pressure, each checked doubled.
import { elaborate } from 'rtgpu/hdl';
import { StreamSink, StreamSource, type Testbench } from 'rtgpu/hdl/testbench';
import { Doubler, params } from './doubler.ts';

export const design = elaborate(Doubler, params).design;

export const maxCycles = 20_000;

/**
 * What lockstep compares: the vendor's registers hold X until the first reset (Icarus shows it), and
 * its data registers stay X until written, which `out_bits` shows while `out_valid` is low (not
 * compared then: the default for every stream's payload).
 */
export const lockstep = { fromFirstReset: true };

export default async function (tb: Testbench): Promise<void> {
  await tb.reset(2);
  const source = new StreamSource(tb, 'in', { idle: 0.3 });
  const sink = new StreamSink(tb, 'out', { backpressure: 0.4 });
  const values = Array.from({ length: 300 }, () => tb.rng.bits(params.width));
  source.enqueue(...values);
  const mask = (1n << BigInt(params.width)) - 1n;
  for (const [i, v] of values.entries()) {
    const got = await sink.receive();
    if (got !== ((v << 1n) & mask)) throw new Error(`value ${i}: got ${got}, expected ${(v << 1n) & mask} (2 × ${v})`);
  }
}
