// Resource reports from real Yosys runs: a 32 x 32 FIFO on every target, a float multiplier's DSPs, a small hierarchy.
import { describe, expect, test } from 'vitest';
import { UInt, defineModule, elaborate, input, output } from '../../src/hdl/index.ts';
import { Fifo } from '../../src/hdl/lib/fifo.ts';
import { FMul } from '../../src/hdl/lib/float/index.ts';
import { designByName, rtlSource } from '../../src/designs/synth/synthSource.ts';
import { cellTable, classifyCell, type CellClass } from '../../src/hdl/synth/cellTable.ts';
import { formatReport } from '../../src/hdl/synth/formatReport.ts';
import { noResources, parseLtp, parseLtpLengths, type MemoryMapping, type Resources, type SynthReport } from '../../src/hdl/synth/report.ts';
import { synthesize } from '../../src/hdl/synth/synthesize.ts';
import { synthTargetNames, type SynthTarget } from '../../src/hdl/synth/targets.ts';
import { synthReportMarkdown } from '../../src/designs/synth/synthReport.ts';
import { parseSynthArgs } from '../../src/cli/commands/synth.ts';

const sum = (a: Resources, b: Resources, n = 1): Resources => ({ luts: a.luts + n * b.luts, ffs: a.ffs + n * b.ffs, brams: a.brams + n * b.brams, lutram: a.lutram + n * b.lutram, dsps: a.dsps + n * b.dsps });

/** What every report must satisfy: known cells only, totals add up over the hierarchy, depth measured. */
function expectConsistent(r: SynthReport): void {
  for (const m of r.modules) {
    expect(m.unknown, `${r.target} ${m.module}: cells missing from the table`).toEqual({});
    const children = Object.entries(m.children).reduce((acc, [c, n]) => sum(acc, r.modules.find((x) => x.module === c)!.total, n), noResources);
    expect(m.total).toEqual(sum(m.own, children));
    expect(m.depth, `${m.module} depth`).toBeDefined();
    expect(m.depth!.levels).toBeGreaterThanOrEqual(m.depth!.lutLevels);
  }
  expect(r.modules[0]!.module).toBe(r.top);
  expect(r.total).toEqual(r.modules[0]!.total);
}

describe('the cell table', () => {
  test('no cell type falls in two classes of a target', () => {
    for (const target of synthTargetNames) {
      const patterns = Object.entries(cellTable[target]).flatMap(([cls, p]) => Object.keys(p).map((pattern) => ({ cls: cls as CellClass, type: pattern.replace(/\*/g, '') })));
      for (const { cls, type } of patterns) expect(classifyCell(target, type)?.cls, `${target} ${type}`).toBe(cls);
    }
  });

  test('units: a RAMB18 is half a tile, an ECP5 CCU2C two LUT4s', () => {
    expect(classifyCell('xilinx', 'RAMB18E1')).toEqual({ cls: 'bram', units: 0.5 });
    expect(classifyCell('ecp5', 'CCU2C')).toEqual({ cls: 'arith', units: 2 });
    expect(classifyCell('generic', '$_SDFFE_PN0P_')?.cls).toBe('ff');
    expect(classifyCell('ice40', 'SB_RAM40_4KNR')?.cls).toBe('bram');
    expect(classifyCell('xilinx', 'RAMB36E1_X')).toBeUndefined();
  });
});

describe('a 32-deep x 32-bit FIFO on each target', () => {
  const src = rtlSource(elaborate(Fifo, { depth: 32, width: 32 }).design);
  // Its read is asynchronous from a registered address: LUT-RAM where the target has it and prefers
  // it, else a block RAM with the address register absorbed; generic keeps the memory cell.
  const expected: Record<SynthTarget, { mappedTo: MemoryMapping; cell: string }> = {
    generic: { mappedTo: 'block RAM', cell: '$mem_v2' },
    xilinx: { mappedTo: 'LUT-RAM', cell: 'RAM32M' },
    intel: { mappedTo: 'block RAM', cell: 'MISTRAL_M10K' },
    ecp5: { mappedTo: 'LUT-RAM', cell: 'TRELLIS_DPR16X4' },
    ice40: { mappedTo: 'block RAM', cell: 'SB_RAM40_4K' },
  };
  for (const target of synthTargetNames) {
    test(target, async () => {
      const r = await synthesize(src, target);
      expectConsistent(r);
      const [m] = r.modules;
      expect(r.modules).toHaveLength(1);
      expect(m!.total.luts).toBeGreaterThan(20);
      // head, tail and count registers at least (5 + 5 + 6 bits), never the 1024 storage bits
      expect(m!.total.ffs).toBeGreaterThanOrEqual(16);
      expect(m!.total.ffs).toBeLessThan(100);
      expect(r.memories).toEqual([expect.objectContaining({ module: src.top, memory: 'storage', mappedTo: expected[target].mappedTo })]);
      expect(m!.cells[expected[target].cell]).toBeGreaterThan(0);
      expect(m!.depth!.levels).toBeGreaterThan(0);
      expect(formatReport(r)).toMatch(new RegExp(`^${src.top}\\s+1\\s+\\d+\\s+\\d+`, 'm'));
    }, 120_000);
  }
});

