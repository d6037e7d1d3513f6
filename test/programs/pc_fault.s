// A jump (ret) to 0x4000, outside instruction memory, ends the thread with a fault; nothing after it runs.
// expect pixel 0: 00000099 00000000 00000000 00000000
// expect faults: 0
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_addi R2, R0, #0x99
  s_store_4byte R2, R20, #0
  ii_addi R3, R0, #0x4000
  ret R3
  s_store_4byte R2, R20, #4
  fin
