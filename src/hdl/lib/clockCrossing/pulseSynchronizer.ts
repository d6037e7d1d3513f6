// A pulse synchronizer: a one-cycle pulse of the source domain becomes a one-cycle pulse of the destination domain.
import { Bool, Clock, defineModule, input, output } from '../../index.ts';
import { BitSynchronizer } from './bitSynchronizer.ts';
import { crossingDomain, resetParamsOf, resetPort, startAt, type CrossingResetParams } from './crossingReset.ts';
import { integerParam } from '../paramError.ts';

export interface PulseSynchronizerParams extends CrossingResetParams {
  /** Flip-flops of the bit synchronizer in the destination domain: at least 2 (default 2). */
  readonly stages?: number;
}

/**
 * Each rising edge of `srcClk` at which `d` is 1 flips a toggle flop; a BitSynchronizer carries the
 * toggle into the `dstClk` domain, where an edge detector turns each change into `q` = 1 for one
 * `dstClk` cycle. `d` held high for n source cycles is n pulses.
 *
 * Guarantees: one output pulse per input pulse, in order, provided consecutive input pulses are at
 * least two `dstClk` periods apart (one period for the toggle's level to be sampled, one of margin for
 * a late-resolving first flop; in simulation, more than one `dstClk` period suffices). Closer pulses
 * are lost in pairs: a toggle flipped twice between destination edges is not seen. For pulses faster
 * than that, use AsyncFifo or a handshake. Latency: `q` rises at the `stages`-th rising edge of
 * `dstClk` after the source edge that took the pulse (`stages` + 1 in silicon when the first flop
 * resolves late), and stays 1 for one `dstClk` cycle. Two pulses can arrive in consecutive cycles
 * (`q` is then 1 for two cycles: two pulses).
 *
 * With `resetKind`, `srcReset` and `dstReset` reset their domains; assert them together.
 */
export const PulseSynchronizer = defineModule(
  'PulseSynchronizer',
  (p: PulseSynchronizerParams) => ({
    srcClk: input(Clock),
    ...resetPort('PulseSynchronizer', 'srcReset', p),
    d: input(Bool),
    dstClk: input(Clock),
    ...resetPort('PulseSynchronizer', 'dstReset', p),
    q: output(Bool),
  }),
  (m, io, p) => {
    const stages = integerParam('PulseSynchronizer', 'stages', p.stages, 2, 2);
    const src = crossingDomain(m, 'src', io.srcClk, io.srcReset, p);
    const dst = crossingDomain(m, 'dst', io.dstClk, io.dstReset, p);
    const toggle = m.reg(Bool, { ...startAt(p, 0), domain: src, name: 'toggle' });
    m.when(io.d, () => toggle.set(toggle.not()));
    const sync = m.instance(BitSynchronizer, { width: 1, stages, ...resetParamsOf(p) }, { domain: dst, name: 'sync' });
    sync.io.clk.set(io.dstClk);
    if (io.dstReset) sync.io.reset.set(io.dstReset);
    sync.io.d.set(toggle);
    const seen = m.reg(Bool, { ...startAt(p, 0), domain: dst, name: 'seen' });
    seen.set(sync.io.q.bit(0));
    io.q.set(sync.io.q.bit(0).xor(seen));
  },
);
