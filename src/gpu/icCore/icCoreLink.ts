// The link between the patch dispatcher and one IC system: a ray starts, the answer comes back.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';
import { THREAD_BITS } from '../rtCore/interfaces.ts';

/**
 * An IC core as the dispatcher sees it, driven by the IC system (the dispatcher takes it as an `input`, the
 * system as an `output`): `ray_start` gives it the ray at the rt2ic queue's head, `done` brings an answer
 * for `done_thread`.
 */
export const IcCoreLink = Bundle({
  ray_start: flip(Bool),
  ready: Bool,
  done: Bool,
  /** RV14: hit x [31:0], y, z, shader id [127:96]; all 0 for a miss. */
  hit_info: UInt(128),
  /** RV15: the hit triangle's normal x [31:0], y, z and its triangle index [127:96]; all 0 for a miss. */
  hit_normal: UInt(128),
  done_thread: UInt(THREAD_BITS),
  /** The ray read past the loaded BVH: its thread faults (reported when it ends). */
  done_fault: Bool,
});
