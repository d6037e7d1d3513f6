
    s_mov R7, R29            // table at the thread's memory base
    ii_addi R2, R0, 256
    ii_addi R3, R0, 0
fill:
    ii_muli R4, R3, 7
    xor R4, R4, R1
    s_store_4byte R4, R7, 0
    ii_addi R7, R7, 4
    ii_addi R3, R3, 1
    cmp_i R3, R2
    bl fill
    s_mov R7, R29
    ii_addi R3, R0, 0
    ii_addi R5, R0, 0
sum:
    s_load_4byte R4, R7, 0
    ii_addi R7, R7, 4
    ii_add R5, R5, R4
    and R6, R5, R3
    or R5, R5, R6
    ii_subi R5, R5, 3
    ii_addi R3, R3, 1
    cmp_i R3, R2
    bl sum
    s_mov R7, R29
    s_write_low R7, #0xfff0
    s_store_4byte R5, R7, 0
    fin
