// The command patcher as a co-simulation design: frames of 0 to 100 pixels started at random (also while
// busy, when the start is ignored), thread_written and patch_written raised at random; a model of the pixel order.
import { elaborate } from '../../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../../hdl/cosim/index.ts';
import type { Rng } from '../../../util/seededRandom.ts';
import { CommandPatcher, PATCH_THREADS } from '../commandPatcher.ts';

const b = (x: boolean): bigint => (x ? 1n : 0n);

// ---------------------------------------------------------------- stimulus

/** Mostly 0 to 100; often a size at a patch boundary (a full last patch, one pixel over). */
function randomPixelCount(rng: Rng): number {
  const k = rng.int(10);
  if (k === 0) return 0;
  if (k < 3) {
    const edges = [1, 2, 31, 32, 33, 63, 64, 65, 95, 96, 97];
    return edges[rng.int(edges.length)]!;
  }
  return rng.int(101);
}

/** Phases of 500 cycles: the memory controller writes results back quickly, slowly, or very slowly. */
const writeOddsAt = (cycle: number) => [2, 8, 40][Math.floor(cycle / 500) % 3]!;

export function commandPatcherStimulus(): CosimDesign['stimulus'] {
  // Results are mostly written back in the order threads took their pixels (thread 0, 1, … 31, 0, …).
  let nextWritten = 0;
  return (cycle, rng) => {
    if (cycle === 0) nextWritten = 0;
    const written = rng.int(writeOddsAt(cycle)) === 0;
    const thread = rng.int(4) === 0 ? rng.int(PATCH_THREADS) : nextWritten;
    if (written && thread === nextWritten) nextWritten = (nextWritten + 1) % PATCH_THREADS;
    return {
      rst_n: cycle < 2 || rng.int(4000) === 0 ? 0n : 1n,
      frame_start: b(rng.int(15) === 0),
      frame_pixel_count: BigInt(randomPixelCount(rng)),
      // Mostly 0; sometimes anywhere, near 2^32 included (pixel ids wrap as 32-bit sums).
      frame_first_pixel: BigInt(rng.int(3) === 0 ? rng.int(2 ** 32) : 0),
      // Raised at any time, for any thread: the patcher frees only threads that hold a pixel.
      frame_thread_written: b(written),
      frame_written_thread: BigInt(thread),
      // Also at any time: only a patch whose pixels were all handed over can complete.
      // In phases of their own: patches complete fast, or so slowly that the two-patch window fills.
      frame_patch_written: b(rng.int([4, 30, 300][Math.floor(cycle / 700) % 3]!) === 0),
    };
  };
}

// ---------------------------------------------------------------- golden model

/**
 * The patcher as its header describes it. A start with pixel_count = 0 while idle is frame_done at once; a
 * start with n > 0 while idle begins a frame. Index i (pixel first_pixel + i, mod 2^32) goes to thread
 * i mod 32 when that thread holds no pixel and i is less than two patches past the oldest incomplete patch,
 * one index per cycle, in order. thread_written frees a thread; patch_written completes the oldest patch
 * once all its indices were handed over (otherwise it is ignored), and after the last patch ends the frame
 * (frame_done in the same cycle). Starts while busy are ignored. Checked every cycle: pixel_valid, patch_start,
 * frame_done, busy; pixel_id and pixel_thread with pixel_valid; patch_base while busy.
 */
export class CommandPatcherModel {
  private running = false;
  private count = 0;
  private first = 0;
  private next = 0;
  private base = 0;
  private holding = new Set<number>();
  /** For the test's coverage counts. */
  frames = 0;
  patches = 0;
  /** Cycles a pixel waited for its thread to be written, or for the two-patch window. */
  waitedForThread = 0;
  waitedForWindow = 0;

  check(ins: Readonly<Record<string, bigint>>, outs: Readonly<Record<string, bigint>>): string | null {
    const want = this.outputs(ins);
    const wrong = Object.keys(want).find((k) => outs[k] !== want[k]);
    this.clock(ins);
    return wrong === undefined ? null : `${wrong} is 0x${outs[wrong]?.toString(16)}, the model expects 0x${want[wrong]!.toString(16)}`;
  }

  private emits(): boolean {
    return this.running && this.next < this.count && !this.holding.has(this.next % PATCH_THREADS) && this.next - this.base < 2 * PATCH_THREADS;
  }

  private patchEnd(): number {
    return Math.min(this.count, this.base + PATCH_THREADS);
  }

  private patchDone(ins: Readonly<Record<string, bigint>>): boolean {
    return this.running && ins.frame_patch_written === 1n && this.next >= this.patchEnd();
  }

  private outputs(ins: Readonly<Record<string, bigint>>): Record<string, bigint> {
    const emit = this.emits();
    const frameDone = (!this.running && ins.frame_start === 1n && ins.frame_pixel_count === 0n) || (this.patchDone(ins) && this.patchEnd() === this.count);
    const out: Record<string, bigint> = { pixel_valid: b(emit), frame_patch_start: b(emit && this.next % PATCH_THREADS === 0), frame_done: b(frameDone), busy: b(this.running) };
    if (emit) Object.assign(out, { pixel_id: BigInt((this.first + this.next) >>> 0), pixel_thread: BigInt(this.next % PATCH_THREADS) });
    if (this.running) out.patch_base = BigInt(this.base);
    return out;
  }

  private clock(ins: Readonly<Record<string, bigint>>): void {
    if (ins.rst_n === 0n) {
      this.running = false;
      return;
    }
    if (!this.running) {
      if (ins.frame_start === 1n && ins.frame_pixel_count !== 0n) {
        Object.assign(this, { running: true, count: Number(ins.frame_pixel_count), first: Number(ins.frame_first_pixel), next: 0, base: 0 });
        this.holding.clear();
        this.frames++;
      }
      return;
    }
    const emit = this.emits();
    const done = this.patchDone(ins);
    const end = this.patchEnd();
    if (!emit && this.next < this.count) {
      if (this.holding.has(this.next % PATCH_THREADS)) this.waitedForThread++;
      else this.waitedForWindow++;
    }
    if (ins.frame_thread_written === 1n) this.holding.delete(Number(ins.frame_written_thread));
    if (emit) this.holding.add(this.next++ % PATCH_THREADS);
    if (done) {
      this.patches++;
      if (end === this.count) this.running = false;
      this.base = end;
    }
  }
}

export function commandPatcherGolden(): GoldenModel {
  const model = new CommandPatcherModel();
  return { check: (_cycle, ins, outs) => model.check(ins, outs) };
}

export const commandPatcherCosimDesign: CosimDesign = {
  name: 'command_patcher',
  description: 'command patcher: random frames of 0 to 100 pixels (starts also while busy), thread_written and patch_written at random times',
  elaborate: () => elaborate(CommandPatcher, {}).design,
  stimulus: commandPatcherStimulus(),
  golden: commandPatcherGolden,
};
