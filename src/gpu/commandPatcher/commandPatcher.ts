// The command patcher (seed section 3): hands the dispatcher the frame's pixels in order, one per cycle,
// frame index i on thread i mod 32 of patch i / 32. A thread takes its next pixel once the memory controller
// has written its last result back, and at most two patches are in flight, so a patch's threads start while
// the one before is still finishing (the seed waits for a whole patch; docs/spec-deviations.md).
import { Bool, Bundle, UInt, defineModule, flip, fsm, input, lit, mux, output, type BoolValue, type Fsm, type ModuleBuilder, type PortsValue, type UIntValue } from '../../hdl/index.ts';
import { clog2 } from '../../hdl/lib/index.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';

export const PATCH_THREADS = MEMORY_MAP.threads;

/** A pixel handed to the patch dispatcher: thread `thread` runs pixel `id` next (while `valid`). */
export const PixelHandoff = Bundle({ valid: Bool, id: UInt(32), thread: UInt(clog2(PATCH_THREADS)) });

/** Patches whose threads may run at once: the memory controller keeps a report for each. */
export const PATCHES_IN_FLIGHT = 2;

/**
 * The memory controller's side of a frame, as the controller drives it (its `output`, the patcher's `input`):
 * the frame's start, the results written back; the patcher's patch starts and the frame's end come back.
 */
export const FrameLink = Bundle({
  /** Pulse: start a frame of `pixel_count` pixels (ignored while a frame runs). */
  start: Bool,
  pixel_count: UInt(32),
  /** The frame's first pixel id (taken with `start`): index i of the frame runs pixel first_pixel + i. */
  first_pixel: UInt(32),
  /** Pulse: the result of thread `written_thread` is in host memory; the thread may take its next pixel. */
  thread_written: Bool,
  written_thread: UInt(clog2(PATCH_THREADS)),
  /** Pulse: the oldest unfinished patch is complete (its report written). */
  patch_written: Bool,
  /** The pixel handed over is a patch's first (thread 0). */
  patch_start: flip(Bool),
  /** Pulse: every pixel has been run and written (at once for a frame of 0 pixels). */
  done: flip(Bool),
});

const commandPatcherPorts = () => ({
  /** From the memory controller (SV ports frame_start … frame_done). */
  frame: input(FrameLink),
  /** To the patch dispatcher. */
  pixel: output(PixelHandoff),
  /** The oldest patch not yet complete: its first index in the frame (pixel ids add first_pixel). */
  patch_base: output(UInt(32)),
  busy: output(Bool),
});

type PatcherIo = PortsValue<ReturnType<typeof commandPatcherPorts>>;
type FrameFsm = Fsm<'idle' | 'run'>;

export const CommandPatcher = defineModule('CommandPatcher', commandPatcherPorts, (m, io) => {
  const frame = fsm(m, 'frame', ['idle', 'run'], 'idle');
  const regs = frameRegisters(m);
  const handed = handOut(io, frame, regs);
  const patch = patchCompletion(io, frame, regs);
  advance(m, io, frame, regs, handed, patch);
  invariants(m, regs);
});

/**
 * What the frame's indices promise (checked by every simulator, proven by test/formal/gpuBlocks.test.ts): the
 * oldest incomplete patch starts at or before the next index, which does not pass the frame's size, at most two
 * patches apart; a patch starts on a multiple of 32 (or is the frame's end).
 */
function invariants(m: ModuleBuilder, r: FrameRegisters): void {
  m.assert(r.base.le(r.next).and(r.next.le(r.count)), 'the oldest patch starts at or before the next index, within the frame', { name: 'indices_ordered' });
  m.assert(r.next.sub(r.base).le(PATCHES_IN_FLIGHT * PATCH_THREADS), `at most ${PATCHES_IN_FLIGHT} patches in flight`, { name: 'window_in_range' });
  m.assert(r.base.trunc(clog2(PATCH_THREADS)).eq(0).or(r.base.eq(r.count)), 'a patch starts on a multiple of the patch size, or is the end of the frame', { name: 'base_aligned' });
}

