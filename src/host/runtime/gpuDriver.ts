// The host driver of `rtgpu_top` on any simulator (the TS simulator, Verilator, Icarus, lockstep):
// places the memory images in host memory, programs the MMIO registers, serves DMA cycle by cycle,
// waits for the frame and reads the results and counters. The simulator runs live: nothing is replayed.
import type { Design } from '../../hdl/index.ts';
import { compileSimulator, engineOptions, simulators, type Simulator } from '../../hdl/sim/index.ts';
import { RecordingSimulator } from '../../hdl/cosim/index.ts';
import type { Recording } from '../../hdl/cosim/index.ts';
import { createRng, type Rng } from '../../util/seededRandom.ts';
import { CONTEXT_REG, CONTEXT_STATE, CONTROL, ERROR_CODE, FEATURE, IC_CORE_REG, MMIO, RT_CORE_REG, STATUS, TEXTURE_REG } from '../../gpu/memoryController/registers.ts';
import { cachedGpuDesign } from './cachedGpuDesign.ts';
import { gpuSimulator } from './gpuSimulator.ts';
import { defaultBvh8GpuParams, defaultBvhGpuParams, defaultGpuParams, type GpuParams } from '../../gpu/top/gpuTop.ts';
import { hasTextureUnit } from '../../gpu/top/gpuTexture.ts';
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { HostMemory } from './hostMemory.ts';
import { GpuRunError, sourceLineOf, type GpuJob, type GpuRunOptions, type GpuRunResult, type GpuStats, type RunPixel, type TextureStats } from './gpuJob.ts';

export const DEFAULT_MAX_CYCLES = 50_000_000;

/** Where the driver puts each buffer: above 4 GiB, so the 64-bit address path is exercised. */
const BUFFER_BASE = { program: 0x1_0000_0000n, constants: 0x1_1000_0000n, triangles: 0x1_2000_0000n, texture: 0x1_3000_0000n, output: 0x1_4000_0000n, reports: 0x1_8000_0000n } as const;

const ERROR_TEXT: Record<number, string> = {
  [ERROR_CODE.programTooLong]: `the program is longer than the instruction memory (${MEMORY_MAP.instructionWords} words)`,
  [ERROR_CODE.constantsTooLong]: `the constants are longer than the constant memory (${MEMORY_MAP.constantBytes / 4} words)`,
  [ERROR_CODE.triangleImage]: 'the triangle memories rejected the scene image (too many triangles or vertices, or a bad vertex index)',
  [ERROR_CODE.busy]: 'a command was written while the GPU was busy',
  [ERROR_CODE.internal]: 'an internal queue overflowed, two RT cores shared a thread, or main memory missed an answer (a hardware fault)',
  [ERROR_CODE.badAddress]: 'a host address is not 16-byte aligned, or a transfer would run past the end of the 64-bit address space',
  [ERROR_CODE.textureTooLong]: `the texture image is longer than texture memory (${MEMORY_MAP.textureWords} words)`,
};

export interface DriverOptions extends GpuRunOptions {
  /** Serve DMA with random stalls from this seed, cycle by cycle (slow: for tests of the handshakes). */
  readonly dmaStallSeed?: number;
  /** Also record every cycle's inputs (for a replay from a file, as the standalone harnesses run). */
  readonly record?: boolean;
  /** The whole configuration of `rtgpu_top` (default: `gpuParamsFor`, the job's kind of IC core with the given core counts). */
  readonly gpu?: GpuParams;
  /** `rtgpu_top` elaborated for that configuration already (a render worker gets it from the main thread instead of elaborating it again). */
  readonly design?: Design;
  /** Lines of progress while an external simulator is built. */
  readonly log?: (line: string) => void;
}

export interface DriverRun extends GpuRunResult {
  readonly design: Design;
  /** With `record`: every input of every cycle from power-on. */
  readonly recording?: Recording;
}

