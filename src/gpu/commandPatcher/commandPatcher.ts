// The command patcher (seed section 3): cuts the frame's pixels into patches of 32 threads, hands the
// dispatcher one pixel id per cycle (from the frame's first pixel), and starts the next patch once the last one's output is written.
import { Bool, UInt, defineModule, input, lit, mux, output } from '../../hdl/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';

export const PATCH_THREADS = MEMORY_MAP.threads;

export const CommandPatcher = defineModule(
  'CommandPatcher',
  () => ({
    /** Pulse: start a frame of `pixel_count` pixels (ignored while a frame runs). */
    start: input(Bool),
    pixel_count: input(UInt(32)),
    /** The frame's first pixel id (taken with `start`): index i of the frame runs pixel first_pixel + i. */
    first_pixel: input(UInt(32)),
    /** Pulse from the memory controller: the last patch's output is in host memory. */
    patch_written: input(Bool),
    // To the patch dispatcher: thread `thread_id` of the next patch runs pixel `pixel_id`.
    pixel_valid: output(Bool),
    pixel_id: output(UInt(32)),
    thread_id: output(UInt(5)),
    /** Pulse after the patch's last pixel: the patch has `patch_threads` threads (1 to 32). */
    patch_loaded: output(Bool),
    patch_threads: output(UInt(6)),
    /** The current patch's first index in the frame (0, 32, 64 …; pixel ids add first_pixel). */
    patch_base: output(UInt(32)),
    /** Pulse: every pixel has been run and written (at once for a frame of 0 pixels). */
    frame_done: output(Bool),
    busy: output(Bool),
  }),
  (m, io) => {
    const state = m.reg(UInt(2), { reset: 0 });
    const [IDLE, EMIT, WAIT] = [0, 1, 2];
    const count = m.reg(UInt(32), { reset: 0 });
    const next = m.reg(UInt(32), { reset: 0 });
    const base = m.reg(UInt(32), { reset: 0 });
    const first = m.reg(UInt(32), { reset: 0 });
    const tid = m.reg(UInt(5), { reset: 0 });
    const emitting = state.eq(EMIT);
    const last = tid.eq(PATCH_THREADS - 1).or(next.add(1).eq(count));
    io.pixel_valid.set(emitting);
    io.pixel_id.set(first.add(next));
    io.thread_id.set(tid);
    io.patch_loaded.set(emitting.and(last));
    io.patch_threads.set(tid.zext(6).add(1));
    io.patch_base.set(base);
    io.busy.set(state.ne(IDLE));
    const finished = next.eq(count);
    io.frame_done.set(state.eq(IDLE).and(io.start).and(io.pixel_count.eq(0)).or(state.eq(WAIT).and(io.patch_written).and(finished)));

    m.when(state.eq(IDLE).and(io.start).and(io.pixel_count.ne(0)), () => {
      count.set(io.pixel_count);
      first.set(io.first_pixel);
      next.set(0);
      base.set(0);
      tid.set(0);
      state.set(EMIT);
    });
    m.when(emitting, () => {
      next.set(next.add(1));
      tid.set(tid.add(1));
      m.when(last, () => state.set(WAIT));
    });
    m.when(state.eq(WAIT).and(io.patch_written), () => {
      tid.set(0);
      base.set(next);
      state.set(mux(finished, lit(IDLE, 2), lit(EMIT, 2)));
    });
  },
);
