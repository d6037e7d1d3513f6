// A UART transmitter: 8 data bits, no parity, one stop bit, `clocksPerBit` clock cycles per bit.
import { Bool, Decoupled, UInt, defineModule, fsm, input, mux, output } from 'rtgpu/hdl';
import { clog2 } from 'rtgpu/hdl/lib';

export interface UartParams {
  /** Clock cycles per bit on the line: the clock frequency divided by the baud rate (at least 4). */
  readonly clocksPerBit: number;
}

/** Fails early, at elaboration, on a rate the receiver could not sample. */
export function checkUartParams(p: UartParams): void {
  if (!Number.isInteger(p.clocksPerBit) || p.clocksPerBit < 4)
    throw new Error(`clocksPerBit must be an integer of at least 4, got ${p.clocksPerBit}`);
}

/**
 * Takes a byte from `data` and sends it on `txd`: a low start bit, the data bits LSB first, a high stop
 * bit. The line comes from a register (no glitches), and the next byte is taken in the last cycle of the
 * stop bit, so bytes sent back to back leave no idle time between frames.
 */
export const UartTx = defineModule(
  'UartTx',
  (p: UartParams) => ({
    data: input(Decoupled(UInt(8))),
    txd: output(Bool),
  }),
  (m, io, p) => {
    checkUartParams(p);
    const line = m.reg(Bool, { reset: 1 }); // a UART line idles high
    const timer = m.reg(UInt(clog2(p.clocksPerBit)), { reset: 0 }); // cycles left in this bit, minus one
    const bitIndex = m.reg(UInt(3), { reset: 0 });
    const shifter = m.reg(UInt(8)); // the data bits not yet sent, next one in bit 0
    const tx = fsm(m, 'tx', ['idle', 'start', 'data', 'stop'], 'idle');
    const bitDone = timer.eq(0);

    io.txd.set(line);
    io.data.ready.set(tx.is('idle').or(tx.is('stop').and(bitDone)));

    m.when(tx.is('idle').not(), () => timer.set(mux(bitDone, p.clocksPerBit - 1, timer.sub(1))));
    tx.on({
      start: () =>
        m.when(bitDone, () => {
          line.set(shifter.bit(0));
          shifter.set(shifter.shr(1));
          bitIndex.set(0);
          tx.goto('data');
        }),
      data: () =>
        m.when(bitDone, () => {
          m.when(bitIndex.eq(7), () => {
            line.set(true);
            tx.goto('stop');
          }).otherwise(() => {
            line.set(shifter.bit(0));
            shifter.set(shifter.shr(1));
            bitIndex.set(bitIndex.add(1));
          });
        }),
      stop: () => m.when(bitDone, () => tx.goto('idle')),
    });
    // Taking a byte (in idle, or as the stop bit ends) starts the next frame: overrides the moves above.
    m.when(io.data.fire, () => {
      shifter.set(io.data.bits);
      line.set(false);
      timer.set(p.clocksPerBit - 1);
      tx.goto('start');
    });
  },
);
