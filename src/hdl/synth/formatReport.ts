// A synthesis report as text: the per-module table and the memory mapping, aligned for a terminal or as Markdown.
import type { LogicDepth, MemoryReport, Resources, SynthReport } from './report.ts';
import { synthTargets } from './targets.ts';

export type TableStyle = 'text' | 'markdown';

/** Rows of cells under a header; right-aligned columns are the numeric ones. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], right: readonly boolean[], style: TableStyle): string {
  if (style === 'markdown') {
    const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
    return [line(header), line(header.map((_, i) => (right[i] ? '---:' : '---'))), ...rows.map(line)].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const code = (s: string, style: TableStyle) => (style === 'markdown' ? `\`${s}\`` : s);

/** `8 / 17`: LUT levels / all cells on the path (LUT, carry, mux). */
export function formatDepth(d: LogicDepth | undefined): string {
  return d ? `${d.lutLevels} / ${d.levels}` : '';
}

const resourceCells = (r: Resources) => [num(r.luts), num(r.ffs), num(r.brams), num(r.lutram), num(r.dsps)];

/** One row per module (one instance of it, its submodules included) and the top's total. */
export function formatModules(report: SynthReport, style: TableStyle = 'text'): string {
  const label = synthTargets[report.target].lutLabel;
  const header = ['module', 'count', label, 'FFs', 'BRAMs', 'LUT-RAM', 'DSPs', 'depth'];
  const rows = report.modules.map((m) => [code(m.module, style), String(m.instances), ...resourceCells(m.total), formatDepth(m.depth)]);
  rows.push([style === 'markdown' ? '**total**' : 'total', '', ...resourceCells(report.total), '']);
  return formatTable(header, rows, [false, true, true, true, true, true, true, true], style);
}

/**
 * Memories of a module whose names differ only in numbers (`t0_bank0` … `t31_bank3`) and that `alike`
 * describes the same share one entry: the name with `*` for the numbers, and how many there are.
 */
export function groupNumberedMemories<T>(items: readonly { module: string; memory: string; item: T }[], alike: (item: T) => string): { module: string; memory: string; count: number; item: T }[] {
  const groups = new Map<string, { module: string; memory: string; count: number; item: T }>();
  for (const { module, memory, item } of items) {
    const pattern = memory.replace(/\d+/g, '*');
    const key = `${module}/${pattern}/${alike(item)}`;
    const g = groups.get(key);
    if (g) {
      g.count++;
      g.memory = pattern;
    } else groups.set(key, { module, memory, count: 1, item });
  }
  return [...groups.values()];
}

/** A memory's name, or its group's: `` `t*_bank*` (128 memories, each) ``. */
export function memoryName(g: { memory: string; count: number }, style: TableStyle): string {
  return g.count > 1 ? `${code(g.memory, style)} (${g.count} memories, each)` : code(g.memory, style);
}

/** Which memory became what, per instance of its module. */
export function formatMemories(memories: readonly MemoryReport[], style: TableStyle = 'text'): string {
  const groups = groupNumberedMemories(
    memories.map((m) => ({ module: m.module, memory: m.memory, item: m })),
    (m) => `${m.mappedTo}/${m.brams}/${m.lutram}`,
  );
  const rows = groups.map((g) => [code(g.module, style), memoryName(g, style), g.item.mappedTo, num(g.item.brams), num(g.item.lutram)]);
  return formatTable(['module', 'memory', 'mapped to', 'BRAMs', 'LUT-RAM cells'], rows, [false, false, false, true, true], style);
}

/** Everything `rtgpu synth` prints for a report. */
export function formatReport(report: SynthReport): string {
  const info = synthTargets[report.target];
  const unknown = report.modules.flatMap((m) => Object.entries(m.unknown).map(([t, n]) => `${t} ×${n} in ${m.module}`));
  return [
    `${report.top} on ${info.family} (${report.yosys}), ${(report.elapsedMs / 1000).toFixed(1)} s`,
    '',
    formatModules(report),
    '',
    `depth: LUT levels on the deepest path / cells (LUT, carry, mux) on the longest combinational path, of the module flattened; count: instances in ${report.top}; BRAMs in ${bramUnit[report.target]}`,
    ...(report.memories.length ? ['', formatMemories(report.memories)] : []),
    ...(report.clocks?.length ? ['', formatClocks(report)] : []),
    ...(unknown.length ? ['', `cells not counted (not in the ${report.target} cell table): ${unknown.join(', ')}`] : []),
  ].join('\n');
}

/**
 * Per clock of the top: its period, the netlist's register bits on each edge, its memories and resets, then the
 * netlist's total beside Yosys' flip-flops (which also count memories mapped to flip-flops and memory read
 * registers, and leave out registers that synthesis merged or found constant).
 */
export function formatClocks(report: SynthReport, style: TableStyle = 'text'): string {
  const clocks = report.clocks ?? [];
  const rows = clocks.map((c) => [
    code(c.name, style),
    c.periodNs === undefined ? 'not given' : `${c.periodNs} ns`,
    String(c.flipFlopBits.rising),
    String(c.flipFlopBits.falling),
    String(c.memories.length),
    c.resets.length ? c.resets.map((r) => `${code(r.signal, style)} (${r.kind}, active ${r.active})`).join(', ') : 'none',
  ]);
  const sum = (edge: 'rising' | 'falling') => clocks.reduce((n, c) => n + c.flipFlopBits[edge], 0);
  const total = style === 'markdown' ? '**total**' : 'total';
  rows.push([total, '', String(sum('rising')), String(sum('falling')), '', `Yosys: ${num(report.total.ffs)} FFs in all`]);
  const table = formatTable(['clock', 'period', 'rising', 'falling', 'memories', 'resets'], rows, [false, false, true, true, true, false], style);
  return `${table}\nclocks: register bits per edge in the design's netlist, before synthesis; Yosys' FFs also count memories that became flip-flops and leave out registers it merged or found constant`;
}

export const bramUnit: Readonly<Record<SynthReport['target'], string>> = {
  generic: 'memories ($mem_v2 cells)',
  xilinx: 'RAMB36E1 tiles (a RAMB18E1 is half)',
  intel: 'M10K blocks',
  ecp5: 'DP16KD blocks',
  ice40: 'SB_RAM40_4K blocks',
};
