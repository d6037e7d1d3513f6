data: .word 0xdeadbeef, -1
 .byte 1 2 3
 .space 5
 .string "a\tb\x41"
lab: s_push R1
 s_pop R1
 jmp_link lab
 ii_mod R1, R2, R3
 @ 0x10 ignored
 fin
