// The primary ray of pixel R1 (included by id.s, shade.s and textured.s): R24 = the constant memory base,
// RV14 = the eye (the ray's origin), RV15 = the unit direction through the pixel's centre, RV6 = the
// direction before normalization; camera constants as in src/host/camera.ts (CAMERA_LAYOUT).
    s_write_high R24, #0x2000      // constant memory base 0x20000000
    s_load_4byte R13, R24, #64     // width
    ii_div R2, R1, R13             // py = id / width
    ii_mul R3, R2, R13
    ii_sub R4, R1, R3              // px = id - py * width
    s_write_high R5, #0x3f00       // 0.5
    s_write_high R6, #0x3f80       // 1.0
    s_write_high R7, #0x4000       // 2.0
    s_load_4byte R9, R24, #72      // 1 / width
    s_load_4byte R11, R24, #76     // 1 / height
    s_itof R8, R4                  // u = ((px + 0.5) / width) * 2 - 1
    ff_add R8, R8, R5
    ff_mul R8, R8, R9
    ff_mul R8, R8, R7
    ff_sub R8, R8, R6
    s_itof R10, R2                 // v = 1 - ((py + 0.5) / height) * 2
    ff_add R10, R10, R5
    ff_mul R10, R10, R11
    ff_mul R10, R10, R7
    ff_sub R10, R6, R10
    // The camera vectors, a lane at a time (constant memory reads scalars only).
    s_load_4byte R14, R24, #0
    v_get_from_s RV14, R14, #0
    s_load_4byte R14, R24, #4
    v_get_from_s RV14, R14, #1
    s_load_4byte R14, R24, #8
    v_get_from_s RV14, R14, #2     // origin = eye
    s_load_4byte R14, R24, #16
    v_get_from_s RV1, R14, #0
    s_load_4byte R14, R24, #20
    v_get_from_s RV1, R14, #1
    s_load_4byte R14, R24, #24
    v_get_from_s RV1, R14, #2      // forward
    s_load_4byte R14, R24, #32
    v_get_from_s RV2, R14, #0
    s_load_4byte R14, R24, #36
    v_get_from_s RV2, R14, #1
    s_load_4byte R14, R24, #40
    v_get_from_s RV2, R14, #2      // right, scaled
    s_load_4byte R14, R24, #48
    v_get_from_s RV3, R14, #0
    s_load_4byte R14, R24, #52
    v_get_from_s RV3, R14, #1
    s_load_4byte R14, R24, #56
    v_get_from_s RV3, R14, #2      // up, scaled
    vf_mul RV4, RV2, R8            // direction = normalize(forward + u right + v up)
    vf_mul RV5, RV3, R10
    vv_add RV6, RV1, RV4
    vv_add RV6, RV6, RV5
    vv_mul_ele RV7, RV6, RV6
    v_reduce R12, RV7
    s_sqrt R12, R12
    vf_div RV15, RV6, R12
