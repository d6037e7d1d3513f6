// Runs a kernel on one RT core (RtCoreSystem), playing the patch dispatcher: threads are launched into
// free contexts (as many at once as the core holds), traces are answered with the golden ray caster and
// the thread launched again, results are read back when a thread ends. On the TS simulator or any live
// one; every cycle's inputs are recorded so the same run can be replayed from a file.
import { elaborate, type Design } from '../../../hdl/index.ts';
import { RecordingSimulator } from '../../../hdl/cosim/index.ts';
import type { Recording } from '../../../hdl/cosim/index.ts';
import { compileSimulator, type Simulator } from '../../../hdl/sim/index.ts';
import { createRng, type Rng } from '../../../util/seededRandom.ts';
import { castRay, hitParametersOf, testTriangle, type Vec3 } from '../../../golden/rayCaster.ts';
import { executeTxd } from '../../../iss/index.ts';
import type { Scene } from '../../../golden/scene.ts';
import { MEMORY_MAP, threadBase } from '../../../isa/instructions.ts';
import { RtCoreSystem } from '../rtCoreSystem.ts';
import { packWords, unpackWords } from '../../verification/portWords.ts';
import { defaultRtCoreParams, type RtCoreParams } from '../rtCore.ts';
import { ThreadEventKind } from '../interfaces.ts';

export interface CoreJob {
  readonly program: Uint32Array;
  readonly constants?: Uint32Array;
  /** Loaded into the memories before `program` and `constants` (what a later, shorter load must hide). */
  readonly earlier?: { readonly program: Uint32Array; readonly constants: Uint32Array };
  readonly scene: Scene;
  readonly pixels: number;
  /** Instructions one thread may retire (a kernel that never ends is an error, not a hang). */
  readonly maxInstructionsPerThread?: number;
  /** Threads in flight at most (default: one per context of the core). */
  readonly concurrency?: number;
  /** Random backpressure on the launch and event handshakes (the dispatcher is sometimes slow), from this seed. */
  readonly stallSeed?: number;
  /** Called for every instruction the core retires, with what it wrote, in each thread's order. */
  readonly onRetire?: (pixel: number, r: RetiredInstruction) => void;
  /**
   * Texture memory, for a core with a texture unit (RtCoreParams.texture): the testbench plays the unit,
   * answering each txd with the golden executeTxd after a latency (random, and out of order, with `stallSeed`).
   */
  readonly texture?: Uint32Array;
}


/** What the core's retire port reports for one instruction. */
export interface RetiredInstruction {
  readonly pc: number;
  /** False for the fetch of an illegal opcode or a PC outside instruction memory, which ends the thread without executing. */
  readonly counted: boolean;
  readonly scalar?: { reg: number; value: number };
  readonly vector?: { reg: number; value: [number, number, number, number] };
  readonly flag?: number;
}

