// CPI of the RT core on two kernels (integer, float), measured on the TS simulator for `rtgpu bench`.
import { assemble } from '../../isa/assembler.ts';
import { defaultScene } from '../../scenes/defaultScene.ts';
import { runOnCore } from '../../gpu/rtCore/verification/rtCoreTestbench.ts';

/** Integer kernel: fill a 256-word table, then a loop of loads, arithmetic, logic, compare and branch. */
export const INTEGER_KERNEL = `
    s_mov R7, R29            // table at the thread's memory base
    ii_addi R2, R0, 256
    ii_addi R3, R0, 0
fill:
    ii_muli R4, R3, 7
    xor R4, R4, R1
    s_store_4byte R4, R7, 0
    ii_addi R7, R7, 4
    ii_addi R3, R3, 1
    cmp_i R3, R2
    bl fill
    s_mov R7, R29
    ii_addi R3, R0, 0
    ii_addi R5, R0, 0
sum:
    s_load_4byte R4, R7, 0
    ii_addi R7, R7, 4
    ii_add R5, R5, R4
    and R6, R5, R3
    or R5, R5, R6
    ii_subi R5, R5, 3
    ii_addi R3, R3, 1
    cmp_i R3, R2
    bl sum
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R5, R7, 0
    fin
`;

/** Float kernel: normalize vectors and accumulate dot products (vector multiply, reduce, sqrt, divide). */
export const FLOAT_KERNEL = `
    s_itof R2, R1
    s_write_high R3, #0x3f80        // 1.0
    v_get_from_s RV1, R3, #0
    v_get_from_s RV1, R2, #1
    v_get_from_s RV1, R3, #2
    ii_addi R4, R0, 64
    ii_addi R5, R0, 0
    s_write_high R6, #0x3e00        // 0.125
loop:
    vv_mul_ele RV2, RV1, RV1
    v_reduce R7, RV2
    s_sqrt R8, R7
    vf_div RV3, RV1, R8
    vf_mul RV4, RV3, R6
    vv_add RV1, RV1, RV4
    ff_add R9, R9, R8
    ii_addi R5, R5, 1
    cmp_i R5, R4
    bl loop
    s_mov R7, R29
    s_write_low R7, #0xfff0
    v_store_16byte RV1, R7, 0
    s_store_4byte R9, R7, 12
    fin
`;

export interface CoreCpi {
  readonly cpiInteger: number;
  readonly cpiFloat: number;
}

/**
 * Cycles per retired instruction of one core running 32 pixels of each kernel, as many at once as it
 * has contexts (cycles while it holds a thread; the last threads' tail included).
 */
export function measureCoreCpi(): CoreCpi {
  const cpi = (source: string, file: string) => {
    const r = runOnCore({ program: assemble(source, file).words, scene: defaultScene(), pixels: 32 });
    return r.coreCycles / r.instructions;
  };
  return { cpiInteger: cpi(INTEGER_KERNEL, 'integer-kernel.s'), cpiFloat: cpi(FLOAT_KERNEL, 'float-kernel.s') };
}
