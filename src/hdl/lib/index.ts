// The standard library, built only on the public eDSL API.
export { clog2 } from './clog2.ts';
export { Fifo, type FifoParams } from './fifo.ts';
export { SkidBuffer } from './skid.ts';
export { RoundRobinArbiter, type ArbiterParams } from './arbiter.ts';
export { Counter, UpDownCounter } from './counter.ts';
export { ShiftRegister } from './shiftRegister.ts';
export { PriorityEncoder, OneHotEncoder, Decoder } from './encoders.ts';
