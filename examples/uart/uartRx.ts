// A UART receiver: samples each bit in its middle, delivers bytes on a stream, flags framing errors and overruns.
import { Bool, Decoupled, UInt, cat, defineModule, fsm, input, output } from 'rtgpu/hdl';
import { clog2 } from 'rtgpu/hdl/lib';
import { checkUartParams, type UartParams } from './uartTx.ts';

/**
 * The line is asynchronous to our clock, so it passes two flip-flops first. A falling edge starts a
 * frame; the start bit is checked again half a bit later (a shorter pulse is a glitch, not a frame),
 * then every bit is sampled one bit time after the previous one. A byte waits in a one-byte holding
 * register until `data` takes it; a UART cannot be paused, so a byte that finds the register still
 * full is dropped and `overrun` is set. Both error flags stay set until reset.
 */
export const UartRx = defineModule(
  'UartRx',
  (p: UartParams) => ({
    rxd: input(Bool),
    data: output(Decoupled(UInt(8))),
    frameError: output(Bool),
    overrun: output(Bool),
  }),
  (m, io, p) => {
    checkUartParams(p);
    const rxdMeta = m.reg(Bool, { reset: 1 });
    const line = m.reg(Bool, { reset: 1 });
    rxdMeta.set(io.rxd);
    line.set(rxdMeta);

    const timer = m.reg(UInt(clog2(p.clocksPerBit)), { reset: 0 }); // cycles to the next sample
    const bitIndex = m.reg(UInt(3), { reset: 0 });
    const shifter = m.reg(UInt(8)); // bits arrive LSB first: shift in from the top
    const held = m.reg(UInt(8));
    const heldValid = m.reg(Bool, { reset: 0 });
    const frameError = m.reg(Bool, { reset: 0 });
    const overrun = m.reg(Bool, { reset: 0 });
    const rx = fsm(m, 'rx', ['idle', 'start', 'data', 'stop'], 'idle');
    const sample = timer.eq(0);

    io.data.valid.set(heldValid);
    io.data.bits.set(held);
    io.frameError.set(frameError);
    io.overrun.set(overrun);

    m.when(sample.not(), () => timer.set(timer.sub(1)));
    // Before the state machine: a byte completing this cycle may refill the register the consumer empties.
    m.when(io.data.fire, () => heldValid.set(false));
    rx.on({
      idle: () =>
        m.when(line.not(), () => {
          timer.set(Math.floor((p.clocksPerBit - 1) / 2)); // to the middle of the start bit
          rx.goto('start');
        }),
      start: () =>
        m.when(sample, () => {
          m.when(line, () => rx.goto('idle')).otherwise(() => {
            timer.set(p.clocksPerBit - 1);
            bitIndex.set(0);
            rx.goto('data');
          });
        }),
      data: () =>
        m.when(sample, () => {
          shifter.set(cat(line, shifter.bits(7, 1)));
          timer.set(p.clocksPerBit - 1);
          bitIndex.set(bitIndex.add(1));
          m.when(bitIndex.eq(7), () => rx.goto('stop'));
        }),
      stop: () =>
        m.when(sample, () => {
          rx.goto('idle');
          m.when(line.not(), () => frameError.set(true))
            .elsewhen(heldValid.and(io.data.ready.not()), () => overrun.set(true))
            .otherwise(() => {
              held.set(shifter);
              heldValid.set(true);
            });
        }),
    });
  },
);
