// After the primary trace (included by shade.s and textured.s): R24 = the constant memory base, R2 = the
// shader id, to `sky` on a miss; RV1 = the material's Kd (w 0), to `emissive` when the material emits.
    s_write_high R24, #0x2000
    s_get_from_v R2, RV14, #3      // shader id; 0 is a miss
    cmp_i R2, R0
    be sky
    ii_muli R3, R2, #16            // the material of shader id s at byte 240 + 16 s
    ii_add R3, R3, R24
    s_load_4byte R4, R3, #240
    v_get_from_s RV1, R4, #0
    s_load_4byte R4, R3, #244
    v_get_from_s RV1, R4, #1
    s_load_4byte R4, R3, #248
    v_get_from_s RV1, R4, #2       // RV1 = Kd (w 0)
    s_load_4byte R4, R3, #252
    cmp_i R4, R0
    bne emissive