test('a 3-stage float multiplier maps its 24 x 24 product to DSP blocks on xilinx', async () => {
  const r = await synthesize(rtlSource(elaborate(FMul as never, { stages: 3 }).design), 'xilinx');
  expectConsistent(r);
  expect(r.modules[0]!.cells.DSP48E1).toBe(2);
  expect(r.total.dsps).toBe(2);
  // pipelined: the path is a few LUTs with carry chains, not the 100-level array of an unmapped multiplier
  expect(r.modules[0]!.depth!.lutLevels).toBeLessThan(15);
}, 120_000);

describe('logic depth in LUT levels', () => {
  // A 6 x 6 multiplier in LUTs beside a 40-bit accumulator: ltp's longest path is the carry chain.
  const Mac = defineModule('DepthMac', () => ({ a: input(UInt(6)), b: input(UInt(6)), acc: output(UInt(40)) }), (m, io) => {
    const ra = m.regNext(io.a, { reset: 0 });
    const rb = m.regNext(io.b, { reset: 0 });
    const p = m.reg(UInt(12), { reset: 0 });
    p.set(ra.mulw(rb));
    const acc = m.reg(UInt(40), { reset: 0 });
    acc.set(acc.add(p.zext(40)));
    io.acc.set(acc);
  });

  test('the multiplier\'s LUT levels are found though the longest path is the accumulator\'s carry chain (ice40)', async () => {
    const d = elaborate(Mac, undefined).design;
    const r = await synthesize(rtlSource(d), 'ice40');
    const depth = r.modules[0]!.depth!;
    expect(depth.carryCells).toBeGreaterThanOrEqual(30);
    expect(depth.lutLevels).toBeGreaterThanOrEqual(4);
    expect(formatReport(r)).toMatch(new RegExp(`DepthMac +1 .* ${depth.lutLevels} / ${depth.levels}\\n`));
  }, 120_000);

  test('parseLtp: LUT levels are the larger of the longest path\'s LUTs and the longest LUT-only path', () => {
    const ltp = '\nLongest topological path in m (length=5):\n    0: a\n    1: b (via c1)\n    2: c (via c2)\n    3: d (via c3)\n    4: e (via l1)\n';
    const fast = new Map([['m', ['c1', 'c2', 'c3']]]);
    expect(parseLtp(ltp, fast).get('m')).toMatchObject({ levels: 5, lutLevels: 2, carryCells: 3 });
    expect(parseLtp(ltp, fast, parseLtpLengths('Longest topological path in m (length=4):\n')).get('m')).toMatchObject({ levels: 5, lutLevels: 4, carryCells: 3 });
  });
});

test('a hierarchy: each module once, instance counts and totals (ic_buffer, generic)', async () => {
  const r = await synthesize(rtlSource(await designByName('ic_buffer')), 'generic');
  expectConsistent(r);
  expect(r.modules.map((m) => [m.module, m.instances])).toEqual([
    ['IcBuffer_depth32_icCores4_rtCores4', 1],
    ['IcQueue_depth32_sources4_width288', 1],
    ['IcQueue_depth32_sources4_width384', 1],
  ]);
  expect(r.modules[0]!.children).toEqual({ IcQueue_depth32_sources4_width288: 1, IcQueue_depth32_sources4_width384: 1 });
  // the queues' slots stay memories: generic synthesis keeps them as $mem_v2 cells
  expect(r.memories.map((m) => [m.module, m.memory, m.mappedTo])).toEqual([
    ['IcQueue_depth32_sources4_width288', 'slots', 'block RAM'],
    ['IcQueue_depth32_sources4_width384', 'slots', 'block RAM'],
  ]);
  expect(r.total.brams).toBe(2);
}, 120_000);

test('the GPU report names its configuration and the command that regenerates it', () => {
  const report = (target: SynthTarget): SynthReport => ({ target, top: 'rtgpu_top', modules: [], total: noResources, memories: [], yosys: 'Yosys 0.23 (git sha1 7ce5011c24b)', elapsedMs: 1000 });
  const plain = synthReportMarkdown({ rtCores: 4, icCores: 2, triangles: 512, vertices: 2048 }, [report('xilinx')]);
  expect(plain).toContain('Generated by `rtgpu synth --report` (`npm run synth:report`) from `rtgpu_top` (4 RT cores, 2 IC cores, 512 triangles / 2048 vertices per triangle memory), with Yosys 0.23 (git sha1 7ce5011c24b).');
  const reportPlan = (argv: string[]) => {
    const plan = parseSynthArgs(argv);
    if (!('kind' in plan) || plan.kind !== 'report') throw new Error(`${argv.join(' ')}: expected a report plan`);
    return plan;
  };
  const plan = reportPlan(['--report', 'rtl-out/REPORT-texture-unit.md', '--texture-unit', '--bvh8']);
  const textured = synthReportMarkdown(plan.gpu, [report('xilinx')], plan.command);
  expect(textured).toMatch(/^Generated by `rtgpu synth --report rtl-out\/REPORT-texture-unit.md --texture-unit --bvh8` from `rtgpu_top` \(4 RT cores, 2 IC cores, 65536 triangles \/ 65536 vertices per triangle memory, BVH8 traversal \(16 rays per IC core, 8192 nodes\), the default texture unit\)/m);
  expect(reportPlan(['--report', 'rtl-out/REPORT.md']).command).toBe('`rtgpu synth --report` (`npm run synth:report`)');
});
