// What the host runtime hands the GPU (on any backend) and what it gets back.
import type { Traversal } from '../../iss/sceneTracer.ts';
import { simulators } from '../../hdl/sim/index.ts';

export interface RunPixel {
  readonly pixel: number;
  /** The 4 words the thread left at offset 0xFFF0 of its main memory. */
  readonly ret: readonly [number, number, number, number];
}

export const GPU_SIMS = ['ts', 'verilator', 'icarus', 'lockstep', 'iss'] as const;
export type GpuSim = (typeof GPU_SIMS)[number];
/** The simulators of the GPU's RTL that lockstep can compare: the lockstep entry's members (hdl/sim/simulators.ts). */
export const LOCKSTEP_SIMS = simulators.lockstep.members;
export type LockstepSim = (typeof LOCKSTEP_SIMS)[number];

/** Memory images and the pixel count: everything a frame needs. */
export interface GpuJob {
  /** Instruction words from address 0 (at most 4096). */
  readonly program: Uint32Array;
  /** Constant memory words from 0x20000000 (at most 8192). */
  readonly constants: Uint32Array;
  /**
   * The triangle-memory image (`sceneToImage`, docs/triangle-memory-and-ic-buffer.md), or with
   * traversal 'bvh' the BVH scene image (`bvhSceneImage`, docs/host.md).
   */
  readonly triangles: Uint32Array;
  /**
   * Texture memory's words from word 0 (textureMemoryImage; at most MEMORY_MAP.textureWords), for kernels
   * that run `txd`: loaded by LOAD_TEXTURE into the GPU's texture unit (the GPU needs one:
   * GpuRunOptions.textureUnit), given to the ISS as its texture memory. Absent: the frame reads no textures
   * (the ISS has no texture memory, txd is illegal there).
   */
  readonly texture?: Uint32Array;
  /** How the IC cores find the closest hit: every triangle (default 'brute-force') or the BVH in `triangles`. */
  readonly traversal?: Traversal;
  /** Pixels firstPixel .. firstPixel + pixels − 1 run, 32 per patch. */
  readonly pixels: number;
  /** The first pixel id (default 0): the GPU's FIRST_PIXEL register; results keep their pixel ids. */
  readonly firstPixel?: number;
  /** For messages: the program's source file and the 1-based line of each word (≤ 0: unknown). */
  readonly sourceFile?: string;
  readonly sourceLines?: Int32Array;
  /** With `.include`: the files (sourceFile first) and, per word, the index of the one it came from. */
  readonly includedFiles?: readonly string[];
  readonly sourceFileOf?: Uint16Array;
}

/** `file:line` of the statement the word at byte address `pc` came from, or undefined. */
export function sourceLineOf(job: GpuJob, pc: number): string | undefined {
  const word = pc >>> 2;
  const line = job.sourceLines?.[word];
  const file = job.includedFiles?.[job.sourceFileOf?.[word] ?? 0] ?? job.sourceFile;
  return file && line !== undefined && line > 0 ? `${file}:${line}` : undefined;
}

export interface GpuRunOptions {
  /** ts, verilator and icarus run rtgpu_top live; lockstep runs several of them side by side; iss is the golden model. */
  readonly sim: GpuSim;
  /** With sim 'lockstep': the simulators compared every cycle (default ts, verilator, icarus). */
  readonly lockstep?: readonly LockstepSim[];
  /**
   * How Verilator builds rtgpu_top (VerilatorOptions.hierarchical; default flat): `true` or `'auto'` (the
   * CLI's default) verilate the float units and the integer divider once each: a first build about 3x faster, a run about 2x slower.
   */
  readonly hierarchical?: boolean | 'auto';
  /** RT cores (1–4, default 4) and IC cores (1–32, default 2). */
  readonly rtCores?: number;
  readonly icCores?: number;
  /**
   * Build rtgpu_top with a texture unit (GpuParams.texture; default: without). The ISS then has texture
   * memory too (the job's texture, or an empty one), so that txd means the same on both.
   */
  readonly textureUnit?: boolean;
  /** Clock cycles the frame may take before the run stops with a GpuRunError naming the stuck threads. */
  readonly maxCycles?: number;
  /** Write a VCD of the whole run (lockstep: one per simulator, `name.<simulator>.vcd`). */
  readonly vcd?: string;
  /**
   * GPU instances to split the frame across, each in a worker thread on its own copy of the simulator
   * (default 1; `defaultRenderJobs` picks one per core for large frames). Not with `vcd` or `record`.
   */
  readonly jobs?: number;
  /** Called now and then while the frame runs. */
  readonly onProgress?: (pixelsDone: number, pixels: number, cycles: number) => void;
}

export interface GpuStats {
  /** Clock cycles from the first MMIO write to the last output beat (the ISS counts instructions). */
  readonly cycles: number;
  readonly instructions: number;
  /** Rays traced and ray–triangle tests, over all IC cores. */
  readonly rays: number;
  readonly triangleTests: number;
  /** BVH nodes tested, over all IC cores (0 for brute force). */
  readonly nodeTests: number;
  /** Cycles each RT core held a thread, each RT core issued an instruction, and each IC core had a ray in flight (empty on the ISS). */
  readonly rtBusyCycles: readonly number[];
  readonly rtIssueCycles: readonly number[];
  readonly icBusyCycles: readonly number[];
  /** The texture unit's counters (a GPU with one only; the TEXTURE registers). */
  readonly texture?: TextureStats;
  readonly wallSeconds: number;
  /** Of the wall time: elaborating the GPU and compiling, building or loading its simulator. */
  readonly setupSeconds: number;
  /** GPU instances whose counters are summed here (render workers; absent: one). */
  readonly gpus?: number;
}

/** A texture unit's counters since power-on (docs/host-interface.md, TEXTURE). */
export interface TextureStats {
  /** txd requests the unit's texel stage issued. */
  readonly requests: number;
  /** Texels those requests needed, and those whose texel-cache line was present or on its way (misses: lookups − hits). */
  readonly texelLookups: number;
  readonly texelHits: number;
  /** Lines read from texture memory into the texel cache and into the descriptor (header and sampler) cache. */
  readonly texelFills: number;
  readonly descriptorFills: number;
  /** Cycles the texel stage and the descriptor stage held a request waiting for a line. */
  readonly stallCycles: number;
  readonly descriptorStallCycles: number;
}

export interface GpuRunResult {
  readonly pixels: readonly RunPixel[];
  /** Pixels whose thread faulted. */
  readonly faults: readonly number[];
  readonly stats: GpuStats;
}

/** What a frame that was stopped had finished: for a partial image. */
export interface PartialRun {
  /** The pixels whose results are in (any order). */
  readonly pixels: readonly RunPixel[];
  /** Those of them whose thread faulted. */
  readonly faults: readonly number[];
  /** Set when the frame was stopped at the cycle limit (GpuRunOptions.maxCycles): that limit. */
  readonly maxCycles?: number;
}

/** A frame that could not complete (stuck kernel, bad image …): a clean message for the user. */
export class GpuRunError extends Error {
  override name = 'GpuRunError';

  constructor(
    message: string,
    /** When the frame was stopped part way (cycle or instruction limit): what had finished. */
    readonly partial?: PartialRun,
  ) {
    super(message);
  }
}