const hex4 = (x: number) => `0x${x.toString(16).padStart(4, '0')}`;

/** A simulator of `design` on the engine `opts.sim` names, at power-on (the TS one is compiled once per design). */
async function gpuSimulatorOn(design: Design, opts: DriverOptions): Promise<{ sim: Simulator; owned: boolean }> {
  const log = opts.log;
  const open = { trace: opts.vcd !== undefined, hierarchical: opts.hierarchical, log };
  switch (opts.sim) {
    case 'ts':
      return { sim: gpuSimulator(design), owned: false };
    case 'verilator':
    case 'icarus':
      return { sim: await compileSimulator(design, engineOptions(opts.sim, open)), owned: true };
    case 'lockstep': {
      const members = (opts.lockstep ?? simulators.lockstep.members).map((m) => engineOptions(m, open));
      return { sim: await compileSimulator(design, { backend: 'lockstep', backends: members, log }), owned: true };
    }
    default:
      throw new GpuRunError(`the GPU cannot run on '${opts.sim}'`);
  }
}

class Driver {
  readonly d: Simulator;
  readonly memory = new HostMemory();
  private readonly rng: Rng | undefined;
  /** The read request being served: its words and the next beat. */
  reading: { words: Uint32Array; beat: number; beats: number } | undefined;
  written = 0;
  /** Per beat of the output buffer: 1 once the GPU wrote that pixel's result. */
  finished = new Uint8Array(0);

  constructor(
    sim: Simulator,
    private readonly opts: DriverOptions,
  ) {
    this.d = sim;
    this.rng = opts.dmaStallSeed === undefined ? undefined : createRng(opts.dmaStallSeed);
  }

  private maybe(): boolean {
    return this.rng === undefined || this.rng.int(4) !== 0;
  }

  reset(): void {
    this.d.poke('rst_n', 0);
    this.d.step();
    this.d.poke('rst_n', 1);
  }

  mmioWrite(addr: number, data: number | bigint): void {
    this.d.poke('mmio_wr_en', 1);
    this.d.poke('mmio_wr_addr', addr);
    this.d.poke('mmio_wr_data', BigInt(data) & 0xffffffffn);
    this.step();
    this.d.poke('mmio_wr_en', 0);
  }

  mmioWrite64(lo: number, base: bigint): void {
    this.mmioWrite(lo, base & 0xffffffffn);
    this.mmioWrite(lo + 4, base >> 32n);
  }

  /** A register read: the address one cycle, the data the next. */
  mmioRead(addr: number): number {
    this.d.poke('mmio_rd_en', 1);
    this.d.poke('mmio_rd_addr', addr);
    this.step();
    this.d.poke('mmio_rd_en', 0);
    return Number(this.d.peek('mmio_rd_data'));
  }

  /** One cycle, serving both DMA channels for it. */
  step(): void {
    const d = this.d;
    // Read requests: accepted when none is being served.
    const req = d.peek('dma_rd_req_valid') === 1n && this.reading === undefined && this.maybe();
    d.poke('dma_rd_req_ready', req ? 1 : 0);
    if (req) {
      const beats = Number(d.peek('dma_rd_req_beats'));
      this.reading = { words: this.memory.read(d.peek('dma_rd_req_addr'), beats), beat: 0, beats };
    }
    // Read beats: offered while some remain (not in the request's own cycle).
    const r = req ? undefined : this.reading;
    const offer = r !== undefined && r.beat < r.beats && this.maybe();
    d.poke('dma_rd_valid', offer ? 1 : 0);
    if (offer) {
      d.poke('dma_rd_data', beatValue(r.words, r.beat));
      if (d.peek('dma_rd_ready') === 1n && ++r.beat === r.beats) this.reading = undefined;
    }
    // Writes.
    const take = this.maybe();
    d.poke('dma_wr_ready', take ? 1 : 0);
    if (take && d.peek('dma_wr_valid') === 1n) this.write(d.peek('dma_wr_addr'), d.peek('dma_wr_data'));
    d.step();
  }

