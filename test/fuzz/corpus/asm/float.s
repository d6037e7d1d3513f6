
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
