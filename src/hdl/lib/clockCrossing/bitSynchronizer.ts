// A multi-flop synchronizer: brings a signal of another clock domain (or an asynchronous input) into the domain of `clk`.
import { Clock, UInt, defineModule, input, output, type UIntValue } from '../../index.ts';
import { crossingDomain, resetPort, startAt, type CrossingResetParams } from './crossingReset.ts';
import { integerParam } from '../paramError.ts';

export interface BitSynchronizerParams extends CrossingResetParams {
  /** Bits synchronized, each on its own. */
  readonly width: number;
  /** Flip-flops in the chain: at least 2 (default 2); 3 for a higher MTBF at fast clocks. */
  readonly stages?: number;
}

/**
 * `stages` flip-flops in a row clocked by `clk`, per bit. The first may go metastable when `d` changes
 * near an edge; the following ones give it a cycle to settle before `q` uses it. Every flop is a
 * synchronizer register (`ASYNC_REG`: FPGA tools keep the chain in one slice and out of retiming), and
 * the clock-domain crossing check accepts `d` from any domain.
 *
 * Guarantees, per bit: `q` is a clean level of the `clk` domain, and a change of `d` reaches `q` at the
 * `stages`-th rising edge of `clk` after it (`stages` + 1 in silicon when the first flop resolves late; an
 * edge at the very instant of the change samples the old value). A level of `d` shorter than a `clk`
 * period may be missed.
 *
 * The bits are synchronized independently: they may resolve one cycle apart. A multi-bit value must
 * therefore change at most one bit at a time (Gray-code a counter: toGray/fromGray), or cross with
 * AsyncFifo or a handshake instead. With `resetKind`, a `reset` input of the `clk` domain clears the chain.
 */
export const BitSynchronizer = defineModule(
  'BitSynchronizer',
  (p: BitSynchronizerParams) => ({
    clk: input(Clock),
    ...resetPort('BitSynchronizer', 'reset', p),
    d: input(UInt(p.width)),
    q: output(UInt(p.width)),
  }),
  (m, io, p) => {
    const stages = integerParam('BitSynchronizer', 'stages', p.stages, 2, 2);
    m.useDomain(crossingDomain(m, 'clk', io.clk, io.reset, p));
    let prev: UIntValue = io.d;
    for (let i = 0; i < stages; i++) {
      const flop = m.reg(UInt(p.width), { ...startAt(p, 0), synchronizer: true, name: `sync${i}` });
      flop.set(prev);
      prev = flop;
    }
    io.q.set(prev);
  },
);