  write(addr: bigint, data: bigint): void {
    const words = [0, 1, 2, 3].map((k) => Number((data >> BigInt(32 * k)) & 0xffffffffn));
    const { buffer, beat } = this.memory.write(addr, words);
    if (buffer.name !== 'output') return;
    this.written++;
    this.finished[beat] = 1;
  }

  /** Cycles with the host idle (every write taken), in the fast batch loop; stops early at irq. */
  runBatch(cycles: number): boolean {
    const d = this.d;
    d.poke('dma_rd_req_ready', 0);
    d.poke('dma_rd_valid', 0);
    d.poke('dma_wr_ready', 1);
    const rows = d.runVectors([], ['dma_wr_valid', 'dma_wr_addr', 'dma_wr_data', 'irq'], new Uint32Array(0), cycles);
    let irq = false;
    for (let c = 0; c < cycles; c++) {
      const o = 8 * c;
      if (rows[o] === 1) {
        const addr = (BigInt(rows[o + 2]!) << 32n) | BigInt(rows[o + 1]!);
        let data = 0n;
        for (let k = 3; k >= 0; k--) data = (data << 32n) | BigInt(rows[o + 3 + k]!);
        this.write(addr, data);
      }
      irq ||= rows[o + 7] === 1;
    }
    return irq;
  }
}

function beatValue(words: Uint32Array, beat: number): bigint {
  let v = 0n;
  for (let k = 3; k >= 0; k--) v = (v << 32n) | BigInt(words[4 * beat + k]!);
  return v;
}

function checkJob(job: GpuJob): void {
  if (job.program.length > MEMORY_MAP.instructionWords) throw new GpuRunError(`the program has ${job.program.length} words; the instruction memory holds ${MEMORY_MAP.instructionWords}`);
  if (job.constants.length > MEMORY_MAP.constantBytes / 4) throw new GpuRunError(`the constants have ${job.constants.length} words; the constant memory holds ${MEMORY_MAP.constantBytes / 4}`);
  if (job.texture) checkTextureFits(job.texture);
  checkRange(job.firstPixel ?? 0, job.pixels);
}

/** A texture image the LOAD_TEXTURE command can take (the controller would stop a longer one with error 7). */
function checkTextureFits(texture: Uint32Array): void {
  if (texture.length > MEMORY_MAP.textureWords) throw new GpuRunError(`the texture image has ${texture.length} words; texture memory holds ${MEMORY_MAP.textureWords}`);
}

/** The configuration of `rtgpu_top` a job runs on. */
export function gpuParamsFor(job: GpuJob, opts: GpuRunOptions): GpuParams {
  const cores = { rtCores: opts.rtCores ?? defaultGpuParams.rtCores, icCores: opts.icCores ?? defaultGpuParams.icCores, ...(opts.textureUnit ? { texture: true } : {}) };
  return job.traversal === 'bvh' ? { ...defaultBvhGpuParams, ...cores } : job.traversal === 'bvh8' ? { ...defaultBvh8GpuParams, ...cores } : { ...defaultGpuParams, ...cores };
}

/** Run one frame on `rtgpu_top`, live on the simulator `opts.sim` names (ts, verilator, icarus or lockstep). */
export async function runFrame(job: GpuJob, opts: DriverOptions): Promise<DriverRun> {
  const session = await GpuSession.open(job, opts);
  try {
    const { pixels, faults } = session.run(job.firstPixel ?? 0, job.pixels);
    return { pixels, faults, stats: session.stats(), design: session.design, recording: session.recording() };
  } finally {
    session.close();
  }
}

/**
 * One GPU instance on one simulator with a job's images: `run` renders pixel ranges one after another
 * (the first one loads the images, the later ones only START), `stats` sums everything since power-on.
 * Render workers keep one session each and hand it patches of the frame.
 */
