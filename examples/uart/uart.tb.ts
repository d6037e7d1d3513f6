// Testbench of the UART loopback: random bytes in, the same bytes out, and every frame on the line decoded and timed in TypeScript.
import { elaborate } from 'rtgpu/hdl';
import { StreamSink, StreamSource, type Testbench } from 'rtgpu/hdl/testbench';
import { UartLoopback, params } from './uart.ts';

export const design = elaborate(UartLoopback, params).design;

const byteCount = 40;

/** A hung design fails here instead of running to the CLI's default of a million cycles. */
export const maxCycles = 20_000;

export default async function (tb: Testbench): Promise<void> {
  const bitTime = params.clocksPerBit;
  await tb.reset();
  if (tb.peek('txd') !== 1n) throw new Error('the line is not idle (high) after reset');

  // A UART receiver in TypeScript: every frame must hold each bit for exactly one bit time.
  const onLine: bigint[] = [];
  tb.fork('line decoder', async () => {
    for (;;) {
      await tb.until(() => tb.peek('txd') === 0n);
      const frameStart = tb.cycle;
      const bits: bigint[] = [];
      for (let bit = 0; bit < 10; bit++) {
        for (let cycle = 0; cycle < bitTime; cycle++) {
          if (bit || cycle) await tb.settled(); // the next cycle's
          const level = tb.peek('txd');
          if (cycle === 0) {
            bits.push(level);
          } else if (level !== bits[bit]) {
            throw new Error(`frame from cycle ${frameStart}: txd changed within bit ${bit} at cycle ${tb.cycle}`);
          }
        }
      }
      if (bits[9] !== 1n) throw new Error(`frame from cycle ${frameStart}: the stop bit is low`);
      onLine.push(bits.slice(1, 9).reduce((byte, b, i) => byte | (b << BigInt(i)), 0n));
    }
  });

  const bytes = [0x00n, 0xffn, 0x55n, 0xaan, ...Array.from({ length: byteCount - 4 }, () => tb.rng.bits(8))];
  const sender = new StreamSource(tb, 'send', { idle: 0.3 });
  const receiver = new StreamSink(tb, 'receive', { backpressure: 0.5 });
  sender.enqueue(...bytes);
  for (const [i, sent] of bytes.entries()) {
    const got = await receiver.receive();
    if (got !== sent) throw new Error(`byte ${i}: sent 0x${sent.toString(16)}, received 0x${got.toString(16)}`);
  }
  // The receiver delivers a byte in the middle of its stop bit; let the decoder see the rest of it.
  await tb.tick(bitTime);
  for (const [i, sent] of bytes.entries()) {
    if (onLine[i] !== sent) throw new Error(`frame ${i} on the line is 0x${onLine[i]?.toString(16)}, sent 0x${sent.toString(16)}`);
  }
  if (onLine.length !== bytes.length) throw new Error(`${onLine.length} frames on the line for ${bytes.length} bytes`);
  for (const flag of ['frameError', 'overrun']) {
    if (tb.peek(flag) !== 0n) throw new Error(`${flag} is set after a clean run`);
  }
}
