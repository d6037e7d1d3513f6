// A UART loopback: the transmitter's line wired to the receiver's, so bytes sent come back on `receive`.
import { Bool, Decoupled, UInt, defineModule, input, output } from 'rtgpu/hdl';
import { UartRx } from './uartRx.ts';
import { UartTx, type UartParams } from './uartTx.ts';

/** Defaults for the CLI: 8 clock cycles per bit keeps simulations short (115200 baud at 100 MHz is 868). */
export const params: UartParams = { clocksPerBit: 8 };

export const UartLoopback = defineModule(
  'UartLoopback',
  (p: UartParams) => ({
    send: input(Decoupled(UInt(8))),
    receive: output(Decoupled(UInt(8))),
    txd: output(Bool), // the serial line, for a testbench to watch
    frameError: output(Bool),
    overrun: output(Bool),
  }),
  (m, io, p) => {
    const tx = m.instance(UartTx, p);
    const rx = m.instance(UartRx, p);
    m.connect(tx.io.data, io.send);
    rx.io.rxd.set(tx.io.txd);
    m.connect(io.receive, rx.io.data);
    io.txd.set(tx.io.txd);
    io.frameError.set(rx.io.frameError);
    io.overrun.set(rx.io.overrun);
  },
);
