// The standard library, built only on the public eDSL API.
export { clog2 } from './clog2.ts';
export { selectByIndex } from './selectByIndex.ts';
export { Fifo, type FifoParams, type FifoPorts } from './fifo.ts';
export { SkidBuffer, type SkidBufferParams, type SkidBufferPorts } from './skid.ts';
export { RoundRobinArbiter, type ArbiterParams, type ArbiterPorts } from './arbiter.ts';
export { payloadType, toWord, fromWord, type PayloadParams, type PayloadOf } from './payload.ts';
export { Counter, UpDownCounter } from './counter.ts';
export { ShiftRegister } from './shiftRegister.ts';
export { delay, delayValid } from './delay.ts';
export { PriorityEncoder, OneHotEncoder, Decoder } from './encoders.ts';
export { lowestSet } from './lowestSet.ts';
export * from './float/index.ts';
export * from './clockCrossing/index.ts';
