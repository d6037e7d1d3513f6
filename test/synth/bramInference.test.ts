// Every memory the seed specifies becomes block RAM on Xilinx 7 series and Intel Cyclone V, none flip-flops:
// the RT core tile's instruction and constant memories, the triangle memory, the unified main memory.
import { describe, expect, test } from 'vitest';
import { elaborate, type Design } from '../../src/hdl/index.ts';
import { rtlSource } from '../../src/designs/synth/synthSource.ts';
import { RtCoreTile } from '../../src/gpu/rtCore/rtCoreTile.ts';
import { RtCore, defaultRtCoreParams } from '../../src/gpu/rtCore/rtCore.ts';
import { TriangleMemory } from '../../src/gpu/memory/triangleMemory.ts';
import { UnifiedMainMemory } from '../../src/gpu/memory/unifiedMainMemory.ts';
import { defaultGpuParams } from '../../src/gpu/top/gpuTop.ts';
import { MEMORY_MAP } from '../../src/isa/instructions.ts';
import type { SynthReport } from '../../src/hdl/synth/report.ts';
import { synthesize } from '../../src/hdl/synth/synthesize.ts';
import type { SynthTarget } from '../../src/hdl/synth/targets.ts';

/** memory → block RAMs per target: RAMB36 tiles (36 Kbit; 4K x 9, 1K x 36, 512 x 72) and M10Ks (10 Kbit; 4K x 2, 2K x 5, 512 x 20). */
interface Expectation {
  readonly design: () => Design;
  /** Modules synthesized as black boxes (the RT core: its memories are register files, not the subject here). */
  readonly blackboxes?: readonly string[];
  readonly brams: Readonly<Record<string, Readonly<Record<'xilinx' | 'intel', number>>>>;
}

const blocks: Record<string, Expectation> = {
  // 4096 x 32 and 8192 x 32, one read port each: 4K x 9 and 8K x 4 RAMB36 slices; 4K x 2 and 8K x 1 M10Ks.
  'RT core tile': {
    design: () => elaborate(RtCoreTile, defaultRtCoreParams).design,
    blackboxes: [elaborate(RtCore, defaultRtCoreParams).design.top],
    brams: { imem: { xilinx: 4, intel: 16 }, cmem: { xilinx: 8, intel: 32 } },
  },
  // The GPU's capacity: 2048 x 32 banks read by three ports each (one copy per read port), a 512 x 65 index table of which
  // 58 bits are read (the shader word's bits [31:25] are always zero and never read: synthesis drops them).
  'triangle memory': {
    design: () => elaborate(TriangleMemory, { triangles: defaultGpuParams.triangles, vertices: defaultGpuParams.vertices }).design,
    brams: { bank_x: { xilinx: 6, intel: 21 }, bank_y: { xilinx: 6, intel: 21 }, bank_z: { xilinx: 6, intel: 21 }, index_table: { xilinx: 1, intel: 3 } },
  },
  // One thread of the GPU's 32 (each thread's group of four banks is the same): 4096 x 32 per bank.
  'main memory': {
    design: () => elaborate(UnifiedMainMemory, { ports: defaultGpuParams.rtCores, threads: 1, threadWords: MEMORY_MAP.threadBytes / 4 }).design,
    brams: Object.fromEntries([0, 1, 2, 3].map((k) => [`t0_bank${k}`, { xilinx: 4, intel: 16 }])),
  },
};

describe.each(['xilinx', 'intel'] as const)('%s', (target: SynthTarget & ('xilinx' | 'intel')) => {
  for (const [name, block] of Object.entries(blocks)) {
    test(name, async () => {
      const src = rtlSource(block.design());
      const r: SynthReport = await synthesize(src, target, { blackboxes: block.blackboxes, depth: 'none' });
      const got = Object.fromEntries(r.memories.map((m) => [m.memory, [m.mappedTo, m.brams]]));
      const want = Object.fromEntries(Object.entries(block.brams).map(([memory, n]) => [memory, ['block RAM', n[target]]]));
      expect(got).toEqual(want);
      // and nothing else of the memories went to flip-flops: the registers left are a few control bits per memory
      expect(r.total.brams).toBe(Object.values(block.brams).reduce((s, n) => s + n[target], 0));
      expect(r.total.ffs).toBeLessThan(200);
    }, 180_000);
  }
});