export class GpuSession {
  private loaded = false;
  private ran = false;
  /** A texture image placed by loadTexture, loaded with the next range. */
  private textureDue = false;

  private constructor(
    readonly design: Design,
    private readonly job: GpuJob,
    private readonly opts: DriverOptions,
    private readonly params: GpuParams,
    private readonly engine: Simulator,
    private readonly owned: boolean,
    private readonly h: Driver,
    private readonly start: number,
    private readonly setupSeconds: number,
  ) {}

  static async open(job: GpuJob, opts: DriverOptions): Promise<GpuSession> {
    checkJob(job);
    const start = performance.now();
    const params = opts.gpu ?? gpuParamsFor(job, opts);
    if ((params.traversal ?? 'brute-force') !== (job.traversal ?? 'brute-force')) throw new GpuRunError(`a ${job.traversal ?? 'brute-force'} frame cannot run on a GPU with ${params.traversal === 'bvh' ? 'BVH' : params.traversal === 'bvh8' ? 'BVH8' : 'brute-force'} IC cores`);
    const design = opts.design ?? cachedGpuDesign(params);
    const { sim: engine, owned } = await gpuSimulatorOn(design, opts);
    const setupSeconds = (performance.now() - start) / 1000;
    try {
      if (opts.vcd) engine.traceVcd(opts.vcd);
      const sim = opts.record ? new RecordingSimulator(engine, design) : engine;
      const h = new Driver(sim, opts);
      setUpImages(h, job);
      return new GpuSession(design, job, opts, params, engine, owned, h, start, setupSeconds);
    } catch (e) {
      if (owned || opts.vcd) engine.close();
      throw e;
    }
  }

  /** Pixels first .. first + count − 1 (the images are loaded with the first range). */
  run(first: number, count: number): Pick<GpuRunResult, 'pixels' | 'faults'> {
    checkRange(first, count);
    const images = this.loaded ? 0 : CONTROL.LOAD_PROGRAM | CONTROL.LOAD_CONSTANTS | CONTROL.LOAD_TRIANGLES;
    const texture = (!this.loaded && this.job.texture !== undefined) || this.textureDue ? CONTROL.LOAD_TEXTURE : 0;
    const loads = images | texture;
    const r = runRange(this.h, this.job, this.opts, this.params, first, count, loads);
    this.loaded = true;
    this.textureDue = false;
    this.ran = true;
    return r;
  }

  /**
   * Replace the texture image: the next range loads it (LOAD_TEXTURE) before it starts, on the same GPU (no
   * reset), so the texture unit's caches must forget the old image's lines and words past the new one read zero.
   */
  loadTexture(texture: Uint32Array): void {
    checkTextureFits(texture);
    placeTexture(this.h, texture);
    this.textureDue = true;
  }

  /** The counters of every range run so far (cycles since power-on, busy cycles per core …). */
  stats(): GpuStats {
    if (!this.ran) throw new Error('GpuSession.stats: no pixels have run');
    return { ...readCounters(this.h, this.params), wallSeconds: (performance.now() - this.start) / 1000, setupSeconds: this.setupSeconds };
  }

  /** Clock cycles simulated since power-on. */
  get cycle(): number {
    return this.h.d.cycle;
  }

  /** With `record`: every input of every cycle from power-on. */
  recording(): Recording | undefined {
    return this.h.d instanceof RecordingSimulator ? this.h.d.recording() : undefined;
  }

  close(): void {
    if (this.owned || this.opts.vcd) this.engine.close();
  }
}

function checkRange(first: number, count: number): void {
  if (!Number.isInteger(first) || first < 0 || first > 0xffffffff) throw new GpuRunError(`first pixel ${first} is not a 32-bit pixel id`);
  if (!Number.isInteger(count) || count < 0 || count > 0xffffffff) throw new GpuRunError(`pixel count ${count} is not a 32-bit count`);
}

