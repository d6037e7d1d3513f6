// Kernel `textured`: the `shade` kernel (shade.s, its lines kept) whose diffuse colour Kd is multiplied by
// a texel where the hit's material has a texture. The primary ray is a query (`trace RV13`, docs/rays.md)
// with plain trace's interval and flags, so it hits what `trace` hits and answers RV13 = (t, u, v, instance).
// The texel comes from `txd` at the hit's texture coordinates s = s0 + u·(s1 − s0) + v·(s2 − s0) (likewise
// t), u and v the weights of corners 1 and 2, with derivatives from ray differentials (Igehy 1999): the
// primary ray's unnormalized direction d = forward + x·right + y·up (x, y: primaryRay.s's u, v) changes per
// pixel by dd/dx = (2/W)·right and dd/dy = −(2/H)·up; on the hit plane (normal n, origin differential 0)
// dp/dx = (dot(q, n)·dd/dx − dot(dd/dx, n)·q) / dot(d, n) with q = hit − eye, and ds/dx = dot(A.xyz, dp/dx)
// with A.xyz the gradient of s in the triangle's plane (likewise t with B.xyz).
// Constants: CAMERA_LAYOUT, SHADE_LAYOUT (src/host/frame.ts), then TEXTURED_LAYOUT
// (src/host/texturedConstants.ts); byte offsets, M = the material count (byte 120):
//   80 sky r g b | 96 ambient r g b | 112 light count (int) | 116 shadow-ray offset
//   128 + 32 i: light i position x y z, +16 its colour r g b | 240 + 16 s: material of shader id s:
//   r g b (Kd, or Ke when emissive) and the emissive flag (int)
//   256 + 16 M + 4 (s − 1): the txd handle of shader id s's texture (0: no texture)
//   256 + 20 M + 48 i: triangle i's A (x y z, s0), B (x y z, t0), s1 − s0, s2 − s0, t1 − t0, t2 − t0,
//   i = RV15.w after trace (traversal order)
// Only R1, R29, RV13 (after trace RVa), RV14 and RV15 survive a trace, so the shading state lives at the
// thread base R29:
//   +0x100 primary direction | +0x110 shadow-ray origin | +0x120 unit normal | +0x130 Kd (· texel)
//   +0x140 colour so far | +0x150 light index | +0x158 n̂ · l̂ | +0x160 unnormalized d
    .include "primaryRay.s"
    v_store_16byte RV15, R29, #0x100
    v_store_16byte RV6, R29, #0x160  // d, for the ray differentials
    // Plain trace's query (tmin +0, tmax +inf, every mask bit, closest hit), for RV13's (t, u, v). R15, R16
    // and RV13 are still zero from the thread's start (primaryRay.s leaves them): tmin and the halves not written.
    s_write_high R15, #0x7f80
    v_get_from_s RV13, R15, #1     // tmax +inf
    s_write_low R16, #0xff00
    v_get_from_s RV13, R16, #2     // flags: ray mask 0xFF
    trace RV13
    .include "material.s"
    // The texture handle of shader id s at 256 + 16 M + 4 (s − 1); 0: no texture.
    s_load_4byte R15, R24, #120    // M, the material count
    ii_muli R16, R15, #16
    ii_add R16, R16, R24           // the constant base + 16 M
    ii_muli R17, R2, #4
    ii_add R17, R17, R16
    s_load_4byte R18, R17, #252    // the handle
    cmp_i R18, R0
    be untextured
    // Triangle i's words at 256 + 20 M + 48 i: RV8 = A.xyz, RV9 = B.xyz (w 0), R20 = s0, R21 = t0.
    ii_muli R17, R15, #4
    ii_add R17, R17, R16           // the constant base + 20 M
    s_get_from_v R19, RV15, #3     // i, the hit triangle's index
    ii_muli R19, R19, #48
    ii_add R17, R17, R19
    s_load_4byte R4, R17, #256
    v_get_from_s RV8, R4, #0
    s_load_4byte R4, R17, #260
    v_get_from_s RV8, R4, #1
    s_load_4byte R4, R17, #264
    v_get_from_s RV8, R4, #2
    s_load_4byte R20, R17, #268    // s0
    s_load_4byte R4, R17, #272
    v_get_from_s RV9, R4, #0
    s_load_4byte R4, R17, #276
    v_get_from_s RV9, R4, #1
    s_load_4byte R4, R17, #280
    v_get_from_s RV9, R4, #2
    s_load_4byte R21, R17, #284    // t0
    // s = s0 + (u·(s1 − s0) + v·(s2 − s0)), t likewise, with RV13 = (t, u, v, instance).
    s_get_from_v R10, RV13, #1     // u
    s_get_from_v R11, RV13, #2     // v
    s_load_4byte R4, R17, #288
    ff_mul R4, R4, R10
    s_load_4byte R5, R17, #292
    ff_mul R5, R5, R11
    ff_add R4, R4, R5
    ff_add R20, R20, R4            // s
    s_load_4byte R4, R17, #296
    ff_mul R4, R4, R10
    s_load_4byte R5, R17, #300
    ff_mul R5, R5, R11
    ff_add R4, R4, R5
    ff_add R21, R21, R4            // t
    // q = p − eye and n, their w lanes zeroed (RV14.w holds the shader id, RV15.w the index).
    s_load_4byte R4, R24, #0
    v_get_from_s RV12, R4, #0
    s_load_4byte R4, R24, #4
    v_get_from_s RV12, R4, #1
    s_load_4byte R4, R24, #8
    v_get_from_s RV12, R4, #2      // eye
    vv_sub RV12, RV14, RV12
    v_get_from_s RV12, R0, #3      // q
    v_mov RV10, RV15
    v_get_from_s RV10, R0, #3      // n
    v_load_16byte RV2, R29, #0x160 // d
    vv_mul_ele RV3, RV2, RV10
    v_reduce R22, RV3              // dot(d, n)
    vv_mul_ele RV3, RV12, RV10
    v_reduce R23, RV3              // dot(q, n)
    // dd/dx = (2/W)·right and dd/dy = −(2/H)·up.
    s_write_high R7, #0x4000       // 2.0
    s_load_4byte R4, R24, #32
    v_get_from_s RV4, R4, #0
    s_load_4byte R4, R24, #36
    v_get_from_s RV4, R4, #1
    s_load_4byte R4, R24, #40
    v_get_from_s RV4, R4, #2       // right, scaled
    s_load_4byte R4, R24, #72
    ff_mul R4, R4, R7              // 2/W
    vf_mul RV4, RV4, R4            // dd/dx
    s_load_4byte R4, R24, #48
    v_get_from_s RV5, R4, #0
    s_load_4byte R4, R24, #52
    v_get_from_s RV5, R4, #1
    s_load_4byte R4, R24, #56
    v_get_from_s RV5, R4, #2       // up, scaled
    s_load_4byte R4, R24, #76
    ff_mul R4, R4, R7
    ff_sub R4, R0, R4              // −2/H
    vf_mul RV5, RV5, R4            // dd/dy
    // dp/dx = (dot(q, n)·dd/dx − dot(dd/dx, n)·q) / dot(d, n), and dp/dy alike.
    vv_mul_ele RV3, RV4, RV10
    v_reduce R4, RV3
    vf_mul RV6, RV4, R23
    vf_mul RV7, RV12, R4
    vv_sub RV6, RV6, RV7
    vf_div RV6, RV6, R22           // dp/dx
    vv_mul_ele RV3, RV5, RV10
    v_reduce R4, RV3
    vf_mul RV7, RV5, R23
    vf_mul RV3, RV12, R4
    vv_sub RV7, RV7, RV3
    vf_div RV7, RV7, R22           // dp/dy
    // RVb = (ds/dx, ds/dy, dt/dx, dt/dy): dot(A.xyz, dp), dot(B.xyz, dp) (A.w, B.w and dp.w are 0).
    vv_mul_ele RV3, RV8, RV6
    v_reduce R4, RV3
    v_get_from_s RV11, R4, #0
    vv_mul_ele RV3, RV8, RV7
    v_reduce R4, RV3
    v_get_from_s RV11, R4, #1
    vv_mul_ele RV3, RV9, RV6
    v_reduce R4, RV3
    v_get_from_s RV11, R4, #2
    vv_mul_ele RV3, RV9, RV7
    v_reduce R4, RV3
    v_get_from_s RV11, R4, #3
    // RVa = (s, t, handle, control 0); a failed fetch gives +0 lanes: a black texel.
    v_get_from_s RV10, R20, #0
    v_get_from_s RV10, R21, #1
    v_get_from_s RV10, R18, #2
    v_get_from_s RV10, R0, #3
    txd RV12, RV10, RV11
    vv_mul_ele RV1, RV1, RV12      // Kd · texel (Kd.w is 0)
untextured:
    .include "lighting.s"
