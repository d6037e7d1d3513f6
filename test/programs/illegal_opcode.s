// An illegal opcode (000111) ends the thread with a fault; the instructions after it never run. Illegal words
// jumped over (right after a taken jmp, and after a taken bg) are not executed and do not fault.
// expect pixel 0: 00000055 00000066 00000000 00000000
// expect faults: 0
  s_mov R20, R29
  s_write_low R20, #0xfff0
  jmp over1
  .word 0x1C000000
over1:
  ii_addi R2, R0, #0x55
  s_store_4byte R2, R20, #0
  cmp_i R2, R0
  bg over2
  .word 0x1C000000
over2:
  ii_addi R3, R0, #0x66
  s_store_4byte R3, R20, #4
  .word 0x1C000000            // ends the thread
  ii_addi R4, R0, #0x77
  s_store_4byte R4, R20, #8
  fin
