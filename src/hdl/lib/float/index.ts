// IEEE-754 binary32 units written in the eDSL. Every unit takes `{ stages }` (pipeline registers,
// 0 = combinational); its latency in cycles is `stages`, also given by its `…Latency(params)`.
export { type FloatUnitParams, placeRegisters } from './pipeline.ts';
export { CANONICAL_NAN, INF_BITS } from './common.ts';
export { FAdd, FSub, FADD_NATURAL_STAGES, faddLatency, fsubLatency } from './fadd.ts';
export { FMul, FMUL_NATURAL_STAGES, fmulLatency } from './fmul.ts';
export { FDiv, FDIV_NATURAL_STAGES, fdivLatency } from './fdiv.ts';
export { FSqrt, FSQRT_NATURAL_STAGES, fsqrtLatency } from './fsqrt.ts';
export { FCmp, FCMP_NATURAL_STAGES, fcmpLatency, compareFloats, FLAG_ZERO, FLAG_UNORDERED, FLAG_POSITIVE, FLAG_NEGATIVE } from './fcmp.ts';
export { IToF, ITOF_NATURAL_STAGES, itofLatency } from './itof.ts';
export { FToI, FTOI_NATURAL_STAGES, ftoiLatency, INT_MAX, INT_MIN } from './ftoi.ts';
export { FMin, FMax, FMINMAX_NATURAL_STAGES, fminLatency, fmaxLatency, totalOrderLess } from './fminmax.ts';
export { FAbs, FNeg, fabsLatency, fnegLatency } from './fsign.ts';