/** Power-on reset, the images in host memory and their addresses and lengths in the MMIO registers. */
function setUpImages(h: Driver, job: GpuJob): void {
  h.memory.add('program', BUFFER_BASE.program, job.program);
  h.memory.add('constants', BUFFER_BASE.constants, job.constants);
  h.memory.add('triangles', BUFFER_BASE.triangles, job.triangles);
  h.reset();
  h.mmioWrite64(MMIO.PROGRAM_ADDR_LO, BUFFER_BASE.program);
  h.mmioWrite(MMIO.PROGRAM_WORDS, job.program.length);
  h.mmioWrite64(MMIO.CONST_ADDR_LO, BUFFER_BASE.constants);
  h.mmioWrite(MMIO.CONST_WORDS, job.constants.length);
  h.mmioWrite64(MMIO.TRI_ADDR_LO, BUFFER_BASE.triangles);
  h.mmioWrite(MMIO.TRI_WORDS, job.triangles.length);
  h.mmioWrite64(MMIO.OUT_ADDR_LO, BUFFER_BASE.output);
  h.mmioWrite64(MMIO.REPORT_ADDR_LO, BUFFER_BASE.reports);
  if (job.texture !== undefined) placeTexture(h, job.texture);
}

/** Put a texture image in host memory and point TEX_ADDR/TEX_WORDS at it (the next LOAD_TEXTURE reads it). */
function placeTexture(h: Driver, texture: Uint32Array): void {
  requireTextureUnit(h);
  h.memory.remove('texture');
  h.memory.add('texture', BUFFER_BASE.texture, texture);
  h.mmioWrite64(MMIO.TEX_ADDR_LO, BUFFER_BASE.texture);
  h.mmioWrite(MMIO.TEX_WORDS, texture.length);
}

/** A texture image needs a GPU with a texture unit: the FEATURES register says whether it has one. */
function requireTextureUnit(h: Driver): void {
  if ((h.mmioRead(MMIO.FEATURES) & FEATURE.TEXTURE_UNIT) === 0) throw new GpuRunError('the job has a texture image, but this GPU has no texture unit (FEATURES.TEXTURE_UNIT is 0): build rtgpu_top with one (GpuParams.texture, GpuRunOptions.textureUnit, --texture-unit)');
}

