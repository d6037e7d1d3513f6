// Checks the RT core against the ISA simulator: every thread retires the same instructions in the same
// order with the same register and flag writes, and ends with the same main memory, results and faults.
// Threads interleave on the core, so the comparison is per thread (pixel), not over one global order.
import { Machine, type Retired, type Thread } from '../../../iss/index.ts';
import type { Scene } from '../../../golden/scene.ts';
import { MEMORY_MAP } from '../../../isa/instructions.ts';
import { runOnCore, type CoreRun, type RetiredInstruction } from './rtCoreTestbench.ts';
import { defaultRtCoreParams, type RtCoreParams } from '../rtCore.ts';

export interface LockstepJob {
  readonly program: Uint32Array;
  readonly constants?: Uint32Array;
  /** Loaded into the core's memories first (the ISA simulator sees only `program` and `constants`). */
  readonly earlier?: { readonly program: Uint32Array; readonly constants: Uint32Array };
  readonly scene: Scene;
  readonly pixels: number;
  readonly maxInstructions?: number;
  /** Threads in flight on the core at most (default: every context). */
  readonly concurrency?: number;
  /** Random backpressure on the core's launch and event handshakes (and a random texture unit latency). */
  readonly stallSeed?: number;
  /** Texture memory (both sides): txd executes on the ISS and the testbench plays the core's texture unit (RtCoreParams.texture). */
  readonly texture?: Uint32Array;
}

export interface LockstepReport {
  /** The first difference, or null when the core agrees with the ISA simulator everywhere. */
  readonly difference: string | null;
  readonly instructions: number;
  readonly core: CoreRun;
}

const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;

/** The writes an ISS step made, in the core's retire form (a fault-ending fetch executes nothing). */
function expectedOf(r: Retired): RetiredInstruction {
  return {
    pc: r.pc,
    counted: r.event !== 'fault-end',
    ...(r.scalar ? { scalar: { reg: r.scalar.reg, value: r.scalar.value >>> 0 } } : {}),
    ...(r.vector ? { vector: { reg: r.vector.reg, value: r.vector.value.map((w) => w >>> 0) as [number, number, number, number] } } : {}),
    ...(r.flag !== undefined ? { flag: r.flag } : {}),
  };
}

function describe(r: RetiredInstruction): string {
  const parts = [`pc ${hex(r.pc)}`];
  if (!r.counted) parts.push('(fault end)');
  if (r.scalar) parts.push(`R${r.scalar.reg} = ${hex(r.scalar.value)}`);
  if (r.vector) parts.push(`RV${r.vector.reg} = ${r.vector.value.map(hex).join(' ')}`);
  if (r.flag !== undefined) parts.push(`flag = ${r.flag}`);
  return parts.join(', ');
}

export function checkCoreAgainstIss(job: LockstepJob, params: RtCoreParams = defaultRtCoreParams): LockstepReport {
  const issRetired = new Map<number, RetiredInstruction[]>();
  const machine = new Machine({
    program: job.program,
    constants: job.constants,
    scene: job.scene,
    maxInstructions: job.maxInstructions,
    ...(job.texture ? { texture: job.texture } : {}),
    onRetire: (t: Thread, r: Retired) => {
      let list = issRetired.get(t.pixel);
      if (!list) issRetired.set(t.pixel, (list = []));
      list.push(expectedOf(r));
    },
  });
  const iss = machine.run(job.pixels);
  let difference: string | null = null;
  const note = (d: string | null) => (difference ??= d);
  const seen = new Map<number, number>();
  const core = runOnCore(
    {
      program: job.program,
      constants: job.constants,
      earlier: job.earlier,
      scene: job.scene,
      pixels: job.pixels,
      maxInstructionsPerThread: job.maxInstructions,
      concurrency: job.concurrency,
      stallSeed: job.stallSeed,
      ...(job.texture ? { texture: job.texture } : {}),
      onRetire: (pixel, got) => {
        const k = seen.get(pixel) ?? 0;
        seen.set(pixel, k + 1);
        const want = issRetired.get(pixel)?.[k];
        if (!want) note(`pixel ${pixel}: the core retired an extra instruction #${k}: ${describe(got)}`);
        else if (describe(want) !== describe(got)) note(`pixel ${pixel}, instruction #${k}: core ${describe(got)}; ISS ${describe(want)}`);
      },
    },
    params,
  );
  for (const [pixel, list] of issRetired) if ((seen.get(pixel) ?? 0) < list.length) note(`pixel ${pixel}: the core retired ${seen.get(pixel) ?? 0} instructions, the ISS ${list.length}`);
  iss.pixels.forEach((p, i) => {
    const c = core.pixels[i]!.ret;
    if (p.ret.some((w, j) => w >>> 0 !== c[j])) note(`pixel ${p.pixel}: result ${c.map(hex).join(' ')} on the core, ${p.ret.map(hex).join(' ')} on the ISS`);
  });
  if (iss.faults.join() !== core.faults.join()) note(`faulting pixels: core [${core.faults.join(', ')}], ISS [${iss.faults.join(', ')}]`);
  if (difference === null) {
    const threads = Math.min(job.pixels, MEMORY_MAP.threads);
    for (let tid = 0; tid < threads && difference === null; tid++) {
      const a = machine.memory.main[tid]!;
      const b = core.threadMemory(tid);
      const i = a.findIndex((w, j) => w !== b[j]);
      if (i >= 0) note(`thread ${tid}: main memory word at offset ${hex(i * 4)} is ${hex(b[i]!)} on the core, ${hex(a[i]!)} on the ISS`);
    }
  }
  return { difference, instructions: iss.instructions, core };
}
