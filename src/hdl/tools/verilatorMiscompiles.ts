// Verilator optimizations known to compute wrong values on SystemVerilog that rtgpu emits: every build rtgpu makes turns them off.

/**
 * `-fno-const-bit-op-tree`. Verilator's bit-op-tree rewrite (V3Const) loses terms of a tree of single-bit
 * operations. On Verilator 5.006 (Debian 12's package) `!v5[13] && !v6[18]`, where
 * `v6 = i0 & {59'd0, i1}`, became `!v5[13] && !i0[18]`: the `& i1` was dropped, and a register took
 * the wrong branch (a random multi-clock design, seed 3028313906, found it against Icarus and the TS
 * simulator). Upstream has fixed one case of this rewrite after another (verilator#3824, #4059, #4841,
 * #5186, the last found on 5.026), so it is off on every version, not only on the ones known bad.
 * Its cost is measured in docs/performance.md.
 */
export const VERILATOR_MISCOMPILE_FLAGS: readonly string[] = ['-fno-const-bit-op-tree'];
