// The pipeline depths of the float units in the GPU's cores, chosen for 200 MHz (docs/performance.md, "Timing").
/**
 * Cycles from operands to result of each float unit as the RT and IC cores instantiate them. At these
 * depths every stage of every unit is at most 7 LUT levels on Xilinx 7 series (Yosys `synth_xilinx`),
 * and the multiplier's DSP blocks have registers on both sides.
 */
export const gpuFloatLatencies = { fadd: 3, fmul: 5, fdiv: 14, fsqrt: 13, itof: 2, ftoi: 2 } as const;
