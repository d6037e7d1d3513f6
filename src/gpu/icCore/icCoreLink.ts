// The link between the patch dispatcher and one IC system: a ray starts, the answer comes back.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';
import { THREAD_BITS } from '../rtCore/interfaces.ts';

/** RV13.w (`hit_parameters` [127:96]) of a hit outside any instance (docs/rays.md). */
export const NO_INSTANCE_ID = 0xffffffff;

const links = new Map<number, ReturnType<typeof makeLink>>();

/**
 * An IC core as the dispatcher sees it, driven by the IC system (the dispatcher takes it as an `input`, the
 * system as an `output`): `ray_start` gives it the ray at the rt2ic queue's head, `done` brings an answer
 * for `done_thread`.
 */
const makeLink = (threadBits: number) =>
  Bundle({
    ray_start: flip(Bool),
    ready: Bool,
    done: Bool,
    /** RV14: hit x [31:0], y, z, shader id [127:96]; all 0 for a miss. */
    hit_info: UInt(128),
    /** RV15: the hit triangle's normal x [31:0], y, z and its triangle index [127:96]; all 0 for a miss. */
    hit_normal: UInt(128),
    /** RV13 of `trace RVa` (docs/rays.md): the hit's t [31:0], u, v and instance [127:96] (0xFFFFFFFF outside any instance); all 0 for a miss. */
    hit_parameters: UInt(128),
    done_thread: UInt(threadBits),
    /** The ray read past the loaded BVH: its thread faults (reported when it ends). */
    done_fault: Bool,
  });

/** The link with `threadBits`-bit thread ids (one bundle type per width). */
export function icCoreLink(threadBits: number = THREAD_BITS): ReturnType<typeof makeLink> {
  let link = links.get(threadBits);
  if (!link) links.set(threadBits, (link = makeLink(threadBits)));
  return link;
}

/** The GPU's link: thread ids of THREAD_BITS (the dispatcher's 32 threads). */
export const IcCoreLink = icCoreLink();
