// Loads and stores: a store then a load of the same address, a loaded value used at once (by an ALU op, as the
// next load's address, by s_write_high, by a float op, by s_get_from_v), vector loads at addresses not aligned to
// 16 bytes and with the low two bits set (ignored), a scalar store into a vector stored just before, loads into R0,
// a loaded scalar and a loaded vector stored by the next instruction.
// data at D = thread base + 0x1000: D+0 = 0x123, D+4 = 0x124, D+8 = D+12, D+12 = 0x777
// R8 = 0x777 with high half 0xabcd; R4 + R9 + R10 + R17 + R23 = 0x124 + 0x777 + 0xc + 0 + 0x124;
// R14 * R12 + R13 + R24 = 0x124 * -2 - 2 + 0x777 = -0x24a + 0x777; R16 = 2.0 * 2.0
// expect pixel 0: abcd0777 000009cb 0000052d 40800000
  s_mov R20, R29
  s_write_low R20, #0x1000       // R20 = D
  ii_addi R2, R0, #0x123
  s_store_4byte R2, R20, #0      // D+0 = 0x123
  s_load_4byte R3, R20, #0       // the word just stored: 0x123
  ii_addi R4, R3, #1             // used at once: 0x124
  s_store_4byte R4, R20, #4      // D+4 = 0x124
  ii_addi R5, R20, #12           // R5 = D+12
  s_store_4byte R5, R20, #8      // D+8 = D+12
  ii_addi R6, R0, #0x777
  s_store_4byte R6, R5, #0       // D+12 = 0x777
  s_load_4byte R7, R20, #8       // R7 = D+12
  s_load_4byte R8, R7, #0        // the loaded value as the address: 0x777
  s_write_high R8, #0xabcd       // on the value just loaded: 0xabcd0777
  v_load_16byte RV1, R20, #4     // (0x124, D+12, 0x777, 0): D+4 is not 16-byte aligned
  s_get_from_v R9, RV1, #2       // 0x777
  v_store_16byte RV1, R20, #0x20 // D+0x20.. = (0x124, D+12, 0x777, 0)
  s_load_4byte R10, R20, #0x24   // D+12
  ii_sub R10, R10, R20           // 0xc
  ii_addi R11, R0, #-2
  s_store_4byte R11, R20, #0x28  // lane 2 of the stored vector becomes 0xfffffffe
  v_load_16byte RV2, R20, #0x20  // (0x124, D+12, 0xfffffffe, 0)
  s_get_from_v R12, RV2, #2      // 0xfffffffe
  s_load_4byte R13, R20, #0x2b   // low two bits ignored: the word at D+0x28, 0xfffffffe
  v_load_16byte RV3, R20, #0x23  // low two bits ignored: the vector at D+0x20
  s_get_from_v R14, RV3, #0      // 0x124
  s_write_high R15, #0x4000      // 2.0
  s_store_4byte R15, R20, #0x30
  s_load_4byte R16, R20, #0x30
  ff_mul R16, R16, R16           // loaded float used at once (both operands): 4.0
  s_load_4byte R0, R20, #0       // a load into R0 is dropped
  ii_add R17, R0, R0             // 0
  ii_add R18, R4, R9
  ii_add R18, R18, R10
  ii_add R18, R18, R17           // 0x8a7
  s_load_4byte R22, R20, #4      // 0x124
  s_store_4byte R22, R20, #0x40  // stored by the next instruction
  s_load_4byte R23, R20, #0x40   // 0x124
  ii_add R18, R18, R23           // 0x9cb
  ii_mul R19, R14, R12           // -0x248
  ii_add R19, R19, R13           // -0x24a
  v_load_16byte RV4, R20, #0     // (0x123, 0x124, D+12, 0x777)
  v_store_16byte RV4, R20, #0x50 // stored by the next instruction
  s_load_4byte R24, R20, #0x5c   // lane 3: 0x777
  ii_add R19, R19, R24           // 0x52d
  s_mov R21, R29
  s_write_low R21, #0xfff0
  s_store_4byte R8, R21, #0
  s_store_4byte R18, R21, #4
  s_store_4byte R19, R21, #8
  s_store_4byte R16, R21, #12
  fin
