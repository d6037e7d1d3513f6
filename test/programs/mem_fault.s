// Memory faults: a store to constant memory (dropped), a vector load from constant memory (zeros), loads and stores
// outside the thread's memory (another thread's, just below its own, no memory at all: loads return 0, stores are
// dropped), and a vector store straddling the end of the thread's memory (nothing written, not even the lanes
// inside). The fault flag is set, the thread continues and writes its result.
// w0 = constant word 0 (unchanged by the store) + lane 0 of the faulting vector load (0); w1 = constant word 2 + the
// faulting load into R9 (0); w2 = 0x123; w3 = two faulting loads (0) + 0x456; w2, w3 survive the straddling store
// constants: 11111111 22222222 33333333 44444444
// expect pixel 0: 11111111 33333333 00000123 00000456
// expect faults: 0
  s_mov R20, R29
  s_write_low R20, #0xfff0
  s_write_high R2, #0x2000     // 0x20000000: constant memory
  ii_addi R3, R0, #77
  s_store_4byte R3, R2, #0     // store to constant memory: fault, dropped
  s_load_4byte R4, R2, #0      // 0x11111111
  ii_addi R5, R0, #5
  v_get_from_s RV1, R5, #0     // RV1 = (5, 0, 0, 0)
  v_load_16byte RV1, R2, #4    // vector load from constant memory: fault, RV1 = 0
  s_get_from_v R6, RV1, #0     // 0
  s_load_4byte R7, R2, #8      // 0x33333333
  s_write_high R8, #0x8001     // 0x80010000: thread 1's memory (this is thread 0)
  ii_addi R9, R0, #9
  s_load_4byte R9, R8, #0      // fault: 0
  s_store_4byte R3, R8, #0     // fault: dropped
  ii_addi R10, R29, #-4        // 0x7ffffffc, just below this thread's memory
  ii_addi R11, R0, #11
  s_load_4byte R11, R10, #0    // fault: 0
  s_write_low R12, #0x1000
  s_load_4byte R12, R12, #0    // 0x00001000 is no data memory: fault, 0
  ii_add R13, R4, R6
  s_store_4byte R13, R20, #0
  ii_add R14, R7, R9
  s_store_4byte R14, R20, #4
  ii_addi R15, R0, #0x123
  s_store_4byte R15, R20, #8
  ii_add R16, R11, R12
  ii_addi R16, R16, #0x456
  s_store_4byte R16, R20, #12
  ii_addi R17, R0, #-1
  v_get_from_s RV2, R17, #0
  v_get_from_s RV2, R17, #1
  v_get_from_s RV2, R17, #2
  v_get_from_s RV2, R17, #3
  v_store_16byte RV2, R20, #8  // 0xfff8..0x10007: fault, nothing written
  fin
