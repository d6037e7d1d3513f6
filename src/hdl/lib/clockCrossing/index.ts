// Clock-domain crossing primitives: synchronizers for bits, pulses and resets, and the dual-clock FIFO.
export { BitSynchronizer, type BitSynchronizerParams } from './bitSynchronizer.ts';
export { PulseSynchronizer, type PulseSynchronizerParams } from './pulseSynchronizer.ts';
export { ResetSynchronizer, type ResetSynchronizerParams } from './resetSynchronizer.ts';
export { AsyncFifo, asyncFifo, type AsyncFifoParams, type AsyncFifoPorts } from './asyncFifo.ts';
export { toGray, fromGray } from './gray.ts';
export type { CrossingResetParams } from './crossingReset.ts';
