// Kernel `id`: one camera ray per pixel; returns RV14 of the primary trace (hit x, y, z, shader id;
// all zero on a miss). Camera constants as in src/host/camera.ts (CAMERA_LAYOUT), pixel id in R1.
    .include "primaryRay.s"
    trace
    s_mov R20, R29                 // the result area 0x80(TID)FFF0
    s_write_low R20, #0xfff0
    v_store_16byte RV14, R20, #0
    fin
