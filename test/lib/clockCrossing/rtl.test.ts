// The clock-crossing primitives' SystemVerilog: lint-clean on Verilator and Icarus, ASYNC_REG on every synchronizer flop, and the FIFO through Yosys on two FPGA targets.
import { describe, expect, test } from 'vitest';
import { Bool, Bundle, SInt, UInt, elaborate, type Design } from '../../../src/hdl/index.ts';
import { AsyncFifo, BitSynchronizer, PulseSynchronizer, ResetSynchronizer } from '../../../src/hdl/lib/index.ts';
import { emitSystemVerilog } from '../../../src/hdl/emit/index.ts';
import { icarusCompile, verilatorLint } from '../../../src/hdl/cosim/rtlChecks.ts';
import { rtlSource } from '../../../src/designs/synth/synthSource.ts';
import { synthesize } from '../../../src/hdl/synth/synthesize.ts';
import { formatReport } from '../../../src/hdl/synth/formatReport.ts';

const designs: { readonly name: string; readonly design: () => Design; readonly asyncRegs: Record<string, number> }[] = [
  { name: 'BitSynchronizer, 1 bit', design: () => elaborate(BitSynchronizer, { width: 1 }).design, asyncRegs: { BitSynchronizer_width1: 2 } },
  { name: 'BitSynchronizer, 8 bits, 3 stages, async reset active low', design: () => elaborate(BitSynchronizer, { width: 8, stages: 3, resetKind: 'async', resetActive: 'low' }).design, asyncRegs: { BitSynchronizer_resetActive_low_resetKind_async_stages3_width8: 3 } },
  { name: 'BitSynchronizer, 4 bits, sync reset active high', design: () => elaborate(BitSynchronizer, { width: 4, resetKind: 'sync', resetActive: 'high' }).design, asyncRegs: { BitSynchronizer_resetActive_high_resetKind_sync_width4: 2 } },
  { name: 'PulseSynchronizer', design: () => elaborate(PulseSynchronizer, {}).design, asyncRegs: { BitSynchronizer_stages2_width1: 2, PulseSynchronizer: 0 } },
  { name: 'PulseSynchronizer, 3 stages, async reset active high', design: () => elaborate(PulseSynchronizer, { stages: 3, resetKind: 'async', resetActive: 'high' }).design, asyncRegs: { BitSynchronizer_resetActive_high_resetKind_async_stages3_width1: 3 } },
  { name: 'ResetSynchronizer, low in, high out', design: () => elaborate(ResetSynchronizer, { inputActive: 'low', outputActive: 'high' }).design, asyncRegs: { ResetSynchronizer_inputActive_low_outputActive_high: 2 } },
  { name: 'ResetSynchronizer, high in, low out, 4 stages', design: () => elaborate(ResetSynchronizer, { inputActive: 'high', outputActive: 'low', stages: 4 }).design, asyncRegs: { ResetSynchronizer_inputActive_high_outputActive_low_stages4: 4 } },
  { name: 'AsyncFifo, 32 x 16, async reset active high', design: () => elaborate(AsyncFifo, { width: 32, depth: 16, resetKind: 'async', resetActive: 'high' }).design, asyncRegs: { BitSynchronizer_resetActive_high_resetKind_async_stages2_width5: 2, AsyncFifo_depth16_resetActive_high_resetKind_async_width32: 0 } },
  { name: 'AsyncFifo, bundle x 2, sync reset active low, 3 stages', design: () => elaborate(AsyncFifo, { payload: Bundle({ a: UInt(5), b: Bool, c: SInt(9) }), depth: 2, syncStages: 3, resetKind: 'sync', resetActive: 'low' }).design, asyncRegs: { BitSynchronizer_resetActive_low_resetKind_sync_stages3_width2: 3 } },
  { name: 'AsyncFifo, 1 x 256, no reset', design: () => elaborate(AsyncFifo, { width: 1, depth: 256 }).design, asyncRegs: { BitSynchronizer_stages2_width9: 2 } },
];

describe('the clock-crossing primitives emit lint-clean SystemVerilog', () => {
  for (const d of designs) {
    test(`${d.name}: verilator --lint-only -Wall and iverilog -g2012 -Wall print nothing; every synchronizer flop has ASYNC_REG`, async () => {
      const design = d.design();
      const src = rtlSource(design);
      const [v, i] = await Promise.all([verilatorLint(src), icarusCompile(src)]);
      expect(v.output).toBe('');
      expect(v.ok).toBe(true);
      expect(i.output).toBe('');
      expect(i.ok).toBe(true);
      const files = emitSystemVerilog(design).files;
      for (const [module, flops] of Object.entries(d.asyncRegs)) {
        const text = files.find((f) => f.path === `${module}.sv`)?.text;
        expect(text, `${module}.sv among ${files.map((f) => f.path)}`).toBeDefined();
        expect(text!.match(/\(\* ASYNC_REG = "TRUE" \*\) logic/g)?.length ?? 0, module).toBe(flops);
      }
    }, 300_000);
  }
});

describe('Yosys synthesizes the 32 x 16 AsyncFifo', () => {
  const src = rtlSource(elaborate(AsyncFifo, { width: 32, depth: 16, resetKind: 'async', resetActive: 'high' }).design);
  const sync = 'BitSynchronizer_resetActive_high_resetKind_async_stages2_width5';
  test.each([
    // iCE40 has no LUT RAM: an asynchronously read memory becomes flip-flops (16 x 32).
    { target: 'ice40', memory: 'flip-flops', maxLuts: 600, minFfs: 16 * 32 + 18 },
    { target: 'xilinx', memory: 'LUT-RAM', maxLuts: 120, minFfs: 18 },
  ] as const)('$target: the storage maps to $memory, both pointer synchronizers keep their 10 flops', async ({ target, memory, maxLuts, minFfs }) => {
    const r = await synthesize(src, target);
    console.log(formatReport(r));
    const top = r.modules.find((m) => m.module === src.top)!;
    const s = r.modules.find((m) => m.module === sync)!;
    console.log(`${target}: ${JSON.stringify(top.cells)}; ${sync}: ${JSON.stringify(s.cells)}`);
    expect(r.memories).toEqual([expect.objectContaining({ memory: 'storage', mappedTo: memory })]);
    expect(top.children[sync]).toBe(2);
    expect(s.total.ffs).toBe(10);
    expect(s.total.luts).toBe(0);
    // Binary and Gray pointers of both sides (the Gray pointer's top bit is the binary one's: 18 of 20).
    expect(top.own.ffs).toBeGreaterThanOrEqual(minFfs);
    expect(top.total.luts).toBeLessThanOrEqual(maxLuts);
    expect(top.total.luts).toBeGreaterThan(0);
  }, 300_000);
});
