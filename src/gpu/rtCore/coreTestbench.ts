// Runs a kernel on one RT core (RtCoreSystem), playing the patch dispatcher and answering `trace` with the
// golden ray caster, on the TS simulator or any live one; records every cycle's inputs so that the same
// run can also be replayed from a file.
import { elaborate, type Design } from '../../hdl/index.ts';
import { RecordingSimulator } from '../../hdl/cosim/index.ts';
import type { Recording } from '../../hdl/cosim/index.ts';
import { compileSimulator, type Simulator } from '../../hdl/sim/index.ts';
import { castRay, type Vec3 } from '../../golden/rayCaster.ts';
import type { Scene } from '../../golden/scene.ts';
import { MEMORY_MAP, REG, VREG, threadBase } from '../../isa/instructions.ts';
import { RtCoreSystem } from './rtCoreSystem.ts';
import { packWords, unpackWords } from '../words.ts';
import { defaultRtCoreParams, type RtCoreParams } from './rtCore.ts';

export interface CoreJob {
  readonly program: Uint32Array;
  readonly constants?: Uint32Array;
  readonly scene: Scene;
  readonly pixels: number;
  /** Instructions one thread may retire (a kernel that never ends is an error, not a hang). */
  readonly maxInstructionsPerThread?: number;
  /** Called for every instruction the core retires, in order. */
  readonly onRetire?: (pixel: number, pc: number) => void;
  /** Called when a thread ends, with its registers (R0–R31 with R31 as stored, RV0–RV15 lane by lane). */
  readonly onThreadEnd?: (pixel: number, regs: ThreadRegisters) => void;
}

export interface ThreadRegisters {
  readonly r: Uint32Array;
  readonly v: Uint32Array;
}

export interface CoreRunResult {
  readonly cycles: number;
  /** Cycles the core spent running threads (excluding the dispatcher's kernel-mode work). */
  readonly coreCycles: number;
  readonly instructions: number;
  readonly pixels: { pixel: number; ret: [number, number, number, number] }[];
  readonly faults: number[];
}

/** A thread retired its instruction limit without `fin`, or the core stopped retiring (a hardware fault). */
export class CoreLimitError extends Error {
  constructor(
    readonly pixel: number,
    /** The last retired PC. */
    readonly pc: number,
    readonly limit: number,
    readonly stuck: boolean,
  ) {
    super(stuck ? `pixel ${pixel}: the core retired nothing for ${STUCK_CYCLES} cycles` : `pixel ${pixel}: no fin after ${limit} instructions`);
    this.name = 'CoreLimitError';
  }
}

/** The longest an instruction can take is an integer divide (34 cycles) behind a memory access: far below this. */
const STUCK_CYCLES = 10_000;

const words4 = (v: bigint) => unpackWords(v, 4) as [number, number, number, number];

/** The elaborated system (cached per parameter set: elaboration takes about half a second). */
const designs = new Map<string, Design>();
export function rtCoreSystemDesign(params: RtCoreParams = defaultRtCoreParams): Design {
  const key = JSON.stringify(params);
  let d = designs.get(key);
  if (!d) designs.set(key, (d = elaborate(RtCoreSystem, params).design));
  return d;
}

/** One compiled simulator per design, brought back to power-on for each run (compiling takes longer than most runs). */
const simulators = new WeakMap<Design, Simulator>();
function simulatorFor(design: Design): Simulator {
  let sim = simulators.get(design);
  if (!sim) simulators.set(design, (sim = compileSimulator(design)));
  else sim.powerOn();
  return sim;
}

/** The dispatcher's side of one RT core, as a sequence of kernel-mode cycles and runs. */
class Dispatcher {
  constructor(private readonly d: Simulator) {}

