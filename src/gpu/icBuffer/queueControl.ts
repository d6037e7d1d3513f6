// The patch dispatcher's control of the IC buffer's two queues: which core enqueues, when the front is taken.
import { Bool, Bundle, UInt, flip } from '../../hdl/index.ts';

/**
 * As the dispatcher drives it (an `output` there, an `input` at the IC buffer); the queues' emptiness and
 * the front answer come back on the flipped fields. The rays and answers themselves enter the buffer
 * straight from the cores. Field names are the seed's (section 6).
 */
export const QueueControl = (p: { readonly rtCores: number; readonly icCores: number }) =>
  Bundle({
    /** rt2ic: enqueue the ray of the RT core `core_id_rt2ic` (one-hot) names; an IC core took the front ray. */
    q_en_rt2ic: Bool,
    core_id_rt2ic: UInt(p.rtCores),
    dequeue_ic: Bool,
    rt2ic_empty: flip(Bool),
    /** ic2rt: enqueue the answer of the IC core `core_id_ic2rt` (one-hot) names; an RT core took the front answer. */
    q_en_ic2rt: Bool,
    core_id_ic2rt: UInt(p.icCores),
    dequeue_rt: Bool,
    ic2rt_empty: flip(Bool),
    /** The front answer (0 when empty): hit point and shader id (RV14), the normal and triangle index (RV15), and (t, u, v, instance) (RV13 of `trace RVa`). */
    shader_info_rt: flip(UInt(128)),
    shader_normal_rt: flip(UInt(128)),
    shader_parameters_rt: flip(UInt(128)),
  });
