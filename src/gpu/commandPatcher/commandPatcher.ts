// The command patcher (seed section 3): hands the dispatcher the frame's pixels in order, one per cycle,
// frame index i on thread i mod 32 of patch i / 32. A thread takes its next pixel once the memory controller
// has written its last result back, and at most two patches are in flight, so a patch's threads start while
// the one before is still finishing (the seed waits for a whole patch; docs/spec-deviations.md).
import { Bool, Bundle, UInt, defineModule, fsm, input, lit, mux, output } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';

export const PATCH_THREADS = MEMORY_MAP.threads;

/** A pixel handed to the patch dispatcher: thread `thread` runs pixel `id` next (while `valid`). */
export const PixelHandoff = Bundle({ valid: Bool, id: UInt(32), thread: UInt(clog2(PATCH_THREADS)) });

/** Patches whose threads may run at once: the memory controller keeps a report for each. */
export const PATCHES_IN_FLIGHT = 2;

export const CommandPatcher = defineModule(
  'CommandPatcher',
  () => ({
    /** Pulse: start a frame of `pixel_count` pixels (ignored while a frame runs). */
    start: input(Bool),
    pixel_count: input(UInt(32)),
    /** The frame's first pixel id (taken with `start`): index i of the frame runs pixel first_pixel + i. */
    first_pixel: input(UInt(32)),
    /** Pulse from the memory controller: the result of thread `written_thread` is in host memory. */
    thread_written: input(Bool),
    written_thread: input(UInt(clog2(PATCH_THREADS))),
    /** Pulse from the memory controller: the oldest unfinished patch is complete (its report written). */
    patch_written: input(Bool),
    /** To the patch dispatcher. */
    pixel: output(PixelHandoff),
    /** The pixel handed over is a patch's first (thread 0). */
    patch_start: output(Bool),
    /** The oldest patch not yet complete: its first index in the frame (pixel ids add first_pixel). */
    patch_base: output(UInt(32)),
    /** Pulse: every pixel has been run and written (at once for a frame of 0 pixels). */
    frame_done: output(Bool),
    busy: output(Bool),
  }),
  (m, io) => {
    const frame = fsm(m, 'frame', ['idle', 'run'], 'idle');
    const count = m.reg(UInt(32), { reset: 0 });
    const first = m.reg(UInt(32), { reset: 0 });
    /** The next index to hand over, and the first index of the oldest patch not yet complete. */
    const next = m.reg(UInt(32), { reset: 0 });
    const base = m.reg(UInt(32), { reset: 0 });
    /** Threads holding a pixel whose result is not written yet. */
    const holding = m.reg(UInt(PATCH_THREADS), { reset: 0 });
    const tid = next.trunc(clog2(PATCH_THREADS));
    const running = frame.is('run');
    const withinWindow = next.sub(base).lt(PATCHES_IN_FLIGHT * PATCH_THREADS);
    const emit = running.and(next.lt(count)).and(holding.bit(tid).not()).and(withinWindow);
    io.pixel.valid.set(emit);
    io.pixel.id.set(first.add(next));
    io.pixel.thread.set(tid);
    io.patch_start.set(emit.and(tid.eq(0)));
    io.patch_base.set(base);
    io.busy.set(running);

    // A patch is complete only once all its pixels were handed over; a stray pulse before is ignored.
    const patchEnd = mux(count.sub(base).lt(PATCH_THREADS), count, base.add(PATCH_THREADS));
    const patchDone = running.and(io.patch_written).and(next.ge(patchEnd));
    const last = patchEnd.eq(count);
    io.frame_done.set(frame.is('idle').and(io.start).and(io.pixel_count.eq(0)).or(patchDone.and(last)));

    const taken = mux(emit, lit(1, PATCH_THREADS).shl(tid), lit(0, PATCH_THREADS));
    const released = mux(io.thread_written.and(running), lit(1, PATCH_THREADS).shl(io.written_thread), lit(0, PATCH_THREADS));
    holding.set(holding.and(released.not()).or(taken));
    m.when(emit, () => next.set(next.add(1)));
    m.when(patchDone, () => base.set(patchEnd));
    frame.on({
      idle: () =>
        m.when(io.start.and(io.pixel_count.ne(0)), () => {
          count.set(io.pixel_count);
          first.set(io.first_pixel);
          next.set(0);
          base.set(0);
          holding.set(0);
          frame.goto('run');
        }),
      run: () => m.when(patchDone.and(last), () => frame.goto('idle')),
    });
  },
);
