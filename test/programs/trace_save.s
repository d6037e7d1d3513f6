// trace with state saved on the stack and restored: the ray from (-0.5, 1.5, 3) along (0, 0, -1) hits the default
// scene's back wall (triangle 5, white = shader 1) at t = 4: RV14 = (-0.5, 1.5, -1, 1), RV15 = (0, 0, 4, 5): the normal, triangle 5.
// After trace the flag is Z (be taken; R11 counts the shadow), R1 and R29 are kept, unsaved registers read 0.
// w0 = R7 (1234, restored) + R8 + R10 + R28 (0, not saved) + R11 * 256 + ftoi(hit x * -2) + R1 * 0x10000
// w1 = hit y; w2 = RV3.z (1.0, restored) + normal z (4.0) = 5.0; w3 = shader id + ftoi(hit z * 8) = 1 - 8
// scene: default
// pixels: 2
// expect pixel 0: 000004d3 3fc00000 40a00000 fffffff9
// expect pixel 1: 000104d3 3fc00000 40a00000 fffffff9
  ii_addi R7, R0, #1234       // live across the trace: saved
  ii_addi R8, R0, #99         // not saved
  s_write_high R9, #0x3f80    // 1.0
  v_get_from_s RV3, R9, #2    // RV3 = (0, 0, 1, 0): saved
  s_push R7
  v_push RV3
  ii_addi R10, R0, #5
  cmp_i R10, R0               // flag P before the trace
  s_write_high R2, #0xbf00    // -0.5
  v_get_from_s RV14, R2, #0
  s_write_high R2, #0x3fc0    // 1.5
  v_get_from_s RV14, R2, #1
  s_write_high R2, #0x4040    // 3.0
  v_get_from_s RV14, R2, #2
  s_write_high R2, #0xbf80    // -1.0
  v_get_from_s RV15, R2, #2   // read by the trace right after
  trace
  be flagz
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
flagz:
  v_pop RV3
  s_pop R7
  s_get_from_v R12, RV14, #0  // -0.5
  s_write_high R13, #0xc000   // -2.0
  ff_mul R12, R12, R13        // 1.0
  s_ftoi R12, R12             // 1
  ii_add R14, R7, R8
  ii_add R14, R14, R10
  ii_add R14, R14, R28
  ii_muli R15, R11, #256
  ii_add R14, R14, R15
  ii_add R14, R14, R12
  ii_muli R15, R1, #16384
  ii_muli R15, R15, #4
  ii_add R14, R14, R15
  s_get_from_v R16, RV14, #1  // 1.5
  s_get_from_v R17, RV3, #2   // 1.0
  s_get_from_v R18, RV15, #2  // 4.0
  ff_add R17, R17, R18        // 5.0
  s_get_from_v R19, RV14, #2  // -1.0
  s_write_high R21, #0x4100   // 8.0
  ff_mul R19, R19, R21        // -8.0
  s_ftoi R19, R19             // -8
  s_get_from_v R22, RV14, #3  // shader id 1
  ii_add R19, R19, R22        // -7
  s_mov R20, R29
  s_write_low R20, #0xfff0
  s_store_4byte R14, R20, #0
  s_store_4byte R16, R20, #4
  s_store_4byte R17, R20, #8
  s_store_4byte R19, R20, #12
  fin
