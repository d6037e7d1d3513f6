// The command patcher as a co-simulation design: frames of 0 to 100 pixels started at random (also while
// busy, when the start is ignored), patch_written raised at random; a model of the patch sequence.
import { elaborate } from '../../hdl/index.ts';
import type { CosimDesign, GoldenModel } from '../../hdl/cosim/index.ts';
import type { Rng } from '../../hdl/testbench/index.ts';
import { CommandPatcher, PATCH_THREADS } from './commandPatcher.ts';

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

export function commandPatcherStimulus(): CosimDesign['stimulus'] {
  return (cycle, rng) => {
    // Phases of 500 cycles: the memory controller writes patches back quickly, slowly, or very slowly.
    const writeOdds = [2, 8, 40][Math.floor(cycle / 500) % 3]!;
    return {
      rst_n: cycle < 2 || rng.int(4000) === 0 ? 0n : 1n,
      start: b(rng.int(15) === 0),
      pixel_count: BigInt(randomPixelCount(rng)),
      // Mostly 0; sometimes anywhere, near 2^32 included (pixel ids wrap as 32-bit sums).
      first_pixel: BigInt(rng.int(3) === 0 ? rng.int(2 ** 32) : 0),
      // Raised at any time: the patcher only listens while it waits for the write-back.
      patch_written: b(rng.int(writeOdds) === 0),
    };
  };
}

// ---------------------------------------------------------------- golden model

/**
 * The patcher as its header describes it. A start with pixel_count = 0 while idle is frame_done at once; a
 * start with n > 0 while idle begins a frame: pixels first_pixel + 0 .. n-1 (mod 2^32) leave one per cycle (pixel_valid, pixel_id,
 * thread_id counting from 0 in each patch), a patch ends after 32 pixels or at the frame's last pixel, with
 * patch_loaded (and patch_threads) in the cycle of its last pixel; then the patcher waits for
 * patch_written, which starts the next patch (patch_base = its first index in the frame) or, after the last patch, is
 * frame_done in the same cycle. Starts while busy are ignored. Checked every cycle: pixel_valid,
 * patch_loaded, frame_done, busy; pixel_id and thread_id with pixel_valid; patch_threads with
 * patch_loaded; patch_base while busy. The other outputs' values are checked by lockstep only.
 */
export class CommandPatcherModel {
  private state: 'idle' | 'emit' | 'wait' = 'idle';
  private count = 0;
  /** The next pixel to emit, and the thread it goes to. */
  private pixel = 0;
  private thread = 0;
  private base = 0;
  private first = 0;
  /** For the test's coverage counts. */
  frames = 0;
  patches = 0;

  check(ins: Readonly<Record<string, bigint>>, outs: Readonly<Record<string, bigint>>): string | null {
    const want = this.outputs(ins);
    const wrong = Object.keys(want).find((k) => outs[k] !== want[k]);
    this.clock(ins);
    return wrong === undefined ? null : `${wrong} is 0x${outs[wrong]?.toString(16)}, the model expects 0x${want[wrong]!.toString(16)}`;
  }

  private lastOfPatch(): boolean {
    return this.thread === PATCH_THREADS - 1 || this.pixel + 1 === this.count;
  }

  private outputs(ins: Readonly<Record<string, bigint>>): Record<string, bigint> {
    const emitting = this.state === 'emit';
    const last = emitting && this.lastOfPatch();
    const frameDone = (this.state === 'idle' && ins.start === 1n && ins.pixel_count === 0n) || (this.state === 'wait' && ins.patch_written === 1n && this.pixel === this.count);
    const out: Record<string, bigint> = { pixel_valid: b(emitting), patch_loaded: b(last), frame_done: b(frameDone), busy: b(this.state !== 'idle') };
    if (emitting) Object.assign(out, { pixel_id: BigInt((this.first + this.pixel) >>> 0), thread_id: BigInt(this.thread) });
    if (last) out.patch_threads = BigInt(this.thread + 1);
    if (this.state !== 'idle') out.patch_base = BigInt(this.base);
    return out;
  }

  private clock(ins: Readonly<Record<string, bigint>>): void {
    if (ins.rst_n === 0n) {
      this.state = 'idle';
      return;
    }
    switch (this.state) {
      case 'idle':
        if (ins.start === 1n && ins.pixel_count !== 0n) {
          this.count = Number(ins.pixel_count);
          this.first = Number(ins.first_pixel);
          this.pixel = 0;
          this.thread = 0;
          this.base = 0;
          this.state = 'emit';
          this.frames++;
        }
        break;
      case 'emit': {
        const last = this.lastOfPatch();
        this.pixel++;
        this.thread++;
        if (last) {
          this.state = 'wait';
          this.patches++;
        }
        break;
      }
      case 'wait':
        if (ins.patch_written === 1n) {
          this.thread = 0;
          this.base = this.pixel;
          this.state = this.pixel === this.count ? 'idle' : 'emit';
        }
        break;
    }
  }
}

export function commandPatcherGolden(): GoldenModel {
  const model = new CommandPatcherModel();
  return { check: (_cycle, ins, outs) => model.check(ins, outs) };
}

export const commandPatcherCosimDesign: CosimDesign = {
  name: 'command_patcher',
  description: 'command patcher: random frames of 0 to 100 pixels (starts also while busy), patch_written at random times',
  elaborate: () => elaborate(CommandPatcher, {}).design,
  stimulus: commandPatcherStimulus(),
  golden: commandPatcherGolden,
};
