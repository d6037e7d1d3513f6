// Vector forwarding: v_get_from_s reads the vector it updates (lanes kept) at distances 1 and 3; vf/vv chains
// with results used by the next instruction and the one after; v_reduce of a just-computed vector; writes to
// RV0 never forward; a vector store of the vector written just before.
// RV1 = (1, 1, 0, 3); RV2 = RV1 + 1 = (2, 2, 1, 4); RV3 = RV2 * RV2 = (4, 4, 1, 16); RV4 = RV3 + RV2 = (6, 6, 2, 20);
// RV5 = RV4 - RV1 = (5, 5, 2, 17); RV6 = RV5 / RV2 = (2.5, 2.5, 2, 4.25); RV7 = RV6 * 3 - 1 = (6.5, 6.5, 5, 11.75);
// RV8 = RV7 / 1; R4 = (6.5 + 6.5) + (5 + 11.75) = 29.75; RV9 = RV0 + RV3, R5 = RV9.w = 16; R6 = R5 + R4 = 45.75
// result = RV8 with lane 0 = R4, lane 1 = R6: (29.75, 45.75, 5, 11.75)
// expect pixel 0: 41ee0000 42370000 40a00000 413c0000
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_addi R2, R0, #1
  s_itof R2, R2              // 1.0
  v_get_from_s RV1, R2, #0   // RV1 = (1, 0, 0, 0)
  v_get_from_s RV1, R2, #1   // RV1 at distance 1: (1, 1, 0, 0)
  ii_addi R3, R0, #3
  s_itof R3, R3              // 3.0
  v_get_from_s RV1, R3, #3   // RV1 at distance 3: (1, 1, 0, 3)
  vf_add RV2, RV1, R2        // (2, 2, 1, 4)
  vv_mul_ele RV3, RV2, RV2   // (4, 4, 1, 16)
  vv_add RV4, RV3, RV2       // RV3 at 1, RV2 at 2: (6, 6, 2, 20)
  vv_sub RV5, RV4, RV1       // (5, 5, 2, 17)
  vv_div RV6, RV5, RV2       // (2.5, 2.5, 2, 4.25)
  vf_mul RV7, RV6, R3        // (7.5, 7.5, 6, 12.75)
  vf_sub RV7, RV7, R2        // (6.5, 6.5, 5, 11.75)
  vf_div RV8, RV7, R2        // unchanged
  v_reduce R4, RV8           // 29.75
  v_mov RV0, RV8             // dropped
  vv_add RV9, RV0, RV3       // RV0 reads zero: RV9 = RV3
  s_get_from_v R5, RV9, #3   // 16.0
  ff_add R6, R5, R4          // 45.75
  v_mov RV10, RV8
  v_get_from_s RV10, R4, #0
  v_get_from_s RV10, R6, #1
  v_store_16byte RV10, R20, #0
  fin
