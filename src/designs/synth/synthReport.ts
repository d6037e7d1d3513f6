// rtl-out/REPORT.md: the GPU's resources on Xilinx 7 series and Intel Cyclone V per block and per memory, and its logic depth.
import { writeFileSync } from 'node:fs';
import { hasTextureUnit } from '../../gpu/top/gpuTexture.ts';
import type { GpuParams } from '../../gpu/top/gpuTop.ts';
import { bramUnit, formatDepth, formatModules, formatTable, groupNumberedMemories, memoryName } from '../../hdl/synth/index.ts';
import type { SynthReport } from '../../hdl/synth/index.ts';
import { synthesize } from '../../hdl/synth/index.ts';
import { synthTargets, type SynthTarget } from '../../hdl/synth/index.ts';
import type { YosysProgress } from '../../hdl/synth/index.ts';
import { designByName, GPU_DESIGN, rtlSource } from './synthSource.ts';

/** The targets the report covers (the issue's: synth_xilinx and synth_intel_alm). */
export const reportTargets: readonly SynthTarget[] = ['xilinx', 'intel'];

/**
 * LUT levels a path between registers can have at 200 MHz on a mid-range 7-series part (-2 speed
 * grade): about 0.5–0.8 ns per LUT with its routing, in a 5 ns period that also holds the clock-to-out
 * and setup times.
 */
export const LUT_LEVELS_AT_200MHZ = 7;

