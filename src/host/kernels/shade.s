// Kernel `shade`: Lambert shading with hard shadows from up to 4 point lights; returns (r, g, b, 1.0).
// The primary ray is formed exactly as in id.s. A hit is coloured Kd · ambient plus, per light that is
// not blocked, Kd · light · max(0, n̂ · l̂); emissive materials return their colour; a miss the sky.
// Constants: CAMERA_LAYOUT then SHADE_LAYOUT (src/host/frame.ts); the byte offsets below follow it:
//   80 sky r g b | 96 ambient r g b | 112 light count (int) | 116 shadow-ray offset
//   128 + 32 i: light i position x y z, +16 its colour r g b | 240 + 16 s: material of shader id s:
//   r g b (Kd, or Ke when emissive) and the emissive flag (int).
// Only R1, R29, RV14 and RV15 survive a trace, so the shading state lives at the thread base R29:
//   +0x100 primary direction | +0x110 shadow-ray origin | +0x120 unit normal | +0x130 Kd
//   +0x140 colour so far | +0x150 light index | +0x158 n̂ · l̂
    .include "primaryRay.s"
    v_store_16byte RV15, R29, #0x100
    trace
    .include "material.s"
    .include "lighting.s"
