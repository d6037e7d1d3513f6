// The host's side of DMA: the buffers the driver places in (64-bit) host memory for the GPU to read
// and write, 16-byte beat by beat.
import { GpuRunError } from './gpuJob.ts';

export interface Buffer {
  readonly name: string;
  /** Byte address (16-byte aligned). */
  readonly base: bigint;
  readonly words: Uint32Array;
}

const hex = (a: bigint) => `0x${a.toString(16)}`;

export class HostMemory {
  private readonly buffers: Buffer[] = [];

  add(name: string, base: bigint, words: Uint32Array): Buffer {
    const b = { name, base, words };
    this.buffers.push(b);
    return b;
  }

  /** Forget the buffer named `name` (if any), e.g. to place a new output buffer. */
  remove(name: string): void {
    const i = this.buffers.findIndex((b) => b.name === name);
    if (i >= 0) this.buffers.splice(i, 1);
  }

  private find(addr: bigint, beats: number): { b: Buffer; word: number } {
    for (const b of this.buffers) {
      const end = b.base + BigInt(b.words.length * 4);
      if (addr >= b.base && addr + BigInt(beats * 16) <= end + 12n) return { b, word: Number(addr - b.base) / 4 };
    }
    throw new GpuRunError(`the GPU accessed host memory at ${hex(addr)} (${beats} beats) outside every buffer: a hardware fault`);
  }

  /** The words of `beats` beats from `addr` (past the buffer's end: zero). */
  read(addr: bigint, beats: number): Uint32Array {
    if (addr % 16n !== 0n) throw new GpuRunError(`the GPU read host memory at ${hex(addr)}, not 16-byte aligned: a hardware fault`);
    const { b, word } = this.find(addr, beats);
    const out = new Uint32Array(beats * 4);
    out.set(b.words.subarray(word, Math.min(b.words.length, word + beats * 4)));
    return out;
  }

  /** One beat; returns the buffer written and the beat's index in it. */
  write(addr: bigint, data: readonly number[]): { buffer: Buffer; beat: number } {
    if (addr % 16n !== 0n) throw new GpuRunError(`the GPU wrote host memory at ${hex(addr)}, not 16-byte aligned: a hardware fault`);
    const { b, word } = this.find(addr, 1);
    if (word + 4 > b.words.length) throw new GpuRunError(`the GPU wrote past the end of the ${b.name} buffer: a hardware fault`);
    b.words.set(data, word);
    return { buffer: b, beat: word / 4 };
  }
}
