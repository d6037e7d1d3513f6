// jmp_link / ret: nested calls with R30 saved on the stack; ret right after the instruction that writes R30 (a
// load from the stack, an ii_addi); ret through another register written just before; ret R31 (the next
// instruction); ret as a computed jump over two instructions; calls in a counted loop. The instruction after a
// call's jmp runs once, after the return; instructions after a ret never run (R11 counts them).
// R2: 1 -> fn1: *3 = 3 -> fn2: +5 = 8 -> fn1: +100 = 108 -> +1000 = 1108 -> leaf -> *2 = 2216
// R3: ret R31 then +1, computed jump lands on +10: 11; R6: three calls of add7: 21; w3 = R11 xor (R29 - its start) = 0
// expect pixel 0: 000008a8 0000000b 00000015 00000000
  s_mov R20, R29
  s_write_low R20, #0xfff0
  ii_addi R2, R0, #1
  jmp_link fn1
  ii_addi R2, R2, #1000      // the return point of fn1
  jmp_link leaf
  ii_muli R2, R2, #2
  ret R31                    // to the next instruction
  ii_addi R3, R3, #1
  ii_addi R4, R31, #12       // R4 = address of the landing instruction
  ret R4
  ii_addi R11, R11, #1       // jumped over
  ii_addi R11, R11, #1       // jumped over
  ii_addi R3, R3, #10        // landing
  ii_addi R26, R0, #3
loop:
  jmp_link add7
  ii_subi R26, R26, #1
  cmp_i R26, R0
  bg loop
  s_mov R7, R29
  s_write_high R7, #0        // R29's offset in the thread's memory: 0 when pushes and pops balance
  xor R7, R7, R11
  s_store_4byte R2, R20, #0
  s_store_4byte R3, R20, #4
  s_store_4byte R6, R20, #8
  s_store_4byte R7, R20, #12
  fin
fn1:
  s_push R30
  ii_muli R2, R2, #3
  jmp_link fn2
  ii_addi R2, R2, #100
  s_pop R30                  // ret right after R30 is loaded
  ret
  ii_addi R11, R11, #1
fn2:
  ii_addi R2, R2, #5
  ii_addi R30, R30, #0       // ret right after R30 is written by the ALU
  ret
  ii_addi R11, R11, #1
leaf:
  s_mov R5, R30
  ret R5                     // through a register written just before
  ii_addi R11, R11, #1
add7:
  ii_addi R6, R6, #7
  ret
  ii_addi R11, R11, #1