/** One frame of `count` pixels from `first`: START after the `loads` (CONTROL bits), DMA served until irq, results checked. */
function runRange(h: Driver, job: GpuJob, opts: DriverOptions, params: GpuParams, first: number, count: number, loads: number): Pick<GpuRunResult, 'pixels' | 'faults'> {
  const maxCycles = opts.maxCycles ?? DEFAULT_MAX_CYCLES;
  const patches = Math.ceil(count / 32);
  h.memory.remove('output');
  h.memory.remove('reports');
  const output = h.memory.add('output', BUFFER_BASE.output, new Uint32Array(4 * count));
  const reports = h.memory.add('reports', BUFFER_BASE.reports, new Uint32Array(4 * patches));
  h.written = 0;
  h.finished = new Uint8Array(count);
  h.mmioWrite(MMIO.PIXEL_COUNT, count);
  h.mmioWrite(MMIO.FIRST_PIXEL, first);
  h.mmioWrite(MMIO.CONTROL, loads | CONTROL.START);
  const begin = h.d.cycle;

  // Cycle by cycle while the images stream in (or throughout, with random DMA stalls); then in batches.
  const irq = () => h.d.peek('irq') === 1n;
  const elapsed = () => h.d.cycle - begin;
  // Until the frame runs (or ends), the images are streaming in: DMA reads need answers every cycle.
  const loading = () => (Number(h.d.peek('mmio_rd_data')) & (STATUS.RUNNING | STATUS.DONE | STATUS.ERROR)) === 0 || h.reading !== undefined;
  h.d.poke('mmio_rd_en', 1);
  h.d.poke('mmio_rd_addr', MMIO.STATUS);
  let done = false;
  let progressAt = 0;
  const report = () => opts.onProgress?.(h.written, count, elapsed());
  while (!done && elapsed() < maxCycles) {
    if (opts.dmaStallSeed !== undefined || elapsed() < 4 || loading()) {
      h.step();
      done = irq();
    } else {
      done = h.runBatch(Math.min(4096, maxCycles - elapsed()));
    }
    if (elapsed() - progressAt >= 8192) {
      progressAt = elapsed();
      report();
    }
  }
  h.d.poke('mmio_rd_en', 0);
  if (!done) throw new GpuRunError(stuckMessage(h, job, first, count, params.rtCores, maxCycles), { ...finishedSoFar(h, output.words, reports.words, first), maxCycles });
  report();

  const status = h.mmioRead(MMIO.STATUS);
  if (status & STATUS.ERROR) {
    const code = h.mmioRead(MMIO.ERROR);
    throw new GpuRunError(`the GPU stopped with error ${code}: ${ERROR_TEXT[code] ?? 'unknown error'}`);
  }
  const patchesDone = h.mmioRead(MMIO.PATCHES_DONE);
  if (patchesDone !== patches) throw new GpuRunError(`the GPU reported ${patchesDone} patches written, expected ${patches}: a hardware fault`);
  if (h.written !== count) throw new GpuRunError(`the GPU wrote ${h.written} pixel results, expected ${count}: a hardware fault`);

  const pixels: RunPixel[] = Array.from({ length: count }, (_, i) => resultOf(output.words, first, i));
  const faults: number[] = [];
  for (let n = 0; n < patches; n++) {
    const [mask, base, threads] = reports.words.subarray(4 * n, 4 * n + 3) as unknown as [number, number, number];
    if (base !== 32 * n || threads !== Math.min(32, count - 32 * n)) throw new GpuRunError(`patch report ${n} reads first index ${base}, ${threads} threads: a hardware fault`);
    faults.push(...faultsOf(mask, first + base, threads));
  }
  return { pixels, faults };
}

/** The result of the range's i-th pixel in the output buffer. */
const resultOf = (output: Uint32Array, first: number, i: number): RunPixel => ({ pixel: (first + i) >>> 0, ret: [...output.subarray(4 * i, 4 * i + 4)] as [number, number, number, number] });

/** The pixel ids of a patch report's fault mask (patch from pixel `base`). */
function faultsOf(mask: number, base: number, threads: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < threads; t++) if ((mask >>> t) & 1) out.push((base + t) >>> 0);
  return out;
}

/** A stopped range: the pixels whose results were written, and the faults of the patches whose reports were. */
function finishedSoFar(h: Driver, output: Uint32Array, reports: Uint32Array, first: number): { pixels: RunPixel[]; faults: number[] } {
  const pixels: RunPixel[] = [];
  h.finished.forEach((f, i) => f && pixels.push(resultOf(output, first, i)));
  const faults: number[] = [];
  // A report not yet written reads 0 threads.
  for (let n = 0; 4 * n < reports.length; n++) faults.push(...faultsOf(reports[4 * n]!, first + reports[4 * n + 1]!, reports[4 * n + 2]!));
  return { pixels, faults };
}

