// The ISA simulator's machine: runs N pixels as 32-thread patches over shared memories and a scene.
import { MEMORY_MAP } from '../../isa/instructions.ts';
import { castRay, type TriangleTestFn, type Vec4 } from '../rayCaster.ts';
import type { Scene } from '../scene.ts';
import { Memory } from './memory.ts';
import { Thread, type Retired, type Tracer } from './thread.ts';

export const DEFAULT_MAX_INSTRUCTIONS = 10_000_000;

export interface MachineOptions {
  /** Instruction words loaded at address 0 (at most 4096). */
  readonly program: Uint32Array;
  /** Constant memory contents from 0x20000000 (at most 8192 words; the rest reads zero). */
  readonly constants?: Uint32Array;
  readonly scene: Scene;
  /** The ray–triangle test `trace` uses (default testTriangle, Möller–Trumbore; testTriangleWatertight for the watertight IC cores). */
  readonly triangleTest?: TriangleTestFn;
  /** Instructions one thread may retire before the run is abandoned. */
  readonly maxInstructions?: number;
  /** Called for every retired instruction (and the fault-ending fetch) of every thread. */
  readonly onRetire?: (thread: Thread, r: Retired) => void;
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
 * Pixel p runs as thread TID p % 32 of patch ⌊p / 32⌋. Patches run in order; within a patch each
 * thread runs to completion in TID order (threads cannot see each other's memory, so the order does
 * not change results). Main memory of a TID persists from patch to patch.
 */
export class Machine {
  readonly memory: Memory;
  private readonly tracer: Tracer;
  private readonly limit: number;

  constructor(private readonly opts: MachineOptions) {
    this.memory = new Memory(opts.program, opts.constants);
    this.tracer = (o, d) => castRay(opts.scene, o, d, opts.triangleTest);
    this.limit = opts.maxInstructions ?? DEFAULT_MAX_INSTRUCTIONS;
  }

  /** Run pixels 0 .. count − 1. */
  run(count: number): MachineResult {
    const pixels: PixelResult[] = [];
    const faults: number[] = [];
    let instructions = 0;
    for (let p = 0; p < count; p++) {
      const t = this.runThread(p);
      pixels.push({ pixel: p, ret: this.memory.result(t.tid) });
      if (t.fault) faults.push(p);
      instructions += t.retired;
    }
    return { pixels, faults, instructions };
  }

  /** Run one pixel's thread until fin or a fault ends it. */
  runThread(pixel: number): Thread {
    const t = new Thread(pixel % MEMORY_MAP.threads, pixel, this.memory, this.tracer);
    const onRetire = this.opts.onRetire;
    while (!t.done) {
      if (t.retired >= this.limit) throw new InstructionLimitError(pixel, t.pc, this.limit);
      const r = t.step();
      onRetire?.(t, r);
    }
    return t;
  }
}

/** Run a program over pixels 0 .. count − 1 on a fresh machine. */
export function runIss(opts: MachineOptions, count: number): MachineResult {
  return new Machine(opts).run(count);
}
