// Divisions followed at once by their use: ii_div (negative operands, truncation toward zero), two divisions back to
// back, x / 0 = -1, INT_MIN / -1 = INT_MIN, ii_divi, ii_mod; ff_div whose result is used by ff_mul and ff_div at once.
// R4 = 1000 / -7 = -142, R5 = -141; R6 = -142 / -7 = 20, R7 = 400; R8 = 1000 / 0 + 400 = 399; R19 = 1 / (1/3) = 3.0
// R10 = INT_MIN / -1 = INT_MIN, R11 = R10 / 0 + R10 = 0x7fffffff; R12 = -7 / 2 = -3; R13 = 1000 mod -7 = 6; R14 = 1
// R17 = 1/3 = 0x3eaaaaab, R18 = R17 * 3 = 1.0; w3 = (6 * 16 - 3 + 1 * 256) xor 0x3f800000
// expect pixel 0: ffffff73 4040018f 7fffffff 3f80015d
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_addi R2, R0, #1000
  ii_addi R3, R0, #-7
  ii_div R4, R2, R3
  ii_addi R5, R4, #1
  ii_div R6, R4, R3
  ii_mul R7, R6, R6
  ii_div R8, R2, R0
  ii_add R8, R8, R7
  s_write_high R9, #0x8000
  ii_divi R10, R9, #-1
  ii_divi R11, R10, #0
  ii_add R11, R11, R10
  ii_divi R12, R3, #2
  ii_mod R13, R2, R3
  ii_div R14, R9, R9
  ii_addi R15, R0, #1
  s_itof R15, R15
  ii_addi R16, R0, #3
  s_itof R16, R16
  ff_div R17, R15, R16
  ff_mul R18, R17, R16
  ff_div R19, R15, R17
  ii_add R19, R19, R8
  ii_muli R21, R13, #16
  ii_add R21, R21, R12
  ii_muli R22, R14, #256
  ii_add R21, R21, R22
  xor R21, R21, R18
  s_store_4byte R5, R20, #0
  s_store_4byte R19, R20, #4
  s_store_4byte R11, R20, #8
  s_store_4byte R21, R20, #12
  fin
