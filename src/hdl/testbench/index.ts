// Testbenches over any simulator: clock-driven processes, stream drivers and monitors, memory models, seeded randomness.
export { Testbench, Process, TestbenchTimeoutError, type Phase, type TestbenchOptions, type RunOptions } from './testbench.ts';
export { Mailbox } from './mailbox.ts';
export { StreamSource, StreamSink, StreamMonitor, streamPorts, type StreamPorts, type StreamValue, type StreamItem } from './streams.ts';
export { ReadResponder, type ReadResponderOptions } from './readResponder.ts';
export { driveRandomly, findStreams, type RandomStimulusOptions, type FoundStream } from './randomStimulus.ts';
// The seeded generator is a general utility (src/util/); re-exported here for testbench writers using the package.
export { createRng, seedFromEnv, type Rng } from '../../util/seededRandom.ts';
