// Four pixels (threads 0-3), each computing from its pixel id R1: w0 = R1 with high half 0x00a0 (R1 < 2) or 0x00b0,
// w1 = R1 * R1 + 7, w2 = R29 at start (0x80(TID)0000), w3 = float(R1) * 0.5. A store after fin never runs.
// pixels: 4
// expect pixel 0: 00a00000 00000007 80000000 00000000
// expect pixel 1: 00a00001 00000008 80010000 3f000000
// expect pixel 2: 00b00002 0000000b 80020000 3f800000
// expect pixel 3: 00b00003 00000010 80030000 3fc00000
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_mul R2, R1, R1
  ii_addi R2, R2, #7
  s_store_4byte R2, R20, #4
  s_itof R3, R1
  s_write_high R4, #0x3f00    // 0.5
  ff_mul R3, R3, R4
  s_store_4byte R3, R20, #12
  s_store_4byte R29, R20, #8
  ii_addi R5, R0, #2
  s_mov R6, R1
  cmp_i R1, R5
  bl low
  s_write_high R6, #0x00b0
  jmp done
low:
  s_write_high R6, #0x00a0
done:
  s_store_4byte R6, R20, #0
  fin
  s_store_4byte R0, R20, #0   // after fin: never runs