  /** One kernel-mode cycle: clear and/or register writes. */
  kernel(writes: { clear?: boolean; scalar?: [number, number]; vector?: [number, bigint] }): void {
    const d = this.d;
    d.poke('kernel_mode', 1);
    d.poke('pd_clear', writes.clear ? 1 : 0);
    d.poke('pd_scalar_wen', writes.scalar ? 1 : 0);
    d.poke('pd_scalar_wb_address', writes.scalar?.[0] ?? 0);
    d.poke('pd_scalar_wb_data', (writes.scalar?.[1] ?? 0) >>> 0);
    d.poke('pd_vector_wen', writes.vector ? 1 : 0);
    d.poke('pd_vector_wb_address', writes.vector?.[0] ?? 0);
    d.poke('pd_vector_wb_data', writes.vector?.[1] ?? 0n);
    d.step();
    for (const n of ['kernel_mode', 'pd_clear', 'pd_scalar_wen', 'pd_vector_wen']) d.poke(n, 0);
  }

  /** Start state of a thread (or its resume state after a trace). */
  load(pixel: number, sp: number, trace?: { hit: readonly number[]; normal: readonly number[] }): void {
    this.kernel({ clear: true });
    this.kernel({ scalar: [REG.pixelId, pixel], vector: trace ? [VREG.traceOrigin, packWords(trace.hit)] : undefined });
    this.kernel({ scalar: [REG.sp, sp], vector: trace ? [VREG.traceDirection, packWords(trace.normal)] : undefined });
  }

  start(tid: number, pc: number): void {
    const d = this.d;
    d.poke('thread_id', tid);
    d.poke('pd_pc', pc);
    d.poke('pd_start', 1);
    d.step();
    d.poke('pd_start', 0);
  }

  /** Kernel-mode reads (combinational): R29, RV14, RV15. */
  readTraceState(): { sp: number; origin: Vec3; direction: Vec3 } {
    const d = this.d;
    d.poke('kernel_mode', 1);
    d.poke('pd_scalar_read_address1', REG.sp);
    d.poke('pd_vector_read_address1', VREG.traceOrigin);
    d.poke('pd_vector_read_address2', VREG.traceDirection);
    const sp = Number(d.peek('pd_scalar_read1'));
    const o = words4(d.peek('pd_vector_read1'));
    const dir = words4(d.peek('pd_vector_read2'));
    d.poke('kernel_mode', 0);
    return { sp, origin: [o[0], o[1], o[2]], direction: [dir[0], dir[1], dir[2]] };
  }

  /** Every register, through the kernel-mode read ports (combinational: no cycle passes). */
  readRegisters(): ThreadRegisters {
    const d = this.d;
    const r = new Uint32Array(32);
    const v = new Uint32Array(64);
    d.poke('kernel_mode', 1);
    for (let i = 0; i < 32; i++) {
      d.poke('pd_scalar_read_address1', i);
      r[i] = Number(d.peek('pd_scalar_read1'));
      if (i < 16) {
        d.poke('pd_vector_read_address1', i);
        v.set(words4(d.peek('pd_vector_read1')), 4 * i);
      }
    }
    d.poke('kernel_mode', 0);
    return { r, v };
  }

  /** The 16 bytes a finished thread returns (read through the host port while the core is idle). */
  readResult(tid: number): [number, number, number, number] {
    const d = this.d;
    d.poke('host_mem_read', 1);
    d.poke('host_mem_addr', (tid << 14) | (MEMORY_MAP.returnOffset >> 2));
    d.step();
    d.poke('host_mem_read', 0);
    return words4(d.peek('host_mem_data'));
  }
}

/** Load memories through the host ports (one word per cycle, so external simulators see the same). */
function loadMemories(d: Simulator, program: Uint32Array, constants: Uint32Array): void {
  if (program.length > MEMORY_MAP.instructionWords) throw new Error(`the program has ${program.length} words; instruction memory holds ${MEMORY_MAP.instructionWords}`);
  if (constants.length > MEMORY_MAP.constantBytes / 4) throw new Error(`${constants.length} constant words; constant memory holds ${MEMORY_MAP.constantBytes / 4}`);
  program.forEach((w, i) => {
    d.poke('host_imem_we', 1);
    d.poke('host_imem_addr', i);
    d.poke('host_imem_data', w >>> 0);
    d.step();
  });
  d.poke('host_imem_we', 0);
  constants.forEach((w, i) => {
    d.poke('host_cmem_we', 1);
    d.poke('host_cmem_addr', i);
    d.poke('host_cmem_data', w >>> 0);
    d.step();
  });
  d.poke('host_cmem_we', 0);
}

