// Scalar forwarding: a result read by the next instruction (EX->EX), by the one after (MEM->EX), two later
// (WB->DE) and three later (register file); the youngest of two writes wins; writes to R0 never forward;
// s_write_high/low on a register written just before (they read their destination); store data and store
// address produced by the instruction just before the store.
// w0 = R6 * 256 + R8 = 83 * 256 + 95; w1 = 0x12345678 + 0x8000abcd; w2 = ~w1; w3 = R11 * 1000 + R5 + R9 = 4000 + 17 + 0
// expect pixel 0: 0000535f 92350245 6dcafdba 00000fb1
  s_mov R20, R29
  s_write_low R20, #0xfff0   // result address; R20 read at distance 1
  ii_addi R2, R0, #5         // R2 = 5
  ii_addi R3, R2, #7         // R2 at distance 1: R3 = 12
  ii_addi R4, R0, #100       // R4 = 100
  ii_add R5, R3, R2          // R3 at 2, R2 at 3: R5 = 17
  ii_sub R6, R4, R5          // R4 at 2, R5 at 1: R6 = 83
  xor R7, R3, R6             // R3 at 4, R6 at 1: 12 ^ 83 = 95
  ii_addi R0, R0, #1234      // writes to R0 are dropped...
  ii_addi R0, R2, #99
  ii_addi R0, R3, #77
  ii_add R8, R0, R7          // ...so R0 reads 0 at distances 1, 2 and 3: R8 = 95
  ii_addi R10, R0, #1
  ii_addi R10, R0, #2
  ii_add R11, R10, R10       // the younger write wins, both operands forwarded: R11 = 4
  ii_addi R12, R0, #-1       // 0xffffffff
  s_write_high R12, #0x1234  // 0x1234ffff
  s_write_low R12, #0x5678   // 0x12345678
  s_write_low R13, #0xabcd   // 0x0000abcd
  s_write_high R13, #0x8000  // 0x8000abcd
  ii_add R14, R12, R13       // 0x92350245
  s_store_4byte R14, R20, #4
  not R15, R14               // 0x6dcafdba
  s_store_4byte R15, R20, #8
  ii_muli R16, R6, #256      // 21248
  ii_add R16, R16, R8        // 21343 = 0x535f
  s_store_4byte R16, R20, #0
  ii_muli R17, R11, #1000    // 4000
  ii_add R17, R17, R5        // 4017
  ii_add R17, R17, R9        // R9 was never written: 4017 = 0xfb1
  ii_addi R18, R20, #12      // store address computed just before the store
  s_store_4byte R17, R18, #0
  fin
