// Checks the RT core against the ISA simulator: the same retired instructions in the same order, the
// same registers when each thread ends, the same main memory, results and faults.
import { Machine, type Retired, type Thread } from '../../golden/iss/index.ts';
import type { Scene } from '../../golden/scene.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { runOnCore, type CoreRun, type ThreadRegisters } from './coreTestbench.ts';
import { defaultRtCoreParams, type RtCoreParams } from './rtCore.ts';

export interface LockstepJob {
  readonly program: Uint32Array;
  readonly constants?: Uint32Array;
  readonly scene: Scene;
  readonly pixels: number;
  readonly maxInstructions?: number;
}

export interface LockstepReport {
  /** The first difference, or null when the core agrees with the ISA simulator everywhere. */
  readonly difference: string | null;
  readonly instructions: number;
  readonly core: CoreRun;
}

const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, '0')}`;

function firstRegisterDifference(pixel: number, iss: ThreadRegisters, core: ThreadRegisters): string | null {
  // R31 is the PC, not a stored register: skip it.
  for (let i = 1; i < 31; i++) if (iss.r[i] !== core.r[i]) return `pixel ${pixel}: at the end R${i} is ${hex(core.r[i]!)} on the core, ${hex(iss.r[i]!)} on the ISS`;
  for (let i = 4; i < 64; i++) if (iss.v[i] !== core.v[i]) return `pixel ${pixel}: at the end RV${i >> 2}[${i & 3}] is ${hex(core.v[i]!)} on the core, ${hex(iss.v[i]!)} on the ISS`;
  return null;
}

export function checkCoreAgainstIss(job: LockstepJob, params: RtCoreParams = defaultRtCoreParams): LockstepReport {
  const issRetired: { pixel: number; pc: number }[] = [];
  const issRegs = new Map<number, ThreadRegisters>();
  const machine = new Machine({
    program: job.program,
    constants: job.constants,
    scene: job.scene,
    maxInstructions: job.maxInstructions,
    onRetire: (t: Thread, r: Retired) => {
      issRetired.push({ pixel: t.pixel, pc: r.pc });
      if (r.event === 'fin' || r.event === 'fault-end') issRegs.set(t.pixel, { r: Uint32Array.from(t.r), v: Uint32Array.from(t.v) });
    },
  });
  const iss = machine.run(job.pixels);
  let difference: string | null = null;
  const note = (d: string | null) => (difference ??= d);
  let k = 0;
  const core = runOnCore(
    {
      program: job.program,
      constants: job.constants,
      scene: job.scene,
      pixels: job.pixels,
      maxInstructionsPerThread: job.maxInstructions,
      onRetire: (pixel, pc) => {
        const want = issRetired[k++];
        if (!want) note(`pixel ${pixel}: the core retired an extra instruction at ${hex(pc)}`);
        else if (want.pixel !== pixel || want.pc !== pc) note(`retired instruction #${k - 1}: core pixel ${pixel} pc ${hex(pc)}, ISS pixel ${want.pixel} pc ${hex(want.pc)}`);
      },
      onThreadEnd: (pixel, regs) => note(firstRegisterDifference(pixel, issRegs.get(pixel)!, regs)),
    },
    params,
  );
  if (k < issRetired.length) note(`the core retired ${k} instructions, the ISS ${issRetired.length}`);
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
