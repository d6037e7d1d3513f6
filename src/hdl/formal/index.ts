// The formal flow: a design's assertions, assumptions and cover points checked by Yosys and yosys-smtbmc with z3 (rtgpu prove).
export { prove } from './prove.ts';
export { proofModes, type ProofMode, type ProofOptions, type ProofResult, type ProofStatus, type DesignSource, type PropertyRef, type PropertyKind, type InputTrace, type Counterexample, type CoverResult } from './proofResult.ts';
export { counterexampleTestbench, type CounterexampleTestbench } from './counterexample.ts';
