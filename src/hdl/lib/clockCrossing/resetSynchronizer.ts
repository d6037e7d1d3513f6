// A reset synchronizer: asserts a domain's reset at once (asynchronously) and releases it on a clock edge of the domain.
import { Bool, Clock, defineModule, input, output, type BoolValue, type ResetActive } from '../../index.ts';
import { integerParam, paramError } from '../paramError.ts';

export interface ResetSynchronizerParams {
  /** The level of `resetIn` that asserts it. */
  readonly inputActive: ResetActive;
  /** The level `resetOut` asserts with. */
  readonly outputActive: ResetActive;
  /** Flip-flops in the chain: at least 2 (default 2). */
  readonly stages?: number;
}

/**
 * `stages` flip-flops clocked by `clk` and reset asynchronously by `resetIn`, shifting in the released
 * level. `resetIn` may come from anywhere (a pin, a power-on circuit, a register of another domain): the
 * chain reads it as an asynchronous reset, a declared false path.
 *
 * Guarantees: `resetOut` asserts as soon as `resetIn` does, without a clock edge, and stays asserted
 * while `resetIn` is; it releases at the `stages`-th rising edge of `clk` after `resetIn` releases
 * (`stages` + 1 in silicon when the first flop resolves late), on the edge, so every register of the
 * domain leaves reset in the same cycle. `resetOut` is a flip-flop output: it does not glitch. Hold
 * `resetIn` asserted at power-on (as a power-on reset is): the flops' power-on state is no reset. Use it
 * as the reset of a domain of either kind: `m.clockDomain({ clock, reset: rs.io.resetOut, resetKind:
 * 'async', resetActive })`. The flops carry `ASYNC_REG`.
 */
export const ResetSynchronizer = defineModule(
  'ResetSynchronizer',
  (p: ResetSynchronizerParams) => ({
    clk: input(Clock),
    resetIn: input(Bool),
    resetOut: output(Bool),
  }),
  (m, io, p) => {
    for (const k of ['inputActive', 'outputActive'] as const) if (p[k] !== 'high' && p[k] !== 'low') throw paramError('ResetSynchronizer', `${k} must be 'high' or 'low', got ${String(p[k])}`);
    const stages = integerParam('ResetSynchronizer', 'stages', p.stages, 2, 2);
    const arst = m.crossDomain(io.resetIn, 'an asynchronous reset: asserted at any time, released through the synchronizer flops');
    m.useDomain(m.clockDomain({ clock: io.clk, reset: arst, resetKind: 'async', resetActive: p.inputActive }));
    const asserted = p.outputActive === 'high' ? 1 : 0;
    let prev: BoolValue | number = 1 - asserted;
    for (let i = 0; i < stages; i++) {
      const flop = m.reg(Bool, { reset: asserted, synchronizer: true, name: `sync${i}` });
      flop.set(prev);
      prev = flop;
    }
    io.resetOut.set(prev);
  },
);