export interface CoreRun extends CoreRunResult {
  readonly recording: Recording;
  readonly design: Design;
  /** Main memory of thread `tid` at the end of the run (read from the simulator: call before the next run). */
  threadMemory(tid: number): Uint32Array;
}

/** Main memory as the four banks hold it: global word w is in bank w % 4 at row w / 4. */
let runs = 0;
function threadMemoryOf(sim: Simulator): (tid: number) => Uint32Array {
  let banks: bigint[][] | undefined;
  const run = runs;
  return (tid) => {
    if (run !== runs) throw new Error('threadMemory: the simulator has run another job since');
    banks ??= [0, 1, 2, 3].map((k) => sim.dumpMemory(`main_memory.bank${k}`));
    const words = MEMORY_MAP.threadBytes / 4;
    const out = new Uint32Array(words);
    for (let i = 0; i < words; i++) {
      const w = tid * words + i;
      out[i] = Number(banks[w % 4]![w >> 2]!);
    }
    return out;
  };
}

/**
 * Run pixels 0 .. pixels − 1 one thread at a time; traces are answered as soon as they are raised. On the TS
 * simulator, or on `live`: a simulator of `rtCoreSystemDesign(params)` on any back end (powered on here).
 */
export function runOnCore(job: CoreJob, params: RtCoreParams = defaultRtCoreParams, live?: Simulator): CoreRun {
  const design = rtCoreSystemDesign(params);
  const sim = live ?? simulatorFor(design);
  if (live) live.powerOn();
  runs++;
  const d = new RecordingSimulator(sim, design);
  d.poke('rst_n', 0);
  d.step();
  d.poke('rst_n', 1);
  loadMemories(d, job.program, job.constants ?? new Uint32Array(0));
  const pd = new Dispatcher(d);
  const limit = job.maxInstructionsPerThread ?? 10_000_000;
  const pixels: CoreRunResult['pixels'] = [];
  const faults: number[] = [];
  let instructions = 0;
  let coreCycles = 0;
  for (let pixel = 0; pixel < job.pixels; pixel++) {
    const tid = pixel % MEMORY_MAP.threads;
    let faulted = false;
    let retired = 0;
    let lastRetire = d.cycle;
    let lastPc = 0;
    pd.load(pixel, threadBase(tid));
    pd.start(tid, 0);
    for (;;) {
      if (d.peek('retire_valid') === 1n) {
        lastPc = Number(d.peek('retire_pc'));
        lastRetire = d.cycle;
        // An illegal opcode or a PC outside instruction memory ends the thread without executing: not counted (as the ISS).
        const faultEnd = d.peek('end') === 1n && d.peek('fault') === 1n;
        if (!faultEnd) instructions++;
        if (++retired > limit) throw new CoreLimitError(pixel, lastPc, limit, false);
        job.onRetire?.(pixel, lastPc);
      } else if (d.cycle - lastRetire > STUCK_CYCLES) throw new CoreLimitError(pixel, lastPc, limit, true);
      faulted ||= d.peek('fault') === 1n;
      const ended = d.peek('end') === 1n;
      const switched = d.peek('context_switch') === 1n;
      d.step();
      coreCycles++;
      if (ended) break;
      if (switched) {
        const resumeAt = Number(d.peek('pc_out'));
        const s = pd.readTraceState();
        const r = castRay(job.scene, s.origin, s.direction);
        pd.load(pixel, s.sp, r);
        pd.start(tid, resumeAt);
        lastRetire = d.cycle;
      }
    }
    if (job.onThreadEnd) job.onThreadEnd(pixel, pd.readRegisters());
    pixels.push({ pixel, ret: pd.readResult(tid) });
    if (faulted) faults.push(pixel);
  }
  return { cycles: d.cycle, coreCycles, instructions, pixels, faults, recording: d.recording(), design, threadMemory: threadMemoryOf(sim) };
}
