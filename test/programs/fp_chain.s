// Floating-point results used back to back: s_itof -> ff_add -> ff_mul -> ff_sub -> ff_div -> ff_mul (both operands)
// -> s_sqrt; s_ftoi -> s_itof -> cmp_f -> branch; v_get_from_s lanes -> v_reduce -> cmp_f -> branch; vf_mul ->
// vv_add -> v_reduce -> ff_add -> cmp_f -> branch; signed zeros.
// R2 = 3, R3 = -2, R4 = 1, R5 = 3, R6 = 5, R7 = -2.5, R8 = 6.25, R9 = 2.5; R10 = ftoi(-2.5) = -2; R11 = -2.0 = R3
// RV1 = (2.5, -2.5, 6.25, 0), R12 = (2.5 + -2.5) + (6.25 + 0) = 6.25 = R8
// RV2 = RV1 * -2 = (-5, 5, -12.5, -0); RV3 = RV2 + RV1 = (-2.5, 2.5, -6.25, +0); R13 = 0 + -6.25; R14 = R13 + R12 = +0
// result: (R9, R12, RV2.w, R10); a wrong branch stores -1 into w3
// expect pixel 0: 40200000 40c80000 80000000 fffffffe
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_addi R2, R0, #3
  s_itof R2, R2                // 3.0
  ii_addi R3, R0, #-2
  s_itof R3, R3                // -2.0
  ff_add R4, R2, R3            // 1.0
  ff_mul R5, R4, R2            // 3.0
  ff_sub R6, R5, R3            // 5.0
  ff_div R7, R6, R3            // -2.5
  ff_mul R8, R7, R7            // 6.25
  s_sqrt R9, R8                // 2.5
  s_store_4byte R9, R20, #0
  s_ftoi R10, R7               // -2 (toward zero)
  s_itof R11, R10              // -2.0
  cmp_f R11, R3                // equal
  bne bad
  v_get_from_s RV1, R9, #0
  v_get_from_s RV1, R7, #1
  v_get_from_s RV1, R8, #2     // (2.5, -2.5, 6.25, 0)
  v_reduce R12, RV1            // 6.25
  cmp_f R12, R8                // equal
  bne bad
  s_store_4byte R12, R20, #4
  vf_mul RV2, RV1, R3          // (-5, 5, -12.5, -0)
  vv_add RV3, RV2, RV1         // (-2.5, 2.5, -6.25, +0)
  v_reduce R13, RV3            // -6.25
  ff_add R14, R13, R12         // +0
  cmp_f R14, R0                // equal
  bne bad
  s_get_from_v R15, RV2, #3    // -0
  s_store_4byte R15, R20, #8
  s_store_4byte R10, R20, #12
  fin
bad:
  ii_addi R16, R0, #-1
  s_store_4byte R16, R20, #12
  fin
