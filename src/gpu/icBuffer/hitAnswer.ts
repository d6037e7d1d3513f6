// An IC core's answer on its way back to an RT core: what the dispatcher's answer queue holds and the IC buffer's ic2rt queue takes.
import { Bundle, UInt } from '../../hdl/index.ts';

/**
 * RV14 and RV15 of the thread: the hit point and shader id (x [31:0], y, z, shader id [127:96]), and the hit triangle's
 * normal and index (x [31:0], y, z, triangle index [127:96]); and RV13 of `trace RVa`, the hit's t [31:0], u, v and
 * instance [127:96] (docs/rays.md); all 0 for a miss.
 */
export const HitAnswer = Bundle({
  info: UInt(128),
  normal: UInt(128),
  parameters: UInt(128),
});
