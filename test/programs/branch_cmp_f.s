// cmp_f then every branch kind, taken and not taken, on all four flag values: equal (including +0 = -0), less,
// greater (subnormals, infinities, the largest finite) and unordered (a NaN operand, built or computed just before:
// only bne is taken). R10 gets a bit for each not-taken case that falls through; R11 counts instructions run in the
// shadow of a taken branch (stays 0); R12 counts taken branches that arrive; w3 = the last v_reduce (1.0).
// not taken: 2, 4, 6, 7, 10, 11, 13, 14, 17a, 17b and five of case 19 -> R10 = 0x7fff
// taken: 1, 3, 5, 8, 9, 12, 15, 16, 18, 19 -> R12 = 10
// expect pixel 0: 00007fff 00000000 0000000a 3f800000
  s_mov R20, R29
  s_write_low R20, #0xfff0
  // 1. be taken: +0 = -0
  s_setzero R2
  s_write_high R3, #0x8000
  cmp_f R2, R3
  be t1
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t1:
  ii_addi R12, R12, #1
  // 2. be not taken: 1.0 vs NaN (unordered)
  s_write_high R2, #0x3f80
  s_write_high R3, #0x7fc0
  cmp_f R2, R3
  be n2
  ii_addi R10, R10, #1
n2:
  // 3. bne taken: NaN vs itself (unordered)
  cmp_f R3, R3
  bne t3
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t3:
  ii_addi R12, R12, #1
  // 4. bne not taken: 1.0 vs itself
  cmp_f R2, R2
  bne n4
  ii_addi R10, R10, #2
n4:
  // 5. bl taken: -1.0 < -0.5
  s_write_high R2, #0xbf80
  s_write_high R3, #0xbf00
  cmp_f R2, R3
  bl t5
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t5:
  ii_addi R12, R12, #1
  // 6. bl not taken: NaN vs 1.0 (unordered)
  s_write_high R2, #0xffc0
  s_write_high R3, #0x3f80
  cmp_f R2, R3
  bl n6
  ii_addi R10, R10, #4
n6:
  // 7. bl not taken: 2.0 > 1.0
  s_write_high R2, #0x4000
  cmp_f R2, R3
  bl n7
  ii_addi R10, R10, #8
n7:
  // 8. bge taken: +inf > largest finite (0x7f7fffff)
  s_setzero R2
  s_write_high R2, #0x7f80
  s_write_high R3, #0x7f7f
  s_write_low R3, #0xffff
  cmp_f R2, R3
  bge t8
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t8:
  ii_addi R12, R12, #1
  // 9. bge taken: -0 = +0
  s_setzero R2
  s_write_high R2, #0x8000
  cmp_f R2, R0
  bge t9
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t9:
  ii_addi R12, R12, #1
  // 10. bge not taken: inf - inf (NaN, computed just before) vs 0
  s_write_high R2, #0x7f80
  ff_sub R4, R2, R2
  cmp_f R4, R0
  bge n10
  ii_addi R10, R10, #16
n10:
  // 11. bge not taken: subnormal 0x00000001 < 0x00000002
  ii_addi R2, R0, #1
  ii_addi R3, R0, #2
  cmp_f R2, R3
  bge n11
  ii_addi R10, R10, #32
n11:
  // 12. bg taken: smallest subnormal > -0
  s_setzero R3
  s_write_high R3, #0x8000
  cmp_f R2, R3
  bg t12
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t12:
  ii_addi R12, R12, #1
  // 13. bg not taken: 1.0 vs itself
  s_setzero R2
  s_write_high R2, #0x3f80
  cmp_f R2, R2
  bg n13
  ii_addi R10, R10, #64
n13:
  // 14. bg not taken: NaN (0 * inf) vs -inf (unordered)
  s_write_high R3, #0xff80
  ff_mul R4, R0, R3
  cmp_f R4, R3
  bg n14
  ii_addi R10, R10, #128
n14:
  // 15. ble taken: -inf < -largest finite
  s_write_high R2, #0xff7f
  s_write_low R2, #0xffff
  cmp_f R3, R2
  ble t15
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t15:
  ii_addi R12, R12, #1
  // 16. ble taken: -0 = +0
  cmp_f R0, R3
  s_setzero R3
  s_write_high R3, #0x8000
  cmp_f R3, R0
  ble t16
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t16:
  ii_addi R12, R12, #1
  // 17. ble not taken: 1.0 vs NaN (unordered), then 2.0 > 0.5
  s_setzero R2
  s_write_high R2, #0x3f80
  s_write_high R3, #0x7fc0
  cmp_f R2, R3
  ble n17a
  ii_addi R10, R10, #256
n17a:
  s_write_high R2, #0x4000
  s_write_high R3, #0x3f00
  cmp_f R2, R3
  ble n17b
  ii_addi R10, R10, #512
n17b:
  // 18. v_reduce feeding cmp_f: (1 + -1) + (0.5 + 0.5) = 1.0 = 1.0, be taken
  s_write_high R2, #0x3f80
  s_write_high R3, #0xbf80
  s_write_high R4, #0x3f00
  v_get_from_s RV1, R2, #0
  v_get_from_s RV1, R3, #1
  v_get_from_s RV1, R4, #2
  v_get_from_s RV1, R4, #3
  v_reduce R5, RV1
  cmp_f R5, R2
  be t18
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t18:
  ii_addi R12, R12, #1
  // 19. sqrt(-1) = NaN against itself: be, bl, bge, bg, ble not taken, bne taken, all on the one flag
  s_sqrt R6, R3
  cmp_f R6, R6
  be n19a
  ii_addi R10, R10, #1024
n19a:
  bl n19b
  ii_addi R10, R10, #2048
n19b:
  bge n19c
  ii_addi R10, R10, #4096
n19c:
  bg n19d
  ii_addi R10, R10, #8192
n19d:
  ble n19e
  ii_addi R10, R10, #16384
n19e:
  bne t19
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t19:
  ii_addi R12, R12, #1
  s_store_4byte R10, R20, #0
  s_store_4byte R11, R20, #4
  s_store_4byte R12, R20, #8
  s_store_4byte R5, R20, #12
  fin