export interface CoreRunResult {
  readonly cycles: number;
  /** Cycles with at least one thread on the core. */
  readonly coreCycles: number;
  /** Cycles in which the core issued an instruction. */
  readonly issueCycles: number;
  readonly instructions: number;
  readonly pixels: { pixel: number; ret: [number, number, number, number] }[];
  readonly faults: number[];
  /** Cycles in which the dispatcher held back a launch or an event it could have passed (`stallSeed`). */
  readonly heldBack: { launches: number; events: number };
  /** txd requests the played texture unit answered. */
  readonly textureFetches: number;
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

/** The longest an instruction can take is an integer divide (36 cycles): far below this. */
const STUCK_CYCLES = 10_000;

const words4 = (v: bigint) => unpackWords(v, 4) as [number, number, number, number];

/** The elaborated system (cached per parameter set: elaboration takes about a second). */
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

/**
 * Load memories through the host ports (one word per cycle, so external simulators see the same). A load
 * starts with its word 0; an empty one writes nothing, so it writes a zero word 0 to start (the memory's
 * length is then 1, and word 0 reads zero as it would unloaded).
 */
function loadMemories(d: Simulator, program: Uint32Array, constants: Uint32Array): void {
  if (program.length === 0) program = new Uint32Array(1);
  if (constants.length === 0) constants = new Uint32Array(1);
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

/** A thread to place into a context: a new pixel, or one resuming after its trace. */
interface Launch {
  readonly pixel: number;
  readonly tid: number;
  readonly pc: number;
  readonly sp: number;
  readonly hit: readonly number[];
  readonly normal: readonly number[];
  /** RV13 after `trace RVa` (written only when `queried`). */
  readonly parameters: readonly number[];
  readonly queried: boolean;
}

/** The dispatcher's bookkeeping: which thread id runs which pixel, what waits to be launched or read back. */
class DispatcherModel {
  readonly launches: Launch[] = [];
  readonly reads: { pixel: number; tid: number }[] = [];
  readonly pixelOfTid = new Map<number, number>();
  readonly retired = new Map<number, number>();
  readonly faulted = new Set<number>();
  readonly results: CoreRunResult['pixels'] = [];
  private nextPixel = 0;
  private inFlight = 0;

  constructor(
    private readonly job: CoreJob,
    private readonly concurrency: number,
  ) {}

  /** Start new pixels in order while threads are below the limit and their thread id is free (its previous pixel read back). */
  admit(): void {
    while (this.nextPixel < this.job.pixels && this.inFlight < this.concurrency) {
      const tid = this.nextPixel % MEMORY_MAP.threads;
      if (this.pixelOfTid.has(tid)) return;
      this.pixelOfTid.set(tid, this.nextPixel);
      this.launches.push({ pixel: this.nextPixel, tid, pc: 0, sp: threadBase(tid), hit: [0, 0, 0, 0], normal: [0, 0, 0, 0], parameters: [0, 0, 0, 0], queried: false });
      this.inFlight++;
      this.nextPixel++;
    }
  }

  finished(pixel: number): void {
    this.inFlight--;
    this.reads.push({ pixel, tid: pixel % MEMORY_MAP.threads });
  }

  resultRead(pixel: number, tid: number, ret: [number, number, number, number]): void {
    this.results.push({ pixel, ret });
    this.pixelOfTid.delete(tid);
  }

  get done(): boolean {
    return this.results.length === this.job.pixels;
  }
}

/**
 * Run pixels 0 .. pixels − 1 (pixel p on thread id p % 32, in order for each id), up to `concurrency`
 * threads at once. On the TS simulator, or on `live`: a simulator of `rtCoreSystemDesign(params)` on any
 * back end (powered on here).
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
  if (job.earlier) loadMemories(d, job.earlier.program, job.earlier.constants);
  loadMemories(d, job.program, job.constants ?? new Uint32Array(0));
  const model = new DispatcherModel(job, Math.min(job.concurrency ?? params.contexts, MEMORY_MAP.threads));
  const stalls: Rng | undefined = job.stallSeed === undefined ? undefined : createRng(job.stallSeed);
  const limit = job.maxInstructionsPerThread ?? 10_000_000;
  let instructions = 0;
  let coreCycles = 0;
  let issueCycles = 0;
  let lastRetire = d.cycle;
  let lastPc = 0;
  let lastPixel = 0;
  let reading: { pixel: number; tid: number } | undefined;
  const heldBack = { launches: 0, events: 0 };
  const textureUnit = params.texture ? new TextureUnitModel(textureMemory(job.texture), stalls) : undefined;
  model.admit();
  while (!model.done) {
    // Outputs of this cycle (they depend on registers only, except the retire report of write-back).
    if (d.peek('dispatch_retire_valid') === 1n) {
      const pixel = model.pixelOfTid.get(Number(d.peek('dispatch_retire_thread')))!;
      const r = retiredOf(d);
      if (r.counted) instructions++;
      const n = (model.retired.get(pixel) ?? 0) + 1;
      model.retired.set(pixel, n);
      if (n > limit) throw new CoreLimitError(pixel, r.pc, limit, false);
      [lastRetire, lastPc, lastPixel] = [d.cycle, r.pc, pixel];
      job.onRetire?.(pixel, r);
    } else if (d.cycle - lastRetire > STUCK_CYCLES) throw new CoreLimitError(lastPixel, lastPc, limit, true);
    if (d.peek('dispatch_busy') === 1n) coreCycles++;
    if (d.peek('dispatch_issued') === 1n) issueCycles++;
    if (reading && d.peek('host_mem_valid') === 1n) {
      model.resultRead(reading.pixel, reading.tid, words4(d.peek('host_mem_data')));
      reading = undefined;
      model.admit();
    }
    // The dispatcher's side: take an event, offer a launch, read a result.
    const eventValid = d.peek('dispatch_event_valid') === 1n;
    const takeEvent = eventValid && !(stalls && stalls.int(4) === 0);
    if (eventValid && !takeEvent) heldBack.events++;
    d.poke('dispatch_event_ready', takeEvent ? 1 : 0);
    if (takeEvent) serveEvent(d, job, model);
    const offer = model.launches[0];
    const offering = offer !== undefined && !(stalls && stalls.int(4) === 0);
    if (offer && !offering) heldBack.launches++;
    d.poke('dispatch_launch_valid', offering ? 1 : 0);
    if (offer) pokeLaunch(d, offer);
    if (offering && d.peek('dispatch_launch_ready') === 1n) model.launches.shift();
    textureUnit?.cycle(d);
    reading ??= model.reads.shift();
    d.poke('host_mem_read', reading ? 1 : 0);
    d.poke('host_mem_addr', reading ? (reading.tid << 14) | (MEMORY_MAP.returnOffset >> 2) : 0);
    d.step();
  }
  d.poke('dispatch_event_ready', 0);
  d.poke('dispatch_launch_valid', 0);
  d.poke('host_mem_read', 0);
  textureUnit?.idle(d);
  const pixels = model.results.sort((a, b) => a.pixel - b.pixel);
  const faults = [...model.faulted].sort((a, b) => a - b);
  return { cycles: d.cycle, coreCycles, issueCycles, instructions, pixels, faults, heldBack, textureFetches: textureUnit?.fetches ?? 0, recording: d.recording(), design, threadMemory: threadMemoryOf(sim) };
}

/** The texture unit as the testbench plays it: the golden txd, answered after a latency, in any order. */
class TextureUnitModel {
  private readonly pending: { due: number; tag: number; rgba: bigint; status: number }[] = [];
  fetches = 0;

  constructor(
    private readonly memory: Uint32Array,
    private readonly stalls: Rng | undefined,
  ) {}

  /** This cycle's handshakes, before the clock edge. */
  cycle(d: Simulator): void {
    const takeRequest = !(this.stalls && this.stalls.int(3) === 0);
    d.poke('texture_request_ready', takeRequest ? 1 : 0);
    if (takeRequest && d.peek('texture_request_valid') === 1n) this.accept(d);
    const ready = this.pending.filter((p) => p.due <= d.cycle);
    const answer = ready.length === 0 ? undefined : ready[this.stalls ? this.stalls.int(ready.length) : 0]!;
    d.poke('texture_response_valid', answer ? 1 : 0);
    d.poke('texture_response_bits_rgba', answer?.rgba ?? 0n);
    d.poke('texture_response_bits_status', answer?.status ?? 0);
    d.poke('texture_response_bits_tag', answer?.tag ?? 0);
    if (answer && d.peek('texture_response_ready') === 1n) this.pending.splice(this.pending.indexOf(answer), 1);
  }

  idle(d: Simulator): void {
    d.poke('texture_request_ready', 0);
    d.poke('texture_response_valid', 0);
  }

  private accept(d: Simulator): void {
    const vec4 = (name: string) => words4(d.peek(`texture_request_bits_${name}`));
    const r = executeTxd(this.memory, vec4('coords'), vec4('derivatives'), Number(d.peek('texture_request_bits_mask')), vec4('dest'));
    const latency = this.stalls ? 1 + this.stalls.int(40) : TEXTURE_LATENCY;
    this.pending.push({ due: d.cycle + latency, tag: Number(d.peek('texture_request_bits_tag')), rgba: packWords(r.rgba), status: r.status });
    this.fetches++;
  }
}

/** Texture memory as the unit sees it: the image from word 0, zeros up to MEMORY_MAP.textureWords (as on the ISS). */
function textureMemory(image: Uint32Array = new Uint32Array(0)): Uint32Array {
  if (image.length > MEMORY_MAP.textureWords) throw new Error(`the texture image has ${image.length} words; texture memory holds ${MEMORY_MAP.textureWords}`);
  const memory = new Uint32Array(MEMORY_MAP.textureWords);
  memory.set(image);
  return memory;
}

/** The played texture unit's latency without `stallSeed`: a pipeline's depth, roughly. */
const TEXTURE_LATENCY = 12;

function retiredOf(d: Simulator): RetiredInstruction {
  const on = (name: string) => d.peek(name) === 1n;
  return {
    pc: Number(d.peek('dispatch_retire_pc')),
    counted: on('dispatch_retire_counted'),
    ...(on('dispatch_retire_scalarWrite') ? { scalar: { reg: Number(d.peek('dispatch_retire_scalarReg')), value: Number(d.peek('dispatch_retire_scalarValue')) } } : {}),
    ...(on('dispatch_retire_vectorWrite') ? { vector: { reg: Number(d.peek('dispatch_retire_vectorReg')), value: words4(d.peek('dispatch_retire_vectorValue')) } } : {}),
    ...(on('dispatch_retire_flagWrite') ? { flag: Number(d.peek('dispatch_retire_flag')) } : {}),
  };
}

/** The event the core shows is taken this cycle: a trace is cast at once and its thread queued to resume. */
function serveEvent(d: Simulator, job: CoreJob, model: DispatcherModel): void {
  const tid = Number(d.peek('dispatch_event_bits_thread'));
  const pixel = model.pixelOfTid.get(tid)!;
  if (d.peek('dispatch_event_bits_fault') === 1n) model.faulted.add(pixel);
  if (Number(d.peek('dispatch_event_bits_kind')) === ThreadEventKind.indexOf('end')) return model.finished(pixel);
  const vec3 = (name: string): Vec3 => {
    const w = unpackWords(d.peek(name), 3);
    return [w[0]!, w[1]!, w[2]!];
  };
  // A plain trace's event carries the plain query (docs/rays.md), so every ray is cast with the query the core sent.
  const query = unpackWords(d.peek('dispatch_event_bits_query'), 3);
  const r = castRay(job.scene, vec3('dispatch_event_bits_origin'), vec3('dispatch_event_bits_direction'), testTriangle, { tmin: query[0]!, tmax: query[1]!, flags: query[2]! });
  const queried = d.peek('dispatch_event_bits_queried') === 1n;
  model.launches.push({ pixel, tid, pc: Number(d.peek('dispatch_event_bits_pc')), sp: Number(d.peek('dispatch_event_bits_sp')), hit: r.hit, normal: r.normal, parameters: hitParametersOf(r), queried });
}

function pokeLaunch(d: Simulator, l: Launch): void {
  d.poke('dispatch_launch_bits_thread', l.tid);
  d.poke('dispatch_launch_bits_pc', l.pc >>> 0);
  d.poke('dispatch_launch_bits_pixel', l.pixel >>> 0);
  d.poke('dispatch_launch_bits_sp', l.sp >>> 0);
  d.poke('dispatch_launch_bits_hit', packWords(l.hit));
  d.poke('dispatch_launch_bits_normal', packWords(l.normal));
  d.poke('dispatch_launch_bits_parameters', packWords(l.parameters));
  d.poke('dispatch_launch_bits_queried', l.queried ? 1 : 0);
}