/** The GPU's counters since power-on, through the MMIO registers. */
function readCounters(h: Driver, params: GpuParams): Omit<GpuStats, 'wallSeconds' | 'setupSeconds'> {
  const cycles = h.mmioRead(MMIO.CYCLES_LO) + 2 ** 32 * h.mmioRead(MMIO.CYCLES_HI);
  const instructions = h.mmioRead(MMIO.INSTRUCTIONS);
  const rtRead = (c: number, r: number) => h.mmioRead(MMIO.RT_CORE + 16 * c + 4 * r);
  const rtBusyCycles = Array.from({ length: params.rtCores }, (_, c) => rtRead(c, RT_CORE_REG.BUSY_CYCLES));
  const rtIssueCycles = Array.from({ length: params.rtCores }, (_, c) => rtRead(c, RT_CORE_REG.ISSUE_CYCLES));
  const icRead = (k: number, r: number) => h.mmioRead(MMIO.IC_CORE + 16 * k + 4 * r);
  const icSum = (r: number) => Array.from({ length: params.icCores }, (_, k) => icRead(k, r)).reduce((a, b) => a + b, 0);
  const icBusyCycles = Array.from({ length: params.icCores }, (_, k) => icRead(k, IC_CORE_REG.BUSY_CYCLES));
  const texture = hasTextureUnit(params.texture) ? { texture: readTextureCounters(h) } : {};
  return { cycles, instructions, rays: icSum(IC_CORE_REG.RAYS), triangleTests: icSum(IC_CORE_REG.TESTS), nodeTests: icSum(IC_CORE_REG.NODE_TESTS), rtBusyCycles, rtIssueCycles, icBusyCycles, ...texture };
}

/** The texture unit's counters (only a GPU with one maps the TEXTURE registers; a GPU without reads nothing more, so its MMIO traffic is as before). */
function readTextureCounters(h: Driver): TextureStats {
  const read = (r: number) => h.mmioRead(MMIO.TEXTURE + 4 * r);
  return {
    requests: read(TEXTURE_REG.REQUESTS),
    texelLookups: read(TEXTURE_REG.TEXEL_LOOKUPS),
    texelHits: read(TEXTURE_REG.TEXEL_HITS),
    texelFills: read(TEXTURE_REG.TEXEL_FILLS),
    descriptorFills: read(TEXTURE_REG.DESCRIPTOR_FILLS),
    stallCycles: read(TEXTURE_REG.STALL_CYCLES),
    descriptorStallCycles: read(TEXTURE_REG.DESCRIPTOR_STALL_CYCLES),
  };
}

/** Which threads of the unfinished patch are where, read through the MMIO registers. */
function stuckMessage(h: Driver, job: GpuJob, first: number, count: number, rtCores: number, maxCycles: number): string {
  const patch = h.mmioRead(MMIO.PATCHES_DONE);
  const doneMask = h.mmioRead(MMIO.DONE_MASK);
  const threads = Math.min(32, count - 32 * patch);
  const base = first + 32 * patch;
  const source = (pc: number) => {
    const at = sourceLineOf(job, pc);
    return at ? ` (${at})` : '';
  };
  const onCores: string[] = [];
  const running = new Set<number>();
  const contexts = h.mmioRead(MMIO.CONTEXTS);
  for (let i = 0; i < rtCores * contexts; i++) {
    const at = MMIO.CONTEXT + 8 * i;
    const st = h.mmioRead(at + 4 * CONTEXT_REG.STATUS);
    if ((st & 7) === CONTEXT_STATE.free) continue;
    const t = (st >> 8) & 31;
    const pc = h.mmioRead(at + 4 * CONTEXT_REG.PC);
    running.add(t);
    // A thread whose result for the stuck patch is written already runs its pixel of the next patch.
    const pixel = base + t + ((doneMask >>> t) & 1 ? 32 : 0);
    onCores.push(`thread ${t} (pixel ${pixel}) on RT core ${Math.floor(i / contexts)} context ${i % contexts} at PC ${hex4(pc)}${source(pc)}`);
  }
  const waiting = Array.from({ length: threads }, (_, t) => t).filter((t) => !((doneMask >>> t) & 1) && !running.has(t));
  const lines = [`the frame did not finish within ${maxCycles} cycles (--max-cycles); patch ${patch} (pixels ${base}..${base + threads - 1}) is stuck:`];
  if (onCores.length) lines.push(`  running: ${onCores.join('; ')}`);
  if (waiting.length) lines.push(`  waiting for a trace or a context: threads ${waiting.join(', ')}`);
  lines.push('  a kernel that never reaches fin loops forever; raise --max-cycles if the frame is just long');
  return lines.join('\n');
}
