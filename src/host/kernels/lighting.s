// The lighting of shade.s and textured.s, included at their end, for a hit whose diffuse colour is in RV1 and
// whose IC normal is in RV15: the normal turned to the camera, ambient, per light a shadow ray and the
// Lambert term, the result stored; then the `emissive` and `sky` answers the kernels branch to.
    // The IC's normal is unnormalized and faces either way: turn it towards the camera.
    v_load_16byte RV2, R29, #0x100
    vv_mul_ele RV3, RV15, RV2
    v_reduce R5, RV3
    cmp_f R5, R0
    ble facing
    vv_sub RV15, RV0, RV15
facing:
    vv_mul_ele RV3, RV15, RV15
    v_reduce R5, RV3
    s_sqrt R5, R5
    vf_div RV2, RV15, R5           // n̂
    // Shadow rays start a little off the surface so they do not hit it again.
    s_load_4byte R6, R24, #116
    vf_mul RV3, RV2, R6
    v_get_from_s RV14, R0, #3      // the hit point (w held the shader id)
    vv_add RV3, RV14, RV3
    v_store_16byte RV3, R29, #0x110
    v_store_16byte RV2, R29, #0x120
    v_store_16byte RV1, R29, #0x130
    s_load_4byte R4, R24, #96
    v_get_from_s RV4, R4, #0
    s_load_4byte R4, R24, #100
    v_get_from_s RV4, R4, #1
    s_load_4byte R4, R24, #104
    v_get_from_s RV4, R4, #2
    vv_mul_ele RV4, RV4, RV1       // colour = Kd · ambient
    v_store_16byte RV4, R29, #0x140
    s_store_4byte R0, R29, #0x150
light:
    s_write_high R24, #0x2000      // (a trace clears it)
    s_load_4byte R7, R29, #0x150
    s_load_4byte R8, R24, #112
    cmp_i R7, R8
    bge done
    ii_muli R9, R7, #32
    ii_add R9, R9, R24
    s_load_4byte R4, R9, #128
    v_get_from_s RV5, R4, #0
    s_load_4byte R4, R9, #132
    v_get_from_s RV5, R4, #1
    s_load_4byte R4, R9, #136
    v_get_from_s RV5, R4, #2       // light position
    v_load_16byte RV14, R29, #0x110
    vv_sub RV15, RV5, RV14         // l = light − origin: the light is at t = 1 along the shadow ray
    vv_mul_ele RV6, RV15, RV15
    v_reduce R10, RV6              // |l|²
    s_sqrt R11, R10
    v_load_16byte RV2, R29, #0x120
    vv_mul_ele RV6, RV2, RV15
    v_reduce R12, RV6
    ff_div R12, R12, R11           // n̂ · l̂
    cmp_f R12, R0
    ble next                       // the light is behind the surface: no trace needed
    s_store_4byte R12, R29, #0x158
    // The shadow ray (docs/rays.md): t in [0, 1) since the light is at t = 1, the first hit will do (ANY_HIT),
    // a one-sided triangle seen from behind lets light through (CULL_BACK), and only geometry with mask bit 0
    // blocks (a light fixture without it casts no shadow).
    s_write_high R4, #0x3f7f
    s_write_low R4, #0xffff        // tmax: the float just below 1
    v_get_from_s RV3, R0, #0       // tmin 0
    v_get_from_s RV3, R4, #1
    s_write_low R4, #0x0103        // flags: ray mask 0x01, CULL_BACK, ANY_HIT
    s_write_high R4, #0
    v_get_from_s RV3, R4, #2
    trace RV3
    s_get_from_v R2, RV14, #3
    cmp_i R2, R0
    bne next                       // something lies between the surface and the light
lit:
    s_write_high R24, #0x2000
    s_load_4byte R7, R29, #0x150
    ii_muli R9, R7, #32
    ii_add R9, R9, R24
    s_load_4byte R4, R9, #144
    v_get_from_s RV5, R4, #0
    s_load_4byte R4, R9, #148
    v_get_from_s RV5, R4, #1
    s_load_4byte R4, R9, #152
    v_get_from_s RV5, R4, #2       // light colour
    v_load_16byte RV1, R29, #0x130
    vv_mul_ele RV5, RV5, RV1
    s_load_4byte R12, R29, #0x158
    vf_mul RV5, RV5, R12
    v_load_16byte RV4, R29, #0x140
    vv_add RV4, RV4, RV5           // colour += Kd · light · (n̂ · l̂)
    v_store_16byte RV4, R29, #0x140
next:
    s_load_4byte R7, R29, #0x150
    ii_addi R7, R7, #1
    s_store_4byte R7, R29, #0x150
    jmp light
done:
    v_load_16byte RV4, R29, #0x140
    jmp out
emissive:
    v_mov RV4, RV1
    jmp out
sky:
    s_load_4byte R4, R24, #80
    v_get_from_s RV4, R4, #0
    s_load_4byte R4, R24, #84
    v_get_from_s RV4, R4, #1
    s_load_4byte R4, R24, #88
    v_get_from_s RV4, R4, #2
out:
    s_write_high R6, #0x3f80       // alpha 1.0
    v_get_from_s RV4, R6, #3
    s_mov R20, R29                 // the result area 0x80(TID)FFF0
    s_write_low R20, #0xfff0
    v_store_16byte RV4, R20, #0
    fin
