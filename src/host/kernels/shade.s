// Kernel `shade`: Lambert shading with hard shadows from up to 4 point lights; returns (r, g, b, 1.0).
// The primary ray is formed exactly as in id.s. A hit is coloured Kd · ambient plus, per light that is
// not blocked, Kd · light · max(0, n̂ · l̂); emissive materials return their colour; a miss the sky.
// Constants: CAMERA_LAYOUT then SHADE_LAYOUT (src/host/frame.ts); the byte offsets below follow it:
//   80 sky r g b | 96 ambient r g b | 112 light count (int) | 116 shadow-ray offset
//   128 + 32 i: light i position x y z, +16 its colour r g b | 240 + 16 s: material of shader id s:
//   r g b (Kd, or Ke when emissive) and the emissive flag (int).
// Only R1, R29, RV14 and RV15 survive a trace, so the shading state lives at the thread base R29:
//   +0x100 primary direction | +0x110 shadow-ray origin | +0x120 unit normal | +0x130 Kd
//   +0x140 colour so far | +0x150 light index | +0x154 |l|² | +0x158 n̂ · l̂
    .include "primaryRay.s"
    v_store_16byte RV15, R29, #0x100
    trace
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
    .include "lighting.s"
