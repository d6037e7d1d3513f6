// cmp_i then every branch kind, taken and not taken (signed order), the compare's operands computed just before
// it and the branch right after it. R10 gets a bit for each not-taken case that falls through; R11 counts
// instructions run in the shadow of a taken branch (stays 0); R12 counts taken branches that arrive. Also: the
// flag survives instructions that do not compare; of two compares in a row the second decides; a compare of a
// value loaded just before; stores right after a taken branch are not performed (w3 reads them back).
// not taken: cases 2, 4, 6, 7, 10, 12, 13, 16, 18 -> R10 = 0x1ff; taken: 1, 3, 5, 8, 9, 11, 14, 15, 17, 18, 19, 20 -> R12 = 12
// expect pixel 0: 000001ff 00000000 0000000c 00000000
  s_mov R20, R29
  s_write_low R20, #0xfff0
  // 1. be taken: 5 = 5
  ii_addi R2, R0, #5
  ii_addi R3, R0, #5
  cmp_i R2, R3
  be t1
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t1:
  ii_addi R12, R12, #1
  // 2. be not taken: -1 < 1
  ii_addi R2, R0, #-1
  ii_addi R3, R0, #1
  cmp_i R2, R3
  be n2
  ii_addi R10, R10, #1
n2:
  // 3. bne taken: 0x7fffffff > 0x80000001 (signed)
  s_write_high R2, #0x7fff
  s_write_high R3, #0x8000
  cmp_i R2, R3
  bne t3
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t3:
  ii_addi R12, R12, #1
  // 4. bne not taken: a register against itself
  ii_addi R4, R0, #123
  cmp_i R4, R4
  bne n4
  ii_addi R10, R10, #2
n4:
  // 5. bl taken: -1 < 1 (unsigned it would be greater)
  ii_addi R2, R0, #-1
  ii_addi R3, R0, #1
  cmp_i R2, R3
  bl t5
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t5:
  ii_addi R12, R12, #1
  // 6. bl not taken: 7 = 7
  ii_addi R2, R0, #7
  ii_addi R3, R2, #0
  cmp_i R2, R3
  bl n6
  ii_addi R10, R10, #4
n6:
  // 7. bl not taken: 8 > 7
  ii_addi R2, R2, #1
  cmp_i R2, R3
  bl n7
  ii_addi R10, R10, #8
n7:
  // 8. bge taken: 7 = 7
  ii_addi R2, R0, #7
  cmp_i R3, R2
  bge t8
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t8:
  ii_addi R12, R12, #1
  // 9. bge taken: 1 > -1
  ii_addi R2, R0, #1
  ii_addi R3, R0, #-1
  cmp_i R2, R3
  bge t9
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t9:
  ii_addi R12, R12, #1
  // 10. bge not taken: 0x80000000 < 0x7fffffff
  s_setzero R2
  s_write_high R2, #0x8000
  s_write_high R3, #0x7fff
  cmp_i R2, R3
  bge n10
  ii_addi R10, R10, #16
n10:
  // 11. bg taken: 100 > -100
  ii_addi R2, R0, #100
  ii_addi R3, R0, #-100
  cmp_i R2, R3
  bg t11
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t11:
  ii_addi R12, R12, #1
  // 12. bg not taken: 3 = 3
  ii_addi R2, R0, #3
  cmp_i R2, R2
  bg n12
  ii_addi R10, R10, #32
n12:
  // 13. bg not taken: -5 < 3
  ii_addi R3, R0, #-5
  cmp_i R3, R2
  bg n13
  ii_addi R10, R10, #64
n13:
  // 14. ble taken: -5 < 3
  cmp_i R3, R2
  ble t14
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t14:
  ii_addi R12, R12, #1
  // 15. ble taken: 3 = 3
  ii_addi R3, R0, #3
  cmp_i R3, R2
  ble t15
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t15:
  ii_addi R12, R12, #1
  // 16. ble not taken: 4 > 3
  ii_addi R4, R2, #1
  cmp_i R4, R2
  ble n16
  ii_addi R10, R10, #128
n16:
  // 17. the flag survives two instructions that do not compare: 1 < 2, bl taken
  ii_addi R2, R0, #1
  ii_addi R3, R0, #2
  cmp_i R2, R3
  ii_add R4, R2, R3
  ii_sub R5, R3, R2
  bl t17
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t17:
  ii_addi R12, R12, #1
  // 18. two compares in a row, the second (P) decides: bl not taken, then bg taken
  cmp_i R2, R3
  cmp_i R3, R2
  bl n18
  ii_addi R10, R10, #256
n18:
  bg t18
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t18:
  ii_addi R12, R12, #1
  // 19. a compare of a value loaded just before: be taken
  ii_addi R6, R0, #42
  s_store_4byte R6, R20, #0
  s_load_4byte R7, R20, #0
  cmp_i R7, R6
  be t19
  ii_addi R11, R11, #1
  ii_addi R11, R11, #1
t19:
  ii_addi R12, R12, #1
  // 20. stores right after a taken branch are not performed
  ii_addi R8, R0, #0x666
  cmp_i R8, R0
  bg t20
  s_store_4byte R8, R20, #4
  s_store_4byte R8, R20, #12
  ii_addi R11, R11, #1
t20:
  ii_addi R12, R12, #1
  s_load_4byte R9, R20, #4
  s_load_4byte R13, R20, #12
  ii_add R9, R9, R13
  s_store_4byte R10, R20, #0
  s_store_4byte R11, R20, #4
  s_store_4byte R12, R20, #8
  s_store_4byte R9, R20, #12
  fin
