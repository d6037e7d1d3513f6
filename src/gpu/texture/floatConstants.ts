// binary32 constants of the texture arithmetic (docs/texture.md), as bit patterns.
export const HALF = 0x3f000000;
export const ONE = 0x3f800000;
export const TWO_POW_8 = 0x43800000;
export const TWO_POW_MINUS_8 = 0x3b800000;
export const TWO_POW_22 = 0x4a800000;
export const NEG_TWO_POW_22 = 0xca800000;
export const TWO_POW_23 = 0x4b000000;
export const POS_INF = 0x7f800000;
export const NEG_INF = 0xff800000;
export const CANONICAL_NAN = 0x7fc00000;
