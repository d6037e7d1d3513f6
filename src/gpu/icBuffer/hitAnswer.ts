// An IC core's answer on its way back to an RT core: what the dispatcher's answer queue holds and the IC buffer's ic2rt queue takes.
import { Bundle, UInt } from '../../hdl/index.ts';

/** The hit point and shader id (x [31:0], y, z, shader id [127:96]; all 0 for a miss), and the hit triangle's normal. */
export const HitAnswer = Bundle({
  info: UInt(128),
  normal: UInt(96),
});