export interface SynthReportOptions {
  readonly onProgress?: (target: SynthTarget, p: YosysProgress) => void;
  readonly log?: (line: string) => void;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** Pipeline registers a float unit's module name states (`FAdd_stages3`), or '' for other modules. */
function stagesOf(module: string): string {
  return /_stages(\d+)$/.exec(module)?.[1] ?? '';
}

/** The depth table: every module of the first report, with the other reports' depth beside it. */
function depthTable(reports: readonly SynthReport[]): string {
  const [first, ...others] = reports;
  const modules = [...first!.modules].sort((a, b) => a.module.localeCompare(b.module));
  const rows = modules.map((m) => {
    const d = m.depth;
    const verdict = !d ? '' : d.lutLevels <= LUT_LEVELS_AT_200MHZ ? 'yes' : 'no';
    const depthIn = (r: SynthReport) => formatDepth(r.modules.find((x) => x.module === m.module)?.depth);
    return [`\`${m.module}\``, stagesOf(m.module), formatDepth(d), verdict, d && d.levels > 0 ? `\`${d.from}\` → \`${d.to}\`` : '', ...others.map(depthIn)];
  });
  const header = ['module', 'stages', `${first!.target} depth`, `≤ ${LUT_LEVELS_AT_200MHZ} LUT levels`, `${first!.target} longest path`, ...others.map((r) => `${r.target} depth`)];
  return formatTable(header, rows, [false, true, true, false, false, ...others.map(() => true)], 'markdown');
}

/** Memories of every report side by side: how each became block RAM, LUT-RAM or flip-flops (numbered alike ones share a row). */
function memoryTable(reports: readonly SynthReport[]): string {
  const mapping = (r: SynthReport, module: string, memory: string) => {
    const m = r.memories.find((x) => x.module === module && x.memory === memory);
    if (!m) return '';
    const parts = [m.brams ? `${num(m.brams)} BRAM` : '', m.lutram ? `${m.lutram} LUT-RAM cells` : ''].filter(Boolean);
    return parts.length ? `${m.mappedTo}: ${parts.join(', ')}` : m.mappedTo;
  };
  const keys = [...new Set(reports.flatMap((r) => r.memories.map((m) => `${m.module}/${m.memory}`)))].sort();
  const groups = groupNumberedMemories(
    keys.map((key) => {
      const [module, memory] = key.split('/') as [string, string];
      return { module, memory, item: reports.map((r) => mapping(r, module, memory)) };
    }),
    (cells) => cells.join('/'),
  );
  const instances = (module: string) => reports[0]!.modules.find((m) => m.module === module)?.instances ?? 0;
  const rows = groups.map((g) => [`\`${g.module}\``, memoryName(g, 'markdown'), String(instances(g.module)), ...g.item]);
  return formatTable(['module', 'memory', 'count', ...reports.map((r) => `${r.target} (per instance)`)], rows, [false, false, true, ...reports.map(() => false)], 'markdown');
}

/** The configuration in words: what differs from the default GPU is named (traversal, texture unit, main memory). */
function describeGpu(p: GpuParams): string {
  const parts = [`${p.rtCores} RT cores`, `${p.icCores} IC cores`, `${p.triangles} triangles / ${p.vertices} vertices per triangle memory`];
  if (p.traversal === 'bvh') parts.push(`BVH4 traversal (${p.icRays} rays per IC core, ${p.nodes} nodes, ${p.triRanges} TriRanges)`);
  if (p.traversal === 'bvh8') parts.push(`BVH8 traversal (${p.icRays} rays per IC core, ${p.nodes} nodes)`);
  if (p.mainMemoryWords !== undefined) parts.push(`${p.mainMemoryWords} main-memory words per thread`);
  if (hasTextureUnit(p.texture)) parts.push(p.texture === true ? 'the default texture unit' : `a texture unit ${JSON.stringify(p.texture)}`);
  return parts.join(', ');
}

/** The Markdown report for the GPU synthesized on each target. */
export function synthReportMarkdown(gpu: GpuParams, reports: readonly SynthReport[], command = '`rtgpu synth --report` (`npm run synth:report`)'): string {
  const summary = formatTable(
    ['target', 'Yosys command', 'logic cells', 'FFs', 'BRAMs', 'LUT-RAM', 'DSPs', 'Yosys run'],
    reports.map((r) => [synthTargets[r.target].family, `\`${synthTargets[r.target].yosysCommand}\``, `${num(r.total.luts)} ${synthTargets[r.target].lutLabel}`, num(r.total.ffs), `${num(r.total.brams)} (${bramUnit[r.target]})`, num(r.total.lutram), num(r.total.dsps), seconds(r.elapsedMs)]),
    [false, false, true, true, true, true, true, true],
    'markdown',
  );
  const flipFlopMemories = reports.flatMap((r) => r.memories.filter((m) => m.mappedTo === 'flip-flops').map((m) => `\`${m.module}/${m.memory}\` (${r.target})`));
  return [
    '# rtgpu synthesis report',
    '',
    `Generated by ${command} from \`${GPU_DESIGN}\` (${describeGpu(gpu)}), with ${reports[0]?.yosys.replace(/,.*$/, '')}.`,
    'Yosys synthesizes the hierarchy as it is (each module once, without I/O buffers) and counts the cells of every',
    'module; a row is one instance of a module with everything below it, `count` is how many the GPU holds. These',
    'are Yosys mapping figures before place and route: Vivado and Quartus pack and optimize further.',
    '',
    '## Totals',
    '',
    summary,
    '',
    'Logic cells: LUT1–LUT6 (Xilinx; an `INV` counts as a LUT), ALUTs (Intel, arithmetic ALUTs included; an ALM holds up to two).',
    'LUT-RAM: distributed RAM and SRL shift-register cells. Regenerating takes the sum of the run times above.',
    '',
    '## Memories',
    '',
    'Every memory the design declares and what it became. Register files are registers in the eDSL (two write',
    'ports and a one-cycle clear), not memories, so they are flip-flops by design and do not appear here.',
    flipFlopMemories.length ? `Memories left as flip-flops: ${flipFlopMemories.join(', ')}.` : 'No memory is left as flip-flops.',
    '',
    memoryTable(reports),
    '',
    ...reports.flatMap((r) => [`## Per block: ${synthTargets[r.target].family}`, '', `BRAMs in ${bramUnit[r.target]}; depth as below.`, '', formatModules(r, 'markdown'), '']),
    '## Logic depth',
    '',
    'Depth is `LUT levels / cells`: `ltp` finds the longest combinational path of each module flattened with',
    'everything below it, over the LUT, carry-chain and wide-mux cells (registers, block RAMs and DSPs end a',
    'path); `cells` counts them all, `LUT levels` the LUTs on the deepest path of LUTs (a CARRY4 or MUXF step costs a',
    "fraction of a LUT with its routing; a second ltp over the LUTs alone finds LUT logic beside a long carry chain).",
    "Registers split every pipeline into stages, so a module's depth is the depth of its",
    `worst stage. Rule of thumb for 200 MHz on a mid-range 7-series part: about ${LUT_LEVELS_AT_200MHZ - 2}–${LUT_LEVELS_AT_200MHZ} LUT levels per stage. On Intel, an`,
    'adder is a chain of arithmetic ALUTs (one cell per bit), so its cell counts are long by construction.',
    '',
    depthTable(reports),
    '',
  ].join('\n');
}

/** Synthesizes the GPU for every report target, one after the other (each run takes minutes and gigabytes). */
export async function gpuSynthReports(gpu: GpuParams, opts: SynthReportOptions = {}): Promise<SynthReport[]> {
  const src = rtlSource(await designByName(GPU_DESIGN, gpu));
  const reports: SynthReport[] = [];
  for (const target of reportTargets) {
    opts.log?.(`synthesizing ${src.top} for ${synthTargets[target].family} …`);
    const r = await synthesize(src, target, { onProgress: (p) => opts.onProgress?.(target, p) });
    opts.log?.(`  ${seconds(r.elapsedMs)}: ${num(r.total.luts)} ${synthTargets[target].lutLabel}, ${num(r.total.ffs)} FFs, ${num(r.total.brams)} BRAMs, ${num(r.total.dsps)} DSPs`);
    reports.push(r);
  }
  return reports;
}

export async function writeSynthReport(path: string, gpu: GpuParams, opts: SynthReportOptions & { readonly command?: string } = {}): Promise<SynthReport[]> {
  const reports = await gpuSynthReports(gpu, opts);
  writeFileSync(path, synthReportMarkdown(gpu, reports, opts.command));
  return reports;
}