/** The running frame: its size and first pixel, the next index to hand over, the oldest incomplete patch, the threads in use. */
interface FrameRegisters {
  readonly count: UIntValue;
  readonly first: UIntValue;
  /** The next index to hand over, and the first index of the oldest patch not yet complete. */
  readonly next: UIntValue;
  readonly base: UIntValue;
  /** Threads holding a pixel whose result is not written yet. */
  readonly holding: UIntValue;
}

function frameRegisters(m: ModuleBuilder): FrameRegisters {
  return {
    count: m.reg(UInt(32), { reset: 0, name: 'count' }),
    first: m.reg(UInt(32), { reset: 0, name: 'first' }),
    next: m.reg(UInt(32), { reset: 0, name: 'next' }),
    base: m.reg(UInt(32), { reset: 0, name: 'base' }),
    holding: m.reg(UInt(PATCH_THREADS), { reset: 0, name: 'holding' }),
  };
}

/** Index `next` goes to its thread when the thread is free and it is within two patches of the oldest incomplete one. */
function handOut(io: PatcherIo, frame: FrameFsm, r: FrameRegisters): { emit: BoolValue; thread: UIntValue } {
  const tid = r.next.trunc(clog2(PATCH_THREADS));
  const running = frame.is('run');
  const withinWindow = r.next.sub(r.base).lt(PATCHES_IN_FLIGHT * PATCH_THREADS);
  const emit = running.and(r.next.lt(r.count)).and(r.holding.bit(tid).not()).and(withinWindow);
  io.pixel.valid.set(emit);
  io.pixel.id.set(r.first.add(r.next));
  io.pixel.thread.set(tid);
  io.frame.patch_start.set(emit.and(tid.eq(0)));
  io.patch_base.set(r.base);
  io.busy.set(running);
  return { emit, thread: tid };
}

/** The oldest patch completes (and, the last one, ends the frame). */
function patchCompletion(io: PatcherIo, frame: FrameFsm, r: FrameRegisters): { done: BoolValue; end: UIntValue; last: BoolValue } {
  // A patch is complete only once all its pixels were handed over; a stray pulse before is ignored.
  const patchEnd = mux(r.count.sub(r.base).lt(PATCH_THREADS), r.count, r.base.add(PATCH_THREADS));
  const patchDone = frame.is('run').and(io.frame.patch_written).and(r.next.ge(patchEnd));
  const last = patchEnd.eq(r.count);
  io.frame.done.set(frame.is('idle').and(io.frame.start).and(io.frame.pixel_count.eq(0)).or(patchDone.and(last)));
  return { done: patchDone, end: patchEnd, last };
}

/** The registers' next values: a handed-out index taken, written threads released, a new frame started. */
function advance(m: ModuleBuilder, io: PatcherIo, frame: FrameFsm, r: FrameRegisters, handed: { emit: BoolValue; thread: UIntValue }, patch: { done: BoolValue; end: UIntValue; last: BoolValue }): void {
  const taken = mux(handed.emit, lit(1, PATCH_THREADS).shl(handed.thread), lit(0, PATCH_THREADS));
  const released = mux(io.frame.thread_written.and(frame.is('run')), lit(1, PATCH_THREADS).shl(io.frame.written_thread), lit(0, PATCH_THREADS));
  r.holding.set(r.holding.and(released.not()).or(taken));
  m.when(handed.emit, () => r.next.set(r.next.add(1)));
  m.when(patch.done, () => r.base.set(patch.end));
  frame.on({
    idle: () =>
      m.when(io.frame.start.and(io.frame.pixel_count.ne(0)), () => {
        r.count.set(io.frame.pixel_count);
        r.first.set(io.frame.first_pixel);
        r.next.set(0);
        r.base.set(0);
        r.holding.set(0);
        frame.goto('run');
      }),
    run: () => m.when(patch.done.and(patch.last), () => frame.goto('idle')),
  });
}
