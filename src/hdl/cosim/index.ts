// Co-simulation: random-stimulus runs of a design on several simulators, recording and replay from vector files, RTL checks.
export type { CosimDesign, GoldenModel } from './design.ts';
export { runCosim, formatMismatch, buildStimulus, stimulusRecording, type CosimOptions, type CosimReport, type CosimMismatch } from './runCosim.ts';
export { simulatorNames, type SimulatorName } from './backends.ts';
export { runVectorsOn } from './runVectors.ts';
export { RecordingSimulator } from './recordingSimulator.ts';
export { replayRecording, type ReplayReport } from './replay.ts';
export type { Recording } from './recording.ts';
export { portableTestbench, testbenchCommands, type PortableTestbench, type PortableTestbenchOptions, type TestbenchLayout, type VectorColumn } from './portableTestbench.ts';
export { benchmarkDesign, benchmarkPropertyCost, benchmarkRounds, median, verilatorThreadsSuffix, type BenchRow, type BenchSource, type RecordedBench, type RoundsResult } from './benchmark.ts';
export { driveDesignRandomly, recordRandomRun, type RandomRun } from './randomRun.ts';
export { assumptionsHold, designAssumes } from './assumptions.ts';
export { verilatorLint, icarusCompile, yosysSynth, yosysElaborate, type CheckResult, type RtlSource } from './rtlChecks.ts';
export { withSourceLines } from './lintSourceLines.ts';
export { checkSources, type SourceProblem } from '../tools/index.ts';
