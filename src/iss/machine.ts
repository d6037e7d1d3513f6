// The ISA simulator's machine: runs N pixels as 32-thread patches over shared memories and a scene.
import { MEMORY_MAP } from '../isa/instructions.ts';
import type { TriangleTestFn, Vec4 } from '../golden/rayCaster.ts';
import type { Scene } from '../golden/scene.ts';
import type { Bvh4 } from '../bvh/index.ts';
import { Memory } from './memory.ts';
import { Thread, type Retired } from './thread.ts';
import { sceneTracer, type SceneTracer, type TraceCounters, type Traversal } from './sceneTracer.ts';

export const DEFAULT_MAX_INSTRUCTIONS = 10_000_000;

export interface MachineOptions {
  /** Instruction words loaded at address 0 (at most 4096). */
  readonly program: Uint32Array;
  /** Constant memory contents from 0x20000000 (at most 8192 words; the rest reads zero). */
  readonly constants?: Uint32Array;
  /** Texture memory contents from word 0 (at most MEMORY_MAP.textureWords; the rest reads zero). Without it txd is illegal (the thread faults), as on a GPU without a texture unit. */
  readonly texture?: Uint32Array;
  readonly scene: Scene;
  /** The ray–triangle test `trace` uses (default testTriangle, Möller–Trumbore; testTriangleWatertight for the watertight IC cores). */
  readonly triangleTest?: TriangleTestFn;
  /** How `trace` finds the closest hit (default 'brute-force', or 'bvh' when `bvh` is given; 'bvh' without `bvh` builds a BVH4 of the scene once). */
  readonly traversal?: Traversal;
  /** The BVH to traverse, exactly (e.g. parseBvhSceneImage's); `scene` must then be in its order. */
  readonly bvh?: Bvh4;
  /** With traversal 'bvh8': the BVH8 image's nodes to walk exactly (absent: built from `scene`). */
  readonly bvh8?: Uint32Array;
  /** Instructions one thread may retire before the run is abandoned. */
  readonly maxInstructions?: number;
  /** Called for every retired instruction (and the fault-ending fetch) of every thread. */
  readonly onRetire?: (thread: Thread, r: Retired) => void;
  /** Called when a pixel's thread has ended (progress, or the pixels done before a stop): `instructions` retired by the run so far. */
  readonly onPixel?: (result: PixelResult, faulted: boolean, instructions: number) => void;
}

export interface PixelResult {
  readonly pixel: number;
  /** The 4 words at offset 0xFFF0 of the thread's main memory when it ended. */
  readonly ret: Vec4;
}

export interface MachineResult {
  readonly pixels: PixelResult[];
  /** Pixels whose thread set its fault flag (memory fault, invalid opcode or PC out of range). */
  readonly faults: number[];
  /** Instructions retired by all threads. */
  readonly instructions: number;
  /** Rays traced and the tests they took, over the whole run. */
  readonly trace: Readonly<TraceCounters>;
}

/** A thread ran past the instruction limit (most likely an endless loop). */
export class InstructionLimitError extends Error {
  override name = 'InstructionLimitError';
  constructor(
    readonly pixel: number,
    readonly pc: number,
    readonly limit: number,
  ) {
    super(`pixel ${pixel}: no fin after ${limit} instructions (PC 0x${pc.toString(16).padStart(4, '0')})`);
  }
}

/**
 * Pixel first + i runs as thread TID i % 32 of patch ⌊i / 32⌋ (first = 0 unless given, as the GPU's
 * FIRST_PIXEL register). Patches run in order; within a patch each
 * thread runs to completion in TID order (threads cannot see each other's memory, so the order does
 * not change results). Main memory of a TID persists from patch to patch.
 */
export class Machine {
  readonly memory: Memory;
  private readonly tracer: SceneTracer;
  private readonly limit: number;

  constructor(private readonly opts: MachineOptions) {
    this.memory = new Memory(opts.program, opts.constants, opts.texture);
    this.tracer = sceneTracer(opts.scene, { traversal: opts.traversal, triangleTest: opts.triangleTest, bvh: opts.bvh, bvh8: opts.bvh8 });
    this.limit = opts.maxInstructions ?? DEFAULT_MAX_INSTRUCTIONS;
  }

  /** Run pixels first .. first + count − 1 (ids are 32-bit: they wrap as the GPU's do). */
  run(count: number, first = 0): MachineResult {
    const pixels: PixelResult[] = [];
    const faults: number[] = [];
    let instructions = 0;
    const c = this.tracer.counters;
    const before = { ...c };
    for (let i = 0; i < count; i++) {
      const p = (first + i) >>> 0;
      const t = this.runThread(p, i % MEMORY_MAP.threads);
      const result = { pixel: p, ret: this.memory.result(t.tid) };
      pixels.push(result);
      if (t.fault) faults.push(p);
      instructions += t.retired;
      this.opts.onPixel?.(result, t.fault, instructions);
    }
    const trace = { rays: c.rays - before.rays, triangleTests: c.triangleTests - before.triangleTests, nodeTests: c.nodeTests - before.nodeTests };
    return { pixels, faults, instructions, trace };
  }

  /** Run one pixel's thread (as thread `tid` of its patch) until fin or a fault ends it. */
  runThread(pixel: number, tid = pixel % MEMORY_MAP.threads): Thread {
    const t = new Thread(tid, pixel, this.memory, this.tracer.trace);
    const onRetire = this.opts.onRetire;
    while (!t.done) {
      if (t.retired >= this.limit) throw new InstructionLimitError(pixel, t.pc, this.limit);
      const r = t.step();
      onRetire?.(t, r);
    }
    return t;
  }
}

/** Run a program over pixels first .. first + count − 1 on a fresh machine. */
export function runIss(opts: MachineOptions, count: number, first = 0): MachineResult {
  return new Machine(opts).run(count, first);
}
